"""The pass-rate gate: ``--agenteval-fail-under`` and ``fail_under_tags`` decide the exit code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.gate import Gate, GateConfigError, judge, read_gate
from tests.test_plugin import write_tasks

# With --agent=agents_mod:Closer, EX-1 passes and EX-3 (tagged wrong_ticket and slow_close) fails.
CLOSER = "--agent=agents_mod:Closer"


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write_tasks(pytester)
    return pytester


def test_at_or_above_the_rate_the_run_exits_0_though_a_task_failed(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest(CLOSER, "--agenteval-fail-under=0.5")
    result.stdout.fnmatch_lines(["agenteval gate: passed: all pass@1 0.500 >= 0.5 (2 tasks, 2 episodes)"])
    assert result.parseoutcomes()["failed"] == 1  # the task still fails; the run does not
    assert result.ret == 0


def test_below_the_rate_the_run_fails_with_one_line(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "--agenteval-fail-under=1")
    assert result.ret == 0
    result = tasks.runpytest(CLOSER, "--agenteval-fail-under=0.51")
    result.stdout.fnmatch_lines(["agenteval gate: FAILED: all pass@1 0.500 < 0.51 (2 tasks, 2 episodes)"])
    assert result.ret == 1


def test_without_the_gate_a_failed_task_still_fails_the_run(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest(CLOSER)
    assert result.ret == 1
    assert "agenteval gate" not in result.stdout.str()


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan", "most"])
def test_a_rate_outside_0_to_1_is_a_usage_error(tasks: pytest.Pytester, value: str) -> None:
    result = tasks.runpytest(CLOSER, f"--agenteval-fail-under={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agenteval-fail-under={value}: not a pass rate (give a number from 0 to 1,*"])
    assert "Traceback" not in result.stderr.str()


def test_a_tag_below_its_rate_fails_the_run(tasks: pytest.Pytester) -> None:
    tasks.makefile(".toml", pyproject="[tool.agenteval]\nfail_under_tags = {slow_close = 0.5}\n")
    result = tasks.runpytest(CLOSER, "--agenteval-fail-under=0.5")
    result.stdout.fnmatch_lines([
        "agenteval gate: passed: all pass@1 0.500 >= 0.5 *",
        "agenteval gate: FAILED: tag slow_close pass@1 0.000 < 0.5 (1 tasks, 1 episodes)",
    ])
    assert result.ret == 1


def test_config_alone_turns_the_gate_on_and_the_command_line_wins(tasks: pytest.Pytester) -> None:
    tasks.makefile(".toml", pyproject="[tool.agenteval]\nfail_under = 0.9\n")
    assert tasks.runpytest(CLOSER).ret == 1
    assert tasks.runpytest(CLOSER, "--agenteval-fail-under=0.4").ret == 0


def test_a_tag_that_did_not_run_is_named_not_gated(tasks: pytest.Pytester) -> None:
    tasks.makefile(".toml", pyproject="[tool.agenteval]\nfail_under_tags = {slow_close = 0.5}\n")
    result = tasks.runpytest(CLOSER, "-k", "EX-1")
    result.stdout.fnmatch_lines(["agenteval gate: tag slow_close: no graded episode in this run, not gated"])
    assert result.ret == 0


def test_a_bad_tag_rate_names_the_file_and_key(tasks: pytest.Pytester) -> None:
    tasks.makefile(".toml", pyproject="[tool.agenteval]\nfail_under_tags = {slow_close = true}\n")
    result = tasks.runpytest(CLOSER)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *pyproject.toml [[]tool.agenteval[]] fail_under_tags.slow_close = True: "
                                 "not a pass rate*"])


def test_with_runs_the_gate_holds_pass_hat_k(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:Sometimes", "--runs", "3", "--agenteval-fail-under=0.01")
    line = next(line for line in result.stdout.lines if line.startswith("agenteval gate:"))
    assert " pass^3 " in line and "(2 tasks, 6 episodes)" in line


def test_a_run_that_graded_nothing_never_exits_0(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest(CLOSER, "-k", "no_such_task", "--agenteval-fail-under=0")
    assert result.ret != 0


def test_a_failing_plain_test_is_not_covered_by_the_gate(tasks: pytest.Pytester) -> None:
    tasks.makepyfile(test_plain="def test_broken():\n    assert False\n")
    result = tasks.runpytest(CLOSER, "--agenteval-fail-under=0.5", "tasks", "test_plain.py")
    result.stdout.fnmatch_lines(["agenteval gate: passed: *", "agenteval gate: the run still fails: *"])
    assert result.ret == 1


def test_the_gate_works_under_xdist(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest_subprocess(CLOSER, "-n", "2", "--agenteval-fail-under=0.5")
    result.stdout.fnmatch_lines(["agenteval gate: passed: all pass@1 0.500 >= 0.5 (2 tasks, 2 episodes)"])
    assert result.ret == 0
    assert tasks.runpytest_subprocess(CLOSER, "-n", "2", "--agenteval-fail-under=0.6").ret == 1


# -- the rule, without pytest ------------------------------------------------------------------

def grade(task_id: str, passed: bool, **changes: Any) -> dict[str, Any]:
    return {"task_id": task_id, "run": 1, "environment": "example", "passed": passed, "failure_modes": [],
            "failure_mode_tags": ["wrong_ticket"], **changes}


def test_errored_episodes_are_left_out_of_the_rate_but_fail_the_gate_past_the_share_allowed() -> None:
    """An agent that raises (or says its provider failed) on the tasks it would fail must not
    pass on the rest: errored episodes are out of the rate, and over ``max_errored`` fail the gate."""
    error = {"kind": "endpoint", "message": "connection refused"}
    grades = [grade("A", True), grade("B", False, error=error), grade("C", False, error=error)]
    verdict = judge(grades, 1, Gate(overall=1.0, max_errored=2 / 3))
    assert verdict.passed
    assert verdict.lines == ["agenteval gate: passed: all pass@1 1.000 >= 1 (1 tasks, 1 episodes; "
                             "2 errored episode(s) left out)"]
    verdict = judge(grades, 1, Gate(overall=1.0))
    assert not verdict.passed
    assert verdict.lines[1].startswith("agenteval gate: FAILED: 2 of 3 episodes errored, more than the 0 allowed")
    assert not judge(grades, 1, Gate(overall=1.0, max_errored=0.5)).passed
    assert judge([grade("A", True), grade("B", False, error=None)], 1, Gate(overall=1.0)).passed is False


def test_only_errored_episodes_never_pass() -> None:
    verdict = judge([grade("A", False, error={"kind": "auth"})], 1, Gate(overall=0.0))
    assert not verdict.passed and "no graded episode (1 errored)" in verdict.lines[0]


def test_read_gate_reads_the_errored_share_allowed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nmax_errored = 0.05\n")
    assert read_gate(tmp_path, "0.8", option="--agenteval-fail-under").max_errored == 0.05
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nmax_errored = 5\n")
    with pytest.raises(GateConfigError, match="max_errored = 5: not a pass rate"):
        read_gate(tmp_path, "0.8", option="--agenteval-fail-under")


def test_read_gate_refuses_a_tags_value_that_is_not_a_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nfail_under_tags = 0.9\n")
    with pytest.raises(GateConfigError, match=r"fail_under_tags = 0.9: not a table of tag = rate"):
        read_gate(tmp_path, None, option="--fail-under")


def test_agenteval_report_gates_the_merged_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_agenteval.cli import main
    from tests.test_report_merge import grade as full_grade
    from tests.test_report_merge import write

    monkeypatch.chdir(tmp_path)
    a = write(tmp_path / "a.jsonl", [full_grade("T1", True), full_grade("T2", False)])
    b = write(tmp_path / "b.jsonl", [full_grade("T3", True)])
    assert main(["report", a, b, "--fail-under", "0.6"]) == 0
    assert "agenteval gate: passed: all pass@1 0.667 >= 0.6 (3 tasks, 3 episodes)" in capsys.readouterr().out
    assert main(["report", a, b, "--fail-under", "0.7"]) == 1
    assert main(["report", a, b, "--fail-under", "2"]) == 2
    assert capsys.readouterr().err.strip().endswith("--fail-under=2: not a pass rate (give a number from 0 to 1, "
                                                    "e.g. --fail-under=0.8)")
