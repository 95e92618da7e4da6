"""Warm sandboxes: started ahead of need, each used for exactly one episode, then killed.

Starting a sandbox (bubblewrap, Python, the agent's module) takes far longer than an episode's
own harness work, so each process keeps ``Containment.spares`` sandboxes started and waiting
(the child has imported the agent and checked the spec, then blocks on its stdin). An episode
takes one, and a new one is started in its place while it plays. A sandbox never serves a
second episode: nothing carries over from one episode to the next.

One long-lived thread per pool starts the sandboxes: bwrap's ``--die-with-parent`` is tied to
the thread that started it, so a short-lived starter would take its sandboxes with it. Waiting
sandboxes are killed by ``close`` (the plugin calls ``close_pools`` at unconfigure, in every
xdist worker too; ``atexit`` as a last resort); if the harness dies without either, a waiting
child reads the end of its stdin and exits, and bwrap's ``--die-with-parent`` kills the rest.
"""

from __future__ import annotations

import atexit
import collections
import queue
import select
import threading
import time
from collections.abc import Callable, Hashable

from pytest_agenteval.agents.containment import Child
from pytest_agenteval.agents.driver import WAIT_SLICE

RETRY_AFTER = 0.5  # seconds between a failed sandbox start and the next try


class PoolClosed(Exception):
    """The pool was closed while an episode waited for a sandbox."""


class WarmPool:
    """Up to ``spares`` sandboxes made by ``start``, started and waiting (0: start on demand)."""

    def __init__(self, start: Callable[[], Child], spares: int) -> None:
        self._start, self.spares = start, spares
        self._ready: collections.deque[Child] = collections.deque()
        self._cond = threading.Condition()
        self._closed = False
        self._error: BaseException | None = None
        self.started = 0  # sandboxes started so far (for tests and the bench)
        self._thread: threading.Thread | None = None
        if self.spares > 0:
            self._thread = threading.Thread(target=self._fill, name="agenteval-sandbox-pool", daemon=True)
            self._thread.start()

    def take(self) -> Child:
        """A started sandbox, for one episode: the caller stops it when the episode ends."""
        if self.spares == 0:
            self.started += 1
            return _playing(self._start())
        with self._cond:
            while not self._ready:
                if self._closed:
                    raise PoolClosed("the run ended while an episode waited for a sandbox")
                if self._error is not None:
                    error, self._error = self._error, None
                    self._cond.notify_all()
                    raise error
                self._cond.wait(WAIT_SLICE)
            child = self._ready.popleft()
            self._cond.notify_all()  # the starter makes its replacement
            return _playing(child)

    def wait_warm(self, timeout: float, *, answered: bool = True) -> bool:
        """Wait until the next sandbox to hand out has imported the agent (its answer is
        written; not ``answered``: has started, for a sandbox told the agent only when its
        episode starts): how a bench or a test knows the start has left the critical path."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._cond:
                first = self._ready[0] if self._ready else None
            if first is not None and (not answered or _readable(first)):
                return True
            time.sleep(0.005)
        return False

    def close(self) -> None:
        """Kill every waiting sandbox and stop starting new ones."""
        with self._cond:
            self._closed = True
            waiting, self._ready = list(self._ready), collections.deque()
            self._cond.notify_all()
        for child in waiting:
            child.stop()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def _fill(self) -> None:
        while True:
            with self._cond:
                while not self._closed and len(self._ready) >= self.spares:
                    self._cond.wait()
                if self._closed:
                    return
            try:
                child = self._start()
            except BaseException as exc:  # noqa: BLE001 - handed to the episode that waits (fork failed...)
                # One failed start fails the one episode that takes it, not the pool for good: the
                # processes or namespaces another episode held may be back a moment later (red team 38).
                with self._cond:
                    self._error = exc
                    self._cond.notify_all()
                    self._cond.wait(RETRY_AFTER)
                continue
            with self._cond:
                self.started += 1
                self._error = None  # (a start that failed and was tried again fails no later episode: red team 39)
                if self._closed:
                    child.stop()
                    return
                self._ready.append(child)
                self._cond.notify_all()


def _readable(child: Child) -> bool:
    assert child.proc.stdout is not None
    return bool(select.select([child.proc.stdout], [], [], 0)[0])


class _Reaper:
    """Waits for killed sandboxes off the episode's path (bwrap's teardown takes ~20 ms).

    A killed sandbox runs nothing more; reaping only waits for the kernel to tear it down.
    ``drain`` waits until every one handed over is gone: the run never ends with one left."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Child] = queue.SimpleQueue()
        self._pending = 0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, child: Child) -> None:
        child.kill()
        with self._cond:
            if self._thread is None:
                self._thread = _started(self._serve)
            if self._thread is None:
                reap_here = True
            else:
                reap_here = False
                self._pending += 1  # (counted only when a thread will take it: else drain waits for ever)
        if reap_here:
            child.reap()
            return
        self._jobs.put(child)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every sandbox handed over is gone (at most ``timeout`` seconds): whether it is."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending:
                if deadline is not None and time.monotonic() >= deadline:
                    return False
                self._cond.wait(WAIT_SLICE)
        return True

    def _serve(self) -> None:
        while True:
            child = self._jobs.get()
            try:
                child.reap()
            except Exception:  # noqa: BLE001, S110  (one sandbox's teardown error must not end the thread every
                pass  # later one waits on: red team 39; what is left of it was killed, and dies with the run)
            finally:
                with self._cond:
                    self._pending -= 1
                    self._cond.notify_all()


