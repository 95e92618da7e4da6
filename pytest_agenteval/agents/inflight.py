"""Many episodes in flight in one process: async agents on one event loop, sync agents on threads.

Each episode gets an environment instance of its own (its own connection to its scenario),
checked out of a spare list per environment name and returned when the episode is graded, so
at most ``concurrency`` instances per name exist. Nothing here imports pytest: a harness of its
own can start flights and wait for their grades.

One daemon thread runs the event loop. An agent whose ``run`` is ``async def`` runs on it; any
other agent gets a daemon thread of its own for its episode: an idle one left by an earlier
episode, else a new one (as in a serial run, threads are reused: starting one blocks the loop
until it runs, which under load cost more than the episode's own work). An agent that never
returns keeps its thread, never a pool slot. The loop thread makes the agent, resets, grades:
the harness's own work, < 1 ms per episode.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.episode import Episode, agent_run, over_time
from pytest_agenteval.agents.errored import AgentError, errored_by
from pytest_agenteval.agents.play import graded
from pytest_agenteval.agents.sandbox import IsolatedAgent, run_isolated
from pytest_agenteval.errors import EpisodeOver

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

    def __init__(self, make_env: Callable[[str], Environment], budget: Budget | None = None) -> None:
        self._make_env = make_env
        self._budget = budget
        self._spare: dict[str, list[Environment]] = {}
        self._all: list[Environment] = []
        self._flying: set[Flight] = set()
        self._threads = _Threads()
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
        env = None
        try:
            env = spare.pop() if spare else self._new_env(name)
            env.reset(flight.task.scenario_seed, task=flight.task)
            episode = Episode(env, flight.task, run=flight.run, budget=self._budget)
            try:
                failure = episode.failure(await self._drive(flight, episode))
            finally:
                episode.close()
            flight.grade = graded(env, flight.run, failure, episode)
        except BaseException as exc:  # noqa: BLE001 - handed to the test that waits for it
            flight.error = exc
        finally:
            if env is not None:
                spare.append(env)  # the next reset ends this episode for any agent left behind
            self._flying.discard(flight)
            flight.done.set()

    def _new_env(self, name: str) -> Environment:
        env = self._make_env(name)
        self._all.append(env)
        return env

    async def _drive(self, flight: Flight, episode: Episode) -> tuple[str, str] | AgentError | None:
        """Like ``play.drive``: None, or (label, detail) when the agent failed or was stopped."""
        loop = self._loop
        if isinstance(flight.factory, IsolatedAgent):
            return await self._drive_isolated(flight, episode)
        try:
            run = agent_run(flight.factory, flight.task)
        except BaseException as exc:  # noqa: BLE001 - the agent's own failure
            return errored_by(exc)
        if inspect.iscoroutinefunction(run):
            work: asyncio.Future[Any] = loop.create_task(run(episode))
        else:
            work = loop.create_future()
            self._threads.run(_on_thread, run, episode, loop, work)
        done, _ = await asyncio.wait({work, flight._stop}, timeout=flight.time_limit or None,
                                     return_when=asyncio.FIRST_COMPLETED)
        if work not in done:
            work.cancel()  # an async agent is cancelled; a thread is left behind, its calls refused
            if flight._stop in done:
                return flight._stop.result()  # type: ignore[no-any-return]
            return "agent_timeout", over_time(flight.time_limit, flight.timeout_detail)
        error = work.exception()
        if error is None or isinstance(error, EpisodeOver):
            return None
        return errored_by(error)


    async def _drive_isolated(self, flight: Flight, episode: Episode) -> tuple[str, str] | AgentError | None:
        """An isolated agent: its child is served from a thread, and told to end when stopped."""
        cancel, work = threading.Event(), self._loop.create_future()
        serve = functools.partial(run_isolated, flight.factory, time_limit=flight.time_limit, cancel=cancel)
        self._threads.run(_on_thread, serve, episode, self._loop, work)
        done, _ = await asyncio.wait({work, flight._stop}, return_when=asyncio.FIRST_COMPLETED)
        if work not in done:
            cancel.set()  # the child is killed within one wait slice; its thread then comes back
            return flight._stop.result()  # type: ignore[no-any-return]
        failure: tuple[str, str] | AgentError | None = work.result()
        if isinstance(failure, tuple) and failure[0] == "agent_timeout":
            return "agent_timeout", over_time(flight.time_limit, flight.timeout_detail)
        return failure


class _Threads:
    """Daemon threads for sync agents: a thread whose agent returned waits for the next one."""

    def __init__(self) -> None:
        self._idle: list[queue.SimpleQueue[tuple[Any, tuple[Any, ...]] | None]] = []
        self._lock = threading.Lock()
        self._closed = False

    def run(self, job: Any, *args: Any) -> None:
        with self._lock:
            jobs = self._idle.pop() if self._idle else None
        if jobs is None:
            jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(jobs,), name="agenteval-agent", daemon=True).start()
        jobs.put((job, args))

    def close(self) -> None:
        with self._lock:
            idle, self._idle, self._closed = self._idle, [], True
        for jobs in idle:
            jobs.put(None)

    def _serve(self, jobs: queue.SimpleQueue[tuple[Any, tuple[Any, ...]] | None]) -> None:
        while (item := jobs.get()) is not None:
            job, args = item
            job(*args)
            with self._lock:
                if self._closed:
                    return
                self._idle.append(jobs)


def _on_thread(run: Any, episode: Episode, loop: asyncio.AbstractEventLoop, work: asyncio.Future[Any]) -> None:
    def settle(exc: BaseException | None) -> None:
        if not work.done():
            if exc is None:
                work.set_result(result)
            else:
                work.set_exception(exc)

    error: BaseException | None = None
    result: Any = None
    try:
        result = run(episode)
        if inspect.isawaitable(result):  # a sync run that returned a coroutine
            result = asyncio.run(_await(result))
    except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
        error = exc
    with contextlib.suppress(RuntimeError):  # the loop is closed: the session is over
        loop.call_soon_threadsafe(settle, error)


async def _await(awaitable: Any) -> Any:
    return await awaitable
