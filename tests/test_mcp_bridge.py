"""MCP-client agents under pytest: an in-memory MCP server per episode, on both domains."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import EnvironmentPool, load_tasks
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.tasks.paths import first_order
from tests.helpers.tasks import result_lines

pytest.importorskip("mcp")
ROOT = Path(__file__).parent.parent
TASKS = {"BK-001": ROOT / "tasks" / "booking.jsonl", "ESC-008": ROOT / "tasks" / "escalation.jsonl"}

AGENT = '''
import json
from pytest_agenteval.adapters.mcp import Agent

SCRIPTS = json.loads({scripts!r})

class Scripted(Agent):
    """Follows a script chosen by the server's instructions; every call must be answered as data."""
    async def run_mcp(self, client, episode):
        offered = {{t.name for t in (await client.list_tools()).tools}}
        for name, arguments in SCRIPTS[client.instructions]:
            assert name in offered, name
            result = await client.call_tool(name, arguments)
            assert not result.is_error, result
        episode.record_usage(model="mcp-scripted", input_tokens=100, output_tokens=10)
'''


def scripts() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    found = {}
    for task_id, path in TASKS.items():
        task = next(t for t in load_tasks(path) if t.task_id == task_id)
        found[task.instruction] = [(s.action, s.call_arguments()) for s in first_order(task.acceptable_action_paths[0])]
    return found


def test_an_mcp_client_agent_runs_under_pytest_with_runs_and_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(mcp_agents=AGENT.format(scripts=json.dumps(scripts())))
    result = pytester.runpytest_subprocess("--agent=mcp_agents:Scripted", *map(str, TASKS.values()),
                                           "-k", " or ".join(TASKS), "--runs", "2", "-n", "2",
                                           "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    records = result_lines(pytester.path / "r.jsonl")
    grades = [r for r in records if "summary" not in r]
    assert sorted((g["task_id"], g["run"]) for g in grades) == [("BK-001", 1), ("BK-001", 2), ("ESC-008", 1),
                                                                  ("ESC-008", 2)], result.stdout.str()
    assert all(g["passed"] for g in grades), [c for g in grades for c in g["checks"] if not c["passed"]]
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*agenteval: 4 episodes, K=2*", "group * tokens/ep * cost/ep",
                                 "env booking * 1 * 2 * 1.00 * 110 * -", "env escalation * 1 * 2 * 1.00 * 110 * -"])


class Looping:
    """An MCP-client agent that ignores isError and calls forever."""

    def __new__(cls) -> Any:
        from pytest_agenteval.adapters.mcp import Agent

        class _Looping(Agent):
            async def run_mcp(self, client: Any, episode: Any) -> None:
                while True:
                    await client.call_tool("get_facility", {"facility_id": "FAC-NONE"})

        return _Looping()


class Raising:
    def __new__(cls) -> Any:
        from pytest_agenteval.adapters.mcp import Agent

        class _Raising(Agent):
            async def run_mcp(self, client: Any, episode: Any) -> None:
                await client.call_tool("get_facility", {"facility_id": "FAC-NONE"})
                raise ValueError("the agent's own bug")

        return _Raising()


def test_the_session_ends_when_the_budget_does_and_agent_errors_stay_the_agents() -> None:
    pool = EnvironmentPool()
    task = next(t for t in load_tasks(TASKS["BK-001"], pool=pool) if t.task_id == "BK-001")
    env = pool.get(task.environment)
    looped = run_episode(env, task, Looping, time_limit=30)
    assert "step_limit" in looped.failure_modes and "agent_timeout" not in looped.failure_modes
    assert looped.steps_used == task.max_steps + 1
    raised = run_episode(env, task, Raising, time_limit=30)
    detail = next(c.detail for c in raised.checks if c.name == "agent_completed")
    assert detail.startswith("ValueError: the agent's own bug"), detail
    pool.close()
