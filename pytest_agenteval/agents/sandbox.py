"""Run an agent in a separate process that can only send actions and receive observations.

The child gets the episode's instruction, tools, step budget and seed, and nothing else: no
database connection, no task, no grader. It speaks JSON Lines over its stdin/stdout; its own
prints go to stderr. A crash, ``os._exit`` or a hang in agent code ends the child, and only
that episode fails. How far the child is contained (an OS sandbox, or a process of its own)
is ``containment``'s business. The harness never imports the agent's module: ``check_spec``
asks a child to import it, once per run.

    python -m pytest_agenteval.agents.sandbox   # the child side; started by the runner
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import selectors
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pytest_agenteval.agents.containment import Child, Containment
from pytest_agenteval.agents.episode import over_time
from pytest_agenteval.agents.errored import AgentError, errored_by, errored_from_child
from pytest_agenteval.errors import AgentSpecError, EpisodeOver, describe_exception

WAIT_SLICE = 0.25  # see agents.play._wait

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode


@dataclass(frozen=True, kw_only=True)
class IsolatedAgent:
    """An agent named by ``MODULE:ATTR``, to be run in its own process per episode."""

    spec: str
    search_path: str | None = None
    containment: Containment = Containment(level="process")

    @classmethod
    def of(cls, factory: Any, search_path: Path | None, containment: Containment) -> IsolatedAgent:
        """Isolate a factory that is importable by name (a module-level class or function)."""
        qualname = getattr(factory, "__qualname__", "")
        module = getattr(factory, "__module__", "")
        if not module or not qualname or "<locals>" in qualname or module == "__main__":
            raise ValueError(f"cannot run {factory!r} in a separate process: name a module-level class "
                             "or function (MODULE:ATTR)")
        return cls(spec=f"{module}:{qualname}", search_path=str(search_path) if search_path else None,
                   containment=containment)


# Not ``-m``: the package's own import loads this module first, and runpy would run a second copy.
CHILD = [sys.executable, "-c", "from pytest_agenteval.agents.sandbox import child_main; child_main()"]


def check_spec(agent: IsolatedAgent, time_limit: float | None) -> None:
    """Import the agent's module in a child, as an episode would; ``AgentSpecError`` if that fails.

    The module's top-level code is the agent's own: it runs only there, never in the harness."""
    child = agent.containment.start(CHILD, agent.search_path)
    pipes = _Pipes(child, None if not time_limit else time.monotonic() + time_limit)
    try:
        with contextlib.suppress(BrokenPipeError):
            pipes.send({"check": agent.spec})
        line = pipes.read_line()
        if line is None:
            tail = pipes.stderr_tail().strip().splitlines()[-1:] or [""]
            raise AgentSpecError(f"--agent={agent.spec}: the agent process ended while importing it (exit code "
                                 f"{pipes.exit_code()}) {tail[0]}".strip()[:500])
        message = _parse(line) or {}
        if "error" in message or "ok" not in message:
            raise AgentSpecError(str(message.get("error") or f"--agent={agent.spec}: the agent process answered "
                                     f"{line[:200]!r} to its check"))
    except _Late:
        raise AgentSpecError(f"--agent={agent.spec}: importing it took longer than the episode time limit "
                             f"({time_limit:g} s)") from None
    finally:
        pipes.close()
        child.stop()


def run_isolated(agent: IsolatedAgent, episode: Episode, time_limit: float | None,
                 cancel: threading.Event | None = None) -> tuple[str, str] | AgentError | None:
    """Drive the child; return None, or (label, detail) when the agent failed.

    ``cancel``: set from another thread to end the child within one wait slice."""
    child = agent.containment.start(CHILD, agent.search_path)
    pipes = _Pipes(child, None if not time_limit else time.monotonic() + time_limit, cancel)
    try:
        with contextlib.suppress(BrokenPipeError):  # the child died at once: its output says how
            pipes.send({"spec": agent.spec, "episode": {
                "task_id": episode.task_id, "instruction": episode.instruction, "tools": episode.tools,
                "max_steps": episode.max_steps, "seed": episode.seed}})
        return _serve(pipes, episode)
    except _Late:
        return "agent_timeout", over_time(time_limit)
    finally:
        pipes.close()
        child.stop()  # the child and everything it started


def _serve(pipes: _Pipes, episode: Episode) -> tuple[str, str] | AgentError | None:
    while True:
        line = pipes.read_line()
        if line is None:
            code = pipes.exit_code()
            tail = pipes.stderr_tail().strip().splitlines()[-1:] or [""]
            return errored_from_child(f"the agent process died (exit code {code}) {tail[0]}".strip(),
                                      pipes.stderr_tail())
        message = _parse(line)
        if message is None:
            return errored_from_child(f"the agent process broke the protocol: {line[:200]!r}")
        if "done" in message:
            return None
        if "error" in message:
            return errored_from_child(str(message["error"]), str(message.get("traceback", "")))
        if "usage" in message:  # checked in the child already; no reply
            episode.record_usage(**message["usage"])
            continue
        if "transcript" in message:
            episode.attach_transcript(message["transcript"])
            continue
        try:
            reply: dict[str, Any] = {"observation": episode.call(message["call"], message.get("arguments"))}
        except EpisodeOver as exc:
            reply = {"over": str(exc)}
        reply["id"] = message.get("id")  # the child checks each answer is to its own request
        try:
            pipes.send(reply)
        except BrokenPipeError:
            continue  # the child died; the next read sees EOF and reports it


class _Late(Exception):
    """The episode's deadline passed while waiting on the child."""


