"""Collection: 10,000 task lines (--collect-only) against a plain 10,000-case parametrised file.

    python bench/collection.py [--lines 10000] [--repeat 3]

The task lines are the shipped tasks repeated with new ids, so every line is fully loaded and
checked against its environment (rows, fields, override values), as in a real run. Lines that
passed before are remembered in pytest's cache (as on a user's second run); a --cache-clear
row shows a first run, where every line is validated.
Target: ratio <= 2.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import pytest_seconds, shipped_lines, table

PLAIN = '''
import pytest

@pytest.mark.parametrize("i", range({n}))
def test_plain(i):
    pass
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shipped = shipped_lines()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "tasks").mkdir()
        with open(work / "tasks" / "many.jsonl", "w") as out:
            for i in range(args.lines):
                line = dict(shipped[i % len(shipped)])
                line["task_id"] = f"{line['task_id']}-{i:05d}"
                out.write(json.dumps(line) + "\n")
        (work / "plain").mkdir()
        (work / "plain" / "test_plain.py").write_text(PLAIN.format(n=args.lines))
        ours = pytest_seconds(["--agent=reference", "--collect-only", "tasks/"], work, repeat=args.repeat)
        # --cache-clear: no remembered verdicts and no scenario images; every line validated.
        cold = pytest_seconds(["--agent=reference", "--collect-only", "--cache-clear", "tasks/"], work,
                              repeat=args.repeat)
        plain = pytest_seconds(["--collect-only", "plain/"], work, repeat=args.repeat)
    print(table(["collected", "items", "median s", "ms/item"], [
        ["agenteval task lines", args.lines, f"{ours:.2f}", f"{1000 * ours / args.lines:.3f}"],
        ["agenteval, first run (--cache-clear: every line validated)", args.lines, f"{cold:.2f}",
         f"{1000 * cold / args.lines:.3f}"],
        ["plain parametrised cases", args.lines, f"{plain:.2f}", f"{1000 * plain / args.lines:.3f}"],
    ]))
    ratio = ours / plain
    print(f"\nratio agenteval / plain = {ratio:.2f} (target <= 2: {'met' if ratio <= 2 else 'NOT met'}); "
          f"first run: {cold / plain:.2f}")


if __name__ == "__main__":
    main()
