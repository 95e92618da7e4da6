"""The public fixtures. Override ``agent`` (or any other) in your conftest.py.

The run's state comes from the session fixture ``agenteval_state`` (defined with the hooks),
as pytest-django hands out its database blocker: this module never imports the hooks.

The function-scoped fixtures take the session ones through ``request.getfixturevalue``, not as
arguments: pytest adds a finalizer to every fixture a fixture names as an argument, and a
session fixture keeps those until the session ends (three per episode, ~1.8 KiB with the
``SubRequest`` each holds). Fetched from the body they are the same objects (overrides
included), and nothing is left behind."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.plugin.state import State, TaskCase
from pytest_agenteval.tasks.model import Task


@pytest.fixture(scope="session")
def agenteval_pool(agenteval_state: State) -> EnvironmentPool:
    """The environments of this process, one per name; scenarios are built once each."""
    return agenteval_state.pool


@pytest.fixture
def task(agenteval_case: TaskCase) -> Task:
    """The task of this test item (parametrize ``task`` directly in your own tests)."""
    return agenteval_case.task


@pytest.fixture
def env(task: Task, request: pytest.FixtureRequest) -> Iterator[Environment]:
    """The task's environment, reset to its scenario with the task's overrides applied.

    When the test ends, so does the episode: calls made for it from then on are refused."""
    pool: EnvironmentPool = request.getfixturevalue("agenteval_pool")
    environment = pool.get(task.environment)
    environment.reset(task.scenario_seed, task=task)
    yield environment
    environment.end_episode()


@pytest.fixture
def reset(env: Environment, task: Task) -> Callable[..., None]:
    """``reset()`` restores this task's scenario again; ``reset(seed)`` a bare scenario.

    A reset starts a new episode: an ``episode`` handle made before it is over."""

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
def agent(request: pytest.FixtureRequest) -> Any:
    """The agent factory from ``--agent``. Override it in conftest.py to return your own agent
    class, zero-argument factory, or a fresh instance per episode (see the README)."""
    factory = _state(request).agent
    if factory is None:
        pytest.fail("no agent to evaluate: pass --agent=MODULE:ATTR or define an `agent` fixture",
                    pytrace=False)
    return factory


@pytest.fixture
def episode(env: Environment, task: Task, agenteval_case: TaskCase, request: pytest.FixtureRequest
            ) -> Iterator[Episode]:
    """The episode the agent acts in: instruction, tools, ``call``. Closed when the test ends,
    however it ends."""
    handle = Episode(env, task, run=agenteval_case.run, budget=_state(request).budget)
    yield handle
    handle.close()


def _state(request: pytest.FixtureRequest) -> State:
    state: State = request.getfixturevalue("agenteval_state")
    return state
