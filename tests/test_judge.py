"""The optional judge of free text, in process: the check, the cache, the endpoint judge, the spec.

Never a real model: the endpoint judge talks to ``openai_fake.FakeJudge`` on 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import EnvironmentPool, run_episode
from pytest_agenteval.errors import JudgeError, JudgeSpecError
from pytest_agenteval.grading import judge as judge_module
from pytest_agenteval.grading.judge import JudgeRequest, Verdict, cache_key, identity_of
from pytest_agenteval.grading.judge_spec import load_judge
from pytest_agenteval.grading.model_judge import ANSWER_FORMAT, SEED, OpenAIJudge, marker, messages, parse_verdict
from pytest_agenteval.grading.verdict_cache import CachedJudge, read_verdicts
from pytest_agenteval.taskfiles.loader import TaskLoader
from tests.helpers.openai_fake import FakeJudge
from tests.helpers.tasks import make_task, task_line

RULE = {"kind": "judged", "name": "reply_is_kind", "action": "add_comment", "argument": "body",
        "rubric": "The reply tells the customer the ticket is closed, politely.", "failure_mode": "rude_reply"}
KIND = "Dear customer, your ticket T-0001 is closed. Kind regards."
RUDE = "Closed. Stop bothering us."
REQUEST = JudgeRequest(rubric=RULE["rubric"], text=KIND, action="add_comment", argument="body", task_id="EX-1")


def polite(request: JudgeRequest) -> Verdict:
    rude = "bothering" in request.text
    return Verdict(passed=not rude, reason="it tells the customer off" if rude else "closed, and said kindly")


def verdict_json(text: str, body: dict[str, Any]) -> str:
    rude = "bothering" in text
    return json.dumps({"passed": not rude, "reason": "rude" if rude else "polite and complete"})


def graded(body: str | None, judge: Any = None) -> Any:
    """Close T-0001 and (unless None) comment ``body``; the grade, with ``judge``."""
    task = make_task(checks=[RULE])
    with EnvironmentPool() as pool:
        env = pool.get("example")
        env.reset(1, task=task)
        env.apply("get_ticket", {"ticket_id": "T-0001"})
        env.apply("close_ticket", {"ticket_id": "T-0001"})
        if body is not None:
            env.apply("add_comment", {"ticket_id": "T-0001", "body": body})
        return env.grade(judge=judge)


def by_name(grade: Any) -> dict[str, Any]:
    return {c.name: c for c in grade.checks}


def test_without_a_judge_judged_checks_are_left_out_never_passed() -> None:
    grade = graded(RUDE)
    assert "reply_is_kind" not in by_name(grade)
    assert grade.not_judged == ["reply_is_kind"]
    assert json.loads(grade.model_dump_json())["not_judged"] == ["reply_is_kind"]


def test_a_task_without_judged_checks_grades_and_dumps_as_before() -> None:
    with EnvironmentPool() as pool:
        env = pool.get("example")
        env.reset(1, task=make_task())
        env.apply("close_ticket", {"ticket_id": "T-0001"})
        grade = env.grade()
    assert grade.not_judged is None and "not_judged" not in json.loads(grade.model_dump_json())


def test_a_function_judge_fails_a_rude_reply_with_the_tasks_failure_mode() -> None:
    rude, kind = by_name(graded(RUDE, polite))["reply_is_kind"], by_name(graded(KIND, polite))["reply_is_kind"]
    assert not rude.passed and rude.failure_mode == "rude_reply" and rude.component == "judged"
    assert rude.detail == "judge failed add_comment.body 'Closed. Stop bothering us.': it tells the customer off"
    assert kind.passed and "closed, and said kindly" in kind.detail


def test_a_long_or_multi_line_reason_is_one_line_in_the_detail() -> None:
    detail = by_name(graded(RUDE, lambda r: (False, "rude\n\n" + "very " * 100)))["reply_is_kind"].detail
    assert "\n" not in detail and detail.endswith("…") and ": rude very very" in detail


def test_a_function_judge_may_answer_a_dict_or_a_pair() -> None:
    assert by_name(graded(KIND, lambda r: {"passed": True, "reason": "ok"}))["reply_is_kind"].passed
    assert not by_name(graded(KIND, lambda r: (False, "no")))["reply_is_kind"].passed
    with pytest.raises(JudgeError, match="not a Verdict"):
        graded(KIND, lambda r: "yes")


def test_a_judge_function_that_raises_is_a_judge_error_in_one_line() -> None:
    def broken(request: JudgeRequest) -> Verdict:
        return {}["passed"]  # type: ignore[no-any-return]

    with pytest.raises(JudgeError, match=r"^judge tests\.test_judge:.*broken raised KeyError: 'passed' \(at test_judge.py:\d+\); "
                                         "the episode is not graded$"):
        graded(KIND, broken)


def test_no_text_to_judge_fails_without_asking() -> None:
    asked: list[JudgeRequest] = []
    check = by_name(graded(None, lambda r: asked.append(r) or Verdict(passed=True, reason="")))["reply_is_kind"]
    assert not check.passed and asked == []
    assert check.detail == "no successful add_comment wrote body: nothing to judge"


def test_the_environments_own_judge_is_the_default() -> None:
    task = make_task(checks=[RULE])
    with EnvironmentPool(judge=polite) as pool:
        env = pool.get("example")
        env.reset(1, task=task)
        env.apply("add_comment", {"ticket_id": "T-0001", "body": RUDE})
        assert not by_name(env.grade())["reply_is_kind"].passed
        assert pool.fresh("example").judge is polite


def test_a_failing_judge_leaves_the_episode_ungraded_and_is_asked_once() -> None:
    asked: list[JudgeRequest] = []

    def down(request: JudgeRequest) -> Verdict:
        asked.append(request)
        raise JudgeError("the judge is down")

    class Writes:
        def run(self, episode: Any) -> None:
            episode.call("add_comment", {"ticket_id": "T-0001", "body": KIND})

    with EnvironmentPool(judge=down) as pool, pytest.raises(JudgeError, match="the judge is down"):
        run_episode(pool.get("example"), make_task(checks=[RULE]), Writes)
    assert len(asked) == 1  # not asked again to restate the error, as an environment's bug is


def test_the_cache_key_holds_everything_a_verdict_depends_on(monkeypatch: pytest.MonkeyPatch) -> None:
    key = cache_key("j", REQUEST)
    for change in ({"rubric": "x"}, {"text": "x"}, {"action": "x"}, {"argument": "x"}):
        assert cache_key("j", JudgeRequest(**{**REQUEST.__dict__, **change})) != key
    assert cache_key("other", REQUEST) != key
    assert cache_key("j", JudgeRequest(**{**REQUEST.__dict__, "task_id": "EX-2"})) == key  # for logs only
    monkeypatch.setattr(judge_module, "PROMPT_VERSION", "next")
    assert cache_key("j", REQUEST) != key


def test_a_judge_is_named_by_its_identity_or_its_import_name() -> None:
    assert identity_of(polite) == "tests.test_judge:polite"
    polite.judge_version = 3  # type: ignore[attr-defined]
    try:
        assert identity_of(polite) == "tests.test_judge:polite@3"
    finally:
        del polite.judge_version  # type: ignore[attr-defined]


def test_cached_verdicts_are_asked_once_and_read_back_by_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "verdicts.jsonl"
    first = CachedJudge(polite, path)
    assert first(REQUEST) == first(REQUEST) == Verdict(passed=True, reason="closed, and said kindly")
    assert first.calls == 1
    with path.open("a") as out:
        out.write('{"key": "torn\n')  # a run killed mid-write: skipped, not fatal
    again = CachedJudge(lambda r: pytest.fail("the cache was not used"), path)
    again.identity = first.identity  # the same judge, in the next run
    assert again(REQUEST).passed and again.calls == 0
    assert len(read_verdicts(path)) == 1


def test_a_judge_error_is_not_cached(tmp_path: Path) -> None:
    def failing(request: JudgeRequest) -> Verdict:
        raise JudgeError("down")

    cached = CachedJudge(failing, tmp_path / "v.jsonl")
    with pytest.raises(JudgeError):
        cached(REQUEST)
    assert read_verdicts(tmp_path / "v.jsonl") == {}


def test_the_prompt_fences_the_text_and_names_the_rubric() -> None:
    system, user = messages(REQUEST)
    assert system["role"] == "system" and "JSON object only" in system["content"]
    tag = marker(KIND)
    assert RULE["rubric"] in user["content"] and f"<<<{tag}\n{KIND}\n{tag}>>>" in user["content"]
    assert "'body'" in user["content"] and "'add_comment'" in user["content"] and "EX-1" not in user["content"]


def test_only_the_exact_json_verdict_is_a_verdict() -> None:
    assert parse_verdict('{"passed": false, "reason": "rude\\n  tone"}') == Verdict(passed=False, reason="rude tone")
    for bad in (None, "yes", '{"passed": "true", "reason": ""}', '{"passed": true}',
                '{"passed": true, "reason": "", "score": 1}', '```json\n{"passed": true, "reason": ""}\n```'):
        assert parse_verdict(bad) is None, bad


def test_the_endpoint_judge_asks_deterministically_for_strict_json() -> None:
    with FakeJudge(verdict_json) as server:
        judge = OpenAIJudge(server.url, "judge-model")
        assert judge(REQUEST) == Verdict(passed=True, reason="polite and complete")
        assert not judge(JudgeRequest(**{**REQUEST.__dict__, "text": RUDE})).passed
    body = server.requests[0]
    assert body["model"] == "judge-model" and body["temperature"] == 0 and body["seed"] == SEED
    assert body["response_format"] == ANSWER_FORMAT and ANSWER_FORMAT["json_schema"]["strict"] is True
    assert judge.identity == f"openai-compatible:{server.url}#judge-model"


def test_a_malformed_answer_is_asked_again_once() -> None:
    answers = iter(["I think it is polite.", '{"passed": true, "reason": "polite"}'])
    with FakeJudge(lambda text, body: next(answers)) as server:
        assert OpenAIJudge(server.url, "m")(REQUEST).passed
    assert len(server.requests) == 2 and "not the JSON object" in server.requests[1]["messages"][-1]["content"]


def test_two_malformed_answers_are_a_judge_error_not_a_verdict() -> None:
    with FakeJudge(lambda text, body: "Looks fine to me!") as server, \
            pytest.raises(JudgeError, match="gave no verdict: two answers were not"):
        OpenAIJudge(server.url, "m")(REQUEST)
    assert len(server.requests) == 2


def test_an_unreachable_endpoint_is_one_judge_error_and_is_remembered(closed_port: int) -> None:
    judge = OpenAIJudge(f"http://127.0.0.1:{closed_port}/v1", "m")
    with pytest.raises(JudgeError, match="cannot reach the judge at http://127.0.0.1") as first:
        judge(REQUEST)
    assert "\n" not in str(first.value)
    judge._client = None  # type: ignore[assignment]  # no second connection attempt
    with pytest.raises(JudgeError, match="cannot reach"):
        judge(REQUEST)


@pytest.mark.parametrize(("spec", "model", "message"), [
    ("judge", None, "not a judge (use an OpenAI-compatible endpoint"),
    ("http://127.0.0.1:9/v1", None, "an endpoint needs a model: pass --agenteval-judge-model"),
    ("no_such_module_here:judge", None, "no module named 'no_such_module_here'"),
    ("tests.test_judge:no_such", None, "'tests.test_judge' has no attribute 'no_such'"),
    ("tests.test_judge:RULE", None, "RULE is a dict, not a function"),
    ("tests.test_judge:polite", "m", "only an endpoint judge takes a model"),
])
def test_a_bad_judge_spec_is_one_line(spec: str, model: str | None, message: str) -> None:
    with pytest.raises(JudgeSpecError, match="^--agenteval-judge") as info:
        load_judge(spec, model=model)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_spec_loads_a_function_behind_the_cache(tmp_path: Path) -> None:
    judge = load_judge("tests.test_judge:polite", cache=tmp_path / "v.jsonl")
    assert isinstance(judge, CachedJudge) and judge.identity == "tests.test_judge:polite"
    assert load_judge("tests.test_judge:polite") is polite


@pytest.mark.parametrize(("change", "message"), [
    ({"argument": "ticket_id"}, "checks[0].argument: add_comment.ticket_id is not free text, so a judge cannot "
                                "read it (judge a free-text argument of add_comment: body)"),
    ({"argument": "bdy"}, "checks[0].argument: add_comment has no argument 'bdy' (did you mean 'body'? use one of: "
                          "body)"),
    ({"action": "close_ticket"}, "checks[0].argument: close_ticket has no free-text argument for a judge to read"),
    ({"action": "add_coment"}, "checks[0].action: 'add_coment' is not an action of example (did you mean "
                               "'add_comment'?"),
    ({"rubric": "  "}, "checks[0].rubric: the rubric is empty (say what passing means"),
    ({"rubric": None}, 'checks[0].rubric: is required (add "rubric")'),
])
def test_a_bad_judged_check_is_one_load_error(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    rule = {k: v for k, v in {**RULE, **change}.items() if v is not None}
    path = tmp_path / "t.jsonl"
    path.write_text(task_line(checks=[rule]) + "\n")
    tasks, problems = TaskLoader().load_file(path, display="t.jsonl")
    assert not tasks and len(problems) == 1
    assert str(problems[0]).startswith(f"t.jsonl:1: {message}"), str(problems[0])


def test_a_good_judged_check_loads() -> None:
    assert make_task(checks=[RULE]).checks[0].kind == "judged"


def test_a_reason_with_a_line_separator_stays_one_cache_line(tmp_path: Path) -> None:
    """U+2028 in a verdict's reason: the file is ASCII JSON, so every reader splits it right."""
    from pytest_agenteval.grading.verdict_cache import CachedJudge, read_verdicts

    path = tmp_path / "verdicts.jsonl"
    cached = CachedJudge(lambda request: (False, "rude\u2028and wrong"), path)
    cached(JudgeRequest(rubric="be kind", text="go away", action="reply", argument="body", task_id="T-1"))
    assert path.read_text().count("\n") == 1 and "\u2028" not in path.read_text()
    assert [v.reason for v in read_verdicts(path).values()] == ["rude\u2028and wrong"]
