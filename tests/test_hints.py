"""Hints for runs that select nothing: task files not found, -m names no marker has, --agent shapes."""

from __future__ import annotations

import pytest

from tests.helpers.tasks import task_line


def test_a_jsonl_in_a_folder_not_named_tasks_gets_its_reason(pytester: pytest.Pytester) -> None:
    pytester.mkdir("evals")
    (pytester.path / "evals" / "mine.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=reference", "evals")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(['agenteval: saw evals/mine.jsonl, not a task file: its folder is not named tasks '
                                 '(agenteval_task_files: tasks/*.jsonl); name it on the command line, or add '
                                 '"evals/*.jsonl" to agenteval_task_files'])


def test_task_files_outside_the_paths_given_are_named(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    pytester.mkdir("tests")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=reference", "tests")
    result.stdout.fnmatch_lines(["agenteval: saw tasks/t.jsonl, not under the paths given (tests): pass it, or its "
                                 "folder, on the command line"])


def test_a_misspelt_task_file_gets_did_you_mean_and_nothing_else(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "booking.jsonl").write_text(task_line() + "\n")
    (pytester.path / "other.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=reference", "tasks/bookng.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # pytest's own "file or directory not found"
    hints = [line for line in result.stdout.lines if line.startswith("agenteval: ") and ".jsonl" in line]
    assert hints == ["agenteval: tasks/bookng.jsonl does not exist: did you mean tasks/booking.jsonl?"]


def test_results_files_are_not_offered_as_task_files(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    assert pytester.runpytest("--agent=reference", "tasks", "--agenteval-results=run.jsonl").ret == 0
    pytester.mkdir("empty")
    result = pytester.runpytest("--agent=reference", "empty")
    hints = [line for line in result.stdout.lines if line.startswith("agenteval: saw")]
    assert hints and not any("run.jsonl" in line for line in hints)  # before: the results file led the list


def test_a_task_file_in_a_hidden_folder_gets_its_reason(pytester: pytest.Pytester) -> None:
    (pytester.path / "suite" / ".old" / "tasks").mkdir(parents=True)
    (pytester.path / "suite" / ".old" / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=reference", "suite")
    result.stdout.fnmatch_lines(["agenteval: saw suite/.old/tasks/t.jsonl, in a hidden folder, which is not "
                                 "searched: name the file on the command line"])


def test_no_hint_without_an_agent_or_when_tasks_ran(pytester: pytest.Pytester) -> None:
    pytester.mkdir("evals")
    pytester.mkdir("tasks")
    (pytester.path / "evals" / "data.jsonl").write_text("{}\n")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.makepyfile(test_unit="def test_one():\n    pass\n")
    plain = pytester.runpytest("test_unit.py")  # an ordinary test run: no word from us
    plain.assert_outcomes(passed=1)
    assert "agenteval: saw" not in plain.stdout.str()
    ran = pytester.runpytest("--agent=reference")
    ran.assert_outcomes(passed=2)
    assert "agenteval: saw" not in ran.stdout.str()


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]])
def test_a_misspelt_marker_gets_did_you_mean(pytester: pytest.Pytester, xdist: list[str]) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line(failure_mode_tags=["wrong_rate"]) + "\n")
    result = pytester.runpytest("--agent=reference", "-m", "wrong_rat or train", *xdist)
    result.stdout.fnmatch_lines(["agenteval: -m wrong_rat or train: no task or test is marked wrong_rat "
                                 "(did you mean wrong_rate?)"])
    assert "marked train" not in result.stdout.str()  # the split is a known marker
    right = pytester.runpytest("--agent=reference", "-m", "wrong_rate", *xdist)
    right.assert_outcomes(passed=1)
    assert "did you mean" not in right.stdout.str()


def test_a_keyword_that_selects_no_task_gets_the_closest_ids(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line(task_id="ESC-001") + "\n")
    result = pytester.runpytest("--agent=reference", "-k", "ESC-01 or ESC-0001")
    result.stdout.fnmatch_lines(["agenteval: -k ESC-01 or ESC-0001: no task id holds 'ESC-01' (did you mean ESC-001?)",
                                 "agenteval: -k ESC-01 or ESC-0001: no task id holds 'ESC-0001' "
                                 "(did you mean ESC-001?)"])
    right = pytester.runpytest("--agent=reference", "-k", "ESC-001")
    right.assert_outcomes(passed=1)
    assert "no task id holds" not in right.stdout.str()


def test_an_unknown_marker_with_nothing_close_points_at_the_list(pytester: pytest.Pytester) -> None:
    pytester.mkdir("tasks")
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=reference", "-m", "zzzzzz(x=1)")
    result.stdout.fnmatch_lines(["agenteval: -m zzzzzz(x=1): no task or test is marked zzzzzz "
                                 "(pytest --markers lists them)"])


@pytest.mark.parametrize(("spec", "guess"), [
    ("rule_agent.Agent", "rule_agent:Agent"),
    ("examples/rule_agent.py:Agent", "examples.rule_agent:Agent"),
    ("./rule_agent.py:Agent", "rule_agent:Agent"),
    ("refrence", "reference"),
])
def test_an_agent_in_the_wrong_shape_gets_did_you_mean(pytester: pytest.Pytester, spec: str, guess: str) -> None:
    result = pytester.runpytest(f"--agent={spec}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agent={spec}: not a valid agent name (did you mean {guess}?)"])
