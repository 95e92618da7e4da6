"""Play one episode in this thread's turn: drive an agent through it (on an agent thread, or in
a sandbox of its own process, within its time limit), then grade it (``driver`` says how)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.driver import (
    AgentThreads,
    Outcome,
    conclude,
    ended,
    from_sandbox,
    interruption,
    make_and_run,
    timed_out,
    wait,
)
from pytest_agenteval.agents.episode import DEFAULT_TIME_LIMIT, AgentFactory, Episode, TaskAwareFactory
from pytest_agenteval.agents.sandbox import IsolatedAgent, run_isolated
from pytest_agenteval.errors import EnvironmentBug, JudgeError

if TYPE_CHECKING:
    from pytest_agenteval.environments.base import Environment
    from pytest_agenteval.grading.grade import Grade
    from pytest_agenteval.tasks.model import Task


def run_episode(
    env: Environment, task: Task, factory: AgentFactory | TaskAwareFactory, *,
    run: int = 1, time_limit: float | None = DEFAULT_TIME_LIMIT, budget: Budget | None = None,
) -> Grade:
    """Reset, let the agent act, grade. The agent failing fails its own episode only.

    ``factory``: the agent's class, or a zero-argument function that makes one (a new agent
    per episode), or an ``IsolatedAgent`` (a sandbox of its own per episode). An environment
    that fails raises ``EnvironmentBug`` instead of a grade.
    ``budget``: the episode's usage limits and price table (``agents.budget``)."""
    if not callable(factory) and not hasattr(factory, "for_task") and not isinstance(factory, IsolatedAgent):
        raise TypeError(f"run_episode needs the agent's class or a zero-argument factory, not an instance of "
                        f"{type(factory).__name__} (pass {type(factory).__name__} or lambda: agent)")
    env.reset(task.scenario_seed, task=task)
    return play(env, task, Episode(env, task, run=run, budget=budget), factory, run=run, time_limit=time_limit)


def play(
    env: Environment, task: Task, episode: Episode, factory: Any, *,
    run: int, time_limit: float | None, timeout_detail: str | None = None,
    on_interrupt: Callable[[Grade], None] | None = None,
) -> Grade:
    """Drive the agent through an episode already reset, close it, and grade it.

    If something stops the harness while the agent runs (pytest-timeout's signal, Ctrl-C, any
    exception raised in this thread), the episode is closed all the same, its agent's thread
    is left behind, the episode is graded as ``agent_timeout`` or ``interrupted`` (or as the
    agent's own end, if it came before) and handed to ``on_interrupt``, and the exception goes on.
    """
    outcome: Outcome = None
    agent_done = False
    try:
        outcome = drive(factory, task, episode, time_limit, timeout_detail)
        agent_done = True
        return conclude(env, run, episode, outcome)
    except EnvironmentBug as exc:
        episode.close()
        if not isinstance(exc, JudgeError):  # grading itself raised that one: asking the judge again costs
            env.grade(run=run)  # raises the environment's bug as grading states it (the crash is recorded)
        raise  # (only if the engine's own raise did not record it)
    except BaseException as exc:
        episode.close()
        if on_interrupt is not None:
            with contextlib.suppress(EnvironmentBug):  # no grade to hand over; the interruption goes on
                on_interrupt(conclude(env, run, episode, outcome if agent_done else interruption(exc)))
        raise


def drive(factory: Any, task: Task, episode: Episode, time_limit: float | None,
          timeout_detail: str | None = None) -> Outcome:
    """Run the agent on an agent thread (or in its sandbox, served from this one), so a time
    limit holds even if it never returns control, and whatever stops this thread (a signal,
    Ctrl-C) never runs inside the agent's code."""
    if isinstance(factory, IsolatedAgent):
        return from_sandbox(run_isolated(factory, episode, time_limit), time_limit, timeout_detail)
    done, error = threading.Event(), []

    def job() -> None:
        error.append(make_and_run(factory, task, episode))
        done.set()

    token = _THREADS.run(job)
    try:
        if not wait(done, time_limit):
            _THREADS.retire(token)
            return timed_out(time_limit, timeout_detail)
    except BaseException:
        _THREADS.retire(token)
        raise
    return ended(error[0])


_THREADS = AgentThreads()