def _started(target: Callable[[], None]) -> threading.Thread | None:
    """A daemon thread running ``target``, or None when no thread can be had (the user's
    processes used up by an agent: red team 38)."""
    thread = threading.Thread(target=target, name="agenteval-sandbox-reaper", daemon=True)
    try:
        thread.start()
    except RuntimeError:
        return None
    return thread


REAPER = _Reaper()


# Sandboxes handed to an episode and not yet ended: killed by close_pools, so an episode still in
# flight when the run ends (Ctrl-C, a worker stopping) leaves nothing behind.
_PLAYING: set[Child] = set()
_PLAYING_LOCK = threading.Lock()


def _playing(child: Child) -> Child:
    with _PLAYING_LOCK:
        _PLAYING.add(child)
    return child


def end(child: Child) -> None:
    """End a sandbox's episode: killed now, with everything it started; reaped in the background."""
    with _PLAYING_LOCK:
        _PLAYING.discard(child)
    REAPER.add(child)


_POOLS: dict[Hashable, WarmPool] = {}
_LOCK = threading.Lock()
_CLOSED = [False]  # after close_pools, until open_pools: an episode still starting gets no sandbox


def pool_for(key: Hashable, start: Callable[[], Child], spares: int) -> WarmPool:
    """This process's pool for ``key`` (an isolated agent), made on first use."""
    with _LOCK:
        if _CLOSED[0]:  # else a late episode's thread would start a pool nobody closes
            raise PoolClosed("the run ended while an episode waited for a sandbox")
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = WarmPool(start, spares)
        return pool


def open_pools() -> None:
    """Let pools be made again (a run starting in a process where one ended: pytester)."""
    with _LOCK:
        _CLOSED[0] = False


def close_pools() -> None:
    """Close every pool of this process, and make no more until ``open_pools``: no sandbox is
    left waiting, and none starts after this."""
    with _LOCK:
        _CLOSED[0] = True
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()
    with _PLAYING_LOCK:
        playing = list(_PLAYING)
    for child in playing:  # its episode's thread may still hold it: end() is idempotent
        end(child)
    REAPER.drain(DRAIN_LIMIT)  # (bounded: a teardown that hangs never holds the run's exit)


DRAIN_LIMIT = 30.0  # seconds
atexit.register(close_pools)
