"""Usage and transcripts: reported through the episode, carried by grades, results and the table."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.usage import MESSAGE_CAP, TRANSCRIPT_CAP, UsageLedger, cap_transcript
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.report.metrics import render_table, summarize, summary_json
from tests.helpers.tasks import make_task, result_lines, task_line

AGENTS = '''
class Counted:
    """Closes T-0001 and reports two model calls and its conversation."""
    def run(self, episode):
        episode.record_usage(model="m-large", input_tokens=1000, output_tokens=200, cost=0.01, latency=0.5)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
        episode.record_usage(model="m-large", input_tokens=1200, output_tokens=100, cost=0.012, latency=0.25)
        episode.attach_transcript([{"role": "user", "content": episode.instruction},
                                   {"role": "assistant", "content": "Done."}])

class Silent:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''

OLD_FIELDS = ["task_id", "run", "environment", "scenario_seed", "passed", "score", "components", "checks",
              "failure_modes", "failure_mode_tags", "split", "forbidden_actions_taken", "steps_used",
              "final_state_diff", "audit_digest", "actions"]


class Closer:
    def run(self, episode: Any) -> None:
        episode.call("close_ticket", {"ticket_id": "T-0001"})


class Reporting(Closer):
    def run(self, episode: Any) -> None:
        super().run(episode)
        episode.record_usage(model="a", input_tokens=10, output_tokens=5, cost=0.1)
        episode.record_usage(model="b", input_tokens=1, output_tokens=2, latency=0.2)
        episode.record_usage(model="a", input_tokens=10, output_tokens=5, cost=0.2, calls=2)


def test_a_grade_without_usage_keeps_its_fields_and_json() -> None:
    with ExampleEnvironment() as env:
        grade = run_episode(env, make_task(), Closer, time_limit=None)
    data = json.loads(grade.model_dump_json())
    assert list(data) == OLD_FIELDS
    assert grade.usage is None and grade.transcript is None
    # The same JSON as a grade model without the new fields at all.
    fields = {k: (v.annotation, v) for k, v in Grade.model_fields.items() if k in OLD_FIELDS}
    from pydantic import create_model

    Old = create_model("Old", **fields)  # type: ignore[call-overload]
    assert Old.model_validate(data).model_dump_json() == grade.model_dump_json()


def test_usage_is_summed_per_model_and_in_total() -> None:
    with ExampleEnvironment() as env:
        grade = run_episode(env, make_task(), Reporting, time_limit=None)
    assert grade.passed
    assert grade.usage == {
        "model_calls": 4, "input_tokens": 21, "output_tokens": 12, "cost_usd": pytest.approx(0.3), "latency_s": 0.2,
        "models": {"a": {"model_calls": 3, "input_tokens": 20, "output_tokens": 10, "cost_usd": pytest.approx(0.3),
                         "latency_s": None},
                   "b": {"model_calls": 1, "input_tokens": 1, "output_tokens": 2, "cost_usd": None, "latency_s": 0.2}},
    }
    assert "transcript" not in json.loads(grade.model_dump_json())


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"input_tokens": -1}, "input_tokens must be a whole number >= 0, got -1"),
    ({"output_tokens": 1.5}, "output_tokens must be a whole number >= 0, got 1.5"),
    ({"cost": float("nan")}, "cost must be a number >= 0 or None, got nan"),
    ({"latency": "fast"}, "latency must be a number >= 0 or None, got 'fast'"),
])
def test_bad_usage_is_refused_with_the_field_named(kwargs: dict[str, Any], message: str) -> None:
    ledger = UsageLedger()
    with pytest.raises(ValueError, match=f"^record_usage: {message}$"):
        ledger.record(**{"model": None, "input_tokens": 0, "output_tokens": 0, "cost": None, "latency": None,
                         "calls": 1, **kwargs})
    assert ledger.usage() is None


def test_counts_a_summary_cannot_average_and_invented_model_names_are_bounded() -> None:
    """Red team 3 (an isolated agent's raw frames): a count past a float's range made the run's
    summary fail, a cost past it failed the harness, and a new model name per report made each
    report slower (the budget sums over the names) and the grade's line unbounded."""
    ledger = UsageLedger()
    nothing: dict[str, Any] = {"model": None, "input_tokens": 0, "output_tokens": 0, "cost": None, "latency": None,
                               "calls": 1}
    with pytest.raises(ValueError, match=r"^record_usage: input_tokens must be a whole number >= 0 and at most "
                                         r"2\*\*53, got an integer of 3322 bits$"):
        ledger.record(**{**nothing, "input_tokens": 10**1000})
    with pytest.raises(ValueError, match="^record_usage: cost must be a number >= 0 or None, got an integer of 1329"):
        ledger.record(**{**nothing, "cost": 10**400})
    for n in range(1000):
        ledger.record(**{**nothing, "model": f"{n}{'m' * 500}" if n % 2 else n})
    usage = ledger.usage()
    assert usage is not None and usage["model_calls"] == 1000
    assert len(usage["models"]) == 65 and usage["models"]["(other models)"]["model_calls"] == 1000 - 64
    assert max(map(len, usage["models"])) == 200


def test_transcripts_become_json_and_are_capped() -> None:
    from dataclasses import dataclass

    from pydantic import BaseModel

    class Part(BaseModel):
        text: str

    @dataclass
    class Message:
        role: str
        parts: list[Part]

    ledger = UsageLedger()
    ledger.attach([Message("user", [Part(text="hi")]), {"role": "tool", "content": b"\x00\x01", "n": float("inf")}])
    assert ledger.transcript() == [{"kind": "Message", "role": "user", "parts": [{"text": "hi"}]},
                                   {"role": "tool", "content": "<2 bytes>", "n": "inf"}]
    huge = {"role": "tool", "content": "x" * (MESSAGE_CAP + 10)}
    (capped,) = cap_transcript([huge])
    assert capped["truncated_chars"] > MESSAGE_CAP and len(capped["prefix"]) == 1024
    many = [{"role": "user", "content": "start"}] + [{"i": i, "content": "y" * 1000} for i in range(1000)]
    kept = cap_transcript(many)
    assert len(json.dumps(kept)) <= TRANSCRIPT_CAP
    assert kept[0] == many[0] and kept[-1] == many[-1]
    assert kept[1]["left_out_messages"] == len(many) - len(kept) + 1
    assert [m["i"] for m in kept[2:]] == list(range(1000 - len(kept) + 2, 1000))


def test_the_table_shows_tokens_and_cost_only_when_reported() -> None:
    base = {"environment": "example", "failure_modes": [], "failure_mode_tags": ["t"], "passed": True}
    silent = [{**base, "task_id": "A"}]
    assert "tokens/ep" not in render_table(summarize(silent, 1), 1)[0]
    assert set(summary_json(silent, 1)["groups"][0]) == {
        "group", "tasks", "episodes", "passed", "pass_at_1", "ci_low", "ci_high", "pass_hat_k", "pass_at_k",
        "triggered"}
    usage = {"input_tokens": 900, "output_tokens": 100, "cost_usd": 0.002}
    mixed = [*silent, {**base, "task_id": "B", "usage": usage},
             {**base, "task_id": "C", "environment": "other", "usage": {**usage, "input_tokens": 2900,
                                                                          "cost_usd": None}}]
    lines = render_table(summarize(mixed, 1), 1)
    assert lines[0].split()[-2:] == ["tokens/ep", "cost/ep"]
    rows = {line.split()[0] + line.split()[1]: line.split()[-2:] for line in lines[1:]}
    assert rows["all3"] == ["2,000", "$0.0020"]       # mean over the episodes that reported
    assert rows["envexample"] == ["1,000", "$0.0020"]
    assert rows["envother"] == ["3,000", "-"]          # tokens known, cost not
    groups = summary_json(mixed, 1)["groups"]
    assert groups[0]["tokens_per_episode"] == 2000 and groups[0]["cost_per_episode"] == pytest.approx(0.002)


def test_usage_and_transcript_reach_results_and_table(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(agents_mod=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=agents_mod:Counted", "--runs", "2", "--agenteval-results=r.jsonl",
                                "--json-report", "--json-report-file=report.json")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["group * triggered * tokens/ep * cost/ep", "all * 2,500 * $0.0220"])
    records = result_lines(pytester.path / "r.jsonl")
    grades = [r for r in records if "summary" not in r]
    assert len(grades) == 2
    for grade in grades:
        assert grade["usage"]["input_tokens"] == 2200 and grade["usage"]["model_calls"] == 2
        assert grade["usage"]["latency_s"] == 0.75
        assert grade["transcript"] == [{"role": "user", "content": "Close ticket T-0001."},
                                       {"role": "assistant", "content": "Done."}]
    assert records[-1]["summary"]["groups"][0]["tokens_per_episode"] == 2500
    report = json.loads((pytester.path / "report.json").read_text())
    assert [t["agenteval"]["usage"]["output_tokens"] for t in report["tests"]] == [300, 300]

    silent = pytester.runpytest("--agent=agents_mod:Silent", "--agenteval-results=s.jsonl")
    assert "tokens/ep" not in silent.stdout.str()
    (grade, summary) = result_lines(pytester.path / "s.jsonl")
    assert "usage" not in grade and "transcript" not in grade
    assert "tokens_per_episode" not in summary["summary"]["groups"][0]


def test_replay_keeps_what_the_agent_reported(tmp_path: Any) -> None:
    from pytest_agenteval.replay import replay_results

    (tmp_path / "t.jsonl").write_text(task_line() + "\n")
    with ExampleEnvironment() as env:
        record = json.loads(run_episode(env, make_task(), Reporting, time_limit=None).model_dump_json())
    record["transcript"] = [{"role": "user", "content": "hi"}]
    replayed = replay_results([record], [tmp_path / "t.jsonl"])
    grades = replayed.grades
    assert replayed.different == [] and replayed.not_found == []
    assert grades[0].usage == record["usage"] and grades[0].transcript == record["transcript"]
    assert json.loads(grades[0].model_dump_json()) == record


def test_an_isolated_agent_reports_usage_and_transcript_too(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(agents_mod=AGENTS + '''
class BadUsage:
    def run(self, episode):
        episode.record_usage(input_tokens=-5)
''')
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=agents_mod:Counted", "--agenteval-isolate", "--agenteval-results=r.jsonl")
    (grade, _) = result_lines(pytester.path / "r.jsonl")
    assert grade["passed"] and grade["usage"]["input_tokens"] == 2200 and grade["usage"]["latency_s"] == 0.75
    assert grade["transcript"][-1] == {"role": "assistant", "content": "Done."}
    pytester.runpytest("--agent=agents_mod:BadUsage", "--agenteval-isolate", "--agenteval-results=b.jsonl")
    (bad, _) = result_lines(pytester.path / "b.jsonl")
    detail = next(c["detail"] for c in bad["checks"] if c["name"] == "agent_completed")
    assert detail.startswith("ValueError: record_usage: input_tokens must be a whole number >= 0, got -5"), detail
    assert "usage" not in bad
