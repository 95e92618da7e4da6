"""One counted episode per task and run, under plugins that run tests again (issue #14, items 2 and 4).

pytest-rerunfailures (``--reruns``, its ``flaky`` marker): only an item's final attempt counts
in the table, the results file, JUnit and the JSON report; earlier attempts stay in the
results file marked ``"counted": false``. pytest-repeat's ``--count`` is refused in favour of
``--runs``.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.helpers.tasks import result_lines, task_line

AGENTS = '''
import os

class Closer:
    """Closes T-0001 whatever it is asked: passes EX-1, fails EX-3 every time."""
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class SecondTry:
    """Does nothing on a task's first attempt, the right thing on the next."""
    def run(self, episode):
        mark = f"attempted-{episode.task_id}-{episode.seed}"
        if not os.path.exists(mark):
            open(mark, "w").close()
            return
        ticket = "T-0001" if "T-0001" in episode.instruction else "T-0003"
        episode.call("close_ticket", {"ticket_id": ticket})
'''


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(rr_agents=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join([
        task_line(acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]),
        task_line(task_id="EX-3", instruction="Close ticket T-0003.",
                  expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
                  acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0003"}}]]),
    ]) + "\n")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> tuple[Any, list[dict[str, Any]], dict[str, Any], Any, Any]:
    result = pytester.runpytest_subprocess(
        *args, "--agenteval-results=r.jsonl", "--junitxml=junit.xml", "--json-report",
        "--json-report-file=report.json", "-p", "no:cacheprovider")
    lines = result_lines(pytester.path / "r.jsonl")
    records = [x for x in lines if "summary" not in x]
    summary = next(x["summary"] for x in lines if "summary" in x)
    return result, records, summary, ET.parse(pytester.path / "junit.xml"), json.loads(
        (pytester.path / "report.json").read_text())


def junit_grades(junit: Any) -> dict[str, list[dict[str, Any]]]:
    """Grades per test name, over all of its test cases (a rerun leaves one per attempt)."""
    grades: dict[str, list[dict[str, Any]]] = {}
    for case in junit.iter("testcase"):
        grades.setdefault(case.get("name"), []).extend(
            json.loads(p.get("value")) for p in case.iter("property") if p.get("name") == "agenteval_grade")
    return grades


@pytest.mark.parametrize("extra", [[], ["-n", "2"], ["--agenteval-concurrency", "2"]],
                         ids=["serial", "xdist", "in-flight"])
def test_reruns_count_only_the_final_attempt(project: pytest.Pytester, extra: list[str]) -> None:
    result, records, summary, junit, report = run(project, "--agent=rr_agents:Closer", "--reruns", "1", *extra)
    counted = [r for r in records if r.get("counted", True)]
    assert sorted(r["task_id"] for r in counted) == ["EX-1", "EX-3"]
    # The failed EX-3 ran twice: its first attempt is kept, marked, and not counted.
    assert [(r["task_id"], r["counted"]) for r in records if "counted" in r] == [("EX-3", False)]
    assert summary["episodes"] == 2 and summary["groups"][0]["passed"] == 1
    result.stdout.fnmatch_lines(["*agenteval: 2 episodes, K=1*"])
    assert sorted(len(g) for g in junit_grades(junit).values()) == [1, 1]
    graded = [t["agenteval"] for t in report["tests"]]
    assert sorted(g["task_id"] for g in graded) == ["EX-1", "EX-3"]


@pytest.mark.parametrize("in_flight", [[], ["--agenteval-concurrency", "2"]], ids=["serial", "in-flight"])
@pytest.mark.parametrize("how", ["--reruns", "flaky marker"])
def test_a_pass_on_the_second_attempt_counts_once_as_a_pass(project: pytest.Pytester, how: str,
                                                            in_flight: list[str]) -> None:
    if how == "flaky marker":
        project.makeconftest("import pytest\n"
                             "def pytest_collection_modifyitems(items):\n"
                             "    for item in items:\n"
                             "        item.add_marker(pytest.mark.flaky(reruns=1))\n")
        args = ["--agent=rr_agents:SecondTry"]
    else:
        args = ["--agent=rr_agents:SecondTry", "--reruns", "1"]
    result, records, summary, junit, report = run(project, *args, *in_flight)
    assert result.ret == 0, result.stdout.str()
    assert [(r["task_id"], r.get("counted", True), r["passed"]) for r in sorted(records, key=lambda r: r["task_id"])] \
        == [("EX-1", False, False), ("EX-1", True, True), ("EX-3", False, False), ("EX-3", True, True)]
    assert summary["episodes"] == 2 and summary["groups"][0]["pass_at_1"] == 1.0
    result.stdout.fnmatch_lines(["*agenteval: 2 episodes, K=1*", "all * 2 * 2 * 1.00 *"])
    # JUnit and the JSON report show the final attempt only: one grade each, no failure.
    assert [[g["passed"] for g in gs] for gs in junit_grades(junit).values()] == [[True], [True]]
    assert junit.getroot().find("testsuite").get("failures") == "0"
    assert sorted((t["outcome"], t["agenteval"]["passed"]) for t in report["tests"]) == [("passed", True)] * 2


def test_pytest_repeat_count_is_refused_in_favour_of_runs(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=reference", "--count", "2", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "ERROR: --count=2 (pytest-repeat) would run each task 2 times as the same run, with the same seed; "
        "use --runs 2: each run gets its own seed and the table reports pass^2"])


def test_any_plugin_that_collects_a_run_twice_is_refused(project: pytest.Pytester) -> None:
    """What pytest-repeat does, from a conftest: every test parametrized once more."""
    project.makeconftest("def pytest_generate_tests(metafunc):\n"
                         "    if 'agenteval_case' in metafunc.fixturenames:\n"
                         "        metafunc.fixturenames.append('copy')\n"
                         "        metafunc.parametrize('copy', [1, 2])\n")
    result = project.runpytest("--agent=reference", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "ERROR: tasks/t.jsonl::test_task[[]1-EX-1] and tasks/t.jsonl::test_task[[]2-EX-1] are both EX-1 run 1 "
        "(parametrized again by copy): each task run is one episode; use --runs K to run tasks K times (each run "
        "gets its own seed and the table reports pass^K), and one session per agent"])


def test_an_agent_fixture_with_several_params_is_refused_not_pooled(project: pytest.Pytester) -> None:
    """Two agents' episodes in one table would be counted as two runs of one task."""
    project.makeconftest("import pytest, rr_agents\n"
                         "@pytest.fixture(params=[rr_agents.Closer, rr_agents.SecondTry], ids=['closer', 'second'])\n"
                         "def agent(request):\n"
                         "    return request.param\n")
    result = project.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: * are both EX-1 run 1 (parametrized again by agent): each task run is one "
                                 "episode; * and one session per agent"])


@pytest.mark.parametrize(("pattern", "reruns"), [(r"\[timeout\]", 0), (r"\[wrong_final_state\]", 1)])
def test_only_rerun_picks_attempts_by_failure_mode(project: pytest.Pytester, pattern: str, reruns: int) -> None:
    """An attempt that may be rerun fails with its failed checks and their modes, so
    --only-rerun can rerun, say, only timeouts. (pytest-rerunfailures ignores --only-rerun for
    failed subtests: reported as subtests, every failure would be rerun.)"""
    result, records, summary, junit, report = run(project, "--agent=rr_agents:Closer", "--reruns", "1",
                                                  "--only-rerun", pattern, "-rfR")
    assert [r["task_id"] for r in records if r.get("counted") is False] == ["EX-3"] * reruns
    assert summary["episodes"] == 2 and sorted(len(g) for g in junit_grades(junit).values()) == [1, 1]
    if reruns:
        result.stdout.fnmatch_lines(["RERUN tasks/t.jsonl::test_task[[]EX-3[]]",
                                     "FAILED tasks/t.jsonl::test_task[[]EX-3[]] - 3 of 6 checks failed: *"])
    else:  # not rerun: its one attempt counts, reported as the one failure that names each check
        result.stdout.fnmatch_lines([
            "EX-3: 3 failed checks: action_path [[]unexpected_path[]], state.ticket.T-0003 [[]wrong_final_state[]], "
            "frame [[]collateral_change[]] (if the rerun plugin runs it again, only the final attempt counts)",
            "FAILED tasks/t.jsonl::test_task[[]EX-3[]] - Failed: EX-3: 3 failed checks:*"])
