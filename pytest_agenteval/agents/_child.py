"""The sandbox's child: limits itself, imports the agent, waits, plays one episode, ends.

Started by ``sandbox.child_command`` as a file, not as part of the package: importing
``pytest_agenteval`` costs ~0.5 s (pydantic, the engine), and the child needs none of it. It
imports only the standard library; this package's own stdlib-only modules (errors, usage,
tools) are loaded by file when first needed, or taken from ``sys.modules`` if the agent
imported the package itself (so ``except pytest_agenteval.EpisodeOver`` catches ours).

The resource limits are set first, before anything of the project can run: the search path
is not on ``PYTHONPATH`` and ``-P`` keeps the working folder off ``sys.path``; it is added once
the limits hold. Protocol, one JSON object a line: the parent sends ``{"spec", "search_path"}``;
the child answers ``{"ok": true}`` or ``{"error"}`` once the agent's module is imported, then
waits; the parent sends ``{"episode"}`` (or closes stdin: the child ends); then as in
``sandbox._serve``.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import json
import os
import resource
import sys
import threading

TYPE_CHECKING = False  # typing alone costs the child ~10 ms to import
if TYPE_CHECKING:
    from typing import IO, Any

PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
RLIMITS = {"cpu": resource.RLIMIT_CPU, "memory": resource.RLIMIT_AS, "processes": resource.RLIMIT_NPROC,
           "file_size": resource.RLIMIT_FSIZE, "open_files": resource.RLIMIT_NOFILE}


def apply_limits(limits: dict[str, int]) -> None:
    """Soft and hard limit alike (the agent cannot raise them back); CPU: the soft limit sends
    SIGXCPU, the hard one, a second later, SIGKILL (for an agent that handles SIGXCPU)."""
    for name, value in limits.items():
        hard = value + 1 if name == "cpu" else value
        resource.setrlimit(RLIMITS[name], (value, hard))


def ours(name: str) -> Any:
    """One of this package's stdlib-only modules, without importing the package's ``__init__``."""
    if name in sys.modules:
        return sys.modules[name]
    path = os.path.join(PACKAGE, *name.split(".")[1:]) + ".py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, leaf = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], leaf, module)
    return module


class RemoteEpisode:
    """The child's episode: the same face as ``Episode``, every call a round trip to the parent.

    Safe to call from several threads at once (agent frameworks run tools in parallel): one
    round trip at a time, each request numbered and its answer checked against the number.
    """

    def __init__(self, data: dict[str, Any], inbox: IO[str], outbox: IO[str]) -> None:
        self.task_id: str = data["task_id"]
        self.instruction: str = data["instruction"]
        self.tools: list[dict[str, Any]] = data["tools"]
        self.policy: str = data.get("policy", "")
        self.system_prompt: str = data.get("system_prompt", "")
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
            raise ours("pytest_agenteval.errors").EpisodeOver(reply["over"])
        return reply["observation"]  # type: ignore[no-any-return]

    async def acall(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.call(action, arguments)

    def say(self, message: str) -> str:
        obs = self.call("say_to_user", {"message": message})  # as Episode.say (agents/episode.py: said)
        if not obs.get("ok"):
            raise ValueError(f"say_to_user refused: {obs.get('error')}: {obs.get('detail')}")
        return str(obs["result"]["reply"])

    def record_usage(self, *, model: str | None = None, input_tokens: int = 0, output_tokens: int = 0,
                     cost: float | None = None, latency: float | None = None, calls: int = 1) -> None:
        usage: dict[str, Any] = {"model": model, "input_tokens": input_tokens, "output_tokens": output_tokens,
                                 "cost": cost, "latency": latency, "calls": calls}
        ours("pytest_agenteval.agents.usage").UsageLedger().record(**usage)  # the in-process errors, here
        self.finish({"usage": usage})

    def attach_transcript(self, messages: Any) -> None:
        ledger = ours("pytest_agenteval.agents.usage").UsageLedger()
        ledger.attach(messages)
        self.finish({"transcript": ledger.transcript()})  # JSON-able and capped before it travels

    def tools_for(self, fmt: str) -> list[dict[str, Any]]:
        return ours("pytest_agenteval.agents.tools").export(self.tools, fmt)  # type: ignore[no-any-return]

    def system_text(self, default: str = "") -> str:
        return ours("pytest_agenteval.agents.tools").system_text(  # type: ignore[no-any-return]
            default, self.system_prompt, self.policy)

    def finish(self, message: dict[str, Any]) -> None:
        """A message that needs no answer (never in the middle of a round trip)."""
        with self._lock:
            self._write(message)

    def _write(self, message: dict[str, Any]) -> None:
        self._outbox.write(json.dumps(message, default=lambda o: f"<{type(o).__name__}>") + "\n")
        self._outbox.flush()


def main(limits_json: str) -> None:
    apply_limits(json.loads(limits_json))
    outbox = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the agent's own prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    inbox = sys.stdin
    first = inbox.readline()
    if not first:
        return  # the pool closed before handing this sandbox out
    setup = json.loads(first)
    sys.path.insert(0, setup["search_path"])
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [setup["search_path"], os.environ.get("PYTHONPATH")]))
    # the harness's own word that the sandbox runs: past it, whatever ends the child is the agent's
    # (an agent writing "bwrap: …" to stderr before dying is no sandbox failure; red team 66)
    outbox.write('{"started": true}\n')
    outbox.flush()
    factory = _load(setup["spec"], setup["search_path"], outbox)
    if factory is None:
        return
    line = inbox.readline()
    if not line:
        return  # checked only, or the pool closed: nothing to play
    episode = RemoteEpisode(json.loads(line)["episode"], inbox, outbox)
    errors = ours("pytest_agenteval.errors")
    reserve = _Reserve()
    try:
        result = factory().run(episode)
        if awaitable(result):  # an ``async def run`` (inspect costs ~15 ms to import)
            import asyncio

            asyncio.run(_await(result))
        episode.finish({"done": True})
    except errors.EpisodeOver:
        episode.finish({"done": True})
    except BaseException as exc:  # noqa: BLE001 - report the agent's failure to the parent
        limit = limit_hit(exc)
        if limit is not None:  # told with what is already loaded and open: the agent may still hold it all
            reserve.release()
            said = errors.describe_exception(exc)
            exc.__traceback__ = None  # (its frames, and what they hold, can go)
            episode.finish({"error": said, "traceback": "", "limit": limit})
            return
        error = importlib.import_module("pytest_agenteval.agents.errored").errored_by(exc)  # message, own traceback
        episode.finish({"error": error.message, "traceback": error.traceback})


class _Reserve:
    """A descriptor and some memory held back while the agent plays, given up to tell the parent it
    hit a limit: an agent that keeps every descriptor or byte it got until the kernel refuses one
    more left nothing for the report, and the child died unlabelled (red team 39)."""

    def __init__(self) -> None:
        self._fd: int | None = os.open(os.devnull, os.O_RDONLY)
        self._memory: bytearray | None = bytearray(1 << 20)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
        self._fd = self._memory = None


def awaitable(result: Any) -> bool:
    """``inspect.isawaitable``, as in process: a generator-based coroutine (``@types.coroutine``)
    has no ``__await__`` but is awaited there."""
    code = getattr(result, "gi_code", None)
    return hasattr(result, "__await__") or bool(code is not None and code.co_flags & 0x100)  # CO_ITERABLE_COROUTINE


def limit_hit(exc: BaseException) -> str | None:
    """Which limit this exception is the kernel's refusal of, if one (the parent says it so).

    (CPU time ends the process by signal instead; the parent reads that from its exit code.)"""
    if isinstance(exc, MemoryError) or isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return "memory"  # RLIMIT_AS: an allocation refused (an mmap's, as ENOMEM: red team 40)
    if isinstance(exc, BlockingIOError) or (isinstance(exc, RuntimeError) and "new thread" in str(exc)):
        return "processes"  # RLIMIT_NPROC: fork or clone refused with EAGAIN
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return "file_size"  # RLIMIT_FSIZE: Python ignores SIGXFSZ, so the write fails with EFBIG
    if isinstance(exc, OSError) and exc.errno == errno.EMFILE:
        return "open_files"  # RLIMIT_NOFILE: one more open refused
    return None


def _builds(factory: Any) -> bool:
    """One agent built with no arguments has a ``run``: the start-up check (``check_buildable``)."""
    try:
        return callable(getattr(factory(), "run", None))
    except BaseException:  # noqa: BLE001 - the slow path reports it in the loader's words
        return False


def _load(spec: str, search_path: str, outbox: IO[str]) -> Any:
    """The agent's factory, answering ``ok``; or None, having answered the error."""
    module_name, _, attr_path = spec.partition(":")
    factory: Any = None
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr_path.split("."):
            target = getattr(target, part)
        factory = target if callable(target) else None
    except BaseException:  # noqa: BLE001, S110 - the loader below says what went wrong, as in process
        pass
    if factory is not None and _builds(factory):
        ours("pytest_agenteval.errors")  # before the answer: an episode must not wait for it (sysconfig)
        answer: dict[str, Any] = {"ok": True}
    elif factory is not None:  # it imports but cannot be built: the loader's check says why, exactly
        try:
            importlib.import_module("pytest_agenteval.agents.loading").check_buildable(spec, factory)
            answer = {"ok": True}  # built the second time: its constructor varies, as the episode will see
        except ours("pytest_agenteval.errors").AgentSpecError as exc:
            answer = {"error": str(exc)}
    else:  # the slow path: the package's own loader, for its exact messages
        from pytest_agenteval.agents.loading import load_agent
        from pytest_agenteval.errors import AgentSpecError, describe_exception

        try:
            from pathlib import Path

            load_agent(spec, search_path=Path(search_path), probe=False)
            answer = {"error": f"--agent={spec}: it failed to import once, then imported"}
        except AgentSpecError as exc:
            answer = {"error": str(exc)}
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt at import: the module's own
            answer = {"error": f"--agent={spec}: importing it failed: {describe_exception(exc)}"}
    outbox.write(json.dumps(answer) + "\n")
    outbox.flush()
    return factory


async def _await(awaitable: Any) -> Any:
    return await awaitable
