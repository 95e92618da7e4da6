"""Checks of a task set as a whole (after every task's own runs): each is a function of the
``TaskSet`` that returns its ``Section`` of the report, findings included.

Add one to ``SET_CHECKS`` (filled, in report order, by ``validate/__init__.py``); it may read
what the per-task runs and earlier checks recorded (``references``, ``baseline_passes``,
``replays``) instead of running agents again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.validate.config import ValidateConfig
from pytest_agenteval.validate.report import Finding, Section


@dataclass(kw_only=True)
class TaskSet:
    loaded: list[LoadedTask]
    pool: EnvironmentPool
    # LoadedTask.where (path:line) -> the reference agent's grade, from the per-task runs
    references: dict[str, Grade] = field(default_factory=dict)
    # Filled by the baselines check: baseline name -> where -> passed (coverage shows the rates).
    baseline_passes: dict[str, dict[str, bool]] = field(default_factory=dict)
    # ``validate(agents=...)``: agent spec -> where -> passed (difficulty's pass matrix).
    agent_passes: dict[str, dict[str, bool]] = field(default_factory=dict)
    # where -> the reference path replayed with each observation (validate/facts.py), made once.
    replays: dict[str, Any] = field(default_factory=dict)
    config: ValidateConfig = field(default_factory=ValidateConfig)


SetCheck = Callable[[TaskSet], tuple[Section, list[Finding]]]

SET_CHECKS: list[SetCheck] = []


def at(item: LoadedTask) -> str:
    """A finding's place: the task's line and id."""
    return f"{item.where} {item.task.task_id}"
