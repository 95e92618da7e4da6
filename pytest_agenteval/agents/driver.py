"""One episode driver: what every placement of an agent shares.

An agent's ``run(episode)`` runs in one of three places: a thread (``AgentThreads``: a serial
run's agent, or a sync agent in flight), the event loop of ``inflight`` (an async agent in
flight), or a sandbox of its own process (``sandbox.run_isolated``). They differ only in where
the agent's code runs. What they share is here, decided once: the agent is made where it runs
and within its time limit; how its end is read (returned, raised, ran out of steps, ran past
its time, was stopped from outside); and how the episode is closed and graded.
"""

from __future__ import annotations

import contextlib
import inspect
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.episode import Episode, agent_run, over_time
from pytest_agenteval.agents.errored import AgentError, errored_by
from pytest_agenteval.errors import EpisodeOver

if TYPE_CHECKING:
    from pytest_agenteval.environments.base import Environment
    from pytest_agenteval.grading.grade import Grade
    from pytest_agenteval.tasks.model import Task

# How an agent's episode ended, for grading: None (it returned, or its step budget ended it:
# the engine has recorded that), (label, detail) when it failed, or its error when it raised.
Outcome = tuple[str, str] | AgentError | None

# A signal that arrives just before a thread blocks in a wait is handled only when the wait
# ends, so waits are cut into slices: pytest-timeout's signal or Ctrl-C lands within one.
WAIT_SLICE = 0.25


def make_and_run(factory: Any, task: Task, episode: Episode) -> BaseException | None:
    """Make the agent and run it to its end on this thread; what it raised, if anything."""
    try:
        run = agent_run(factory, task)
    except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
        return exc
    return run_to_end(run, episode)


def run_to_end(run: Callable[[Episode], Any], episode: Episode) -> BaseException | None:
    """Run the agent's ``run`` on this thread (a coroutine it returns to its end too); what it
    raised, if anything."""
    try:
        result = run(episode)
        if inspect.isawaitable(result):
            import asyncio  # only async agents need it: ~25 ms per process otherwise

            asyncio.run(_await(result))
    except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
        return exc
    return None


def ended(error: BaseException | None) -> Outcome:
    """What the agent's own end means: raising ``EpisodeOver`` is ending as the engine said
    (its step budget: recorded, graded ``step_limit``); any other exception errs the episode."""
    return None if error is None or isinstance(error, EpisodeOver) else errored_by(error)


def timed_out(time_limit: float | None, detail: str | None = None) -> tuple[str, str]:
    return "agent_timeout", over_time(time_limit, detail)


def from_sandbox(outcome: Outcome, time_limit: float | None, detail: str | None) -> Outcome:
    """A sandbox's outcome, its time-out said as every placement says it."""
    return timed_out(time_limit, detail) if isinstance(outcome, tuple) and outcome[0] == "agent_timeout" else outcome


def conclude(env: Environment, run: int, episode: Episode, outcome: Outcome) -> Grade:
    """Close the episode (every later call refused) and grade it: failed as ``outcome`` says
    (``over_budget`` if the usage budget ended it), or errored (``Grade.error``)."""
    try:
        outcome = episode.failure(outcome)
    finally:
        episode.close()
    if not isinstance(outcome, AgentError):
        return with_usage(env.grade(run=run, agent_failure=outcome), episode)
    state = env.episode
    if env.diff() or state.conversation or state.forbidden or state.over_budget:
        # It changed the world before it raised (a message the user heard is done too: red team
        # 22), or did what a task forbids (a forbidden action, its steps used up: red team 28):
        # graded as it stands, failed. Errored episodes are run again (--agenteval-resume), so an
        # agent that did wrong and then raised (or said its provider failed) would have its
        # mistake replaced by a fresh try (red team 20).
        return with_usage(env.grade(run=run, agent_failure=outcome.as_failure()), episode)
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


def wait(done: threading.Event, time_limit: float | None) -> bool:
    """Wait for ``done`` for up to ``time_limit`` seconds (0 or None: no limit), in slices."""
    deadline = time.monotonic() + time_limit if time_limit else None
    while True:
        left = WAIT_SLICE if deadline is None else min(deadline - time.monotonic(), WAIT_SLICE)
        if left <= 0:
            return done.is_set()
        if done.wait(left):
            return True


def left_behind() -> None:
    """An agent was left running (past its time limit, or stopped): its threads cannot be killed.
    Daemon threads never hold the process at exit, but Python waits at exit for every
    ``ThreadPoolExecutor`` thread, so an agent's hung pool job (a model call that never answers)
    would keep the process alive after its run forever: once any agent is left behind, this
    process stops waiting for pool threads at exit."""
    global _LEFT
    if _LEFT:
        return
    _LEFT = True
    register = getattr(threading, "_register_atexit", None)  # runs before concurrent.futures' own
    if register is not None:
        with contextlib.suppress(RuntimeError):  # already shutting down
            register(_release_pools)


_LEFT = False


def _release_pools() -> None:
    futures = sys.modules.get("concurrent.futures.thread")
    if futures is not None:
        futures._threads_queues.clear()


_Job = tuple[Callable[..., None], tuple[Any, ...]]


class AgentThreads:
    """Daemon threads for agents' code, reused: a thread whose job returned waits for the next.

    Starting a thread per episode costs more than the episode's own work under load. An agent
    that overstays its time limit, or whose wait was interrupted, keeps its thread until it
    returns, never a slot of anything; its calls are refused meanwhile. Daemon threads never
    block exit."""

    def __init__(self) -> None:
        self._idle: list[queue.SimpleQueue[_Job | None]] = []
        self._retired: set[queue.SimpleQueue[_Job | None]] = set()
        self._lock = threading.Lock()
        self._closed = False

    def run(self, job: Callable[..., None], *args: Any) -> object:
        """Run ``job(*args)`` on an idle thread, or a new one; returns at once, with a token
        for ``retire``."""
        with self._lock:
            jobs = self._idle.pop() if self._idle else None
        if jobs is None:
            jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(jobs,), name="agenteval-agent", daemon=True).start()
        jobs.put((job, args))
        return jobs

    def retire(self, token: object) -> None:
        """The thread of ``token``'s job ends once that job returns (its agent was abandoned:
        a serial run does not wait on it again), instead of waiting for more work."""
        left_behind()
        with self._lock:
            self._retired.add(token)  # type: ignore[arg-type]

    def close(self) -> None:
        """Idle threads end now; busy ones once their job returns."""
        with self._lock:
            idle, self._idle, self._closed = self._idle, [], True
        for jobs in idle:
            jobs.put(None)

    def _serve(self, jobs: queue.SimpleQueue[_Job | None]) -> None:
        while (item := jobs.get()) is not None:
            job, args = item
            job(*args)
            with self._lock:
                if self._closed or jobs in self._retired:
                    self._retired.discard(jobs)
                    return
                self._idle.append(jobs)


async def _await(awaitable: Any) -> Any:
    return await awaitable