class _Pipes:
    """The parent's ends of the child's pipes, never blocking past the episode's deadline.

    Whole lines from stdout (a child that writes half a line and hangs still times out);
    stderr drained as it comes, keeping its tail (a child that prints more than a pipe holds
    would otherwise block on its print); writes that wait for room in slices. Every wait is a
    slice of at most ``WAIT_SLICE``, so a signal (pytest-timeout, Ctrl-C) lands within one.
    """

    MAX_LINE = 64 * 2**20  # a longer line from the child is a protocol error

    def __init__(self, child: Child, deadline: float | None, cancel: threading.Event | None = None) -> None:
        proc = child.proc
        assert proc.stdin and proc.stdout and proc.stderr
        self.child, self.proc, self.deadline, self.cancel = child, proc, deadline, cancel
        self.stdin, self.stdout, self.stderr = proc.stdin, proc.stdout, proc.stderr
        self.buffer, self.tail, self.eof = b"", b"", False
        self.selector = selectors.DefaultSelector()
        for stream in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(stream.fileno(), False)
        self.selector.register(self.stdout, selectors.EVENT_READ)
        self.selector.register(self.stderr, selectors.EVENT_READ)

    def close(self) -> None:
        self.selector.close()

    def read_line(self) -> bytes | None:
        """The next whole line, or None at the end of the child's output."""
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line, self.buffer = self.buffer[:newline + 1], self.buffer[newline + 1:]
                return line
            if self.eof:
                return None
            if len(self.buffer) > self.MAX_LINE:
                line, self.buffer = self.buffer, b""
                return line  # not JSON: reported as a broken protocol
            self._drain(self._select())

    def send(self, message: dict[str, Any]) -> None:
        data = memoryview(json.dumps(message, default=lambda o: f"<{type(o).__name__}>").encode() + b"\n")
        self.selector.register(self.stdin, selectors.EVENT_WRITE)
        try:
            while data:
                events = self._select()
                self._drain(events)  # keep reading while the child is not reading
                if any(key.fileobj is self.stdin for key, _ in events):
                    try:
                        data = data[os.write(self.stdin.fileno(), data):]
                    except BlockingIOError:
                        continue
        finally:
            self.selector.unregister(self.stdin)

    def exit_code(self) -> int:
        while True:
            try:
                return self.child.exit_code(self.proc.wait(WAIT_SLICE))
            except subprocess.TimeoutExpired:
                self._drain(self._select())  # output closed but still running: wait, within the deadline

    def stderr_tail(self) -> str:
        try:
            while chunk := os.read(self.stderr.fileno(), 65536):
                self.tail = (self.tail + chunk)[-4096:]
        except (BlockingIOError, OSError, ValueError):
            pass
        return self.tail.decode(errors="replace")

    def _select(self) -> list[tuple[selectors.SelectorKey, int]]:
        left = None if self.deadline is None else self.deadline - time.monotonic()
        if (left is not None and left <= 0) or (self.cancel is not None and self.cancel.is_set()):
            raise _Late
        return self.selector.select(WAIT_SLICE if left is None else min(left, WAIT_SLICE))

    def _drain(self, events: list[tuple[selectors.SelectorKey, int]]) -> None:
        for key, _ in events:
            if key.fileobj is self.stdin:
                continue
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fileobj)
                if key.fileobj is self.stdout:
                    self.eof = True
            elif key.fileobj is self.stdout:
                self.buffer += chunk
            else:
                self.tail = (self.tail + chunk)[-4096:]


