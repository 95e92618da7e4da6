"""Say what ran: the agent that really runs (a conftest ``agent`` fixture wins over ``--agent``),
and the run record that opens and closes a results file."""

from __future__ import annotations

import datetime
import importlib.metadata
import platform
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_agenteval.plugin.compat import is_fixture, load_conftests
from pytest_agenteval.plugin.state import State
from pytest_agenteval.report.results import FORMAT

PACKAGES = ("pytest-agenteval", "pytest", "pydantic", "pytest-xdist", "deepdiff")


def agent_fixtures(config: pytest.Config, task_files: Iterable[Path]) -> list[str]:
    """Where an ``agent`` fixture overrides ours for at least one of ``task_files``."""
    files = [f.resolve() for f in task_files]
    _load_conftests(config, files)
    found = []
    for plugin in config.pluginmanager.get_plugins():
        if not isinstance(plugin, ModuleType) or plugin.__name__.startswith("pytest_agenteval"):
            continue
        if not any(is_fixture(config, value, "agent") for value in vars(plugin).values()):
            continue
        source = Path(getattr(plugin, "__file__", "") or "")
        if source.name != "conftest.py":
            found.append(f"plugin {plugin.__name__}")  # a plugin's fixtures are seen everywhere
        elif not files or any(source.parent.resolve() in f.parents for f in files):
            found.append(_shown(source, config))
    return found


def _load_conftests(config: pytest.Config, files: list[Path]) -> None:
    """Load the conftests of the task files' folders now, as pytest does for the folders named on
    the command line; otherwise ``tasks/conftest.py`` would only be loaded while collecting,
    after the header and the run record have named the agent. Loading is what collection would
    do anyway (pytest remembers each folder); a conftest that fails to import is left for
    collection to report in its usual way."""
    for folder in sorted({f.parent for f in files}):
        try:
            load_conftests(config, folder)
        except Exception:  # noqa: BLE001, S112 - collection reports it, with pytest's own message
            continue


def _shown(path: Path, config: pytest.Config) -> str:
    try:
        return path.resolve().relative_to(config.rootpath.resolve()).as_posix()
    except ValueError:
        return str(path)


def describe_agent(spec: str | None, fixtures: list[str]) -> str:
    """``reference``, ``agent fixture in tasks/conftest.py (overrides --agent=reference)``…"""
    if not fixtures:
        return spec or "none"
    where = ", ".join(fixtures)
    told = f"agent fixture{'s' if len(fixtures) > 1 else ''} in {where}"
    return f"{told} (overrides --agent={spec})" if spec else told


def run_record(config: pytest.Config, state: State) -> dict[str, Any]:
    """What produced a results file: enough to reproduce the run or to tell two runs apart."""
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None  # type: ignore[assignment]
    versions["sqlite"] = sqlite3.sqlite_version
    option = config.option
    return {
        "format": FORMAT,
        "agent": state.agent_described,
        "labels": state.labels,
        "git": state.git,
        "endpoint": state.endpoint,
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "versions": versions,
        "options": {
            "runs": state.runs,
            "timeout": state.time_limit,
            "isolate": state.containment.describe() if state.containment is not None else False,
            "numprocesses": getattr(option, "numprocesses", None) or None,
            "markexpr": option.markexpr or None,
            "keyword": option.keyword or None,
            # pytest-rerunfailures: only an item's last attempt counts (``reruns``), so a rate
            # under reruns is "passes within N+1 tries"; ``compare`` says when the sides differ
            "reruns": int(getattr(option, "reruns", 0) or 0),
            **({"judge": state.judge_described} if state.judge_described else {}),
        },
        "task_files": [{"path": path, "tasks": count, "sha256": state.task_hashes.get(path)}
                       for path, count in state.task_files.items()],
    }
