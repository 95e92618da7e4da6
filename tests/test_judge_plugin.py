"""``--agenteval-judge`` end to end: a pytest run judges letters through a fake endpoint on
127.0.0.1 (never a real model), a rerun asks it nothing, and a bad judge is one clear line."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from tests.helpers.openai_fake import FakeJudge
from tests.helpers.tasks import task_line

pytest.importorskip("openai")

RULE = {"kind": "judged", "name": "reply_is_kind", "action": "add_comment", "argument": "body",
        "rubric": "The reply tells the customer the ticket is closed, politely.", "failure_mode": "rude_reply"}
KIND = "Dear customer, your ticket T-0001 is closed. Kind regards."
RUDE = "Closed. Stop bothering us."
AGENT = '''
class Agent:
    """Closes T-0001 and writes the reply the instruction dictates (after "Write: ")."""

    def run(self, episode):
        episode.call("get_ticket", {"ticket_id": "T-0001"})
        episode.call("close_ticket", {"ticket_id": "T-0001"})
        episode.call("add_comment", {"ticket_id": "T-0001", "body": episode.instruction.split("Write: ", 1)[1]})
'''
JUDGE = '''
from pytest_agenteval.grading.judge import Verdict

def judge(request):
    rude = "bothering" in request.text
    return Verdict(passed=not rude, reason="it tells the customer off" if rude else "polite")
'''


def letter_task(task_id: str, letter: str) -> str:
    step = [{"action": "get_ticket", "arguments": {"ticket_id": "T-0001"}},
            {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}},
            {"action": "add_comment", "arguments": {"ticket_id": "T-0001", "body": "a reply"}}]
    return task_line(task_id=task_id, instruction=f"Close ticket T-0001 and tell the customer. Write: {letter}",
                     expected_final_state={"ticket": {"T-0001": {"status": "closed"}},
                                           "comment": {"+": [{"ticket_id": "T-0001"}]}},
                     acceptable_action_paths=[step], checks=[RULE])


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "letters.jsonl").write_text(letter_task("KIND", KIND) + "\n"
                                                          + letter_task("RUDE", RUDE) + "\n")
    pytester.makepyfile(letter_agent=AGENT, letter_judge=JUDGE)
    return pytester


def grades_of(pytester: pytest.Pytester) -> dict[str, dict[str, Any]]:
    lines = map(json.loads, (pytester.path / "r.jsonl").read_text().splitlines())
    return {g["task_id"]: g for g in lines if "task_id" in g}


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("--agent=letter_agent:Agent", "--agenteval-results=r.jsonl", *args)


def verdict_json(text: str, body: dict[str, Any]) -> str:
    rude = "bothering" in text
    return json.dumps({"passed": not rude, "reason": "it tells the customer off" if rude else "polite"})


def check(grade: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in grade["checks"] if c["name"] == name)


def test_an_endpoint_judge_fails_the_rude_letter_and_a_rerun_asks_nothing(project: pytest.Pytester) -> None:
    with FakeJudge(verdict_json) as server:
        args = (f"--agenteval-judge={server.url}", "--agenteval-judge-model=judge-model")
        first = run(project, *args)
        asked = len(server.requests)
        grades = grades_of(project)
        again = run(project, *args)
    out = first.stdout.str()
    assert asked == 2, out  # one verdict per letter
    assert len(server.requests) == asked, "the rerun asked the judge again"
    assert f"agenteval judge: openai-compatible:{server.url}#judge-model (verdicts cached in " in out
    assert grades["KIND"]["passed"] and check(grades["KIND"], "reply_is_kind")["passed"]
    rude = check(grades["RUDE"], "reply_is_kind")
    assert not grades["RUDE"]["passed"] and grades["RUDE"]["failure_modes"] == ["rude_reply"]
    assert rude == {"name": "reply_is_kind", "passed": False, "failure_mode": "rude_reply", "component": "judged",
                    "detail": "judge failed add_comment.body 'Closed. Stop bothering us.': it tells the customer off"}
    assert [g["checks"] for g in grades_of(project).values()] == [g["checks"] for g in grades.values()]
    first.assert_outcomes(passed=1, failed=1)
    again.assert_outcomes(passed=1, failed=1)


def test_a_function_judge_from_the_project(project: pytest.Pytester) -> None:
    result = run(project, "--agenteval-judge=letter_judge:judge", "-p", "no:cacheprovider")
    grades = grades_of(project)
    assert grades["KIND"]["passed"], result.stdout.str()
    assert check(grades["RUDE"], "reply_is_kind")["detail"].endswith(": it tells the customer off")
    assert "agenteval judge: letter_judge:judge (verdicts not cached)" in result.stdout.str()


@pytest.mark.parametrize("config", ["[tool.pytest.ini_options]\nagenteval_judge = 'letter_judge:judge'\n",
                                    "[tool.agenteval]\njudge = 'letter_judge:judge'\n"])
def test_the_judge_can_be_set_in_pyproject(project: pytest.Pytester, config: str) -> None:
    project.makepyprojecttoml(config)
    run(project).assert_outcomes(passed=1, failed=1)


def test_without_a_judge_judged_checks_are_skipped_and_said_so(project: pytest.Pytester) -> None:
    result = run(project)
    result.assert_outcomes(passed=2)  # the deterministic checks alone: both letters were written
    assert all(g["not_judged"] == ["reply_is_kind"] for g in grades_of(project).values())
    result.stdout.fnmatch_lines(["2 judged check(s) skipped in 2 episode(s): no judge configured, so grades count "
                                 "the deterministic checks only (pass --agenteval-judge=*"])


@pytest.mark.parametrize("concurrency", ["1", "2"])  # 2: graded on the in-flight runner's thread
def test_an_unreachable_judge_fails_the_test_in_one_line_and_grades_nothing(project: pytest.Pytester,
                                                                            concurrency: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run(project, f"--agenteval-judge=http://127.0.0.1:{port}/v1", "--agenteval-judge-model=m",
                 f"--agenteval-concurrency={concurrency}")
    out = result.stdout.str()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([f"KIND: cannot reach the judge at http://127.0.0.1:{port}/v1: * the episode is not "
                                 "graded"])
    assert "Traceback" not in out and "JudgeError" not in out
    assert grades_of(project) == {}  # not the agent's failure: in no results line and no pass rate


@pytest.mark.parametrize(("args", "message"), [
    (["--agenteval-judge=letter_judge:nope"], "--agenteval-judge=letter_judge:nope: 'letter_judge' has no attribute"),
    (["--agenteval-judge=http://127.0.0.1:9/v1"], "an endpoint needs a model"),
])
def test_a_bad_judge_is_a_usage_error_at_start(project: pytest.Pytester, args: list[str], message: str) -> None:
    result = run(project, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str() and "Traceback" not in result.stderr.str()
