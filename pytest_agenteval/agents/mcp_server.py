"""Serve one task's episode over MCP (stdio), so any MCP-capable agent can be evaluated.

    agenteval mcp tasks/booking.jsonl --task BK-017 --grade-out grade.json

The agent sees the task's tools (with read-only hints) and the instruction (as the server's
instructions); each tool call is one action of the episode. The grade is never sent to the
agent: when the session ends, it is written to ``--grade-out``. Needs ``pip install mcp``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.tools import export
from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.errors import EpisodeOver
from pytest_agenteval.tasks.model import Task


def serve(env: Environment, task: Task, grade_out: Path) -> None:
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    env.reset(task.scenario_seed, task=task)
    episode = Episode(env, task)
    tools = [types.Tool.model_validate(t) for t in export(episode.tools, "mcp")]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            observation = episode.call(params.name, dict(params.arguments or {}))
        except EpisodeOver as exc:
            observation = {"ok": False, "error": "episode_over", "detail": str(exc)}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(observation))],
                                    structured_content=observation, is_error=not observation.get("ok", False))

    server = Server(f"agenteval-{task.task_id}", instructions=task.instruction,
                    on_list_tools=list_tools, on_call_tool=call_tool)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        episode.close()
        grade = env.grade()
        grade_out.write_text(grade.model_dump_json(indent=2) + "\n", encoding="utf-8")
