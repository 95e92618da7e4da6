"""Serve an episode over MCP, so any MCP-capable agent can be evaluated.

    agenteval mcp tasks/booking.jsonl --task BK-017 --grade-out grade.json [--timeout 300]

The agent sees the task's tools (with read-only hints) and the instruction (as the server's
instructions); each tool call is one action of the episode. The grade is never sent to the
agent: when the session ends (or the time limit ends it), it is written to ``--grade-out``.
``build_server`` gives the same server for one episode in memory (``adapters.mcp``, under
pytest). Needs ``pip install mcp``.

``isError``. The MCP schema defines it as "Whether the tool call ended in an error" and asks
that errors from a tool be reported "inside the result ... so the LLM can see and
self-correct". Every observation is inside the result, as text and as structured content, so
the model always sees it. A domain refusal (``not_found``, ``invalid_arguments``,
``forbidden_action``…) is not a call that ended in an error: the environment carried the call
out, audited it and answered no, an answer the model is expected to act on. So ``isError`` is
false for every observation and true only when the call could not be carried out at all
(the episode is over: step budget used up, time limit reached). This matters in practice:
clients turn ``isError`` into exceptions (pydantic-ai retries then ends the run, fastmcp raises
``ToolError``) that would end an agent's run on an ordinary refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.episode import DEFAULT_TIME_LIMIT, Episode
from pytest_agenteval.agents.tools import export
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.errors import EnvironmentBug, EpisodeOver
from pytest_agenteval.tasks.model import Task

if TYPE_CHECKING:
    from mcp import types  # an optional dependency: imported when a server is built

def call_result(observation: dict[str, Any], *, carried_out: bool = True) -> types.CallToolResult:
    """The observation as a ``CallToolResult``; ``isError`` only for a call not carried out."""
    from mcp import types

    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(observation))],
                                structured_content=observation, is_error=not carried_out)


def build_server(episode: Episode, *, name: str | None = None, on_over: Callable[[], None] | None = None) -> Any:
    """A low-level MCP server whose tools are the episode's actions (one per episode).
    ``on_over`` is called when a call finds the episode over."""
    from mcp import types
    from mcp.server.lowlevel import Server

    tools = [types.Tool.model_validate(t) for t in export(episode.tools, "mcp")]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            observation = await episode.acall(params.name, dict(params.arguments or {}))
        except EpisodeOver as exc:
            if on_over is not None:
                on_over()
            return call_result({"ok": False, "error": "episode_over", "detail": str(exc)}, carried_out=False)
        except EnvironmentBug as exc:  # recorded by the engine; the episode will not be graded
            episode.close()
            return call_result({"ok": False, "error": "environment_error", "detail": str(exc)}, carried_out=False)
        return call_result(observation)

    return Server(name or f"agenteval-{episode.task_id}", instructions=_instructions(episode),
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _instructions(episode: Any) -> str:
    """The instruction, after the episode's system prompt and policy when it has them."""
    text = episode.system_text() if callable(getattr(episode, "system_text", None)) else ""
    return f"{text}\n\n# Task\n{episode.instruction}" if text else episode.instruction


class _Lines:
    """stdin's lines for the stdio server, read so that the time limit can interrupt the wait
    (the SDK's own reader blocks a thread until the client writes or leaves)."""

    def __init__(self) -> None:
        import io
        import sys

        self._file = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        import anyio

        line = await anyio.to_thread.run_sync(self._file.readline, abandon_on_cancel=True)
        if not line:
            raise StopAsyncIteration
        return line


def serve(env: Environment, task: Task, grade_out: Path, *, time_limit: float | None = DEFAULT_TIME_LIMIT) -> None:
    """Serve the task's episode on stdio until the client leaves or ``time_limit`` seconds pass;
    then write the grade (a session cut by the limit is graded ``agent_timeout``)."""
    import anyio
    from mcp.server.stdio import stdio_server

    env.reset(task.scenario_seed, task=task)
    episode = Episode(env, task)
    server = build_server(episode)
    timed_out = False

    async def main() -> None:
        nonlocal timed_out
        with anyio.move_on_after(time_limit if time_limit else float("inf")) as scope:
            async with stdio_server(stdin=_Lines()) as (read, write):  # type: ignore[arg-type]
                await server.run(read, write, server.create_initialization_options())
        timed_out = scope.cancelled_caught

    try:
        anyio.run(main)
    finally:
        episode.close()
        failure = ("agent_timeout", f"the MCP session ran past the time limit of {time_limit:g} s") \
            if timed_out else None
        try:
            grade = env.grade(agent_failure=failure)
        except EnvironmentBug:
            grade_out.unlink(missing_ok=True)  # no grade: do not leave the prepared file empty
            raise
        grade_out.write_text(grade.model_dump_json(indent=2) + "\n", encoding="utf-8")
