"""The cost of an isolated episode: in process, a process of its own, a bwrap sandbox.

    python bench/isolation.py [--episodes 20]

Each row plays the first shipped booking task ``--episodes`` times (reset, ``play``)
with an agent that makes one call, measured in this one run: median and 90th percentile
milliseconds per episode (reset, the agent, grading; isolated rows add starting the child,
importing Python and the agent's module, and killing it), and the ratio to the process
level. The last row is the spec check a run makes once (``check_spec`` under bwrap).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from pytest_agenteval import EnvironmentPool, Episode, load_tasks  # noqa: E402
from pytest_agenteval.agents.containment import Containment, choose  # noqa: E402
from pytest_agenteval.agents.play import play  # noqa: E402
from pytest_agenteval.agents.sandbox import IsolatedAgent, check_spec  # noqa: E402


class OneCall:
    def run(self, episode):  # type: ignore[no-untyped-def]
        episode.call(episode.tools[0]["name"], {})


def timed(episodes: int, play: object) -> list[float]:
    times = []
    for _ in range(episodes):
        start = time.perf_counter()
        play()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=20)
    args = parser.parse_args()
    task = load_tasks(BENCH.parent / "tasks" / "booking.jsonl")[0]
    pool = EnvironmentPool()
    env = pool.get(task.environment)
    levels: list[tuple[str, object]] = [("in process (no isolation)", OneCall)]
    for level in ("process", "bwrap"):
        try:
            containment = choose(level, network=False) if level == "bwrap" else Containment(level="process")
        except Exception as exc:  # noqa: BLE001 - say why and go on with the rest
            print(f"{level}: not measured ({exc})")
            continue
        levels.append((level, IsolatedAgent(spec="isolation:OneCall", search_path=str(BENCH),
                                            containment=containment)))
    rows = {}
    for name, factory in levels:
        def episode(f: object = factory) -> None:
            env.reset(task.scenario_seed, task=task)
            play(env, task, Episode(env, task, run=1), f, run=1, time_limit=120)

        rows[name] = timed(args.episodes, episode)
    if isinstance(levels[-1][1], IsolatedAgent) and levels[-1][0] == "bwrap":
        agent = levels[-1][1]
        rows["bwrap: the run's spec check (once per run)"] = timed(args.episodes, lambda: check_spec(agent, 120))
    base = statistics.median(rows.get("process", [1.0]))
    print(f"{args.episodes} episodes each, Python {sys.version.split()[0]}\n")
    print("| placement | median ms | p90 ms | / process |")
    print("|---|---|---|---|")
    for name, times in rows.items():
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
        print(f"| {name} | {statistics.median(times):.1f} | {p90:.1f} | {statistics.median(times) / base:.3g} |")
    pool.close()


if __name__ == "__main__":
    main()
