"""Failed episodes against passed ones: peak RSS and CPU, side by side, in one run.

    python bench/failed_episodes.py [--sizes 640,6400] [--workers 0,2] [--before REV]

Two agents that do not wait: the reference (every task passes) and ``noop`` (does nothing:
every task fails, ~5 failed checks each), over the shipped booking and escalation tasks with
``--runs`` chosen to give about each size. Each row is one whole ``pytest -q`` process,
``-p no:randomly``, writing a results file. Figures of the main process (the xdist controller
under ``-n``), read in it after ``pytest.main`` returns: its peak RSS (``ru_maxrss`` of
``RUSAGE_SELF``), its CPU (user + system, every thread) and its main thread's CPU
(``time.thread_time``); for ``-n`` the workers' CPU too. CPU per episode is the difference
between the largest and the smallest size over the extra episodes, so start-up, collection
and exit cancel out. CPU and RSS, not wall time: the machine is shared.

``--before REV`` measures another revision of this repository too (``git archive`` into a
temporary folder, its package first on ``PYTHONPATH``), each of its rows just before the same
row of this tree (``--after REV``: of that revision instead of the working tree).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, copy_tasks, table

# pytest with the package imported from argv[1] (an editable install's finder set aside); the
# figures go to argv[2] as JSON.
BOOT = r"""
import json, resource, sys, time
sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in getattr(f, '__module__', '')]
sys.path.insert(0, sys.argv[1])
import pytest_agenteval, pytest
assert pytest_agenteval.__file__.startswith(sys.argv[1]), pytest_agenteval.__file__
code = pytest.main(sys.argv[3:])
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[2], "w") as f:
    json.dump({"code": int(code), "peak": me.ru_maxrss / 1024, "cpu": me.ru_utime + me.ru_stime,
               "main": time.thread_time(), "workers": kids.ru_utime + kids.ru_stime}, f)
"""


def one(root: Path, work: Path, agent: str, runs: int, workers: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root)
    out = work / "figures.json"
    results = work / "r.jsonl"
    xdist = ["-n", str(workers)] if workers else []
    for kept in ("lastfailed", "nodeids"):  # pytest reads back earlier rows' node ids (after 64,000 failed: +46 MiB)
        (work / ".pytest_cache" / "v" / "cache" / kept).unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", BOOT, str(root), str(out), "-q", "-p", "no:randomly",
                           "-p", "no:hypothesispytest", f"--agent={agent}", f"--runs={runs}",
                           f"--agenteval-results={results}", *xdist, "tasks"],
                          cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    figures = json.loads(out.read_text()) if out.is_file() else {"code": -1}
    if figures["code"] not in (0, 1):
        raise SystemExit(f"pytest failed ({figures['code']}) with {root}, --agent={agent}: {done.stderr[-2000:]}")
    graded = sum(1 for line in results.read_text().splitlines() if line.startswith('{"') and '"task_id"' in line)
    out.unlink()
    return {**figures, "episodes": graded}


def extract(rev: str, folder: Path) -> Path:
    """Revision ``rev`` of this repository, in ``folder``."""
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="640,6400", help="episode counts, comma-separated (smallest first)")
    parser.add_argument("--workers", default="0,2", help="xdist worker counts, comma-separated (0: serial)")
    parser.add_argument("--before", help="a revision of this repository to measure next to this tree")
    parser.add_argument("--after", help="measure this revision instead of the working tree")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        copy_tasks(work)
        tasks = sum(1 for path in (work / "tasks").iterdir() for line in path.read_text().splitlines()
                    if line.startswith("{"))
        trees = {f"after ({args.after})": extract(args.after, Path(tmp) / "after")} if args.after else {
            "this tree": ROOT}
        if args.before:
            trees = {f"before ({args.before})": extract(args.before, Path(tmp) / "before"), **trees}
        for root in trees.values():  # warm-up: bytecode, scenario images, remembered task lines
            one(root, work, "reference", 1, 0)
        rows, summary = [], []
        for workers in (int(w) for w in args.workers.split(",")):
            got: dict[tuple[str, str, int], dict[str, float]] = {}
            for n in sizes:
                for agent in ("reference", "noop"):
                    for label, root in trees.items():
                        got[label, agent, n] = one(root, work, agent, max(1, round(n / tasks)), workers)
                        print(f"  {label} -n {workers} {agent} {n}: {got[label, agent, n]}", file=sys.stderr,
                              flush=True)
            for label in trees:
                per: dict[str, dict[str, float]] = {}
                for agent in ("reference", "noop"):
                    small, large = got[label, agent, sizes[0]], got[label, agent, sizes[-1]]
                    extra = large["episodes"] - small["episodes"]
                    per[agent] = {key: (large[key] - small[key]) / extra * 1000 for key in ("cpu", "main", "workers")}
                    for n in sizes:
                        fig = got[label, agent, n]
                        rows.append([label, workers or "serial", "passes (reference)" if agent == "reference"
                                     else "fails (noop)", f"{fig['episodes']:,}", f"{fig['peak']:.0f}",
                                     f"{fig['cpu']:.1f}", f"{fig['main']:.1f}",
                                     f"{fig['workers']:.1f}" if workers else "-",
                                     f"{per[agent]['cpu']:.2f}" if n == sizes[-1] else "",
                                     f"{per[agent]['main']:.2f}" if n == sizes[-1] else ""])
                fail, ok = per["noop"], per["reference"]
                peak_fail, peak_ok = got[label, "noop", sizes[-1]]["peak"], got[label, "reference", sizes[-1]]["peak"]
                summary.append(
                    f"{label}, {'-n ' + str(workers) if workers else 'serial'}: at {sizes[-1]:,} episodes peak RSS "
                    f"{peak_fail:.0f} MiB failing / {peak_ok:.0f} MiB passing (x{peak_fail / peak_ok:.2f}); "
                    f"main-thread CPU per episode {fail['main']:.2f} / {ok['main']:.2f} ms (x{fail['main'] / ok['main']:.2f}), "
                    f"process {fail['cpu']:.2f} / {ok['cpu']:.2f} ms (x{fail['cpu'] / ok['cpu']:.2f})")
    print(table(["tree", "-n", "agent", "episodes", "peak RSS MiB (main process)", "CPU s", "main thread CPU s",
                 "workers CPU s", "CPU ms per extra episode", "main thread ms per extra episode"], rows))
    print()
    print("\n".join(summary))


if __name__ == "__main__":
    main()
