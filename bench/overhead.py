"""Harness overhead: the shipped tasks x K runs with the reference agent, against a plain
parametrised pytest file with the same number of items and of subtests per item.

    python bench/overhead.py [--runs 3] [--repeat 5]

Target: ratio <= 1.3. Both sides run with bytecode caching and pytest's cache on, as users
run them; the cold row rebuilds every scenario (the first run after a change to a domain).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import copy_tasks, pytest_seconds, table

PLAIN = '''
import pytest

@pytest.mark.parametrize("i", range({items}))
def test_plain(i, subtests):
    for j in range({subtests}):
        with subtests.test(msg=f"check{{j}}"):
            assert j >= 0
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tasks(work)
        results = work / "r.jsonl"
        run = ["--agent=reference", "--runs", str(args.runs), f"--agenteval-results={results}", "tasks/"]
        ours = pytest_seconds(run, work, repeat=args.repeat)
        cold = pytest_seconds([*run, "--cache-clear"], work, repeat=args.repeat)
        grades = [json.loads(line) for line in results.read_text().splitlines()]
        grades = [g for g in grades if "task_id" in g]  # not the run record or the summary
        items = len(grades)
        subtests = round(sum(len(g["checks"]) for g in grades) / items)
        (work / "plain").mkdir()
        (work / "plain" / "test_plain.py").write_text(PLAIN.format(items=items, subtests=subtests))
        plain = pytest_seconds(["plain/"], work, repeat=args.repeat)
    print(table(["run", "items", "subtests/item", "median s", "ms/item"], [
        ["agenteval, reference agent", items, subtests, f"{ours:.2f}", f"{1000 * ours / items:.2f}"],
        ["agenteval, cold (--cache-clear: scenarios rebuilt)", items, subtests, f"{cold:.2f}",
         f"{1000 * cold / items:.2f}"],
        ["plain parametrised file", items, subtests, f"{plain:.2f}", f"{1000 * plain / items:.2f}"],
    ]))
    ratio = ours / plain
    print(f"\nratio agenteval / plain = {ratio:.2f} (target <= 1.3: {'met' if ratio <= 1.3 else 'NOT met'}); "
          f"cold run: {cold / plain:.2f}")


if __name__ == "__main__":
    main()
