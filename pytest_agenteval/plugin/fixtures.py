"""The public fixtures. Override ``agent`` (or any other) in your conftest.py."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_agenteval.agents.episode import Episode, play
from pytest_agenteval.agents.loading import is_builtin
from pytest_agenteval.agents.sandbox import IsolatedAgent
from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.engine.registry import EnvironmentPool
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.plugin.reruns import rerun_message, will_rerun
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY, PASSED_PROPERTY, report_checks
from pytest_agenteval.plugin.timeouts import episode_time_limit
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
def env(task: Task, agenteval_pool: EnvironmentPool) -> Iterator[Environment]:
    """The task's environment, reset to its scenario with the task's overrides applied.

    When the test ends, so does the episode: calls made for it from then on are refused."""
    environment = agenteval_pool.get(task.environment)
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
def agent(pytestconfig: pytest.Config) -> Any:
    """The agent factory from ``--agent``. Override it in conftest.py to return your own agent
    class, zero-argument factory, or a fresh instance per episode (see the README)."""
    factory = _state(pytestconfig).agent
    if factory is None:
        pytest.fail("no agent to evaluate: pass --agent=MODULE:ATTR or define an `agent` fixture",
                    pytrace=False)
    return factory


@pytest.fixture
def episode(env: Environment, task: Task, agenteval_case: TaskCase) -> Iterator[Episode]:
    """The episode the agent acts in: instruction, tools, ``call``. Closed when the test ends,
    however it ends."""
    handle = Episode(env, task, run=agenteval_case.run)
    yield handle
    handle.close()


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


def as_factory(agent: Any, seen: AgentsSeen) -> Any:
    """What the ``agent`` fixture returned, as the runner's factory.

    A class or a zero-argument factory makes a new agent per episode. An instance (an object
    with ``run``) is this episode's agent, used once: given to a second episode (a wider-scoped
    fixture, a module-level object) it would carry that episode the state the first one left,
    so that fails the test. To share one stateless instance on purpose, return ``lambda: it``.
    """
    if isinstance(agent, type) or hasattr(agent, "for_task") or isinstance(agent, IsolatedAgent):
        return agent
    if callable(getattr(agent, "run", None)):
        if not seen.add(agent):
            pytest.fail(f"the `agent` fixture gave the same {type(agent).__name__} instance to a second episode, "
                        "which would see the state the first one left (return a new instance each time from a "
                        "function-scoped fixture, or return the class or a factory)", pytrace=False)
        return lambda: agent
    if callable(agent):
        return agent
    article = "an" if type(agent).__name__[:1] in "aeiou" else "a"
    pytest.fail(f"the `agent` fixture returned {agent!r:.60} ({article} {type(agent).__name__}): return an agent "
                "class, a zero-argument factory, or an agent instance with a run(episode) method", pytrace=False)


def play_and_report(request: pytest.FixtureRequest, case: TaskCase, env: Environment,
                    episode: Episode, agent: Any, subtests: Any) -> None:
    """Run the agent, record the grade, then report each check as a subtest."""
    state = _state(request.config)
    if state.isolate and not isinstance(agent, type) and callable(getattr(agent, "run", None)):
        pytest.fail(f"--agenteval-isolate cannot run a {type(agent).__name__} instance in a separate process "
                    "(make the `agent` fixture return its class or a module-level factory)", pytrace=False)
    instance = not isinstance(agent, type) and callable(getattr(agent, "run", None))
    agent = as_factory(agent, state.agents_seen)
    if state.isolate and not is_builtin(agent) and not isinstance(agent, IsolatedAgent):
        try:  # an agent from a conftest fixture: isolate it by its importable name
            agent = IsolatedAgent.of(agent, request.config.rootpath)
        except ValueError as exc:
            pytest.fail(str(exc), pytrace=False)
    limit, timeout_detail = episode_time_limit(request.node, state.time_limit)

    def record(grade: Grade) -> None:
        # Before any subtest runs, so every reporter (and plugin_outcomes' failure message) has it.
        # Replacing, not adding: a rerun plugin runs the item again with the same properties.
        node = request.node
        node.user_properties[:] = [p for p in node.user_properties if p[0] not in (GRADE_PROPERTY, PASSED_PROPERTY)]
        node.user_properties.append((GRADE_PROPERTY, grade.model_dump_json()))

    if state.ahead is not None and not state.isolate and not instance:
        # Played in an environment instance of its own, alongside the next items' episodes.
        episode.close()
        grade = state.ahead.play(request.node, case, agent, on_interrupt=record)
    else:
        grade = play(env, case.task, episode, agent, run=case.run, time_limit=limit,
                     timeout_detail=timeout_detail, on_interrupt=record)
    record(grade)
    if not grade.passed:
        message = rerun_message(case.task.task_id, grade.checks)
        if will_rerun(request.node):
            pytest.fail(message, pytrace=False)
    report_checks(request, subtests, grade.checks)
