"""The MCP server for an episode, driven by the official MCP SDK's stdio client."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import task_line

mcp = pytest.importorskip("mcp")


async def drive(task_file: Path, grade: Path, calls: list[tuple[str, dict]]) -> tuple[list, list, str | None]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "pytest_agenteval.cli", "mcp", str(task_file), "--task", "EX-1", "--grade-out", str(grade)])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        listed = await session.list_tools()
        results = [await session.call_tool(name, args) for name, args in calls]
    return listed.tools, results, init.instructions


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_an_mcp_agent_acts_and_the_grade_is_written_at_the_end(tmp_path: Path, anyio_backend: str) -> None:
    task_file = tmp_path / "t.jsonl"
    task_file.write_text(task_line() + "\n")
    grade_file = tmp_path / "grade.json"
    tools, results, instructions = await drive(task_file, grade_file, [
        ("get_ticket", {"ticket_id": "T-0001"}), ("close_ticket", {"ticket_id": "T-0001"}),
        ("delete_ticket", {"ticket_id": "T-0002"})])
    assert instructions == "Close ticket T-0001."
    by_name = {t.name: t for t in tools}
    assert set(by_name) == {"get_ticket", "close_ticket", "add_comment", "set_priority"}
    assert by_name["get_ticket"].annotations.read_only_hint is True
    assert by_name["close_ticket"].input_schema["required"] == ["ticket_id"]
    observations = [json.loads(r.content[0].text) for r in results]
    assert observations[1] == {"ok": True, "result": {"ticket_id": "T-0001", "status": "closed"}}
    assert results[2].is_error and observations[2]["error"] == "forbidden_action"
    assert not any("grade" in json.dumps(o) for o in observations)  # the agent never sees it
    grade = json.loads(grade_file.read_text())
    assert grade["task_id"] == "EX-1" and grade["steps_used"] == 3
    assert grade["failure_modes"] == ["forbidden_action"]
