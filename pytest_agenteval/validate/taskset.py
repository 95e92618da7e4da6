"""Checks of a task set as a whole (after every task's own runs): each is a function of the
``TaskSet`` that returns its ``Section`` of the report, findings included.

Add one by appending it to ``SET_CHECKS``; it may read what the per-task runs recorded
(``TaskSet.references``) instead of running the reference again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
    config: ValidateConfig = field(default_factory=ValidateConfig)


SetCheck = Callable[[TaskSet], tuple[Section, list[Finding]]]

SET_CHECKS: list[SetCheck] = []

