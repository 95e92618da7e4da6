"""Red team 71 (issue #25, an acceptance round): 22 attempts, 4 broke, none passing a failing
episode. Three runs that pytest failed left a results file that passed `agenteval report
--fail-under`: a replay that skipped selected tasks, a run stopped by -x or --maxfail serially
(the summary was marked interrupted only for Ctrl-C and xdist's -x), a task file with a bad line
(its error item was in no summary field). The summary now says each (``skipped_tasks``,
``interrupted``, ``not_graded``), and the file's gate fails as the run's did. And an isolated
agent reporting 1.7e308 dollars three times made the episode's sum infinite, stored as null, so
the run's budget counted nothing: sums now stop at a ceiling over any budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_agenteval.agents.usage import CEILING, UsageLedger
from tests.helpers.tasks import result_lines, task_line
from tests.test_conversations import chat, grades  # noqa: F401  (a fixture)


def _report_gate(folder: Path, results: str, rate: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import sys; from pytest_agenteval.cli import main; sys.exit(main())",
                           "report", results, "--fail-under", rate], cwd=folder, capture_output=True, text=True,
                          timeout=120)


def _summary(path: Path) -> dict:
    return next(line["summary"] for line in reversed(result_lines(path)) if "summary" in line)


def test_a_replay_that_skipped_tasks_fails_the_files_gate_too(chat: pytest.Pytester) -> None:  # noqa: F811
    assert grades(chat, "--agent=reference", "-k", "BKC-001")["BKC-001"]["passed"]
    (chat.path / "r.jsonl").rename(chat.path / "one.jsonl")
    result = chat.runpytest("chat.jsonl", "--agent=replay:one.jsonl", "--agenteval-results=r.jsonl",
                            "-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=1, skipped=7)
    assert len(_summary(chat.path / "r.jsonl")["skipped_tasks"]) == 7
    gate = _report_gate(chat.path, "r.jsonl", "0.5")
    assert gate.returncode == 1, gate.stdout
    assert "7 selected task(s) skipped by the agent" in gate.stdout


@pytest.mark.parametrize("stop", ["-x", "--maxfail=1"])
def test_a_run_stopped_early_fails_the_files_gate_too(pytester: pytest.Pytester, stop: str) -> None:
    lines = [task_line(task_id=f"EX-{n}") for n in range(1, 5)]
    (pytester.path / "t.jsonl").write_text("\n".join(lines) + "\n")
    pytester.makepyfile(nothing="class Agent:\n    def run(self, episode):\n        pass\n")
    result = pytester.runpytest("--agent=nothing:Agent", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider",
                                "-p", "no:randomly", stop, "t.jsonl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert _summary(pytester.path / "r.jsonl").get("interrupted") is True
    gate = _report_gate(pytester.path, "r.jsonl", "0.1")
    assert gate.returncode == 1 and "the run did not finish" in gate.stdout


def test_a_bad_task_line_fails_the_files_gate_too(pytester: pytest.Pytester) -> None:
    (pytester.path / "t.jsonl").write_text(task_line() + "\n{not json\n")
    result = pytester.runpytest("--agent=reference", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider", "t.jsonl")
    result.assert_outcomes(passed=1, errors=1)
    assert _summary(pytester.path / "r.jsonl")["not_graded"] == ["t.jsonl::line2"]
    gate = _report_gate(pytester.path, "r.jsonl", "0.5")
    assert gate.returncode == 1 and "t.jsonl::line2" in gate.stdout


def test_costs_past_a_float_stop_at_the_ceiling() -> None:
    ledger = UsageLedger()
    for _ in range(3):
        ledger.record(model="m", input_tokens=1, output_tokens=1, cost=1.7e308, latency=1.7e308, calls=1)
    usage = ledger.usage()
    assert usage is not None and usage["cost_usd"] == CEILING and usage["latency_s"] == CEILING
    json.dumps(usage, allow_nan=False)  # a number, not an infinity stored as null
