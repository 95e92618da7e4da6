"""Run an agent in a separate process that can only send actions and receive observations.

The child gets the episode's instruction, tools, step budget and seed, and nothing else: no
database connection, no task, no grader. It speaks JSON Lines over its stdin/stdout; its own
prints go to stderr. A crash, ``os._exit`` or a hang in agent code ends the child, and only
that episode fails. It is process isolation, not an OS sandbox: the child can still read any
file the user can (see the README's threat model).

    python -m pytest_agenteval.agents.sandbox   # the child side; started by the runner
"""

from __future__ import annotations

import inspect
import json
import os
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pytest_agenteval.errors import EpisodeOver

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode


@dataclass(frozen=True, kw_only=True)
class IsolatedAgent:
    """An agent named by ``MODULE:ATTR``, to be run in its own process per episode."""

    spec: str
    search_path: str | None = None

    @classmethod
    def of(cls, factory: Any, search_path: Path | None) -> IsolatedAgent:
        """Isolate a factory that is importable by name (a module-level class or function)."""
        qualname = getattr(factory, "__qualname__", "")
        module = getattr(factory, "__module__", "")
        if not module or not qualname or "<locals>" in qualname or module == "__main__":
            raise ValueError(f"cannot run {factory!r} in a separate process: name a module-level class "
                             "or function (MODULE:ATTR)")
        return cls(spec=f"{module}:{qualname}", search_path=str(search_path) if search_path else None)


def run_isolated(agent: IsolatedAgent, episode: Episode, time_limit: float | None) -> tuple[str, str] | None:
    """Drive the child; return None, or (label, detail) when the agent failed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [agent.search_path, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "pytest_agenteval.agents.sandbox"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdin and proc.stdout and proc.stderr
    deadline = None if not time_limit else time.monotonic() + time_limit
    try:
        _send(proc.stdin, {"spec": agent.spec, "episode": {
            "task_id": episode.task_id, "instruction": episode.instruction, "tools": episode.tools,
            "max_steps": episode.max_steps, "seed": episode.seed}})
        return _serve(proc, episode, deadline, time_limit)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


def _serve(proc: subprocess.Popen[bytes], episode: Episode, deadline: float | None,
           time_limit: float | None) -> tuple[str, str] | None:
    assert proc.stdin and proc.stdout and proc.stderr
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and (wait <= 0 or not selector.select(wait)):
                return "agent_timeout", f"the agent ran past the time limit of {time_limit:g} s"
            line = proc.stdout.readline()
            if not line:
                code = proc.wait()
                tail = proc.stderr.read().decode(errors="replace").strip().splitlines()[-1:] or [""]
                return "agent_error", f"the agent process died (exit code {code}) {tail[0]}".strip()[:500]
            message = json.loads(line)
            if "done" in message:
                return None
            if "error" in message:
                return "agent_error", str(message["error"])[:500]
            try:
                reply: dict[str, Any] = {"observation": episode.call(message["call"], message.get("arguments"))}
            except EpisodeOver as exc:
                reply = {"over": str(exc)}
            try:
                _send(proc.stdin, reply)
            except BrokenPipeError:
                continue  # the child died; the next read sees EOF and reports it


def _send(stream: IO[bytes], message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, default=lambda o: f"<{type(o).__name__}>").encode() + b"\n")
    stream.flush()


# ----- the child side ------------------------------------------------------------------------


class RemoteEpisode:
    """The child's episode: the same face as ``Episode``, every call a round trip to the parent."""

    def __init__(self, data: dict[str, Any], inbox: IO[str], outbox: IO[str]) -> None:
        self.task_id: str = data["task_id"]
        self.instruction: str = data["instruction"]
        self.tools: list[dict[str, Any]] = data["tools"]
        self.max_steps: int = data["max_steps"]
        self.seed: int = data["seed"]
        self.steps_used = 0
        self._inbox, self._outbox = inbox, outbox

    def call(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        self._outbox.write(json.dumps({"call": action, "arguments": arguments},
                                      default=lambda o: f"<{type(o).__name__}>") + "\n")
        self._outbox.flush()
        reply = json.loads(self._inbox.readline())
        self.steps_used += 1
        if "over" in reply:
            raise EpisodeOver(reply["over"])
        return reply["observation"]  # type: ignore[no-any-return]

    async def acall(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.call(action, arguments)

    def tools_for(self, fmt: str) -> list[dict[str, Any]]:
        from pytest_agenteval.agents.tools import export

        return export(self.tools, fmt)


def child_main() -> None:
    outbox = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the agent's own prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    inbox = sys.stdin
    from pytest_agenteval.agents.episode import describe
    from pytest_agenteval.agents.loading import load_agent

    setup = json.loads(inbox.readline())
    try:
        agent = load_agent(setup["spec"], search_path=Path.cwd())()
        result = agent.run(RemoteEpisode(setup["episode"], inbox, outbox))
        if inspect.isawaitable(result):
            import asyncio

            asyncio.run(_await(result))
        outbox.write(json.dumps({"done": True}) + "\n")
    except EpisodeOver:
        outbox.write(json.dumps({"done": True}) + "\n")
    except BaseException as exc:  # noqa: BLE001 - report the agent's failure to the parent
        outbox.write(json.dumps({"error": describe(exc)}) + "\n")
    outbox.flush()


async def _await(awaitable: Any) -> Any:
    return await awaitable


if __name__ == "__main__":
    child_main()
