"""The LLM agent example, end to end: real openai SDK, real HTTP, a scripted model on 127.0.0.1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.openai_fake import ScriptedOpenAI
from tests.helpers.tasks import task_line

pytest.importorskip("openai")
ROOT = Path(__file__).parent.parent


def test_llm_agent_through_the_real_sdk(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    good = task_line(task_id="LLM-1", instruction="Close ticket T-0001.")
    bad = task_line(task_id="LLM-2", instruction="Close ticket T-0002 as well.",
                    expected_final_state={"ticket": {"T-0002": {"status": "closed"}}},
                    acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0002"}}]])
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "llm.jsonl").write_text(good + "\n" + bad + "\n")
    shutil.copy(ROOT / "examples" / "openai_agent.py", pytester.path / "openai_agent.py")
    scripts = {
        "Close ticket T-0001.": [("get_ticket", '{"ticket_id": "T-0001"}'), ("close_ticket", '{"ticket_id": "T-0001"}')],
        # A sloppy model: broken JSON, an unknown tool, then the wrong ticket.
        "Close ticket T-0002 as well.": [("close_ticket", '{"ticket_id": '), ("reopen_everything", "{}"),
                                         ("close_ticket", '{"ticket_id": "T-0003"}')],
    }
    with ScriptedOpenAI(scripts) as model:
        monkeypatch.setenv("OPENAI_BASE_URL", model.url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AGENTEVAL_MODEL", "scripted-model")
        result = pytester.runpytest_subprocess("--agent=openai_agent:Agent", "--agenteval-results=r.jsonl",
                                               "-p", "no:cacheprovider")
    grades = {g["task_id"]: g for g in map(json.loads, (pytester.path / "r.jsonl").read_text().splitlines())
              if "task_id" in g}
    assert grades["LLM-1"]["passed"] is True, result.stdout.str()
    assert not grades["LLM-2"]["passed"]
    assert set(grades["LLM-2"]["failure_modes"]) >= {"forbidden_action", "wrong_final_state"}
    # The SDK really sent our tools, and the observations really came back to the model.
    first = next(r for r in model.requests if r["messages"][1]["content"] == "Close ticket T-0001.")
    assert {t["function"]["name"] for t in first["tools"]} == {"get_ticket", "close_ticket", "add_comment",
                                                                  "set_priority"}
    last = [r for r in model.requests if r["messages"][1]["content"] == "Close ticket T-0002 as well."][-1]
    results = [json.loads(m["content"]) for m in last["messages"] if m["role"] == "tool"]
    assert results[0]["error"] == "invalid_json"
    assert results[1]["error"] == "unknown_action"
    assert results[2] == {"ok": True, "result": {"ticket_id": "T-0003", "status": "closed"}}
    # Usage and the conversation reach the results file.
    assert grades["LLM-1"]["usage"]["model_calls"] == 3 and grades["LLM-1"]["usage"]["input_tokens"] == 3
    assert grades["LLM-1"]["transcript"][1] == {"role": "user", "content": "Close ticket T-0001."}