def _parse(line: bytes) -> dict[str, Any] | None:
    """One message from the child, or None if it is not one (the child's code is not ours)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or not ({"done", "error", "call", "usage", "transcript", "ok"} & message.keys()):
        return None
    return message


# ----- the child side ------------------------------------------------------------------------


class RemoteEpisode:
    """The child's episode: the same face as ``Episode``, every call a round trip to the parent.

    Safe to call from several threads at once (agent frameworks run tools in parallel): one
    round trip at a time, each request numbered and its answer checked against the number.
    """

    def __init__(self, data: dict[str, Any], inbox: IO[str], outbox: IO[str]) -> None:
        self.task_id: str = data["task_id"]
        self.instruction: str = data["instruction"]
        self.tools: list[dict[str, Any]] = data["tools"]
        self.max_steps: int = data["max_steps"]
        self.seed: int = data["seed"]
        self.steps_used = 0
        self._inbox, self._outbox = inbox, outbox
        self._lock = threading.Lock()
        self._requests = 0

    def call(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        with self._lock:
            self._requests += 1
            request = self._requests
            self._write({"id": request, "call": action, "arguments": arguments})
            reply = json.loads(self._inbox.readline())
            if reply.get("id") != request:
                raise RuntimeError(f"agenteval protocol error: answer to request {reply.get('id')}, "
                                   f"expected {request}")
            self.steps_used += 1
        if "over" in reply:
            raise EpisodeOver(reply["over"])
        return reply["observation"]  # type: ignore[no-any-return]

    def finish(self, message: dict[str, Any]) -> None:
        """The last message: ``done`` or ``error`` (never in the middle of a round trip)."""
        with self._lock:
            self._write(message)

    def _write(self, message: dict[str, Any]) -> None:
        self._outbox.write(json.dumps(message, default=lambda o: f"<{type(o).__name__}>") + "\n")
        self._outbox.flush()

    async def acall(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.call(action, arguments)

    def record_usage(self, *, model: str | None = None, input_tokens: int = 0, output_tokens: int = 0,
                     cost: float | None = None, latency: float | None = None, calls: int = 1) -> None:
        from pytest_agenteval.agents.usage import UsageLedger

        usage: dict[str, Any] = {"model": model, "input_tokens": input_tokens, "output_tokens": output_tokens,
                                 "cost": cost, "latency": latency, "calls": calls}
        UsageLedger().record(**usage)  # the same errors as in process, raised in the agent
        self._send({"usage": usage})

    def attach_transcript(self, messages: Any) -> None:
        from pytest_agenteval.agents.usage import UsageLedger

        ledger = UsageLedger()
        ledger.attach(messages)
        self._send({"transcript": ledger.transcript()})  # JSON-able and capped before it travels

    def _send(self, message: dict[str, Any]) -> None:
        self._outbox.write(json.dumps(message, default=lambda o: f"<{type(o).__name__}>") + "\n")
        self._outbox.flush()

    def tools_for(self, fmt: str) -> list[dict[str, Any]]:
        from pytest_agenteval.agents.tools import export

        return export(self.tools, fmt)


def child_main() -> None:
    outbox = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the agent's own prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    inbox = sys.stdin
    from pytest_agenteval.agents.loading import load_agent

    setup = json.loads(inbox.readline())
    if "check" in setup:
        _check(setup["check"], outbox)
        return
    episode = RemoteEpisode(setup["episode"], inbox, outbox)
    try:
        agent = load_agent(setup["spec"], search_path=Path.cwd(), probe=False)()
        result = agent.run(episode)
        if inspect.isawaitable(result):
            import asyncio

            asyncio.run(_await(result))
        episode.finish({"done": True})
    except EpisodeOver:
        episode.finish({"done": True})
    except BaseException as exc:  # noqa: BLE001 - report the agent's failure to the parent
        error = errored_by(exc)
        episode.finish({"error": error.message, "traceback": error.traceback})


def _check(spec: str, outbox: IO[str]) -> None:
    from pytest_agenteval.agents.loading import check_buildable, load_agent

    try:
        check_buildable(spec, load_agent(spec, search_path=Path.cwd(), probe=False))
        answer: dict[str, Any] = {"ok": True}
    except AgentSpecError as exc:
        answer = {"error": str(exc)}
    except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt at import: the module's own
        answer = {"error": f"--agent={spec}: importing it failed: {describe_exception(exc)}"}
    outbox.write(json.dumps(answer) + "\n")
    outbox.flush()


async def _await(awaitable: Any) -> Any:
    return await awaitable


if __name__ == "__main__":
    child_main()
