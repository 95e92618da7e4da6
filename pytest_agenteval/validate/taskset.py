"""Checks of a task set as a whole (after every task's own runs): each is a function of the
``TaskSet`` that returns its ``Section`` of the report, findings included.

Add one by appending it to ``SET_CHECKS``; it may read what the per-task runs recorded
(``TaskSet.references``) instead of running the reference again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.validate.report import Finding, Section


@dataclass(kw_only=True)
class TaskSet:
    loaded: list[LoadedTask]
    pool: EnvironmentPool
    # LoadedTask.where (path:line) -> the reference agent's grade, from the per-task runs
    references: dict[str, Grade] = field(default_factory=dict)
    # Seam for guessability baselines (another check fills it): baseline name -> where -> passed.
    # Coverage prints each baseline's pass rate per cell when it is there.
    baseline_passes: dict[str, dict[str, bool]] = field(default_factory=dict)
    # ``validate(agents=...)``: agent spec -> where -> passed (difficulty's pass matrix).
    agent_passes: dict[str, dict[str, bool]] = field(default_factory=dict)
    # where -> the reference path replayed with each observation (validate/facts.py), made once.
    replays: dict[str, Any] = field(default_factory=dict)


SetCheck = Callable[[TaskSet], tuple[Section, list[Finding]]]

SET_CHECKS: list[SetCheck] = []


def at(item: LoadedTask) -> str:
    """A finding's place: the task's line and id."""
    return f"{item.where} {item.task.task_id}"
