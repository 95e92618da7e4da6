"""Usage budgets: an episode over its tokens or cost is graded over_budget; a run over its budget stops."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_agenteval.agents.budget import PRICES, Budget, parse_prices
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from tests.helpers.tasks import make_task, result_lines, task_line


class Spender:
    """Records 60 tokens per model call, then acts; reports what the episode told it."""

    seen: list[str] = []

    def run(self, episode: Any) -> None:
        for _ in range(3):
            try:
                episode.record_usage(model="m", input_tokens=50, output_tokens=10)
            except BaseException as exc:  # noqa: BLE001 - an agent that swallows the end still ends over budget
                Spender.seen.append(type(exc).__name__)
                break
        Spender.seen.append(str(episode.call("get_ticket", {"ticket_id": "T-0001"}).get("ok", "refused")))


def _checks(grade: Any) -> dict[str, Any]:
    return {c.name: c for c in grade.checks}


def test_an_episode_over_its_tokens_is_graded_over_budget(example_env: ExampleEnvironment) -> None:
    Spender.seen = []
    grade = run_episode(example_env, make_task(), Spender, budget=Budget(max_tokens=100))
    assert not grade.passed and "over_budget" in grade.failure_modes
    check = _checks(grade)["usage_budget"]
    assert check.detail == "the agent used 120 tokens, over the episode budget of 100"
    assert "agent_completed" not in _checks(grade)  # the budget's own check stands in its place
    assert Spender.seen[0] == "EpisodeOver"  # the call past the budget raised in the agent
    assert grade.usage is not None and grade.usage["input_tokens"] == 100


def test_within_its_budget_an_episode_is_graded_as_without_one(example_env: ExampleEnvironment) -> None:
    plain = run_episode(example_env, make_task(), Spender)
    limited = run_episode(example_env, make_task(), Spender, budget=Budget(max_tokens=1000))
    assert limited.checks == plain.checks and "usage_budget" not in _checks(limited)


def test_cost_comes_from_the_price_table_when_the_agent_gives_none(example_env: ExampleEnvironment) -> None:
    budget = Budget(max_cost=0.0001, prices={"m": (1.0, 0.0)})  # $1 per 1M input tokens: 50 tokens = $0.00005
    grade = run_episode(example_env, make_task(), Spender, budget=budget)
    assert _checks(grade)["usage_budget"].detail == ("the agent's model calls cost $0.00015, over the episode budget "
                                                     "of $0.0001")
    assert grade.usage is not None and grade.usage["cost_usd"] == pytest.approx(150 / 1e6)
    unpriced = run_episode(example_env, make_task(), Spender, budget=Budget(max_cost=0.0001, prices={}))
    assert "usage_budget" not in _checks(unpriced)  # no price, no reported cost: nothing to hold it to


def test_the_price_table_is_per_million_tokens() -> None:
    budget = Budget()
    assert budget.price("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(sum(PRICES["gpt-4o-mini"]))
    assert budget.price("unknown-model", 10, 10) is None
    assert parse_prices({"x": [0.5, 1]}, "here") == {"x": (0.5, 1.0)}
    with pytest.raises(ValueError, match=r'^here "x": expected \[input, output\], two numbers >= 0'):
        parse_prices({"x": "cheap"}, "here")


AGENT = """
class Agent:
    def run(self, episode):
        episode.record_usage(model="my-model", input_tokens=100, output_tokens=0)
        episode.record_usage(model="my-model", input_tokens=100, output_tokens=0)
        episode.call("get_ticket", {"ticket_id": "T-0001"})
        episode.call("close_ticket", {"ticket_id": "T-0001"})
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(spender=AGENT)
    pytester.mkdir("tasks")
    lines = [task_line(task_id=f"EX-{n}") for n in range(1, 5)]
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(lines) + "\n")
    return pytester


