"""The cost of an isolated episode: in process, a process of its own, a bwrap sandbox; each
isolated level cold (a sandbox started for the episode, as before the warm pool) and warm.

    python bench/isolation.py [--episodes 20]

Each row plays the first shipped booking task ``--episodes`` times (reset, ``play``) with an
agent that makes one call, measured in this one run: median and 90th percentile milliseconds
per episode (reset, the agent, grading; isolated rows add what the harness waits for of the
sandbox: cold, starting it, importing Python and the agent's module, and killing it; warm, only
handing the episode to a waiting sandbox and killing it). ``warm`` waits, untimed, until the
pool's next sandbox has imported the agent: an agent whose episode lasts longer than a sandbox
start (any agent that calls a model) sees exactly that. ``warm, back to back`` does not wait:
with instant episodes, the start is the bottleneck again. The ratio column divides by the
cold row of the same level.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]

from one_call import OneCall  # noqa: E402

from pytest_agenteval import EnvironmentPool, Episode, load_tasks  # noqa: E402
from pytest_agenteval.agents.containment import Containment, choose  # noqa: E402
from pytest_agenteval.agents.play import play  # noqa: E402
from pytest_agenteval.agents.pool import close_pools, open_pools  # noqa: E402
from pytest_agenteval.agents.sandbox import IsolatedAgent, _pool, imports_late  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=20)
    args = parser.parse_args()
    task = load_tasks(BENCH.parent / "tasks" / "booking.jsonl")[0]
    pool = EnvironmentPool()
    env = pool.get(task.environment)

    def episode(factory: object) -> float:
        start = time.perf_counter()
        env.reset(task.scenario_seed, task=task)
        grade = play(env, task, Episode(env, task, run=1), factory, run=1, time_limit=120)
        assert not any(c.name == "agent_completed" and not c.passed for c in grade.checks), grade.checks
        return (time.perf_counter() - start) * 1000

    episode(OneCall)  # the scenario is built once, untimed
    rows: dict[str, tuple[list[float], str]] = {"in process (no isolation)": ([episode(OneCall)
                                                                             for _ in range(args.episodes)], "")}
    for level in ("process", "bwrap"):
        try:
            chosen = choose(level, network=False) if level == "bwrap" else Containment(level="process")
        except Exception as exc:  # noqa: BLE001 - say why and go on with the rest
            print(f"{level}: not measured ({exc})")
            continue
        for mode, spares in (("cold", 0), ("warm", 1), ("warm, back to back", 1)):
            agent = IsolatedAgent(spec="one_call:OneCall", search_path=str(BENCH),
                                  containment=dataclasses.replace(chosen, spares=spares))
            times = []
            for _ in range(args.episodes):
                if mode == "warm":
                    assert _pool(agent).wait_warm(60, answered=not imports_late(agent)), "not warm within 60 s"
                times.append(episode(agent))
            rows[f"{level}, {mode}"] = (times, f"{level}, cold")
            close_pools()
            open_pools()  # the next level's pool (close_pools refuses new ones until this)
    print(f"{args.episodes} episodes each, Python {sys.version.split()[0]}\n")
    print("| placement | median ms | p90 ms | / cold |")
    print("|---|---|---|---|")
    for name, (times, base) in rows.items():
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
        ratio = f"{statistics.median(times) / statistics.median(rows[base][0]):.3g}" if base else ""
        print(f"| {name} | {statistics.median(times):.1f} | {p90:.1f} | {ratio} |")
    pool.close()


if __name__ == "__main__":
    main()
