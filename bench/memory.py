"""Memory per worker: peak RSS with a ~1,000,000-row world, and RSS over 10,000 episodes.

    python bench/memory.py [--episodes 10000] [--rows 1000000]

Each measurement runs in a fresh process, as an xdist worker would. "Flat" means the RSS
after the last episode is within a few MB of the RSS after the first thousand.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _common import ROOT, table

CHILD = r'''
import json, resource, sys
sys.path.insert(0, {root!r})
from pytest_agenteval import EnvironmentPool, load_tasks
from pytest_agenteval.agents.builtin import Reference
from pytest_agenteval.agents.play import run_episode

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

mode, amount = sys.argv[1], int(sys.argv[2])
if mode == "world":
    from pytest_agenteval.environments.registry import environment_class
    name, per = sys.argv[3], float(sys.argv[4])
    env = environment_class(name)(population=int(amount / per))
    env.reset(1)
    rows = sum(env.db.execute(f'SELECT count(*) FROM "{{t}}"').fetchone()[0] for t in env.tables)
    print(json.dumps({{"rows": rows, "rss": rss_mb(), "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
else:
    pool = EnvironmentPool()
    tasks = list(load_tasks({root!r} + "/tasks/booking.jsonl", {root!r} + "/tasks/escalation.jsonl", pool=pool))
    samples = []
    for i in range(1, amount + 1):
        task = tasks[i % len(tasks)]
        grade = run_episode(pool.get(task.environment), task, Reference(), run=i, time_limit=300)
        grade.model_dump_json()
        if i % 1000 == 0:
            samples.append(round(rss_mb(), 1))
    print(json.dumps({{"samples": samples, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
'''


def child(*args: object) -> dict:
    code = CHILD.format(root=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    worlds = [("booking", 3.7), ("escalation", 2.0)]
    rows = []
    for name, per in worlds:
        got = child("world", args.rows, name, per)
        rows.append([name, f"{got['rows']:,}", f"{got['rss']:.0f}", f"{got['peak']:.0f}"])
    print(table(["domain", "rows", "RSS MB", "peak RSS MB"], rows))
    run = child("episodes", args.episodes)
    samples = run["samples"]
    print()
    print(table(["episodes", *[f"{1000 * (i + 1):,}" for i in range(len(samples))]],
                [["RSS MB", *samples]]))
    growth = samples[-1] - samples[0]
    print(f"\n{args.episodes:,} episodes: RSS {samples[0]} MB after 1,000, {samples[-1]} MB at the end "
          f"({growth:+.1f} MB); peak {run['peak']:.0f} MB")


if __name__ == "__main__":
    main()
