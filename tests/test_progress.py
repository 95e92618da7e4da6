"""The progress line: done/total, errored, elapsed, tokens and cost so far, by episode count."""

from __future__ import annotations

import pytest

from tests.helpers.tasks import task_line

AGENT = """
class Agent:
    def run(self, episode):
        episode.record_usage(model="gpt-4o-mini", input_tokens=1000, output_tokens=0)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
"""
LINE = "agenteval: {done}/4 episodes done, 0 errored, * s elapsed, {tokens} tokens, ${cost} so far"


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(spender=AGENT)
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(task_line(task_id=f"EX-{n}") for n in range(1, 5)))
    return pytester


@pytest.mark.parametrize("verbosity", [[], ["-q"], ["-v"], ["-n", "2"]])
def test_a_progress_line_every_n_episodes(project: pytest.Pytester, verbosity: list[str]) -> None:
    result = project.runpytest("--agent=spender:Agent", "--agenteval-progress=2", "-p", "no:randomly", *verbosity)
    result.assert_outcomes(passed=4)  # the final line parses as ever
    # gpt-4o-mini from the price table: $0.15 per 1M input tokens.
    result.stdout.fnmatch_lines([LINE.format(done=2, tokens=2000, cost="0.0003"),
                                 LINE.format(done=4, tokens=4000, cost="0.0006")])
    assert result.stdout.str().count("episodes done") == 2


def test_short_runs_print_no_progress_by_default(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=spender:Agent")
    result.assert_outcomes(passed=4)
    assert "episodes done" not in result.stdout.str()
    off = project.runpytest("--agent=spender:Agent", "--agenteval-progress=0")
    assert "episodes done" not in off.stdout.str()


def test_long_runs_print_about_ten_lines(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=spender:Agent", "--runs=15", "-q")
    result.assert_outcomes(passed=60)
    assert result.stdout.str().count("episodes done") == 10  # every 6th of 60
    result.stdout.fnmatch_lines([LINE.replace("/4", "/60").format(done=60, tokens=60000, cost="0.0090")])


def test_an_agent_without_model_usage_gets_lines_only_in_long_runs(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    short = pytester.runpytest("--agent=reference", "--runs=60", "-q")
    short.assert_outcomes(passed=60)
    assert "episodes done" not in short.stdout.str()  # a rule agent's 60 episodes take a second
    long = pytester.runpytest("--agent=reference", "--runs=500", "-q")
    assert long.stdout.str().count("episodes done") == 10
    # No usage reported (no model): no tokens or cost in the line.
    long.stdout.fnmatch_lines(["agenteval: 500/500 episodes done, 0 errored, * s elapsed so far"])
