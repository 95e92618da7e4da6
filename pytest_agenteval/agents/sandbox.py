"""Run an agent in a sandbox that can only send actions and receive observations.

The child gets the episode's instruction, tools, step budget and seed, and nothing else: no
database connection, no task, no grader. It speaks JSON Lines over its stdin/stdout
(``_child.py`` is its side); its own prints go to stderr. A crash, ``os._exit``, a hang, a
resource limit or a broken frame in agent code ends the child, and only that episode fails.
How far the child is contained (an OS sandbox, or a process of its own) is ``containment``'s
business; sandboxes are started ahead, one per episode, by ``pool``. The harness never imports
the agent's module: ``check_spec`` asks a sandbox to import it, once per run.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.containment import Child, Containment, readable_by
from pytest_agenteval.agents.driver import WAIT_SLICE
from pytest_agenteval.agents.episode import over_time
from pytest_agenteval.agents.errored import AgentError, errored_from_child
from pytest_agenteval.agents.limits import NAMES, Limits
from pytest_agenteval.agents.pool import REAPER, WarmPool, end, pool_for
from pytest_agenteval.errors import AgentSpecError, EpisodeOver
from pytest_agenteval.patterns import lazy
from pytest_agenteval.taskfiles.bounds import json_depth

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


def child_command(containment: Containment) -> list[str]:
    """The child's command: ``_child.py`` run by file, its limits as its argument.

    Not ``-m``: that would import the package (~0.5 s) before the child's first line. The
    working folder (``''`` for ``-c``) leaves ``sys.path`` before anything else is imported, so
    no file of the project runs before the limits are set."""
    return [sys.executable, "-c", BOOT, str(CHILD_FILE), json.dumps(containment.limits.for_child(containment.level))]


CHILD_FILE = Path(__file__).with_name("_child.py")
BOOT = ("import sys\nif sys.path and sys.path[0] == '': del sys.path[0]\n"
        "import importlib.util as u\ns = u.spec_from_file_location('_agenteval_child', sys.argv[1])\n"
        "m = u.module_from_spec(s)\ns.loader.exec_module(m)\nm.main(sys.argv[2])\n")


def start_child(agent: IsolatedAgent, *, told: bool = True) -> Child:
    """Start a sandbox for ``agent``; ``told``, tell it the spec now: it imports the module,
    answers, waits (else it waits for the spec: ``tell``)."""
    child = agent.containment.start(child_command(agent.containment), agent.search_path)
    if told:
        tell(child, agent)
    return child


def tell(child: Child, agent: IsolatedAgent) -> None:
    assert child.proc.stdin is not None
    # A short line into an empty pipe: never blocks.
    child.proc.stdin.write(json.dumps({"spec": agent.spec, "search_path": agent.search_path or os.getcwd()})
                           .encode() + b"\n")
    with contextlib.suppress(BrokenPipeError):
        child.proc.stdin.flush()


TEARDOWN_WAIT = 10.0  # seconds a serial episode waits for the sandboxes before it to be gone (~20 ms usually)


def imports_late(agent: IsolatedAgent) -> bool:
    """Whether the waiting sandbox imports the agent's module only when its episode starts, after
    the sandbox before it is gone. Serially (one sandbox waiting) it does: a module imported
    ahead runs while the episode before plays, and the two could signal each other through the
    kernel (byte-range locks on a file both can read carried one episode's task to the next).
    With episodes in flight together they share the kernel anyway, so the import stays ahead."""
    return agent.containment.spares <= 1


def _pool(agent: IsolatedAgent) -> WarmPool:
    return pool_for(agent, lambda: start_child(agent, told=not imports_late(agent)), agent.containment.spares)


def check_spec(agent: IsolatedAgent, time_limit: float | None) -> None:
    """Import the agent's module in a sandbox, as an episode would; ``AgentSpecError`` if that fails.

    The module's top-level code is the agent's own: it runs only there, never in the harness.
    A sandbox of its own, not a pooled one: the run's results file does not exist yet, so a
    sandbox started now would see it once written (``warm`` starts the pool after)."""
    user, folder = agent.containment.user, agent.search_path or os.getcwd()
    if user is not None and not readable_by(folder, user):
        raise AgentSpecError(f"--agent={agent.spec}: the sandbox runs as uid {user[0]} (pytest runs as root) and "
                             f"cannot read the agent's folder {folder}: make it readable by others "
                             f"(chmod o+rX {folder}), or run pytest as another user")
    child = start_child(agent)
    pipes = _Pipes(child, None if not time_limit else time.monotonic() + time_limit)
    try:
        error = _answer(pipes, agent.spec)
    except _Late:
        error = (f"--agent={agent.spec}: importing it took longer than the episode time limit "
                 f"({time_limit:g} s)")
    finally:
        pipes.close()
        child.stop()
    if error is not None:
        raise AgentSpecError(error)


def warm(agent: IsolatedAgent) -> None:
    """Start this process's sandboxes for ``agent`` ahead of its first episode."""
    _pool(agent)


def _answer(pipes: _Pipes, spec: str) -> str | None:
    """The child's answer to its spec: None once the module is imported, else what went wrong."""
    line = pipes.read_line()
    started = line is not None and line.strip() == STARTED  # the harness's own code ran in the sandbox
    if started:
        line = pipes.read_line()
    if line is None:
        tail = pipes.stderr_tail().strip().splitlines()[-1:] or [""]
        if tail[0].startswith("bwrap:") and not started:  # the sandbox never ran (red team 38: namespaces used up)
            return f"--agent={spec}: the sandbox could not start, not the agent's doing: {tail[0]}"[:500]
        return (f"--agent={spec}: the agent process ended while importing it (exit code "
                f"{pipes.exit_code()}) {tail[0]}".strip()[:500])
    message = _parse(line)
    if message is None or "ok" not in message:
        return str((message or {}).get("error") or f"--agent={spec}: the agent process answered "
                   f"{bytes(line[:200])!r} to its check")[:500]
    return None


def run_isolated(agent: IsolatedAgent, episode: Episode, time_limit: float | None,
                 cancel: threading.Event | None = None) -> tuple[str, str] | AgentError | None:
    """Drive a warm sandbox through the episode; return None, or (label, detail) when the agent
    failed, or its error when it raised. The sandbox is killed, with everything it started,
    before this returns.

    ``cancel``: set from another thread to end the child within one wait slice."""
    deadline = None if not time_limit else time.monotonic() + time_limit
    try:
        child = _pool(agent).take()
    except OSError as exc:  # the harness could not start it (fork refused: the user's processes used up)
        return errored_from_child(f"--agent={agent.spec}: the sandbox could not start, not the agent's doing: "
                                  f"{exc}"[:500])  # (one line, errored; it was a harness traceback: red team 39)
    try:  # at once: Ctrl-C in this thread must not leave the sandbox taken and running
        pipes = _Pipes(child, deadline, cancel)
        if imports_late(agent):
            # the sandboxes before it gone, with every lock they held, then the import; bounded, and
            # within the episode's time: a teardown that hangs must not hold the run (then it goes on)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            REAPER.drain(TEARDOWN_WAIT if left is None else min(left, TEARDOWN_WAIT))
            tell(child, agent)
    except BaseException:
        end(child)
        raise
    try:
        error = _answer(pipes, agent.spec)
        if error is not None:  # it passed the spec check once: its import or constructor varies, its code raised
            return errored_from_child(error, pipes.stderr_tail())
        with contextlib.suppress(BrokenPipeError):  # the child died at once: its output says how
            pipes.send({"episode": {
                "task_id": episode.task_id, "instruction": episode.instruction, "tools": episode.tools,
                "policy": episode.policy, "system_prompt": episode.system_prompt,
                "max_steps": episode.max_steps, "seed": episode.seed}})
        outcome = _serve(pipes, episode, agent.containment.limits)
        return _view_hint(outcome, agent) if isinstance(outcome, AgentError) else outcome
    except _Late:
        return "agent_timeout", over_time(time_limit)
    finally:
        pipes.close()
        end(child)  # the child and everything it started: killed now, reaped off this path


_MISSING = lazy(r"No such file or directory: '([^']+)'")


def _view_hint(error: AgentError, agent: IsolatedAgent) -> AgentError:
    """An agent that could not open a file of its project that is there: the sandbox shows the
    project's code alone, so say how to show it the file (``plugin.view``)."""
    found = _MISSING.search(error.message)
    folder = agent.search_path or ""
    # (a relative path is the child's working folder's, the project: red team 43)
    path = os.path.join(folder, found.group(1)) if found and folder else ""
    if agent.containment.level != "bwrap" or not path.startswith(folder.rstrip("/") + "/") or not os.path.exists(path):
        return error
    if os.path.islink(path):  # a listed link is copied as a link: where it leads must be shown too
        path = os.path.realpath(path)
    if any(os.path.realpath(path) == os.path.realpath(h) or os.path.realpath(path).startswith(
            os.path.realpath(h).rstrip("/") + "/") for h in agent.containment.hidden):
        return replace(error, message=f"{error.message} (a file of the run itself: never shown to isolated "
                                      "agents)"[:500])  # (not "list it in agenteval_show": red team 44)
    shown = os.path.relpath(path, folder) if path.startswith(folder.rstrip("/") + "/") else path
    return replace(error, message=f"{error.message} (isolated agents see the project's code only: "
                                  f"agenteval_show = {shown} in the ini shows them this file)"[:500])


def _serve(pipes: _Pipes, episode: Episode, limits: Limits) -> tuple[str, str] | AgentError | None:
    frames = 0
    while True:
        line = pipes.read_line()
        if line is None:
            code = pipes.exit_code()
            if code == -signal.SIGXCPU and limits.cpu is not None:
                # the limit's signal: the kernel's, or one the process sent itself (red team 66), so told
                # as what ended it, not as a measure
                return "agent_resource_limit", (f"the agent process ended by SIGXCPU, the signal of its CPU time "
                                                f"limit of {limits.cpu} s (--agenteval-limits cpu=SECONDS raises "
                                                "it; a process can also send it to itself)")
            tail = pipes.stderr_tail().strip().splitlines()[-1:] or [""]
            return errored_from_child(f"the agent process died (exit code {code}) {tail[0]}".strip(),
                                      pipes.stderr_tail())
        frames += 1
        message, wrong = frame(line, pipes.max_frame)
        if wrong is not None:
            return "agent_protocol_violation", f"the agent process broke the protocol: frame {frames}: {wrong}"
        assert message is not None
        if "done" in message:
            return None
        if "error" in message:
            limit = message.get("limit")
            if limit in NAMES and getattr(limits, str(limit)) is not None:
                # Said by the agent's own process, which can write any frame: told as its report (the
                # harness sees only a CPU limit for itself, by the signal, above).
                return "agent_resource_limit", (f"the agent process reports hitting its {str(limit).replace('_', ' ')}"
                                                f" limit (--agenteval-limits {limit}=...; its own report, which the "
                                                f"harness cannot check): {message['error']}")[:500]
            return errored_from_child(str(message["error"]), str(message.get("traceback", "")))
        try:
            if "usage" in message:  # checked in the child already; no reply
                with contextlib.suppress(EpisodeOver):  # over its budget: its next call is refused
                    episode.record_usage(**message["usage"])
                continue
            if "transcript" in message:
                episode.attach_transcript(message["transcript"])
                continue
        except (TypeError, ValueError) as exc:  # the child's checks are the child's: ours are these
            return "agent_protocol_violation", (f"the agent process broke the protocol: frame {frames}: "
                                                f"{next(iter(message))}: {exc}")[:500]
        if "call" not in message:  # "ok" answers the spec check only, never during an episode
            return "agent_protocol_violation", (f"the agent process broke the protocol: frame {frames}: an answer "
                                                f"to the spec check during its episode: {bytes(line[:80])!r}")
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
    At most ``max_frame`` bytes of stdout are held unread: past that stdout is not read until
    frames are taken (a child that never reads its answers and writes on held the harness's
    memory growing with its output, gigabytes before its time limit).
    """

    max_frame = 16 * 2**20  # a longer line from the child is a protocol violation

    def __init__(self, child: Child, deadline: float | None, cancel: threading.Event | None = None) -> None:
        proc = child.proc
        assert proc.stdin and proc.stdout and proc.stderr
        self.child, self.proc, self.deadline, self.cancel = child, proc, deadline, cancel
        self.stdin, self.stdout, self.stderr = proc.stdin, proc.stdout, proc.stderr
        self.buffer, self.scanned, self.tail, self.eof = bytearray(), 0, b"", False
        self.paused = False  # stdout not watched: the buffer holds max_frame bytes already
        self.selector = selectors.DefaultSelector()
        for stream in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(stream.fileno(), False)
        self.selector.register(self.stdout, selectors.EVENT_READ)
        self.selector.register(self.stderr, selectors.EVENT_READ)

    def close(self) -> None:
        self.selector.close()

    def read_line(self) -> bytes | None:
        """The next whole line, or None at the end of the child's output; a line longer than
        ``max_frame`` comes back cut there, without its newline (``frame`` refuses it).

        Each byte is searched for the newline once (a large frame costs linear time, not
        quadratic). The deadline is checked for every line, not only when waiting: a child that
        keeps whole frames queued would otherwise never be waited for."""
        self._check()
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0 and newline < self.max_frame:
                line = bytes(self.buffer[:newline + 1])
                del self.buffer[:newline + 1]
                self.scanned = 0
                if self.paused and len(self.buffer) < self.max_frame:
                    self.paused = False
                    self.selector.register(self.stdout, selectors.EVENT_READ)
                return line
            self.scanned = len(self.buffer)
            if self.scanned >= self.max_frame:
                return bytes(self.buffer[:self.max_frame])
            if self.eof:
                return None
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

    def _check(self) -> None:
        """``_Late`` once the deadline has passed or the episode is cancelled."""
        if ((self.deadline is not None and self.deadline <= time.monotonic())
                or (self.cancel is not None and self.cancel.is_set())):
            raise _Late

    def _select(self) -> list[tuple[selectors.SelectorKey, int]]:
        self._check()
        left = None if self.deadline is None else self.deadline - time.monotonic()
        return self.selector.select(WAIT_SLICE if left is None else max(0.0, min(left, WAIT_SLICE)))

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
                self.buffer += chunk  # a bytearray: appending is amortised linear
                if len(self.buffer) >= self.max_frame:  # enough unread: the child waits to write more
                    self.paused = True
                    self.selector.unregister(self.stdout)
            else:
                self.tail = (self.tail + chunk)[-4096:]


STARTED = b'{"started": true}'  # what ``_child`` writes before the agent's module is imported


def _parse(line: bytes) -> dict[str, Any] | None:
    """The spec check's answer, or None if it is not one."""
    message, wrong = frame(line, 2**20)
    return None if wrong is not None else message


KINDS = ("done", "error", "call", "usage", "transcript", "ok")
USAGE_KEYS = {"model", "input_tokens", "output_tokens", "cost", "latency", "calls"}
MAX_DEPTH = 64  # JSON nesting a frame may have (a deeper one would exhaust the parser's stack)
# Values one frame may hold: parsed, 16 MiB of "{}," was 5.6 million objects, 450 MiB of the
# harness's memory (red team 46). A child's own transcript is capped at 256 KiB before it travels.
MAX_VALUES = 200_000
MAX_NAME = 200  # an action's name: an identifier, never more


def frame(line: bytes, max_frame: int) -> tuple[dict[str, Any] | None, str | None]:
    """One frame from the child, checked: (message, None), or (None, what is wrong with it).

    The child's code is not ours: every field the harness reads is checked here, so a wrong
    frame fails its episode as ``agent_protocol_violation``, never the harness."""
    shown = repr(line[:80]) + ("..." if len(line) > 80 else "")
    if not line.endswith(b"\n") and len(line) >= max_frame:
        return None, f"a frame longer than {max_frame // 2**20} MiB ({shown})"
    if _depth(line) > MAX_DEPTH:
        return None, f"JSON nested deeper than {MAX_DEPTH} levels ({shown})"
    if line.count(b",") + line.count(b"{") + line.count(b"[") > MAX_VALUES and _values(line) > MAX_VALUES:
        return None, f"more than {MAX_VALUES:,} JSON values in one frame ({shown})"
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return None, f"not JSON ({str(exc).splitlines()[0][:80]}): {shown}"
    if not isinstance(message, dict):
        return None, f"not a JSON object: {shown}"
    kinds = [k for k in KINDS if k in message]
    if len(kinds) != 1:
        return None, f"a frame must hold exactly one of {', '.join(KINDS)}: {shown}"
    kind = kinds[0]
    if kind == "call" and not isinstance(message["call"], str):
        return None, f"call: the action's name must be a string: {shown}"
    if kind == "call" and len(message["call"]) > MAX_NAME:  # (a 15 MiB name was kept whole: red team 47)
        return None, f"call: the action's name is longer than {MAX_NAME} characters: {shown}"
    # (arguments that are not an object are the episode's to refuse, as a step, as in process: a
    # model's broken tool-call JSON passed on by an adapter failed the whole episode; red team 72)
    if kind == "call" and not isinstance(message.get("id"), (int, type(None))):
        return None, f"id: must be a number: {shown}"
    if kind == "usage" and not (isinstance(message["usage"], dict) and message["usage"].keys() <= USAGE_KEYS):
        return None, f"usage: must be an object with keys among {', '.join(sorted(USAGE_KEYS))}: {shown}"
    if kind == "error" and not isinstance(message["error"], str):
        return None, f"error: must be a string: {shown}"
    return message, None


def _values(line: bytes) -> int:
    """The JSON values ``line`` holds, counted outside its strings (a letter's commas are none:
    red team 47)."""
    return sum(1 for m in _STRING_OR_VALUE.finditer(line) if m.group() in (b",", b"{", b"["))


_STRING_OR_VALUE = re.compile(rb'"(?:[^"\\]|\\.)*"|[,{\[]')


def _depth(line: bytes) -> int:
    """How deep brackets nest in ``line``, outside strings (a bound checked before parsing)."""
    text = line.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0  # too few brackets to nest too deep: the common case, in one pass
    return json_depth(text)
