"""What a run keeps: the per-run ``State`` (in ``config.stash``) and each item's ``TaskCase``.

This module imports no other module of the plugin, so every one of them may import it. The
hooks make the state at configure; fixtures receive it from the session fixture
``agenteval_state``, never by importing the hooks.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.containment import Containment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import TaskProblem
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader
from pytest_agenteval.tasks.model import Task


@dataclass(frozen=True, kw_only=True)
class TaskCase:
    """One episode to run: a task from a file, and which of the K runs it is (the test's parameter)."""

    loaded: LoadedTask
    run: int

    @property
    def task(self) -> Task:
        return self.loaded.task

    def __repr__(self) -> str:
        # Reporters that show parameters (allure) print this, not the whole task line.
        return f"{self.loaded.task_id} run {self.run}"


class AgentsSeen:
    """Agent instances already given to an episode (weakly held: they may go once it ends)."""

    def __init__(self) -> None:
        self._weak: weakref.WeakSet[Any] = weakref.WeakSet()
        self._strong: dict[int, Any] = {}  # objects that cannot be weakly referenced

    def add(self, agent: Any) -> bool:
        """False if ``agent`` was given to an episode before."""
        try:
            if agent in self._weak:
                return False
            self._weak.add(agent)
        except TypeError:
            if id(agent) in self._strong:
                return False
            self._strong[id(agent)] = agent
        return True


class EpisodesAhead(Protocol):
    """``--agenteval-concurrency`` above 1 (``concurrency.Ahead``): episodes in flight per process."""

    concurrency: int

    def play(self, item: pytest.Item, case: TaskCase, factory: Any, on_interrupt: Any) -> Grade: ...

    def close(self) -> None: ...


@dataclass(kw_only=True)
class State:
    """Per-run state, kept in ``config.stash[STATE]``."""

    agent: Any
    agent_spec: str | None
    runs: int
    time_limit: float | None
    isolate: bool
    pool: EnvironmentPool
    loader: TaskLoader
    explicit: set[Path]
    agent_described: str = ""  # what the header and the run record name as the agent
    judge_described: str = ""  # the --agenteval-judge in use, for the header and the run record ("": none)
    agents_seen: AgentsSeen = field(default_factory=AgentsSeen)
    markers: set[str] = field(default_factory=set)
    marker_lines: set[str] = field(default_factory=set)  # the ``markers`` ini lines we added
    task_files: dict[str, int] = field(default_factory=dict)
    task_hashes: dict[str, str] = field(default_factory=dict)
    task_data: dict[str, bytes] = field(default_factory=dict)  # the bytes hashed, until collected
    file_problems: dict[str, TaskProblem] = field(default_factory=dict)  # task files that cannot be read
    ahead: EpisodesAhead | None = None  # --agenteval-concurrency above 1
    containment: Containment | None = None  # --agenteval-isolate: the level in force
    budget: Budget | None = None  # the usage budget of each episode, and its price table
    labels: dict[str, str] = field(default_factory=dict)  # --agenteval-label key=value
    endpoint: str | None = None  # the model endpoint's base URL, where the agent or environment says it
    git: dict[str, Any] | None = None  # the project's commit and dirty flag (controller only)
    resumed: Any = None  # --agenteval-resume: the file's episodes (report.resume.Resumed)


STATE = pytest.StashKey[State]()