@pytest.mark.parametrize("extra", [[], ["--agenteval-concurrency", "2"], ["-n", "2"]])
def test_max_tokens_ends_each_episode_over_it(project: pytest.Pytester, extra: list[str]) -> None:
    result = project.runpytest("--agent=spender:Agent", "--agenteval-max-tokens=150", "--agenteval-results=r.jsonl",
                               "-p", "no:randomly", *extra)
    result.assert_outcomes(failed=4)
    grades = [g for g in result_lines(project.path / "r.jsonl") if "task_id" in g]
    assert all("over_budget" in g["failure_modes"] for g in grades) and len(grades) == 4
    result.stdout.fnmatch_lines(["*usage_budget*the agent used 200 tokens, over the episode budget of 150*"])
    within = project.runpytest("--agent=spender:Agent", "--agenteval-max-tokens=200", "-p", "no:randomly", *extra)
    within.assert_outcomes(passed=4)


def test_max_cost_uses_the_project_price_table(project: pytest.Pytester) -> None:
    project.makepyprojecttoml('[tool.agenteval.prices]\n"my-model" = [1000, 0]\n')  # $0.10 per 100 tokens
    result = project.runpytest("--agent=spender:Agent", "--agenteval-max-cost=0.15", "-p", "no:randomly")
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(["*the agent's model calls cost $0.2, over the episode budget of $0.15*"])


def test_a_bad_price_table_is_one_line(project: pytest.Pytester) -> None:
    project.makepyprojecttoml('[tool.agenteval.prices]\n"my-model" = "cheap"\n')
    result = project.runpytest("--agent=spender:Agent")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (f'ERROR: {project.path}/pyproject.toml [tool.agenteval.prices] "my-model": expected [input, output], '
            "two numbers >= 0 (USD per 1M tokens), got 'cheap'") in result.stderr.lines


@pytest.mark.parametrize("option", ["--agenteval-max-tokens=0", "--agenteval-run-max-cost=-1"])
def test_a_budget_must_be_positive(project: pytest.Pytester, option: str) -> None:
    result = project.runpytest("--agent=spender:Agent", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "must be" in result.stderr.str()


def test_a_run_over_its_token_budget_stops_with_one_line(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=spender:Agent", "--agenteval-run-max-tokens=500", "-p", "no:randomly",
                               "--agenteval-results=r.jsonl")
    # 200, 400, then the third episode's second call takes the run to 600: that episode ends there,
    # before its writes (graded over_budget), and the fourth never starts
    result.assert_outcomes(passed=2, failed=1)
    third = [g for g in result_lines(project.path / "r.jsonl") if "task_id" in g][2]
    assert {"over_budget", "wrong_final_state"} <= set(third["failure_modes"])
    assert next(c["detail"] for c in third["checks"] if c["name"] == "usage_budget") == (
        "the agent used 200 tokens, taking the run to 600, over its budget of 500")
    result.stdout.fnmatch_lines(["*Interrupted: agenteval: the run's episodes used 600 tokens, over its budget "
                                 "of 500; stopped after 3 episodes*"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_a_run_over_its_budget_stops_under_xdist(project: pytest.Pytester) -> None:
    lines = [task_line(task_id=f"EX-{n}") for n in range(1, 41)]
    (project.path / "tasks" / "t.jsonl").write_text("\n".join(lines) + "\n")
    result = project.runpytest("--agent=spender:Agent", "--agenteval-run-max-tokens=500", "-n", "2")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*Interrupted: agenteval: the run's episodes used 600 tokens, over its budget "
                                 "of 500; stopped after 3 episodes*"])
    assert result.parseoutcomes()["passed"] < 40


def test_usage_reaches_the_results_with_the_priced_cost(project: pytest.Pytester) -> None:
    project.makepyprojecttoml('[tool.agenteval.prices]\n"my-model" = [1000, 0]\n')
    project.runpytest("--agent=spender:Agent", "--agenteval-results=r.jsonl", "-p", "no:randomly")
    grades = [g for g in result_lines(project.path / "r.jsonl") if "task_id" in g]
    assert {json.dumps(g["usage"]["cost_usd"]) for g in grades} == {"0.2"}
