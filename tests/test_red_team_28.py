"""Red team 28: ways for an agent to make its failing episodes not count (raise after doing
wrong, skip them), each shown failing before the change."""

from __future__ import annotations

import pytest

from tests.helpers.tasks import result_lines, task_line

FORBIDDEN_THEN_RAISE = '''
class Agent:
    """Does what the task forbids, then raises (or says its provider failed)."""
    def run(self, episode):
        if "EX-1" in episode.instruction:
            episode.call("delete_ticket", {"ticket_id": "T-0001"})  # not allowed: refused
        elif "EX-2" in episode.instruction:
            try:
                while True:
                    episode.call("get_ticket", {"ticket_id": "T-0001"})  # past the step budget
            except Exception:
                pass
        raise ConnectionError("the model endpoint went away")
'''


@pytest.mark.parametrize("isolate", [[], ["--agenteval-isolate=process"]])
def test_an_agent_that_raised_after_a_forbidden_call_or_its_last_step_is_failed(pytester: pytest.Pytester,
                                                                                isolate: list[str]) -> None:
    """Errored episodes are in no rate and are run again: a forbidden call or a loop past the
    step budget, then a raise, made the episode errored, and a resume replaced it. Now it is
    graded as it stands, failed; a raise before anything still errs."""
    pytester.makepyfile(forbid=FORBIDDEN_THEN_RAISE)
    (pytester.path / "t.jsonl").write_text("".join(
        task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-0001 (EX-{i}).", max_steps=5) + "\n"
        for i in (1, 2, 3)))
    pytester.runpytest_subprocess("--agent=forbid:Agent", *isolate, "--agenteval-results=r.jsonl",
                                  "-p", "no:cacheprovider", "t.jsonl")
    grades = {g["task_id"]: g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g}
    for failed in ("EX-1", "EX-2"):
        assert grades[failed].get("error") is None and not grades[failed]["passed"], grades[failed]
    assert "forbidden_action" in grades["EX-1"]["failure_modes"]
    assert grades["EX-3"]["error"]["kind"] == "provider"


def test_an_agent_of_the_users_cannot_skip_the_tasks_it_would_fail(pytester: pytest.Pytester) -> None:
    """Only the built-in saboteur and replay agents play some tasks and skip the rest: an agent
    with an ``applies_to`` of its own (and an empty reason, which the gate's check missed) had
    its failing tasks skipped and the gate passed."""
    pytester.makepyfile(choosy='''
class Agent:
    skip_reason = ""
    def applies_to(self, task):
        return task.task_id != "EX-2"
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
''')
    (pytester.path / "t.jsonl").write_text(
        task_line(task_id="EX-1") + "\n"
        + task_line(task_id="EX-2", expected_final_state={"ticket": {"T-0002": {"status": "closed"}}}) + "\n")
    result = pytester.runpytest_subprocess("--agent=choosy:Agent", "--agenteval-fail-under=1.0",
                                           "-p", "no:cacheprovider", "t.jsonl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert any("1 failed, 1 passed" in line for line in result.outlines), result.outlines[-5:]
    assert not any("skipped" in line for line in result.outlines)
