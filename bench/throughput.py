"""Zero-latency throughput: episodes per second of one process when the agent does not wait.

    python bench/throughput.py [--small 4] [--large 24] [--before DIR] [--repeat 3]

The agents of ``bench/concurrency.py`` with no wait: one that follows the reference path (every
task passes) and one that does nothing (every task fails). Each row is two whole pytest
processes, ``--runs SMALL`` and ``--runs LARGE`` of the 84 shipped tasks; throughput is the
extra episodes over the extra wall time, so start-up and exit cancel out. C = 1 (one episode at
a time) and C = 64 (the window of ``--agenteval-concurrency``). The same over the process's CPU
time (every thread's) is printed beside it: the rate the process would reach with a core to
itself, which a shared machine's load moves far less than the wall time. ``--before DIR`` adds the same
rows for another source tree (``git archive REV | tar -x -C DIR``), each run next to this one's;
``--repeat N`` runs every pair N times, the two trees' in turn, and prints the medians.
Targets (issue #28): >= 500 episodes per second per process passing, >= 300 failing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import concurrency
from _common import ROOT, shipped_lines, table
from concurrency import make_project, run

KINDS = (("async", "passes (reference path)"), ("failing", "fails (does nothing)"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=4)
    parser.add_argument("--large", type=int, default=24)
    parser.add_argument("--before", type=Path, help="another source tree, run next to this one")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each pair; medians are printed")
    args = parser.parse_args()
    trees = [("this tree", ROOT)] + ([("before", args.before)] if args.before else [])
    tasks = len(shipped_lines())
    extra = tasks * (args.large - args.small)
    rows, best = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        make_project(work)
        for _, root in trees:  # warm up: bytecode, scenario images, remembered task lines
            run(work, ["--agent=async", "--runs", "1"], wait=0, root=root)
        for kind, what in KINDS:
            for c in (1, 64):
                got: dict[str, list[tuple[float, float, float, float]]] = {label: [] for label, _ in trees}
                for _ in range(args.repeat):
                    for label, root in trees:
                        once = []
                        for n in (args.small, args.large):
                            once.append(run(work, [f"--agent={kind}", "--runs", str(n), "--agenteval-concurrency",
                                                   str(c)], wait=0, root=root)[0])
                            once.append(concurrency.CPU)
                        got[label].append((once[0], once[2], once[1], once[3]))
                for label, _ in trees:
                    walls = [statistics.median(g[i] for g in got[label]) for i in (0, 1)]
                    cpus = [statistics.median(g[i] for g in got[label]) for i in (2, 3)]
                    rate = extra / (walls[1] - walls[0])
                    best[label, kind] = max(best.get((label, kind), 0.0), rate)
                    rows.append([label, what, c, f"{walls[0]:.2f}", f"{walls[1]:.2f}", f"{rate:.0f}",
                                 f"{(cpus[1] - cpus[0]) / extra * 1000:.2f}", f"{extra / (cpus[1] - cpus[0]):.0f}"])
    print(table(["tree", "agent", "C", f"wall s, {tasks * args.small} episodes",
                 f"wall s, {tasks * args.large} episodes", "episodes/s (extra)", "CPU ms per extra episode",
                 "episodes/s on CPU"], rows))
    for kind, target in (("async", 500), ("failing", 300)):
        rate = best["this tree", kind]
        print(f"{dict(KINDS)[kind]}: {rate:.0f} episodes/s at best (target >= {target}: "
              f"{'met' if rate >= target else 'NOT met'})")


if __name__ == "__main__":
    main()
