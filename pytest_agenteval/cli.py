"""The ``agenteval`` command: grader validation (and other offline tools) without pytest."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from pytest_agenteval.engine.registry import EnvironmentPool
from pytest_agenteval.report.commands import add_commands as add_report_commands
from pytest_agenteval.tasks.model import Task


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agenteval", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("validate", help="prove every task passable, not passable by doing nothing, "
                                                 "and each tag caught by its saboteur")
    check.add_argument("paths", nargs="+", help="task files (.jsonl)")
    check.add_argument("--population", type=int, default=None, help="scenario size (default: each domain's)")
    check.add_argument("--strict", action="store_true",
                       help="also fail when a mutant of a reference path survives (the success criteria miss it)")
    tools = commands.add_parser("tools", help="print a task's tools in a provider's format (JSON)")
    tools.add_argument("path", help="a task file (.jsonl)")
    tools.add_argument("--task", help="the task_id (default: the file's first task)")
    tools.add_argument("--format", default="openai", help="neutral, openai, openai-responses, anthropic or mcp")
    serve = commands.add_parser("mcp", help="serve one task's episode over MCP (stdio); write its grade at the end")
    serve.add_argument("path", help="a task file (.jsonl)")
    serve.add_argument("--task", help="the task_id (default: the file's first task)")
    serve.add_argument("--grade-out", required=True, help="where to write the grade JSON when the session ends")
    again = commands.add_parser("replay", help="re-grade a results file's episodes without their agent")
    again.add_argument("results", help="a results file written by --agenteval-results")
    again.add_argument("tasks", nargs="+", help="the task files (.jsonl) the episodes came from")
    again.add_argument("--out", help="write the replayed grades here (JSON Lines)")
    add_report_commands(commands)
    args = parser.parse_args(argv)
    if hasattr(args, "handler"):
        return int(args.handler(args))
    if args.command == "replay":
        return _replay(args.results, args.tasks, args.out)
    if args.command == "mcp":
        return _mcp(args.path, args.task, args.grade_out)
    if args.command == "tools":
        return _tools(args.path, args.task, args.format)
    from pytest_agenteval.validate import validate

    report = validate(args.paths, pool=EnvironmentPool(population=args.population))
    for line in report.lines():
        print(line)
    if args.strict and report.survivors:
        print(f"--strict: {report.survivors} mutant(s) survived (named above); tighten the expected state or "
              "checks, or free a harmless change in the path")
        return 1
    return 0 if report.ok else 1


def _one_task(command: str, path: str, task_id: str | None) -> tuple[EnvironmentPool, Task] | None:
    from pytest_agenteval.errors import TaskFileError
    from pytest_agenteval.tasks.loader import load_tasks

    pool = EnvironmentPool()
    try:
        loaded = load_tasks(path, pool=pool)
    except TaskFileError as exc:
        print(exc, file=sys.stderr)
        return None
    chosen = [t.task for t in loaded if task_id in (None, t.task.task_id)][:1]
    if not chosen:
        print(f"agenteval {command}: no task {task_id!r} in {path}", file=sys.stderr)
        return None
    return pool, chosen[0]


def _tools(path: str, task_id: str | None, fmt: str) -> int:
    from pytest_agenteval.agents.tools import FORMATS, export

    if fmt not in FORMATS:
        print(f"agenteval tools: unknown format {fmt!r} (use one of: {', '.join(FORMATS)})", file=sys.stderr)
        return 2
    found = _one_task("tools", path, task_id)
    if found is None:
        return 2
    pool, task = found
    print(json.dumps(export(pool.get(task.environment).tools(task.allowed_actions), fmt), indent=2))
    return 0


def _replay(results: str, tasks: list[str], out: str | None) -> int:
    from pytest_agenteval.replay import replay_results
    from pytest_agenteval.report.results import read_results

    records, _ = read_results(results)
    grades, differences = replay_results(records, tasks)
    if out:
        Path(out).write_text("".join(g.model_dump_json() + "\n" for g in grades), encoding="utf-8")
    for difference in differences:
        print(difference)
    print(f"replayed {len(grades)} episode(s): {len(grades) - len(differences)} identical, "
          f"{len(differences)} different")
    return 1 if differences else 0


def _mcp(path: str, task_id: str | None, grade_out: str) -> int:
    try:
        import mcp  # noqa: F401
    except ImportError:
        print("agenteval mcp: the MCP SDK is not installed (pip install 'pytest-agenteval[mcp]')", file=sys.stderr)
        return 2
    from pytest_agenteval.agents.mcp_server import serve

    found = _one_task("mcp", path, task_id)
    if found is None:
        return 2
    pool, task = found
    serve(pool.get(task.environment), task, Path(grade_out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
