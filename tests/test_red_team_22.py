"""Red team 22: what the week's fixes missed: pytest's own debug log and an earlier run's terminal
log in view, a message to the user as an act, a merge dropping a resume's mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_agenteval.plugin.hiding import hidden_paths
from pytest_agenteval.plugin.state import STATE
from pytest_agenteval.plugin.view import in_view
from tests.helpers.tasks import result_lines, task_line

ROOT = Path(__file__).parent.parent


def test_pytests_debug_log_is_hidden(pytester: pytest.Pytester) -> None:
    """`--debug` writes every fixture's arguments as the run goes: the task with its expected state."""
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    config = pytester.parseconfigure("--debug", "--agent=noop", "-p", "no:cacheprovider", "t.jsonl")
    assert str((pytester.path / "pytestdebug.log").resolve()) in hidden_paths(config, config.stash[STATE])


def test_an_earlier_runs_terminal_log_is_hidden_whatever_its_name(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    (tmp_path / "run.log").write_text("=" * 29 + " test session starts " + "=" * 30 + "\nplatform linux\n")
    (tmp_path / "ci.txt").write_text("agenteval: agent=mymod:Agent, runs=1, episode time limit=300 s\n")
    (tmp_path / "notes.txt").write_text("my own notes\n")
    assert in_view(tmp_path) == ["agent.py"]
    assert in_view(tmp_path, shown=["notes.txt"]) == ["agent.py", "notes.txt"]


SAYS_THEN_RAISES = '''
class Agent:
    """Tells the customer a lie, then says its provider failed: the lie must not be run again away."""
    def run(self, episode):
        episode.call("say_to_user", {"message": "FAC-5047 is booked, priced at 9.9% and activated."})
        raise ConnectionError("the model endpoint went away")
'''


def test_an_agent_that_raised_after_the_user_heard_it_is_failed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(says=SAYS_THEN_RAISES)
    chat = next(line for line in (ROOT / "tasks" / "booking_chat.jsonl").read_text().splitlines() if "BKC-001" in line)
    (pytester.path / "t.jsonl").write_text(chat + "\n")
    pytester.runpytest_subprocess("--agent=says:Agent", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider",
                                  "t.jsonl")
    [grade] = [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g]
    assert grade.get("error") is None and not grade["passed"]
    assert "misleading_message" in grade["failure_modes"]


def test_a_merged_file_keeps_its_sources_resume_marks(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_agenteval.cli import main

    monkeypatch.setenv("AGENTEVAL_SIGNING_KEY", "k" * 32)
    (pytester.path / "t.jsonl").write_text("".join(task_line(task_id=f"EX-{i}") + "\n" for i in range(2)))
    run = ("--agent=reference", "-p", "no:cacheprovider", "t.jsonl")
    pytester.runpytest_subprocess("--agenteval-results=r.jsonl", *run)
    lines = (pytester.path / "r.jsonl").read_bytes().split(b"\n")
    (pytester.path / "r.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n")  # cut by hand, then resumed
    pytester.runpytest_subprocess("--agenteval-resume=r.jsonl", *run)
    monkeypatch.chdir(pytester.path)
    assert main(["report", "r.jsonl", "--out", "merged.jsonl"]) == 0
    capsys.readouterr()
    for command in (["report", "merged.jsonl"], ["compare", "merged.jsonl", "merged.jsonl"]):
        main(command)
        out = capsys.readouterr().out
        assert "merged.jsonl:2: (merged from r.jsonl:3) resumed after line 2, where the file was cut short" in out, out
