"""The ``agenteval`` command: grader validation (and other offline tools) without pytest."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pytest_agenteval.engine.registry import EnvironmentPool


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agenteval", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("validate", help="prove every task passable, not passable by doing nothing, "
                                                 "and each tag caught by its saboteur")
    check.add_argument("paths", nargs="+", help="task files (.jsonl)")
    check.add_argument("--population", type=int, default=None, help="scenario size (default: each domain's)")
    args = parser.parse_args(argv)
    from pytest_agenteval.validate import validate

    report = validate(args.paths, pool=EnvironmentPool(population=args.population))
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
