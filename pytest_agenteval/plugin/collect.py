"""Collection: a task file is a pytest Module whose one test is parametrised by its lines."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePath
from types import ModuleType
from typing import Any

import pytest

import pytest_agenteval.plugin.runner as runner_module
from pytest_agenteval.errors import TaskProblem
from pytest_agenteval.plugin.state import STATE, TaskCase
from pytest_agenteval.taskfiles.bounds import line_bounds
from pytest_agenteval.taskfiles.files import is_folder, present, read_task_file, resolved
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.tasks.marks import marker_names, reserved_marks
from pytest_agenteval.tasks.model import NAME_RE, RESERVED_MARK_WORDS

RUNNER = runner_module.__name__
INI_PATTERNS = "agenteval_task_files"
DEFAULT_PATTERNS = ["tasks/*.jsonl"]


def is_task_file(path: Path, config: pytest.Config, explicit: set[Path]) -> bool:
    """A ``.jsonl`` named on the command line, or one matching ``agenteval_task_files``."""
    if path.suffix != ".jsonl":
        return False
    if resolved(path) in explicit:
        return True
    # Matched by the name it has here, not the target's: a dangling link is a task file too.
    where = resolved(path.parent) / path.name
    try:
        relative = PurePath(where.relative_to(resolved(config.rootpath)))
    except ValueError:
        relative = PurePath(path)
    return any(relative.match(p) for p in config.getini(INI_PATTERNS))


def display_path(path: Path, config: pytest.Config) -> str:
    try:
        return (resolved(path.parent) / path.name).relative_to(resolved(config.rootpath)).as_posix()
    except ValueError:
        return str(path)


class TaskFile(pytest.Module):
    """A ``.jsonl`` task file. Its module object is our shipped ``runner`` module."""

    loaded: list[LoadedTask]

    def _getobj(self) -> ModuleType:
        return runner_module

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        state = self.config.stash[STATE]
        # Read now, not at configure: plugins and conftests register markers in their own
        # pytest_configure, which may run after ours or (in a folder's conftest) mid-collection.
        state.loader.reserved = reserved_marks(taken_markers(self.config))
        shown = display_path(self.path, self.config)
        # The bytes configure hashed for the run record, so a file edited since is graded as hashed.
        self.loaded, problems = state.loader.load_file(self.path, display=shown, data=state.task_data.pop(shown, None))
        items: list[Any] = []
        if self.loaded:
            for item in super().collect():
                if isinstance(item, pytest.Function):
                    item.__class__ = TaskItem  # only to point reports at the task line
                items.append(item)
        by_line: dict[int, list[TaskProblem]] = defaultdict(list)
        for p in problems:
            by_line[p.line].append(p)
        items += [TaskLineError.from_parent(self, name=f"line{n}", problems=ps) for n, ps in by_line.items()]
        return sorted(items, key=_line_of)


def _line_of(item: Any) -> int:
    if isinstance(item, TaskLineError):
        return item.problems[0].line
    case = getattr(item, "callspec", None)
    return case.params["agenteval_case"].loaded.line if case else 0


class TaskItem(pytest.Function):
    """A task's test item; reports point at the task file and line, not at ``runner``."""

    plays_an_agent = True  # its captured output is the agent's (plugin/errored.py makes it printable)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        case = self.callspec.params["agenteval_case"]
        assert isinstance(case, TaskCase)
        return self.path, case.loaded.line - 1, case.loaded.task_id

    def _traceback_filter(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        # A failed check (pytest.fail(..., pytrace=False)) is shown as its message alone, whatever
        # its frames, so sifting them (a stat per frame) is wasted: ~2 ms per failed check. If
        # pytest renames this private hook, the override goes unused and nothing else changes.
        value = excinfo.value
        if isinstance(value, pytest.fail.Exception) and not value.pytrace:
            return excinfo.traceback
        return super()._traceback_filter(excinfo)


class TaskLineError(pytest.Item):
    """One malformed task line: an error for that line only; the rest of the file runs."""

    def __init__(self, *, problems: list[TaskProblem], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems

    def setup(self) -> None:
        # Failing in setup makes it an ERROR; pytrace=False prints the problems alone.
        pytest.fail("\n".join(str(p) for p in self.problems), pytrace=False)

    def runtest(self) -> None:  # pragma: no cover - setup always fails
        raise AssertionError("unreachable")

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, self.problems[0].line - 1, f"line {self.problems[0].line}"


def task_params(config: pytest.Config, loaded: list[LoadedTask], runs: int, env_names: dict[str, str]) -> list[Any]:
    params = []
    marks_of: dict[tuple[str, ...], tuple[pytest.MarkDecorator, ...]] = {}
    for item in loaded:
        names = (*item.failure_mode_tags, env_names.get(item.environment, ""), item.split)
        marks = marks_of.get(names)
        if marks is None:  # tasks share a few combinations of tags
            for name in names:
                register_marker(config, name, "")
            marks = marks_of[names] = tuple(_mark(n) for n in names if is_mark_name(n))
        for run in range(1, runs + 1):
            case = TaskCase(loaded=item, run=run)
            ident = item.task_id if runs == 1 else f"{item.task_id}-run{run}"
            params.append(pytest.param(case, id=ident, marks=marks))
    return params


@cache
def _mark(name: str) -> pytest.MarkDecorator:
    return getattr(pytest.mark, name)  # type: ignore[no-any-return]


def is_mark_name(name: str) -> bool:
    return bool(NAME_RE.match(name)) and name not in RESERVED_MARK_WORDS


def register_marker(config: pytest.Config, name: str, what: str) -> None:
    state = config.stash[STATE]
    if name in state.markers or not is_mark_name(name) or name in reserved_marks():
        return
    state.markers.add(name)
    line = f"{name}: {what or 'from agenteval task files'}"
    state.marker_lines.add(line)
    config.addinivalue_line("markers", line)


def taken_markers(config: pytest.Config) -> list[str]:
    """Names of the markers pytest, plugins, conftests and the ini file registered (not ours)."""
    ours = config.stash[STATE].marker_lines
    return marker_names(line for line in config.getini("markers") if line not in ours)


@dataclass(kw_only=True)
class Scan:
    """What configure learns from the task files, read once: see ``scan_task_files``."""

    markers: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # task lines per file
    hashes: dict[str, str] = field(default_factory=dict)  # sha256 per file
    data: dict[str, bytes] = field(default_factory=dict)  # the bytes hashed, for collection to load
    problems: dict[str, TaskProblem] = field(default_factory=dict)  # files that cannot be read


def scan_task_files(paths: Iterable[Path], config: pytest.Config, explicit: set[Path], *, markers: bool) -> Scan:
    """Marker names, task lines and sha256 per file, for the header, the run record and
    ``pytest --markers``; and the bytes hashed, which collection loads (so the tasks graded are
    the text hashed, even if the file is edited during the run).

    Counting lines is cheap; reading the markers means parsing every line, so it is done only
    for ``--markers`` (which does not collect). Otherwise markers are registered as lines are
    collected, before ``-m`` or ``--strict-markers`` look at them. Bad lines are skipped here
    and reported at collection; so are files that cannot be read (``Scan.problems``).
    """
    scan = Scan()
    for path in _task_files(paths, config, explicit):
        shown = display_path(path, config)
        data = read_task_file(path, shown=shown)
        if isinstance(data, TaskProblem):
            scan.problems[shown] = data
            continue
        lines = data.split(b"\n")
        scan.counts[shown] = sum(line.lstrip().startswith(b"{") for line in lines)
        scan.hashes[shown] = hashlib.sha256(data).hexdigest()
        scan.data[shown] = data
        if not markers:
            continue
        for raw in lines:
            scan_markers(raw, scan.markers)
    return scan


def scan_markers(raw: bytes, found: dict[str, str]) -> None:
    """The marker names of one task line into ``found``; a bad line adds none."""
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return
    if not text.startswith("{") or line_bounds(text) is not None:  # too deep for json.loads
        return
    try:
        obj = json.loads(text)
    except ValueError:
        return
    if not isinstance(obj, dict):
        return
    tags = obj.get("failure_mode_tags")
    for tag in tags if isinstance(tags, list) else []:
        if isinstance(tag, str):
            found.setdefault(tag, "failure mode tag (agenteval)")
    for key, what in (("environment", "environment (agenteval)"), ("split", "task split (agenteval)")):
        value = obj.get(key)
        # A module:Class environment's marker is its class's name, known at collection.
        if isinstance(value, str) and ":" not in value:
            found.setdefault(value, what)


def _task_files(paths: Iterable[Path], config: pytest.Config, explicit: set[Path]) -> Iterable[Path]:
    for path in paths:
        if is_folder(path):  # a folder named x.jsonl too: a folder is looked into, never read
            for candidate in sorted(path.rglob("*.jsonl")):
                if is_folder(candidate) or _hidden(candidate, path):
                    continue
                if is_task_file(candidate, config, explicit):
                    yield candidate
        elif present(path) and is_task_file(path, config, explicit):
            yield path


def _hidden(path: Path, base: Path) -> bool:
    return any(part.startswith(".") or part in ("node_modules", "__pycache__")
               for part in path.relative_to(base).parts)
