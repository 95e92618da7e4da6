"""``--agenteval-concurrency C``: up to C episodes in flight per process, each item still a test.

When a task item's test body runs, it starts its own episode (if not started yet) and those of
the next task items this process will run, up to C in flight, then waits for its own grade and
reports it as usual. Items run and report in their usual order; only the agents' waiting
overlaps. Episodes started by one refill start a little apart (``spacing``), not all at once.
The next C items after those are made ready (``_ready``) for the event loop's thread, which
starts one the moment an episode ends: a freed slot does not wait for the main thread to
report an item and set up the next. Which items come next: the session's items after this
one in a serial run; under xdist, the indices the controller has queued on this worker.
Items whose skip marks hold never start; items that never run (``-x``, ``--maxfail``,
Ctrl-C) have their episodes stopped and closed at the session's end, and never reach a report
or the results file.

An episode started ahead uses the agent factory the current item's ``agent`` fixture gave; if
the item's own fixture gives another (a per-item fixture), that episode is dropped and the item
runs its own. An ``agent`` fixture returning an instance runs one episode at a time;
``--agenteval-isolate`` agents fly too, each in its own sandbox.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from pytest_agenteval.agents.driver import interruption
from pytest_agenteval.agents.inflight import Flight, InFlight
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.plugin.compat import skip_marked
from pytest_agenteval.plugin.timeouts import episode_time_limit

REFILL_SLICE = 0.02
# Episodes started together are spread apart (the k-th of one refill waits k x spacing): else
# a full window starts, wakes, acts and is graded all at once, and each wave's harness work
# (a few ms per episode, on one interpreter lock) queues behind itself; spread, it keeps to
# the gaps (640 x 1 s at C = 64, async: 13.0 s -> 11.7 s). The spacing is RAMP until an
# episode has ended, then an episode's mean time over C, at most RAMP: a window of fast
# episodes is not held to RAMP's 200 starts a second.
RAMP = 0.005


class Ahead:
    """The prefetch window of one process."""

    def __init__(self, concurrency: int, make_env: Any, time_limit: float | None, budget: Any = None) -> None:
        self.concurrency = concurrency
        self.budget = budget
        self.time_limit = time_limit
        self._make_env = make_env
        self._runner: InFlight | None = None
        self._flights: dict[str, Flight] = {}  # started ahead, by node id, until their item runs
        # Items next in line, not started: the loop's thread starts them as slots free
        # (node id -> task, run, agent factory), in order.
        self._ready: dict[str, tuple[Any, int, Any]] = {}
        self._playing: Flight | None = None  # the episode of the item whose test body runs
        self._lock = threading.Lock()  # _flights, _ready and _playing: both threads use them
        self._index: dict[str, int] | None = None
        self._skips: dict[str, bool] = {}

    @property
    def runner(self) -> InFlight:
        if self._runner is None:
            self._runner = InFlight(self._make_env, self.budget, on_end=self._refill)
        return self._runner

    @property
    def spacing(self) -> float:
        """Seconds between the starts of one refill's episodes."""
        mean = self.runner.mean_episode
        return RAMP if mean is None else min(RAMP, mean / self.concurrency)

    def play(self, item: pytest.Item, case: Any, factory: Any, on_interrupt: Any) -> Grade:
        """Start this item's episode and the next ones, wait for this one's grade."""
        limit, detail = episode_time_limit(item, self.time_limit)
        with self._lock:  # taken off both lists at once: the loop's thread cannot start it again
            flight = self._flights.pop(item.nodeid, None)
            self._ready.pop(item.nodeid, None)
            self._playing = flight
        if flight is not None and flight.factory != factory:  # equal: an isolated agent named again
            self.runner.stop(flight, "interrupted", "dropped: this test's agent fixture gave another agent")
            flight = None
        if flight is None:
            flight = self.runner.start(case.task, case.run, factory, time_limit=limit, timeout_detail=detail)
            with self._lock:
                self._playing = flight
        self._top_up(item, factory)
        # Our own limit runs inside the flight from its start; pytest-timeout's, from this test's.
        deadline = time.monotonic() + limit if detail is not None and limit else None
        try:
            # Waits in short slices (a signal lands within one); a slot freed meanwhile is refilled.
            while not flight.done.wait(REFILL_SLICE):
                self._top_up(item, factory)
                if deadline is not None and time.monotonic() >= deadline:
                    self.runner.stop(flight, "agent_timeout", detail or "")
                    flight.done.wait()
            return flight.result()
        except BaseException as exc:
            with self._lock:
                self._ready.clear()  # an interruption: no more episodes start as these end
            self.runner.stop(flight, *interruption(exc))
            if flight.done.wait(5) and flight.grade is not None:
                on_interrupt(flight.grade)
            raise

    def close(self) -> None:
        with self._lock:
            self._ready.clear()
            self._flights.clear()
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    def _top_up(self, item: pytest.Item, factory: Any) -> None:
        """Start the next items' episodes up to C in flight; make ready up to C after them."""
        from pytest_agenteval.plugin.collect import TaskItem

        upcoming, spacing = self._upcoming(item), self.spacing
        ready: dict[str, tuple[Any, int, Any]] = {}
        with self._lock:
            in_flight, started = self._in_flight(), 1
            for nxt in upcoming:
                if len(ready) >= self.concurrency:
                    break
                if (nxt.nodeid in self._flights or nxt.nodeid == item.nodeid or not isinstance(nxt, TaskItem)
                        or self._skipped(nxt)):
                    continue
                case: Any = nxt.callspec.params["agenteval_case"]
                if in_flight < self.concurrency:
                    self._flights[nxt.nodeid] = self.runner.start(case.task, case.run, factory,
                                                                  time_limit=self.time_limit, delay=spacing * started)
                    in_flight += 1
                    started += 1
                else:
                    ready[nxt.nodeid] = (case.task, case.run, factory)
            self._ready = ready

    def _refill(self) -> None:
        """On the loop's thread, as an episode ends: start the items made ready, up to C in flight."""
        with self._lock:
            in_flight, started, spacing = self._in_flight(), 0, self.spacing
            while in_flight < self.concurrency and self._ready:
                nodeid = next(iter(self._ready))
                task, run, factory = self._ready.pop(nodeid)
                if nodeid in self._flights:
                    continue
                self._flights[nodeid] = self.runner.start(task, run, factory, time_limit=self.time_limit,
                                                          delay=spacing * started)
                in_flight += 1
                started += 1

    def _in_flight(self) -> int:
        """Episodes started and not yet graded (with the lock held)."""
        playing = self._playing is not None and not self._playing.done.is_set()
        return playing + sum(not f.done.is_set() for f in self._flights.values())

    def _skipped(self, item: pytest.Item) -> bool:
        if item.nodeid not in self._skips:
            self._skips[item.nodeid] = _skipped(item)
        return self._skips[item.nodeid]

    def _upcoming(self, item: pytest.Item) -> list[pytest.Item]:
        session = item.session
        worker = _worker_queue(item.config)
        if worker is not None:
            interactor, queue = worker
            indices = [interactor.nextitem_index, *queue]
            return [session.items[i] for i in indices if isinstance(i, int) and 0 <= i < len(session.items)]
        if self._index is None:
            self._index = {it.nodeid: n for n, it in enumerate(session.items)}
        at = self._index.get(item.nodeid)
        if at is None:
            return []
        return session.items[at + 1:at + 1 + 8 * self.concurrency]


def _skipped(item: pytest.Item) -> bool:
    try:
        return skip_marked(item)
    except Exception:  # noqa: BLE001 - a broken skipif condition: its own test reports it
        return True


def _worker_queue(config: pytest.Config) -> tuple[Any, list[Any]] | None:
    """Under xdist, the worker's interactor and a copy of the indices queued on it."""
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor":
            torun = getattr(plugin, "torun", None)
            if torun is None:
                return None
            with torun.lock() as queued:
                return plugin, list(queued)
    return None
