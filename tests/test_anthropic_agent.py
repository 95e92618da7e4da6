"""The Anthropic example, end to end: real anthropic SDK, real HTTP, a scripted Messages API on 127.0.0.1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.anthropic_fake import OUTPUT_TOKENS, ScriptedAnthropic
from tests.helpers.tasks import result_lines, task_line

pytest.importorskip("anthropic")
ROOT = Path(__file__).parent.parent


def test_anthropic_agent_through_the_real_sdk(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    good = task_line(task_id="ANT-1", instruction="Close ticket T-0001.")
    bad = task_line(task_id="ANT-2", instruction="Close ticket T-0002 as well.",
                    expected_final_state={"ticket": {"T-0002": {"status": "closed"}}},
                    acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0002"}}]])
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "ant.jsonl").write_text(good + "\n" + bad + "\n")
    shutil.copy(ROOT / "examples" / "anthropic_agent.py", pytester.path / "anthropic_agent.py")
    scripts = {
        # Two look-ups in one turn (parallel tool_use blocks), then the close.
        "Close ticket T-0001.": [[("get_ticket", {"ticket_id": "T-0001"}), ("get_ticket", {"ticket_id": "T-9999"})],
                                 [("close_ticket", {"ticket_id": "T-0001"})]],
        # A sloppy model: wrong argument type, a tool it was not given, then the wrong ticket.
        "Close ticket T-0002 as well.": [[("close_ticket", {"ticket_id": 2})], [("reopen_everything", {})],
                                         [("close_ticket", {"ticket_id": "T-0003"})]],
    }
    with ScriptedAnthropic(scripts) as model:  # type: ignore[arg-type]
        monkeypatch.setenv("ANTHROPIC_BASE_URL", model.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("AGENTEVAL_MODEL", "claude-scripted")
        result = pytester.runpytest_subprocess("--agent=anthropic_agent:Agent", "--agenteval-results=r.jsonl",
                                               "-p", "no:cacheprovider")
    grades = {g["task_id"]: g for g in result_lines(pytester.path / "r.jsonl")
              if "summary" not in g}
    assert grades["ANT-1"]["passed"] is True, result.stdout.str()
    assert not grades["ANT-2"]["passed"]
    assert set(grades["ANT-2"]["failure_modes"]) >= {"forbidden_action", "wrong_final_state"}
    # The SDK really sent our tools, and every observation really came back as a tool_result.
    first = next(r for r in model.requests if r["messages"][0]["content"] == "Close ticket T-0001.")
    assert first["model"] == "claude-scripted"
    assert {t["name"] for t in first["tools"]} == {"get_ticket", "close_ticket", "add_comment", "set_priority"}
    assert all("input_schema" in t for t in first["tools"])
    second = [r for r in model.requests if r["messages"][0]["content"] == "Close ticket T-0001."][1]
    results = second["messages"][-1]["content"]
    assert [(b["type"], b["tool_use_id"]) for b in results] == [("tool_result", "toolu_0_0"), ("tool_result", "toolu_0_1")]
    assert json.loads(results[1]["content"])["error"] == "not_found"
    last = [r for r in model.requests if r["messages"][0]["content"] == "Close ticket T-0002 as well."][-1]
    observations = [json.loads(b["content"]) for m in last["messages"] if m["role"] == "user"
                    and isinstance(m["content"], list) for b in m["content"]]
    assert observations[0]["error"] == "invalid_arguments" and observations[0]["detail"].startswith("ticket_id: ")
    assert observations[1]["error"] == "unknown_action"
    assert observations[2] == {"ok": True, "result": {"ticket_id": "T-0003", "status": "closed"}}
    # Usage and the conversation reach the results file and the table.
    requests_1 = [r for r in model.requests if r["messages"][0]["content"] == "Close ticket T-0001."]
    usage = grades["ANT-1"]["usage"]
    assert usage["model_calls"] == 3 and usage["output_tokens"] == 3 * OUTPUT_TOKENS
    assert usage["input_tokens"] == sum(ScriptedAnthropic.input_tokens(r) for r in requests_1)
    assert usage["models"].keys() == {"claude-scripted"}
    assert grades["ANT-1"]["transcript"][-1] == {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
    result.stdout.fnmatch_lines(["group * tokens/ep * cost/ep"])
