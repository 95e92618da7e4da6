"""The public fixtures. Override ``agent`` (or any other) in your conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_agenteval.agents.episode import Episode, play
from pytest_agenteval.agents.loading import is_builtin
from pytest_agenteval.agents.sandbox import IsolatedAgent
from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.engine.registry import EnvironmentPool
from pytest_agenteval.plugin_checks import GRADE_PROPERTY, report_checks
from pytest_agenteval.tasks.loader import LoadedTask
from pytest_agenteval.tasks.model import Task


@dataclass(frozen=True, kw_only=True)
class TaskCase:
    """One episode to run: a task from a file, and which of the K runs it is."""

    loaded: LoadedTask
    run: int

    @property
    def task(self) -> Task:
        return self.loaded.task

    def __repr__(self) -> str:
        # Reporters that show parameters (allure) print this, not the whole task line.
        return f"{self.loaded.task_id} run {self.run}"


def _state(config: pytest.Config) -> Any:
    from pytest_agenteval.plugin import STATE

    return config.stash[STATE]


@pytest.fixture(scope="session")
def agenteval_pool(pytestconfig: pytest.Config) -> EnvironmentPool:
    """The environments of this process, one per name; scenarios are built once each."""
    return _state(pytestconfig).pool


@pytest.fixture
def task(agenteval_case: TaskCase) -> Task:
    """The task of this test item (parametrize ``task`` directly in your own tests)."""
    return agenteval_case.task


@pytest.fixture
def env(task: Task, agenteval_pool: EnvironmentPool) -> Environment:
    """The task's environment, reset to its scenario with the task's overrides applied."""
    environment = agenteval_pool.get(task.environment)
    environment.reset(task.scenario_seed, task=task)
    return environment


@pytest.fixture
def reset(env: Environment, task: Task) -> Callable[..., None]:
    """``reset()`` restores this task's scenario again; ``reset(seed)`` a bare scenario."""

    def _reset(scenario_seed: int | None = None) -> None:
        if scenario_seed is None or scenario_seed == task.scenario_seed:
            env.reset(task.scenario_seed, task=task)
        else:
            env.reset(scenario_seed)

    return _reset


@pytest.fixture
def apply(env: Environment) -> Callable[..., dict[str, Any]]:
    """``apply(action, arguments)``: run one action in the task's environment."""
    return env.apply


@pytest.fixture
def agent(pytestconfig: pytest.Config) -> Any:
    """The agent factory from ``--agent``; override this fixture to supply your own."""
    factory = _state(pytestconfig).agent
    if factory is None:
        pytest.fail("no agent to evaluate: pass --agent=MODULE:ATTR or define an `agent` fixture",
                    pytrace=False)
    return factory


@pytest.fixture
def episode(env: Environment, task: Task, agenteval_case: TaskCase) -> Episode:
    """The episode the agent acts in: instruction, tools, ``call``."""
    return Episode(env, task, run=agenteval_case.run)


def play_and_report(request: pytest.FixtureRequest, case: TaskCase, env: Environment,
                    episode: Episode, agent: Any, subtests: Any) -> None:
    """Run the agent, record the grade, then report each check as a subtest."""
    state = _state(request.config)
    if state.isolate and not is_builtin(agent) and not isinstance(agent, IsolatedAgent):
        try:  # an agent from a conftest fixture: isolate it by its importable name
            agent = IsolatedAgent.of(agent, request.config.rootpath)
        except ValueError as exc:
            pytest.fail(str(exc), pytrace=False)
    grade = play(env, case.task, episode, agent, run=case.run, time_limit=state.time_limit)
    # Recorded before any subtest runs, so -x (which stops at the first failed check) loses nothing.
    request.node.user_properties.append((GRADE_PROPERTY, grade.model_dump_json()))
    report_checks(request, subtests, grade.checks)
