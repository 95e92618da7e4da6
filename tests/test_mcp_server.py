"""The MCP server for an episode, driven by the official MCP SDK's stdio client."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.helpers.tasks import task_line

mcp = pytest.importorskip("mcp")


async def drive(task_file: Path, grade: Path, calls: list[tuple[str, dict]], *extra: str,
                pause: float = 0, cwd: Path | None = None) -> tuple[list, list, str | None]:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "pytest_agenteval.cli", "mcp", str(task_file), "--task", "EX-1", "--grade-out", str(grade), *extra],
        cwd=cwd)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        listed = await session.list_tools()
        results = [await session.call_tool(name, args) for name, args in calls]
        await anyio.sleep(pause)
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
    # A refusal is an answer, not a failed call: isError stays false (see agents/mcp_server.py).
    assert not any(r.is_error for r in results) and observations[2]["error"] == "forbidden_action"
    assert not any("grade" in json.dumps(o) for o in observations)  # the agent never sees it
    grade = json.loads(grade_file.read_text())
    assert grade["task_id"] == "EX-1" and grade["steps_used"] == 3
    assert grade["failure_modes"] == ["forbidden_action"]


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_isError_is_kept_for_calls_past_the_budget(tmp_path: Path, anyio_backend: str) -> None:
    task_file = tmp_path / "t.jsonl"
    task_file.write_text(task_line(max_steps=2) + "\n")
    _, results, _ = await drive(task_file, tmp_path / "grade.json", [
        ("get_ticket", {"ticket_id": "T-9999"}), ("close_ticket", {"ticket_id": 1}),
        ("close_ticket", {"ticket_id": "T-0001"}), ("close_ticket", {"ticket_id": "T-0001"})])
    assert [r.is_error for r in results] == [False, False, True, True]
    assert [json.loads(r.content[0].text)["error"] for r in results] == [
        "not_found", "invalid_arguments", "episode_over", "episode_over"]
    assert json.loads((tmp_path / "grade.json").read_text())["failure_modes"] == [
        "step_limit", "unexpected_path", "wrong_final_state"]


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_stdio_server_ends_a_session_at_its_time_limit(tmp_path: Path, anyio_backend: str) -> None:
    """A client that goes quiet does not keep the server (and its grade) waiting forever."""
    import time

    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    task_file = tmp_path / "t.jsonl"
    task_file.write_text(task_line() + "\n")
    grade_file = tmp_path / "grade.json"
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "pytest_agenteval.cli", "mcp", str(task_file), "--grade-out", str(grade_file), "--timeout", "1"])
    with pytest.raises(BaseException):  # noqa: B017 - the server has gone: the SDK's task group raises
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("get_ticket", {"ticket_id": "T-0001"})
            quiet_from = time.time()
            await anyio.sleep(4)
            quiet_until = time.time()
            await session.call_tool("close_ticket", {"ticket_id": "T-0001"})
    # Written while the client was quiet: the limit ended the session, not the client.
    assert quiet_from < grade_file.stat().st_mtime < quiet_until
    grade = json.loads(grade_file.read_text())
    assert "agent_timeout" in grade["failure_modes"] and grade["steps_used"] == 1
    assert "past the time limit of 1 s" in json.dumps(grade["checks"])


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_an_environment_bug_is_answered_and_no_grade_is_written(tmp_path: Path, anyio_backend: str) -> None:
    from tests.test_authoring import BUGGY

    (tmp_path / "pyproject.toml").write_text('[tool.agenteval]\nenvironments = ["buggy_env"]\n')
    (tmp_path / "buggy_env.py").write_text(BUGGY)
    task_file = tmp_path / "t.jsonl"
    task_file.write_text(task_line(environment="buggy") + "\n")
    grade_file = tmp_path / "grade.json"
    _, results, _ = await drive(task_file, grade_file, [("get_ticket", {"ticket_id": "T-0001"}),
                                                        ("close_ticket", {"ticket_id": "T-0001"})], cwd=tmp_path)
    assert [r.is_error for r in results] == [True, True]
    observations = [json.loads(r.content[0].text) for r in results]
    assert [o["error"] for o in observations] == ["environment_error", "episode_over"]
    assert observations[0]["detail"].startswith("action get_ticket raised KeyError: 'subject'")
    assert not grade_file.exists()  # not graded: no file, not an empty one
