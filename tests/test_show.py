"""``agenteval show``: one episode in the terminal, and one-line errors for what is not there."""

from __future__ import annotations

import pytest

from pytest_agenteval.cli import main
from tests.helpers.tasks import task_line

AGENT = """
class Agent:
    def run(self, episode):
        episode.record_usage(model="m", input_tokens=120, output_tokens=30, cost=0.25)
        obs = episode.call("get_ticket", {"ticket_id": "T-0001"})
        episode.call("set_priority", {"ticket_id": "T-0001", "priority": 1})
        episode.attach_transcript([
            {"role": "user", "content": episode.instruction},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_ticket", "arguments": '{"ticket_id": "T-0001"}'}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ticket is open"},
            {"role": "assistant", "content": [{"type": "text", "text": "Raised its priority instead."}]},
        ])
"""


@pytest.fixture
def results(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(myagent=AGENT)
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=myagent:Agent", "--agenteval-results=r.jsonl", "--runs=2").assert_outcomes(failed=2)
    monkeypatch.chdir(pytester.path)
    return pytester


def test_show_prints_one_episode(results: pytest.Pytester, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "r.jsonl", "EX-1", "--run", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "EX-1 run 2 (example, seed 1): failed, score 0.50, 2 steps"
    for line in [
        "  Close ticket T-0001.",
        "  1. get_ticket(ticket_id='T-0001')",
        "transcript (4 messages):",
        "  [user] Close ticket T-0001.",
        '      calls get_ticket({"ticket_id": "T-0001"})',
        "  [tool] ticket is open",
        "  [assistant] Raised its priority instead.",
        "usage: 1 model calls, 120 input + 30 output tokens, $0.2500",
        "state diff:",
    ]:
        assert line in out, line
    assert any(line.startswith("  2. set_priority(") and "priority=1" in line for line in out)
    assert any(line.startswith("  ticket T-0001.priority: ") and line.endswith("3 -> 1") for line in out)
    assert any(line.startswith("     -> {\"ok\": true") for line in out)  # observations replayed from tasks/
    failed = out[out.index(next(line for line in out if line.startswith("failed checks"))) + 1:]
    assert any(line.startswith("  state.ticket.T-0001 [wrong_final_state] ") for line in failed)
    assert not any(line.lstrip().startswith("{\"role\"") for line in out)  # not a raw JSON dump


@pytest.mark.parametrize(("args", "message"), [
    (["EX-2"], "agenteval show: r.jsonl: no episode of task 'EX-2' (did you mean EX-1?)"),
    (["EX-1", "--run", "3"], "agenteval show: r.jsonl: task EX-1 has no run 3 (its runs: 1, 2; use --run with one of them)"),
])
def test_an_episode_not_there_is_one_line(results: pytest.Pytester, capsys: pytest.CaptureFixture[str],
                                          args: list[str], message: str) -> None:
    assert main(["show", "r.jsonl", *args]) == 2
    assert capsys.readouterr().err.splitlines() == [message]


def test_a_missing_results_file_is_one_line(tmp_path: object, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(str(tmp_path))
    assert main(["show", "nope.jsonl", "EX-1"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
