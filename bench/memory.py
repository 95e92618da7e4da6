"""Memory per worker: peak RSS with a ~1,000,000-row world, and RSS over 10,000 episodes;
and the peak RSS of whole pytest runs of 640 / 6,400 / 64,000 short episodes.

    python bench/memory.py [--episodes 10000] [--rows 1000000]
    python bench/memory.py --pytest 640,6400,64000 [--agent reference] [--root PATH]

Each measurement runs in a fresh process, as an xdist worker would. "Flat" means the RSS
after the last episode is within a few MB of the RSS after the first thousand.

``--pytest``: one ``pytest -q`` run per size (the shipped tasks with ``--runs``, writing a
results file), its peak RSS (the process's high-water mark) and the MiB per 1,000 episodes
the growth between sizes works out at. ``--root`` measures the package of another checkout
(put first on ``PYTHONPATH``), e.g. the main branch, for a before/after in one go.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, TASK_FILES, copy_tasks, table

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


# pytest with the package imported from ``root`` (an editable install's finder set aside).
BOOT = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in "
        "getattr(f, '__module__', '')]; sys.path.insert(0, sys.argv[1]); import pytest_agenteval, pytest; "
        "assert pytest_agenteval.__file__.startswith(sys.argv[1]), pytest_agenteval.__file__; "
        "sys.exit(pytest.main(sys.argv[2:]))")


def pytest_peak(episodes: int, agent: str, root: Path, work: Path) -> tuple[int, float, float, int]:
    """(episodes graded, peak RSS in MiB, wall seconds, results file bytes) of one pytest run of about
    ``episodes`` (a whole number of runs of the shipped tasks)."""
    tasks = sum(1 for f in TASK_FILES for line in f.read_text().splitlines() if line.strip())
    runs = max(1, round(episodes / tasks))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root)
    results = work / "r.jsonl"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", BOOT, str(root), "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                             f"--agent={agent}", f"--runs={runs}", f"--agenteval-results={results}", "tasks"],
                            cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"pytest failed ({proc.returncode}): {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
    graded = sum(1 for line in results.read_text().splitlines() if line.startswith('{"') and '"task_id"' in line)
    return graded, usage.ru_maxrss / 1024, seconds, results.stat().st_size


def pytest_sizes(sizes: list[int], agent: str, root: Path, keep: Path | None = None) -> None:
    rows, last = [], None
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        copy_tasks(work)
        for n in sizes:
            n, peak, seconds, size = pytest_peak(n, agent, root, work)
            per = "" if last is None else f"{(peak - last[1]) / ((n - last[0]) / 1000):.1f}"
            rows.append([f"{n:,}", f"{peak:.0f}", per, f"{seconds:.0f}", f"{size / 2**20:.1f}"])
            last = (n, peak)
            if keep is not None:  # the largest run's results file, for bench/report_size.py
                shutil.copy(work / "r.jsonl", keep)
            print(f"  {n:,} episodes: peak {peak:.0f} MiB, {seconds:.0f} s", file=sys.stderr, flush=True)
    print(f"pytest --agent={agent} (package from {root}):")
    print(table(["episodes", "peak RSS MiB", "MiB per 1,000 more", "wall s", "results MiB"], rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--pytest", metavar="SIZES", help="comma-separated episode counts: whole pytest runs")
    parser.add_argument("--agent", default="reference")
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--keep", type=Path, help="copy the last run's results file here")
    args = parser.parse_args()
    if args.pytest:
        pytest_sizes([int(n) for n in args.pytest.split(",")], args.agent, args.root.resolve(), args.keep)
        return
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
