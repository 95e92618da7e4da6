"""What a failed episode costs the harness, against a passed one, in one run.

    python bench/failures.py [--runs 8] [--repeat 3] [--before REV]

Two agents that do not wait: the reference (every task passes) and ``noop`` (does nothing:
every task fails, ~5 failed checks each). Each is run serially over the shipped tasks with
``--runs 1`` and ``--runs K``; the cost of one episode is the difference over the extra
episodes, so start-up, collection and exit cancel out. Measured as CPU seconds of the pytest
process (user + system, from ``wait4``: steadier than wall time on a shared machine) and as
wall time; medians of ``--repeat`` interleaved repetitions. All of it is the main thread's
(a serial run at C = 1), including the terminal's failure sections at the end.

``--before REV`` runs the same rows for another revision of this repository (``git archive``
into a temporary folder), interleaved with this tree's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, copy_tasks, shipped_lines, table


def run(work: Path, root: Path, agent: str, runs: int) -> tuple[float, float]:
    """(CPU s, wall s) of one serial pytest process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:hypothesispytest", f"--agent={agent}",
                             "--runs", str(runs), "tasks/"], cwd=work, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"pytest failed with {root}, --agent={agent} --runs {runs}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", help="a revision of this repository to measure next to this tree")
    args = parser.parse_args()
    tasks = len(shipped_lines())
    extra = tasks * (args.runs - 1)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        copy_tasks(work)
        trees = {"this tree": ROOT}
        if args.before:
            before = Path(tmp) / "before"
            before.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
            trees = {f"before ({args.before})": before, **trees}
        for root in trees.values():  # warm-up: bytecode, scenario images, remembered task lines
            run(work, root, "reference", 1)
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.repeat):
            for label, root in trees.items():
                for agent in ("reference", "noop"):
                    small, large = run(work, root, agent, 1), run(work, root, agent, args.runs)
                    samples.setdefault((label, agent), []).append((large[0] - small[0], large[1] - small[1]))
    rows, cost = [], {}
    for (label, agent), got in samples.items():
        cpu = statistics.median(c for c, _ in got) / extra * 1000
        wall = statistics.median(w for _, w in got) / extra * 1000
        cost[label, agent] = cpu
        rows.append([label, "passes (reference)" if agent == "reference" else "fails (noop)", extra,
                     f"{cpu:.2f}", f"{wall:.2f}"])
    print(table(["tree", "agent", "extra episodes", "CPU ms per episode", "wall ms per episode"], rows))
    print()
    for label in trees:
        fail, ok = cost[label, "noop"], cost[label, "reference"]
        print(f"{label}: a failed episode costs {fail:.2f} ms of CPU, a passed one {ok:.2f} ms "
              f"({fail - ok:+.2f} ms, x{fail / ok:.2f})")


if __name__ == "__main__":
    main()
