"""Many episodes in flight in one process: async agents on one event loop, sync agents on threads.

Each episode gets an environment instance of its own (its own connection to its scenario),
checked out of a spare list per environment name and returned when the episode is graded, so
at most ``concurrency`` instances per name exist. Nothing here imports pytest: a harness of its
own can start flights and wait for their grades.

One daemon thread runs the event loop: it resets, grades (the harness's own work, < 1 ms per
episode) and runs the agents whose ``run`` is ``async def``. Every agent is made on an agent
thread of ``driver.AgentThreads`` (a constructor that blocks must not stop the loop), where a
sync agent then runs its episode; an agent that never returns keeps its thread, never a pool
slot. The placements share ``driver``'s reading of how an agent ended, and its grading.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.driver import (
    AgentThreads,
    Outcome,
    conclude,
    ended,
    from_sandbox,
    left_behind,
    run_to_end,
    timed_out,
)
from pytest_agenteval.agents.episode import Episode, agent_run
from pytest_agenteval.agents.sandbox import IsolatedAgent, run_isolated

if TYPE_CHECKING:
    from pytest_agenteval.environments.base import Environment
    from pytest_agenteval.grading.grade import Grade
    from pytest_agenteval.tasks.model import Task


@dataclass(eq=False, kw_only=True)
class Flight:
    """One episode in flight. ``done`` is set once it is graded (or failed to be)."""

    task: Task
    run: int
    factory: Any
    time_limit: float | None
    timeout_detail: str | None = None
    delay: float = 0.0  # seconds to wait before the episode starts
    done: threading.Event = field(default_factory=threading.Event)
    grade: Grade | None = None
    error: BaseException | None = None  # a harness failure (reset, grading), not the agent's
    _stop: Any = None  # asyncio.Future on the loop: set to (label, detail) to stop the agent
    _stopped: tuple[str, str] | None = None

    def result(self) -> Grade:
        if self.error is not None:
            raise self.error
        assert self.grade is not None
        return self.grade


class InFlight:
    """Runs episodes concurrently; ``start`` returns at once, ``Flight.done`` tells when graded."""

    def __init__(self, make_env: Callable[[str], Environment], budget: Budget | None = None,
                 on_end: Callable[[], None] | None = None) -> None:
        self._make_env = make_env
        self._budget = budget
        self._on_end = on_end  # called on the loop's thread as each episode ends (a slot is free)
        self._spare: dict[str, list[Environment]] = {}
        self._all: list[Environment] = []
        self._flying: set[Flight] = set()
        self.mean_episode: float | None = None  # seconds from an episode's start to its grade (moving mean)
        self._threads = AgentThreads()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="agenteval-inflight", daemon=True)
        self._thread.start()

    @property
    def environments(self) -> int:
        """Environment instances made so far (one per concurrent slot and name at most)."""
        return len(self._all)

    def start(self, task: Task, run: int, factory: Any, *, time_limit: float | None,
              timeout_detail: str | None = None, delay: float = 0.0) -> Flight:
        flight = Flight(task=task, run=run, factory=factory, time_limit=time_limit, timeout_detail=timeout_detail,
                        delay=delay)
        asyncio.run_coroutine_threadsafe(self._fly(flight), self._loop)
        return flight

    def stop(self, flight: Flight, label: str, detail: str) -> None:
        """Stop the agent (its episode is closed and graded with ``label``); returns at once."""
        self._loop.call_soon_threadsafe(self._stop_now, flight, (label, detail))

    def close(self) -> None:
        """Stop every flight, wait briefly for their grading, close every environment."""
        self._on_end = None  # what ends now frees no slot for another
        for flight in list(self._flying):
            self.stop(flight, "interrupted", "the session ended before this episode's test ran")
        for flight in list(self._flying):
            flight.done.wait(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()
        self._threads.close()
        for env in self._all:
            env.close()
        self._all.clear()
        self._spare.clear()

    # ----- on the loop thread ---------------------------------------------------------

    @staticmethod
    def _stop_now(flight: Flight, why: tuple[str, str]) -> None:
        if flight._stopped is None:
            flight._stopped = why
        if flight._stop is not None and not flight._stop.done():
            flight._stop.set_result(why)

    async def _fly(self, flight: Flight) -> None:
        self._flying.add(flight)
        flight._stop = self._loop.create_future()
        if flight._stopped is not None:
            flight._stop.set_result(flight._stopped)
        if flight.delay > 0:
            await asyncio.wait({flight._stop}, timeout=flight.delay)
        name = flight.task.environment
        spare = self._spare.setdefault(name, [])
        env, began = None, self._loop.time()
        try:
            env = spare.pop() if spare else self._new_env(name)
            env.reset(flight.task.scenario_seed, task=flight.task)
            episode = Episode(env, flight.task, run=flight.run, budget=self._budget)
            try:
                outcome = await self._drive(flight, episode)
            except BaseException:
                episode.close()
                raise
            flight.grade = conclude(env, flight.run, episode, outcome)
        except BaseException as exc:  # noqa: BLE001 - handed to the test that waits for it
            flight.error = exc
        finally:
            if env is not None:
                spare.append(env)  # the next reset ends this episode for any agent left behind
            self._flying.discard(flight)
            took = self._loop.time() - began
            self.mean_episode = took if self.mean_episode is None else 0.9 * self.mean_episode + 0.1 * took
            flight.done.set()
            on_end = self._on_end  # read once: close() may clear it meanwhile
            if on_end is not None:
                on_end()

    def _new_env(self, name: str) -> Environment:
        env = self._make_env(name)
        self._all.append(env)
        return env

    async def _drive(self, flight: Flight, episode: Episode) -> Outcome:
        """The agent is made on an agent thread (a constructor may block: never on the loop),
        within the time limit; a sync agent runs on there too, an async one here."""
        loop = self._loop
        if isinstance(flight.factory, IsolatedAgent):
            return await self._drive_isolated(flight, episode)
        deadline = None if not flight.time_limit else loop.time() + flight.time_limit
        made: asyncio.Future[Any] = loop.create_future()
        self._threads.run(_on_thread, _make_then_run_if_sync, (flight.factory, flight.task, episode), loop, made)
        stopped = await self._until(flight, made, deadline)
        if stopped is not None:
            return stopped
        if made.exception() is not None:
            return ended(made.exception())
        if made.result() is None:  # a sync agent: it ran to its end on its thread
            return None
        work = loop.create_task(_contained(made.result()(episode)))
        stopped = await self._until(flight, work, deadline)  # cancelled if it is stopped first
        if stopped is not None:
            return stopped
        return ended(asyncio.CancelledError() if work.cancelled() else work.result())

    async def _drive_isolated(self, flight: Flight, episode: Episode) -> Outcome:
        """An isolated agent: its child is served from a thread, and told to end when stopped."""
        cancel, work = threading.Event(), self._loop.create_future()
        self._threads.run(_on_thread, run_isolated, (flight.factory, episode, flight.time_limit, cancel),
                          self._loop, work)
        stopped = await self._until(flight, work, None)  # the child keeps its own time limit
        if stopped is not None:
            cancel.set()  # the child is killed within one wait slice; its thread then comes back
            return stopped
        return from_sandbox(work.result(), flight.time_limit, flight.timeout_detail)

    async def _until(self, flight: Flight, work: asyncio.Future[Any], deadline: float | None) -> tuple[str, str] | None:
        """Wait for ``work``; if the flight is stopped or its time is up first, cancel it (an
        async agent; a thread is left behind, its calls refused) and say why."""
        left = None if deadline is None else max(deadline - self._loop.time(), 0.0)
        done, _ = await asyncio.wait({work, flight._stop}, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        if work in done and (deadline is None or self._loop.time() <= deadline):
            return None
        if work in done and flight._stop not in done:  # an async agent that blocked the loop (time.sleep)
            return timed_out(flight.time_limit, flight.timeout_detail)  # past its limit held the timer too
        work.cancel()
        left_behind()
        if flight._stop in done:
            return flight._stop.result()  # type: ignore[no-any-return]
        return timed_out(flight.time_limit, flight.timeout_detail)


def _make_then_run_if_sync(factory: Any, task: Task, episode: Episode) -> Any:
    """Make the agent; a sync one runs to its end here (its error raised), an async one's
    ``run`` is returned for the loop to run."""
    run = agent_run(factory, task)
    if inspect.iscoroutinefunction(run):
        return run
    error = run_to_end(run, episode)
    if error is not None:
        raise error
    return None


async def _contained(run: Any) -> BaseException | None:
    """The agent's coroutine to its end; what it raised, returned. A task that raises
    ``SystemExit`` or ``KeyboardInterrupt`` re-raises it out of the event loop, which would end
    the loop's thread and leave every episode in flight ungraded."""
    try:
        await run
    except asyncio.CancelledError:
        raise  # stopped from outside: ``_until`` says why
    except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
        return exc
    return None


def _on_thread(fn: Any, args: tuple[Any, ...], loop: asyncio.AbstractEventLoop, work: asyncio.Future[Any]) -> None:
    """Run ``fn(*args)`` on this agent thread and settle ``work`` on the loop with its end."""
    def settle(result: Any, exc: BaseException | None) -> None:
        if not work.done():
            if exc is None:
                work.set_result(result)
            else:
                work.set_exception(exc)

    result, error = None, None
    try:
        result = fn(*args)
    except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
        error = exc
    with contextlib.suppress(RuntimeError):  # the loop is closed: the session is over
        loop.call_soon_threadsafe(settle, result, error)
