"""Play one episode: drive an agent through it (on a thread, within its time limit, or in its
own process), then grade it with what the harness saw of the agent."""

from __future__ import annotations

import contextlib
import inspect
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.episode import (
    DEFAULT_TIME_LIMIT,
    AgentFactory,
    Episode,
    TaskAwareFactory,
    agent_run,
    over_time,
)
from pytest_agenteval.agents.errored import AgentError, errored_by
from pytest_agenteval.agents.sandbox import IsolatedAgent, run_isolated
from pytest_agenteval.errors import EnvironmentBug, EpisodeOver, JudgeError

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
    per episode). An environment that fails raises ``EnvironmentBug`` instead of a grade.
    ``budget``: the episode's usage limits and price table (``agents.budget``)."""
    if not callable(factory) and not hasattr(factory, "for_task"):
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
    is left behind for a fresh one, the episode is graded as ``agent_timeout`` or ``interrupted``
    and handed to ``on_interrupt``, and the exception goes on.
    """
    agent_done = False
    failure: tuple[str, str] | None = None
    try:
        outcome = episode.failure(drive(factory, task, episode, time_limit, timeout_detail))
        agent_done = True
        episode.close()
        return graded(env, run, outcome, episode)
    except EnvironmentBug as exc:
        episode.close()
        if not isinstance(exc, JudgeError):  # grading itself raised that one: asking the judge again costs
            env.grade(run=run)  # raises the environment's bug as grading states it (the crash is recorded)
        raise  # (only if the engine's own raise did not record it)
    except BaseException as exc:
        episode.close()
        if not agent_done:  # stopped while grading: the agent's own outcome stands
            failure = interruption(exc)
        if on_interrupt is not None:
            with contextlib.suppress(EnvironmentBug):  # no grade to hand over; the interruption goes on
                on_interrupt(with_usage(env.grade(run=run, agent_failure=failure), episode))
        raise


def graded(env: Environment, run: int, outcome: tuple[str, str] | AgentError | None, episode: Episode) -> Grade:
    """The episode's grade: failed as ``agent_failure`` says, or errored (``Grade.error``)."""
    if not isinstance(outcome, AgentError):
        return with_usage(env.grade(run=run, agent_failure=outcome), episode)
    grade = with_usage(env.grade(run=run, agent_failure=outcome.as_failure()), episode)
    grade = grade.model_copy(update={"error": outcome.to_json()})
    grade._exception = outcome.exception
    return grade


def with_usage(grade: Grade, episode: Episode) -> Grade:
    """The grade with what the agent reported of its model use, if anything."""
    usage, transcript = episode._ledger.usage(), episode._ledger.transcript()
    if usage is None and transcript is None:
        return grade
    return grade.model_copy(update={"usage": usage, "transcript": transcript})


def interruption(exc: BaseException) -> tuple[str, str]:
    """How an episode stopped from outside is labelled: pytest-timeout's stop is a timeout."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if "pytest-timeout" in text:
        return "agent_timeout", f"pytest-timeout stopped the test while the agent ran: {what}"[:500]
    return "interrupted", f"the test was stopped while the agent ran: {what}"[:500]


def drive(factory: Any, task: Task, episode: Episode, time_limit: float | None,
          timeout_detail: str | None = None) -> tuple[str, str] | AgentError | None:
    """Run the agent in a thread, so a time limit holds even if it never returns control, and
    so whatever stops this thread (a signal, Ctrl-C) never runs inside the agent's code."""
    over = over_time(time_limit, timeout_detail)
    if isinstance(factory, IsolatedAgent):
        failure = run_isolated(factory, episode, time_limit)
        return ("agent_timeout", over) if isinstance(failure, tuple) and failure[0] == "agent_timeout" else failure
    box: dict[str, BaseException] = {}

    def target() -> None:
        try:
            result = agent_run(factory, task)(episode)
            if inspect.isawaitable(result):
                import asyncio  # only async agents need it: ~25 ms per process otherwise

                asyncio.run(_await(result))
        except EpisodeOver:
            pass  # the engine has recorded why (step budget); graded as step_budget
        except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
            box["error"] = exc

    if not _WORKER.run(target, time_limit):
        return "agent_timeout", over
    if "error" in box:
        return errored_by(box["error"])
    return None


class _Worker:
    """One daemon thread reused across episodes (a thread start per episode costs more).

    An agent that overstays its time limit, or whose wait is interrupted (a signal, Ctrl-C),
    keeps its thread: that thread is abandoned, told to exit once its agent returns, and a
    fresh one serves the next episode. Daemon threads never block exit.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event] | None] | None = None

    def run(self, job: Callable[[], None], time_limit: float | None) -> bool:
        """Run ``job`` on the worker; False if it did not finish within ``time_limit``."""
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(self._jobs,), name="agenteval-agent", daemon=True).start()
        jobs, done = self._jobs, threading.Event()
        try:
            jobs.put((job, done))
            if _wait(done, time_limit):
                return True
        except BaseException:
            self._abandon(jobs)
            raise
        self._abandon(jobs)
        return False

    def _abandon(self, jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event] | None]) -> None:
        if self._jobs is jobs:
            self._jobs = None
        jobs.put(None)  # the abandoned thread exits when its agent returns

    @staticmethod
    def _serve(jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event] | None]) -> None:
        while (item := jobs.get()) is not None:
            job, done = item
            try:
                job()
            finally:
                done.set()


_WORKER = _Worker()

# A signal that arrives just before this thread blocks in a wait is handled only when the wait
# ends, so waits are cut into slices: pytest-timeout's signal or Ctrl-C lands within one.
WAIT_SLICE = 0.25


def _wait(done: threading.Event, time_limit: float | None) -> bool:
    """Wait for ``done`` for up to ``time_limit`` seconds (0 or None: no limit)."""
    deadline = time.monotonic() + time_limit if time_limit else None
    while True:
        left = WAIT_SLICE if deadline is None else min(deadline - time.monotonic(), WAIT_SLICE)
        if left <= 0:
            return done.is_set()
        if done.wait(left):
            return True


async def _await(awaitable: Any) -> Any:
    return await awaitable
