"""The ``agenteval`` command: grader validation (and other offline tools) without pytest.

Each subcommand is an ``_add_<name>`` function that declares its arguments and sets its
handler; a handler takes the parsed arguments and returns the exit status. A user's mistake
(a missing file, a folder without task files, a file that is not a results file) raises
``UsageError``, printed as one line with the fix and exit status 2 — never a traceback.
Folders stand for every ``*.jsonl`` under them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_agenteval.agents.episode import DEFAULT_TIME_LIMIT
from pytest_agenteval.engine.schema import quote
from pytest_agenteval.environments.discovery import load_project_environments, project_root
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import AgentEvalError, EnvironmentBug, EnvironmentSpecError, TaskFileError
from pytest_agenteval.printable import printable_output
from pytest_agenteval.readback import pinned_reads
from pytest_agenteval.report.commands import FORGED, add_key_option, signing_key, verified
from pytest_agenteval.report.commands import add_commands as add_report_commands
from pytest_agenteval.report.gate import GateConfigError
from pytest_agenteval.report.outputs import not_a_file
from pytest_agenteval.report.signing import SigningKeyError
from pytest_agenteval.taskfiles.files import resolved
from pytest_agenteval.tasks.model import Task

USAGE_ERROR = 2


class UsageError(AgentEvalError):
    """A mistake in what the user asked for: printed as one line, exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agenteval", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for add in (_add_validate, _add_tools, _add_mcp, _add_replay, _add_rows, _add_new_environment,
                add_report_commands):
        add(commands)
    args = parser.parse_args(argv)
    if args.command == "mcp":  # its stdout is the protocol's, JSON already
        return _main(args)
    with printable_output():  # what the commands print may hold an agent's text: no escape reaches the terminal
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    try:
        # The project's own environments, found as pytest finds them (see environments/discovery.py).
        load_project_environments(project_root(Path.cwd()))
    except EnvironmentSpecError as exc:
        print(f"agenteval {args.command}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    try:
        with pinned_reads():  # a file verified is the file merged: read once
            return int(args.handler(args))
    except (UsageError, SigningKeyError, GateConfigError) as exc:
        print(f"agenteval {args.command}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except TaskFileError as exc:  # already one line per problem, each naming file, line and fix
        print(exc, file=sys.stderr)
        return USAGE_ERROR
    except EnvironmentBug as exc:  # an environment's own bug: one line, not a traceback
        print(f"agenteval {args.command}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a disk full, a folder gone mid-run: what failed, in one line
        print(f"agenteval {args.command}: {exc.filename or 'a file'}: {exc.strerror or exc}", file=sys.stderr)
        return 1


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def _add_validate(commands: Any) -> None:
    cmd = commands.add_parser("validate", help="prove every task passable, not passable by doing nothing, "
                                               "and each tag caught by its saboteur")
    cmd.add_argument("paths", nargs="+", help="task files (.jsonl) or folders holding them")
    cmd.add_argument("--population", type=_positive_int, default=None,
                     help="scenario size (default: each domain's)")
    cmd.add_argument("--strict", action="store_true",
                     help="also fail when a mutant of a reference path survives (the success criteria miss it)")
    cmd.add_argument("--report", metavar="PATH", default=None,
                     help="also write the whole report: PATH.json (Report.as_dict) or PATH.html (one page)")
    cmd.add_argument("--agents", metavar="A,B", default=None,
                     help="agents (MODULE:ATTR, as --agent), comma-separated: a pass matrix per task")
    cmd.set_defaults(handler=_validate)


REPORT_FORMATS = (".json", ".html")


def _report_path(value: str, inputs: Sequence[Path]) -> Path:
    """Refused before anything runs, so a bad path costs nothing."""
    path = Path(value)
    if path.suffix.lower() not in REPORT_FORMATS:
        raise UsageError(f"--report {value}: unknown format {path.suffix or '(no extension)'!r} "
                         f"(name a .json or .html file)")
    if path.is_dir():
        raise UsageError(f"--report {value}: is a folder (name a .json or .html file in it)")
    if not path.parent.is_dir():
        raise UsageError(f"--report {value}: folder {str(path.parent)!r} does not exist (create it first)")
    if resolved(path) in {resolved(p) for p in inputs}:
        raise UsageError(f"--report {value}: is one of the task files being validated (name another file)")
    return path


def _agents(value: str | None) -> dict[str, Any]:
    from pytest_agenteval.agents.loading import load_agent
    from pytest_agenteval.errors import AgentSpecError

    specs = [s.strip() for s in (value or "").split(",") if s.strip()]
    if value is not None and not specs:
        raise UsageError("--agents: no agent named (give MODULE:ATTR[,MODULE:ATTR…], e.g. mymod:Agent,other:Agent)")
    try:
        return {spec: load_agent(spec, search_path=Path.cwd()) for spec in specs}
    except AgentSpecError as exc:
        raise UsageError(str(exc).replace("--agent=", "--agents: ", 1)) from None


def _validate(args: argparse.Namespace) -> int:
    from pytest_agenteval.validate import ConfigError, validate
    from pytest_agenteval.validate.page import render

    files = task_files(args.paths)
    out = _report_path(args.report, files) if args.report else None
    agents = _agents(args.agents)
    try:
        report = validate(files, pool=EnvironmentPool(population=args.population), agents=agents)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    for line in report.lines(strict=args.strict):
        print(line)
    if out is not None:
        data = report.as_dict(strict=args.strict)
        text = json.dumps(data, indent=1, sort_keys=True) if out.suffix.lower() == ".json" else render(data)
        try:
            out.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:  # the printed report above is not lost
            raise UsageError(f"--report {args.report}: cannot write it ({exc.strerror or exc})") from None
    return 0 if report.passed(strict=args.strict) else 1


def _add_tools(commands: Any) -> None:
    cmd = commands.add_parser("tools", help="print a task's tools in a provider's format (JSON)")
    cmd.add_argument("path", help="a task file (.jsonl) or a folder holding task files")
    cmd.add_argument("--task", help="the task_id (default: the first task)")
    cmd.add_argument("--format", default="openai", help="neutral, openai, openai-responses, anthropic or mcp")
    cmd.add_argument("--observations", action="store_true",
                     help="add each tool's observation schema (what a call returns; MCP: outputSchema)")
    cmd.set_defaults(handler=_tools)


def _tools(args: argparse.Namespace) -> int:
    from pytest_agenteval.agents.tools import FORMATS, export, with_observations

    if args.format not in FORMATS:
        raise UsageError(f"unknown format {args.format!r} (use one of: {', '.join(FORMATS)})")
    pool, task = _one_task(args.path, args.task)
    env = pool.get(task.environment)
    tools = export(env.tools(task.allowed_actions), args.format)
    if args.observations:
        tools = with_observations(tools, type(env), args.format)
    print(json.dumps(tools, indent=2))
    return 0


def _add_mcp(commands: Any) -> None:
    cmd = commands.add_parser("mcp", help="serve one task's episode over MCP (stdio); write its grade at the end")
    cmd.add_argument("path", help="a task file (.jsonl) or a folder holding task files")
    cmd.add_argument("--task", help="the task_id (default: the first task)")
    cmd.add_argument("--grade-out", required=True, help="where to write the grade JSON when the session ends")
    cmd.add_argument("--timeout", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                     help=f"end the session after this long, graded agent_timeout (default {DEFAULT_TIME_LIMIT:g}; "
                          "0 for none)")
    cmd.set_defaults(handler=_mcp)


def _mcp(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise UsageError("the MCP SDK is not installed (pip install 'pytest-agenteval[mcp]')") from None
    from pytest_agenteval.agents.mcp_server import serve

    pool, task = _one_task(args.path, args.task)
    out = writable(args.grade_out, "--grade-out")  # checked before the session, not after it
    if not args.timeout >= 0:
        raise UsageError(f"--timeout {args.timeout:g}: must be 0 (no limit) or more seconds")
    serve(pool.get(task.environment), task, out, time_limit=args.timeout or None)
    return 0


def _add_replay(commands: Any) -> None:
    cmd = commands.add_parser("replay", help="re-grade a results file's episodes without their agent")
    cmd.add_argument("results", help="a results file written by --agenteval-results")
    cmd.add_argument("tasks", nargs="+", help="the task files (.jsonl) the episodes came from, or folders")
    cmd.add_argument("--out", help="write the replayed grades here (JSON Lines)")
    add_key_option(cmd)
    cmd.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from pytest_agenteval.replay import changed_task_files, replay_results
    from pytest_agenteval.report.results import ResultsFileError, escape_separators, load_results, resumed_notes

    path = existing(args.results, "a results file")
    key = signing_key(args)
    try:
        results = load_results(path)
    except ResultsFileError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{args.results}: cannot read it: {exc.strerror} (give a results file you can read, "
                         "written by --agenteval-results)") from None
    inputs = [path, *task_files(args.tasks)]
    if args.out and resolved(args.out) in {resolved(p) for p in inputs}:
        raise UsageError(f"--out {args.out}: is one of the files being replayed (name a new file)")
    out = writable(args.out, "--out") if args.out else None
    if verified([args.results], key, "replay", args.run_ids) is None:
        return FORGED
    replayed = replay_results(results.grades, inputs[1:])
    if out is not None:
        out.write_text("".join(escape_separators(g.model_dump_json()) + "\n" for g in replayed.grades),
                       encoding="utf-8")
    for line in [*changed_task_files(results.run_record, inputs[1:]), *replayed.not_found, *replayed.different]:
        print(line)
    for note in resumed_notes(args.results, results.resumed):
        print(f"note: {note}")
    print(replayed.counts())
    return 1 if replayed.different or replayed.not_found else 0


def _add_rows(commands: Any) -> None:
    cmd = commands.add_parser("rows", help="export a task's rows (its scenario, or an episode's final state) as JSON")
    cmd.add_argument("path", help="a task file (.jsonl) or a folder holding task files")
    cmd.add_argument("--task", help="the task_id (default: the first task)")
    cmd.add_argument("--after", metavar="RESULTS", help="replay the task's recorded actions from this results file "
                     "first: the final rows of that episode")
    cmd.add_argument("--tables", help="comma-separated tables (default: all)")
    cmd.add_argument("--out", help="write the JSON here (default: stdout)")
    cmd.set_defaults(handler=_rows)


def _rows(args: argparse.Namespace) -> int:
    pool, task = _one_task(args.path, args.task)
    env = pool.get(task.environment)
    tables = [t.strip() for t in args.tables.split(",") if t.strip()] if args.tables else sorted(env.tables)
    unknown = [t for t in tables if t not in env.tables]
    if unknown:
        raise UsageError(f"--tables: {', '.join(unknown)} is not a table of {env.name} "
                         f"(use some of: {', '.join(sorted(env.tables))})")
    out = writable(args.out, "--out") if args.out else None
    env.reset(task.scenario_seed, task=task)
    if args.after:
        from pytest_agenteval.report.results import ResultsFileError, load_results

        try:
            grades = load_results(existing(args.after, "a results file")).grades
        except ResultsFileError as exc:
            raise UsageError(str(exc)) from None
        recorded = next((g for g in grades if g.get("task_id") == task.task_id), None)
        if recorded is None:
            raise UsageError(f"--after {args.after}: no episode of {task.task_id} in it (check the task id)")
        for step in recorded.get("actions") or []:
            env.apply(step["action"], step.get("arguments"))
    rows = {t: [dict(zip(info.columns, r, strict=True)) for r in env.db.execute(
        f"SELECT {', '.join(quote(c) for c in info.columns)} FROM {info.quoted} ORDER BY {quote(info.pk)}")]
        for t, info in ((t, env.tables[t]) for t in tables)}
    text = json.dumps(rows, indent=1, sort_keys=False, default=str) + "\n"
    if out is not None:
        out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _add_new_environment(commands: Any) -> None:
    cmd = commands.add_parser("new-environment", help="write a small, complete environment package here "
                                                      "(schema, rules, actions, rubric, saboteurs, tasks, tests)")
    cmd.add_argument("name", help="the environment's name (lowercase letters, digits, underscores)")
    cmd.add_argument("--conversational", action="store_true",
                     help="also write tasks where a scripted customer is talked to (say_to_user) and must agree")
    cmd.set_defaults(handler=_new_environment)


def _new_environment(args: argparse.Namespace) -> int:
    from pytest_agenteval.scaffold import ScaffoldError, new_environment

    try:
        written = new_environment(args.name, Path.cwd(), conversational=args.conversational)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        print(f"wrote {path.relative_to(Path.cwd())}")
    if (Path.cwd() / "pyproject.toml") not in written:
        print(f'add to pyproject.toml:  [tool.agenteval] environments = ["{args.name}_env"]')
    print("next: pytest --agent=reference tasks/ && agenteval validate --strict tasks/ && pytest tests/")
    return 0


def existing(raw: str, what: str) -> Path:
    path = Path(raw)
    if path.is_dir():
        raise UsageError(f"{raw}: is a folder, not {what} (pass the file written by --agenteval-results)")
    if not path.exists():
        raise UsageError(f"{raw}: no such file or folder (check the path)")
    return path


def writable(raw: str, option: str) -> Path:
    path = Path(raw)
    if path.is_dir():
        raise UsageError(f"{option} {raw}: is a folder (name a file to write)")
    if (special := not_a_file(path)) is not None:
        raise UsageError(f"{option} {raw}: {special}")
    blocking = next((p for p in path.parents if p.is_file()), None)
    if blocking is not None:
        raise UsageError(f"{option} {raw}: cannot write it: {blocking} is a file, not a folder "
                         "(name a file you can write)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError as exc:
        raise UsageError(f"{option} {raw}: cannot write it: {exc.strerror} (name a file you can write)") from None
    return path


def task_files(raws: Sequence[str]) -> list[Path]:
    """The task files named, with each folder replaced by the ``*.jsonl`` files under it."""
    found: list[Path] = []
    for raw in raws:
        path = Path(raw)
        if path.is_dir():
            # Not only regular files: a FIFO, a device or a dangling link is reported by the loader.
            inside = sorted(p for p in path.rglob("*.jsonl")
                            if not p.is_dir() and not any(part.startswith(".") for part in p.relative_to(path).parts))
            if not inside:
                raise UsageError(f"{raw}: no task files (*.jsonl) in this folder (pass task files, or a folder "
                                 "holding them)")
            found += inside
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise UsageError(f"{raw}: no such file or folder (check the path)")
    for path in found:
        if not path.is_file():  # opening a FIFO would wait for a writer; the loader says what it is
            continue
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise UsageError(f"{path}: cannot read it: {exc.strerror} (check its permissions)") from None
    return found


def _one_task(raw: str, task_id: str | None) -> tuple[EnvironmentPool, Task]:
    from pytest_agenteval.taskfiles.loader import load_tasks

    pool = EnvironmentPool()
    loaded = load_tasks(*task_files([raw]), pool=pool)
    chosen = [t for t in loaded if task_id in (None, t.task_id)][:1]
    if not chosen:
        raise UsageError(f"no task {task_id!r} in {raw} (check the task_id)")
    return pool, chosen[0]


if __name__ == "__main__":
    sys.exit(main())
