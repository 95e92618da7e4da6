"""Every reporter counts tasks as tests and names each failed check (issue #18).

Counts are parsed, never compared with their padding."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers.tasks import task_line
from tests.test_plugin import write_tasks

# EX-1 passes with Closer; EX-3 fails 3 checks (action_path, state.ticket.T-0003, frame).
EX3_FAILED = ["action_path", "state.ticket.T-0003", "frame"]


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write_tasks(pytester)
    return pytester


def progress_letters(result: pytest.RunResult) -> str:
    line = next(line for line in result.stdout.lines if line.startswith("tasks/example.jsonl "))
    return line.split(" ", 1)[1].split("[")[0].strip()


def test_closing_line_and_progress_count_tasks_at_every_verbosity(tasks: pytest.Pytester) -> None:
    default = tasks.runpytest("--agent=agents_mod:Closer", "-p", "no:randomly")
    assert default.parseoutcomes() == {"failed": 1, "passed": 1, "checks": 3}
    default.stdout.fnmatch_lines(["*= 1 failed, 1 passed, 3 checks failed in *"])
    assert progress_letters(default) == ".F"  # one letter per task; checks print nothing
    quiet = tasks.runpytest("--agent=agents_mod:Closer", "-q", "-p", "no:randomly")
    assert quiet.stdout.lines[0].startswith(".F") and quiet.parseoutcomes() == {"failed": 1, "passed": 1, "checks": 3}
    verbose = tasks.runpytest("--agent=agents_mod:Closer", "-v")
    verbose.stdout.fnmatch_lines(["*test_task[[]EX-1[]] SUBPASSED[[]frame[]]*", "*test_task[[]EX-3[]] SUBFAILED[[]frame[]]*"])
    assert verbose.parseoutcomes() == {"failed": 1, "passed": 1, "checks": 3}


def test_exitfirst_stops_after_the_task_and_shows_all_its_failed_checks(pytester: pytest.Pytester) -> None:
    write_tasks(pytester, task_line(task_id="EX-5"))
    result = pytester.runpytest("--agent=noop", "-x", "-p", "no:randomly", "--agenteval-results=r.jsonl")
    # The agent that does nothing fails two checks; before, -x stopped at the first.
    assert result.parseoutcomes() == {"failed": 1, "checks": 2}
    result.stdout.fnmatch_lines(["2 of 6 checks failed: action_path, state.ticket.T-0001",
                                 "  action_path [[]unexpected_path[]] *",
                                 "  state.ticket.T-0001 [[]wrong_final_state[]] *",
                                 "*stopping after 1 failures*"])
    graded = [json.loads(line) for line in (pytester.path / "r.jsonl").read_text().splitlines()]
    assert [g["task_id"] for g in graded if "task_id" in g] == ["EX-1"]
    maxfail = pytester.runpytest("--agent=noop", "--maxfail=2", "-p", "no:randomly")
    assert maxfail.parseoutcomes()["failed"] == 2  # tasks, not checks: EX-5 never ran
    assert "EX-5" not in maxfail.stdout.str()


def test_exitfirst_under_xdist_counts_tasks(pytester: pytest.Pytester) -> None:
    write_tasks(pytester, *(task_line(task_id=f"EX-{n}") for n in range(10, 20)))
    result = pytester.runpytest_subprocess("--agent=noop", "-x", "-n", "2")
    outcomes = result.parseoutcomes()
    # A checks-counted -x stopped at the first check; by tasks, each worker finishes the task
    # it is running: at most two tasks fail, each with both of its failed checks.
    assert 1 <= outcomes["failed"] <= 2 and outcomes["checks"] == 2 * outcomes["failed"]


def test_junit_has_one_case_per_task_and_names_each_failed_check(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer", "--junitxml=junit.xml")
    suite = ET.parse(tasks.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["test_task[EX-1]"].find("failure") is None
    (failure,) = cases["test_task[EX-3]"].findall("failure")
    assert failure.get("message") == "3 of 6 checks failed: " + ", ".join(EX3_FAILED)
    assert all(f"  {name} [" in (failure.text or "") for name in EX3_FAILED)


def test_pytest_html_has_one_row_per_task_with_the_failed_checks(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer", "--html=report.html", "--self-contained-html")
    page = (tasks.path / "report.html").read_text()
    blob = json.loads(html.unescape(re.search(r'data-jsonblob="([^"]*)"', page)[1]))  # type: ignore[index]
    rows = {nodeid.split("[")[1][:-1]: [r["result"] for r in reports] for nodeid, reports in blob["tests"].items()}
    assert rows == {"EX-1": ["Passed"], "EX-3": ["Failed"]}
    (failed,) = blob["tests"]["tasks/example.jsonl::test_task[EX-3]"]
    assert all(name in failed["log"] for name in EX3_FAILED) and "status expected" in failed["log"]


def test_pytest_sugar_counts_tasks(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest_subprocess("--agent=agents_mod:Closer", "--force-sugar")
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout.str())
    tail = text.split("Results (")[1]
    assert re.search(r"^\s*1 passed$", tail, re.M) and re.search(r"^\s*1 failed$", tail, re.M)


def test_allure_shows_a_short_parameter_and_every_failed_check(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer", "--alluredir=allure")
    results = {r["name"]: r for r in (json.loads(p.read_text()) for p in Path(tasks.path / "allure").glob("*-result.json"))}
    assert results["test_task[EX-1]"]["status"] == "passed"
    failed = results["test_task[EX-3]"]
    assert failed["status"] == "failed"
    assert failed["statusDetails"]["message"].startswith("3 of 6 checks failed: " + ", ".join(EX3_FAILED))
    assert failed["parameters"] == [{"name": "agenteval_case", "value": "EX-3 run 1"}]


def test_json_report_stores_each_grade_once(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer", "--json-report", "--json-report-file=report.json")
    text = (tasks.path / "report.json").read_text()
    report = json.loads(text)
    assert text.count('"audit_digest"') == 2  # one grade per test
    assert all("agenteval" in t and "user_properties" not in t for t in report["tests"])
    assert report["summary"]["passed"] == 1 and report["summary"]["failed"] == 1


def test_one_episode_is_said_in_the_singular(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "-k", "EX-1")
    result.stdout.fnmatch_lines(["*= agenteval: 1 episode, K=1 =*"])


def test_a_users_own_subtests_are_counted_as_pytest_counts_them(tasks: pytest.Pytester) -> None:
    tasks.makepyfile(test_own="""
def test_mine(subtests):
    with subtests.test(msg="one"):
        assert False
    with subtests.test(msg="two"):
        pass
""")
    result = tasks.runpytest("test_own.py", "--agent=reference")
    assert result.parseoutcomes() == {"failed": 2}  # pytest's own count: the subtest and its test
