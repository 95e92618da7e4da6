"""Hints for runs that select nothing: the ``.jsonl`` files seen and why they are not task
files, ``-m`` names no marker has ("did you mean wrong_rate?"), and ``-k`` words no task id
holds ("did you mean ESC-001?"). One line each, in the terminal summary, only when something
was asked of agenteval and nothing came of it."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePath
from typing import Any

import pytest

from pytest_agenteval.plugin.collect import INI_PATTERNS, display_path
from pytest_agenteval.plugin.state import STATE
from pytest_agenteval.tasks.marks import marker_names

SHOWN = 5  # files named at most
_SKIP_WALK = {".git", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache", ".ruff_cache"}
_HIDDEN = ("node_modules", "__pycache__")
_WORDS = {"and", "or", "not"}


class Hints:
    def __init__(self, config: pytest.Config, paths: list[Path]) -> None:
        self.config = config
        self.paths = paths
        self.deselected: list[str] = []  # task ids -k or -m left out
        self.selected = 0  # task items left in

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += [task_id for task_id in map(_task_id, items) if task_id]

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        self.selected = sum(1 for item in items if _task_id(item))

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for line in [*self.file_hints(), *self.marker_hints(), *self.keyword_hints()]:
            terminalreporter.write_line(f"agenteval: {line}")

    def keyword_hints(self) -> list[str]:
        """``-k ESC-1`` that selects no task: the task ids closest to each word of it."""
        expr = self.config.option.keyword
        if not expr or self.selected or not self.deselected:
            return []
        ids = sorted(set(self.deselected))
        words = [w for w in re.findall(r"[\w.\-\[\]]+", expr) if w not in _WORDS]
        hints = []
        for word in words:
            if any(word.lower() in task_id.lower() for task_id in ids):
                continue
            close = difflib.get_close_matches(word, ids, n=3, cutoff=0.5)
            fix = f"did you mean {' or '.join(close)}?" if close else f"task ids look like {ids[0]}"
            hints.append(f"-k {expr}: no task id holds {word!r} ({fix})")
        return hints

    def file_hints(self) -> list[str]:
        state = self.config.stash[STATE]
        if state.task_files or state.file_problems or not state.agent_spec:
            return []
        missing = [path for path in self.paths if not path.exists()]
        if missing:  # pytest says "file or directory not found"; a near name is the one hint worth giving
            return [hint for hint in map(near_name, missing) if hint]
        return [why_not_a_task_file(path, self.config, self.paths) for path in _seen(self.paths, self.config)]

    def marker_hints(self) -> list[str]:
        expr = self.config.option.markexpr
        state = self.config.stash[STATE]
        if not expr or not state.task_files:
            return []
        known = sorted({*marker_names(self.config.getini("markers")), *state.markers})
        hints = []
        for name in dict.fromkeys(mark_expression_names(expr)):
            if name in known:
                continue
            close = difflib.get_close_matches(name, known, n=1)
            fix = f"did you mean {close[0]}?" if close else "pytest --markers lists them"
            hints.append(f"-m {expr}: no task or test is marked {name} ({fix})")
        return hints


def _task_id(item: pytest.Item) -> str | None:
    case = getattr(item, "callspec", None)
    task = case.params.get("agenteval_case") if case is not None else None
    return getattr(getattr(task, "loaded", None), "task_id", None)


def mark_expression_names(expr: str) -> list[str]:
    """The marker names an ``-m`` expression uses (not its keyword arguments or operators)."""
    without_args = re.sub(r"\([^)]*\)", "", expr)
    return [w for w in re.findall(r"[A-Za-z_][\w]*", without_args) if w not in _WORDS]


def near_name(path: Path) -> str | None:
    """``tasks/bookng.jsonl`` → "did you mean tasks/booking.jsonl?" (a sibling of a close name)."""
    folder = path.parent
    if not folder.is_dir():
        return None
    names = sorted(p.name for p in folder.iterdir())
    close = difflib.get_close_matches(path.name, names, n=1)
    if not close:
        return None
    return f"{path.as_posix()} does not exist: did you mean {(folder / close[0]).as_posix()}?"


def is_results_file(path: Path) -> bool:
    """A file written by --agenteval-results: its first line is the run record or a grade."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b'{"run_record"') or b'"audit_digest"' in head.split(b"\n", 1)[0]


def why_not_a_task_file(path: Path, config: pytest.Config, given: list[Path]) -> str:
    shown = display_path(path, config)
    base = next((g for g in given if _under(path, g)), None)
    if base is None:
        paths = " ".join(display_path(g, config) for g in given)
        return f"saw {shown}, not under the paths given ({paths}): pass it, or its folder, on the command line"
    if base.is_dir() and _hidden(path, base):
        return f"saw {shown}, in a hidden folder, which is not searched: name the file on the command line"
    patterns = ", ".join(config.getini(INI_PATTERNS))
    folder = PurePath(shown).parent.as_posix()
    suggestion = f"{folder}/*.jsonl" if folder not in ("", ".") else "*.jsonl"
    reason = "its folder is not named tasks" if path.parent.name != "tasks" else "it matches none of them"
    return (f"saw {shown}, not a task file: {reason} (agenteval_task_files: {patterns}); name it on the "
            f'command line, or add "{suggestion}" to agenteval_task_files')


def _seen(given: list[Path], config: pytest.Config) -> list[Path]:
    """Up to SHOWN ``.jsonl`` files under the paths given, then under the rootdir."""
    found: dict[Path, None] = {}
    for base in [*given, config.rootpath]:
        for path in _walk(base):  # none was collected: each one seen wants its reason
            if is_results_file(path):  # an earlier run's output, never meant as tasks
                continue
            found.setdefault(path)
            if len(found) >= SHOWN:
                return list(found)
    return list(found)


def _walk(base: Path) -> Iterator[Path]:
    if base.is_file():
        if base.suffix == ".jsonl":
            yield base
        return
    for folder, dirs, files in os.walk(base):
        # Not into version control, caches or virtual environments (a site-packages is large).
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_WALK and not (Path(folder, d) / "pyvenv.cfg").exists())
        for name in sorted(files):
            if name.endswith(".jsonl"):
                yield Path(folder, name)


def _under(path: Path, base: Path) -> bool:
    try:
        path.resolve().relative_to(base.resolve())
    except ValueError:
        return False
    return True


def _hidden(path: Path, base: Path) -> bool:
    parts = path.resolve().relative_to(base.resolve()).parts[:-1]
    return any(p.startswith(".") or p in _HIDDEN for p in parts)
