"""Grader and task-set validation: prove every task can be passed, cannot be passed by doing
nothing or by guessing, and that each failure mode it is tagged with is really caught.

    agenteval validate tasks/

Runs without pytest. First each task's own runs (``runs.py``: reference, do-nothing,
saboteurs, variants, mutants), then the checks of the set as a whole (``taskset.py``; one
module each: ``traps``, ``baselines``, ``duplicates``, ``sufficiency``, ``agreement``,
``coverage``, ``difficulty``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.engine.conformance import check_environment, environment_warnings
from pytest_agenteval.environments.discovery import project_root
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import EnvironmentBug
from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader
from pytest_agenteval.validate.agreement import check_agreement
from pytest_agenteval.validate.baselines import baselines
from pytest_agenteval.validate.config import ConfigError, ValidateConfig, read_config
from pytest_agenteval.validate.coverage import check_coverage
from pytest_agenteval.validate.difficulty import check_difficulty
from pytest_agenteval.validate.duplicates import check_duplicates
from pytest_agenteval.validate.report import Finding, Report, Section, Strictness
from pytest_agenteval.validate.runs import lint, run_task
from pytest_agenteval.validate.sufficiency import check_sufficiency
from pytest_agenteval.validate.taskset import SET_CHECKS, TaskSet
from pytest_agenteval.validate.traps import traps

# The task-set checks shipped here, in report order: added from here, since each module types
# its argument as TaskSet (taskset.py importing them would be a cycle).
# Baselines before coverage, which prints their pass rates per cell.
SET_CHECKS.extend((traps, baselines, check_duplicates, check_sufficiency, check_agreement, check_coverage,
                   check_difficulty))

__all__ = ["ConfigError", "Finding", "Report", "Section", "Strictness", "ValidateConfig", "validate"]


def validate(paths: Iterable[str | PathLike[str]], *, pool: EnvironmentPool | None = None,
             agents: Mapping[str, Any] | None = None, config: ValidateConfig | None = None) -> Report:
    """Validate task files. ``agents``: name -> agent factory, each run once on every task for
    the difficulty section's pass matrix. ``config``: the settings (default: ``[tool.agenteval]``
    of the project the current folder is in; a bad value raises ``ConfigError``)."""
    pool = pool or EnvironmentPool()
    config = config or read_config(project_root(Path.cwd()))
    loader = TaskLoader(pool)
    report = Report()
    loaded: list[LoadedTask] = []
    for path in paths:
        tasks, problems = loader.load_file(path)
        loaded += tasks
        report.findings += [Finding(where=f"{p.path}:{p.line}", message=f"{p.field}: {p.message} ({p.fix})")
                            for p in problems]
    report.tasks = len(loaded)
    taskset = TaskSet(loaded=loaded, pool=pool, config=config)
    lint(loaded, report)
    for name in sorted({t.task.environment for t in loaded}):
        report.findings += [Finding(where=f"environment {name}", message=m)
                            for m in check_environment(pool.get(name))]
        report.findings += [Finding(where=f"environment {name}", message=m, level="warning")
                            for m in environment_warnings(pool.get(name), descriptions=False)]
    for item in loaded:
        try:
            run_task(item, pool, report, taskset)
        except EnvironmentBug as exc:  # the rest of this task's runs would only repeat it
            report.findings.append(Finding(where=f"{item.where} {item.task.task_id}", message=str(exc)))
    for name, factory in (agents or {}).items():
        taskset.agent_passes[name] = {
            # A user's agent gets the usual per-episode time limit: one that hangs must not hang validate.
            item.where: run_episode(pool.get(item.task.environment), item.task, factory).passed
            for item in loaded}
    for check in SET_CHECKS:
        section, findings = check(taskset)
        report.sections.append(section)
        report.findings += findings
    return report
