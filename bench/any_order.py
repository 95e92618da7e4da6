"""Grading cost of an ``any_order`` group of N interchangeable writes that cannot all match.

    python bench/any_order.py        # prints seconds per check for N = 5, 10, 20, 40 and the ratio

An exhaustive search over which writes are done grows as 2^N (20 writes: 14 s before the
matching in ``tasks/matching.py``); matching grows polynomially, so the ratio stays small.
"""

from __future__ import annotations

import time

from pytest_agenteval.tasks.paths import AnyOrder, PathOrder, PathStep


def seconds(n: int) -> float:
    group = AnyOrder.model_validate({"any_order": [{"action": "write", "arguments": {"n": k}} for k in range(n)]})
    order = PathOrder.of([PathStep(action="look"), group])
    calls = ["look", *["write"] * (n - 1), "other"]
    start = time.perf_counter()
    assert not order.allows(calls, lambda step, call: step.action == call)
    return time.perf_counter() - start


if __name__ == "__main__":
    times = {n: seconds(n) for n in (5, 10, 20, 40)}
    for n, t in times.items():
        print(f"N={n:3}: {t * 1000:8.2f} ms")
    print(f"ratio N=40 / N=20: {times[40] / times[20]:.1f}x (exponential would be ~1,000,000x)")
