"""Sizes of a run's outputs: the results file plain and compressed, the HTML report, and the
time to write the report, with the package of this checkout or another one (before/after).

    python bench/report_size.py RESULTS [--root PATH] [--tasks tasks/]

RESULTS: a plain results file (``bench/memory.py --pytest 6400 --keep r.jsonl`` makes one).
The compressed size is of the same lines written through ``ResultsWriter`` to a ``.gz`` path,
as the plugin writes them (a sync flush per line), so it is what a run would leave.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, table

BOOT = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in "
        "getattr(f, '__module__', '')]; sys.path.insert(0, sys.argv[1]); import pytest_agenteval; "
        "assert pytest_agenteval.__file__.startswith(sys.argv[1]), pytest_agenteval.__file__; "
        "from pytest_agenteval.cli import main; sys.exit(main(sys.argv[2:]))")

COMPRESS = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from pytest_agenteval.report.results import ResultsWriter
writer = ResultsWriter(sys.argv[3])
for line in open(sys.argv[2], encoding="utf-8"):
    record = json.loads(line)
    if "run_record" in record and "summary" not in record:
        writer.start(record["run_record"])
    elif "summary" in record:
        writer.close(record["summary"])
    else:
        writer.write(record)
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("results", type=Path)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--tasks", type=Path, default=ROOT / "tasks")
    args = parser.parse_args()
    root = args.root.resolve()
    episodes = sum(1 for line in args.results.read_text().splitlines() if '"task_id"' in line)
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "report.html"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", BOOT, str(root), "report", str(args.results.resolve()), "--html",
                        str(html), "--tasks", str(args.tasks.resolve())], check=True, capture_output=True)
        seconds = time.perf_counter() - start
        rows = [["results file (.jsonl)", f"{args.results.stat().st_size / 2**20:.1f}"],
                ["HTML report", f"{html.stat().st_size / 2**20:.1f}"]]
        if (root / "pytest_agenteval" / "report" / "compressed.py").exists():
            gz = Path(folder) / "r.jsonl.gz"
            subprocess.run([sys.executable, "-c", COMPRESS, str(root), str(args.results), str(gz)], check=True)
            rows.insert(1, ["results file (.jsonl.gz)", f"{gz.stat().st_size / 2**20:.1f}"])
    print(f"{episodes:,} episodes, package from {root}; agenteval report --html took {seconds:.0f} s")
    print(table(["output", "MiB"], rows))


if __name__ == "__main__":
    main()
