"""Flat memory (issue #28): once an episode is reported, pytest keeps no copy of its grade and no
passed check's report; the table is computed from compact tallies (metrics.tally)."""

from __future__ import annotations

import json
import re

import pytest

from pytest_agenteval.report.metrics import summary_json, summary_lines, tally
from tests.helpers.tasks import task_line
from tests.test_plugin import write_tasks

HELD = '''
import json
import re
import pytest

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    stats = session.config.pluginmanager.getplugin("terminalreporter").stats
    reports = [r for reports in stats.values() for r in reports]
    with open("held.json", "w") as f:
        json.dump({"graded": sum(any(p[0] == "agenteval_grade" for p in getattr(r, "user_properties", []))
                                 for r in reports),
                   "passed_checks": sum(isinstance(r, pytest.SubtestReport) and r.passed for r in reports),
                   "setup_teardown": sum(r.when != "call" and r.passed for r in reports),
                   "items": sum(any(p[0] == "agenteval_grade" for p in i.user_properties) for i in session.items),
                   "reports": len(reports)}, f)
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_reported_episodes_leave_no_grade_or_passed_check_behind(pytester: pytest.Pytester,
                                                                  workers: list[str]) -> None:
    write_tasks(pytester, *(task_line(task_id=f"EX-{n}") for n in range(10, 14)))
    pytester.makeconftest(HELD)
    result = pytester.runpytest_subprocess("--agent=agents_mod:Closer", "--junitxml=junit.xml", "-p", "no:randomly",
                                           *workers)
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] + outcomes["failed"] == 6
    held = json.loads((pytester.path / "held.json").read_text())
    assert held["reports"] > 0  # the terminal still has every task's reports
    assert (held["graded"], held["passed_checks"], held["items"], held["setup_teardown"]) == (0, 0, 0, 0)
    # JUnit took its copy before: every test case still carries its grade.
    assert (pytester.path / "junit.xml").read_text().count('name="agenteval_grade"') == 6


def test_tallies_give_the_table_and_summary_the_grades_give() -> None:
    grades = [{"task_id": f"T{i % 3}", "run": i, "environment": "e", "passed": i % 2 == 0, "score": 0.5,
               "failure_modes": [] if i % 2 == 0 else ["m"], "failure_mode_tags": ["m", "n"],
               "checks": [{"name": "c", "passed": i % 2 == 0, "failure_mode": "m", "detail": "x" * 500}],
               "usage": {"input_tokens": 10 * i, "output_tokens": 1, "cost_usd": 0.01}, "actions": [],
               **({"error": {"kind": "provider", "message": "down", "traceback": "t" * 500}} if i == 5 else {})}
              for i in range(1, 9)]
    tallies = [tally(g) for g in grades]
    assert summary_lines(tallies, 2) == summary_lines(grades, 2)
    assert summary_json(tallies, 2) == summary_json(grades, 2)
    assert len(json.dumps(tallies)) < len(json.dumps(grades)) / 3


SLIM_OFF = '''
import pytest_agenteval.plugin.lean as lean
lean.stand_in = lambda report: None  # as before: the terminal keeps each failed check's report
'''

HELD_FAILURES = '''
import gc, json
import pytest

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    stats = session.config.pluginmanager.getplugin("terminalreporter").stats
    gc.unfreeze()
    gc.collect()
    checks = stats.get("checks failed", [])
    with open("held.json", "w") as f:
        json.dump({"checks": len(checks), "kinds": sorted({type(r).__name__ for r in checks}),
                   "texts": [[str(r.longrepr), r.longreprtext, r.context.msg] for r in checks],
                   "shared": sum(getattr(r, "_line", -1) >= 0 for r in checks),
                   "crashes": [r.longrepr.reprcrash.message for r in checks],
                   "exceptions": sum(isinstance(o, pytest.ExceptionInfo) for o in gc.get_objects()),
                   "kept_by_rerunfailures": sum(len(getattr(i, "_rerun_condition_excinfos", None) or {})
                                                for i in session.items)}, f)
'''


STARTED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.+]+")  # the run record's start time


def _run_failing(pytester: pytest.Pytester, *args: str) -> tuple[str, str, str]:
    result = pytester.runpytest_subprocess("--agent=noop", "--runs=2", "-p", "no:randomly", "-rA",
                                           "--junitxml=junit.xml", "--json-report", "--json-report-file=r.json",
                                           *args)
    assert result.parseoutcomes()["failed"] == 6
    # the session's duration, and the rule of "=" whose width follows from it: not compared
    text = "\n".join(re.sub(r"^=+ | =+$", "", re.sub(r" in [0-9.]+s", " in Ts", line)) for line in result.outlines)
    junit = STARTED.sub("T", re.sub(r'(time|timestamp|hostname)="[^"]*"', "", (pytester.path / "junit.xml").read_text()))
    if "-n" in args:  # tasks end in a different order each run: compare the lines and test cases, sorted
        text = "\n".join(sorted(text.splitlines()))
        junit = "\n".join(sorted(re.split(r"(?=<testcase )|(?=</testsuite>)", junit)))
    report = json.loads((pytester.path / "r.json").read_text())
    for key in ("created", "duration", "root", "environment"):
        report.pop(key, None)
    report.pop("collectors", None)  # holds the earlier run's folders; collection is not what changed
    report["tests"].sort(key=lambda test: test["nodeid"])  # under xdist, in the order they ended
    for test in report["tests"]:
        for phase in ("setup", "call", "teardown"):
            test.get(phase, {}).pop("duration", None)
    texts = (text, junit, STARTED.sub("T", json.dumps(report)))
    if "-n" in args:  # and on a worker that may differ
        return tuple(re.sub(r"\bgw[0-9]+\b", "gw", t) for t in texts)  # type: ignore[return-value]
    return texts


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_failed_checks_kept_small_print_the_same(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                  workers: list[str]) -> None:
    """A failed check's report is replaced by a small stand-in in the terminal's list once logged:
    the terminal output (-rA, CI=1), JUnit and pytest-json-report's file are byte-identical to a
    run that keeps every report whole; each stand-in prints its check's message; no exception
    (with the frames of the episode that raised it) outlives its item."""
    monkeypatch.setenv("CI", "1")
    write_tasks(pytester, task_line(task_id="EX-9"))
    pytester.makeconftest(HELD_FAILURES)
    slim = _run_failing(pytester, *workers)
    held = json.loads(re.sub(r"\bgw[0-9]+\b", "gw", (pytester.path / "held.json").read_text()))
    pytester.makeconftest(HELD_FAILURES + SLIM_OFF)
    whole = _run_failing(pytester, *workers)
    kept = json.loads(re.sub(r"\bgw[0-9]+\b", "gw", (pytester.path / "held.json").read_text()))
    assert slim[0] == whole[0]  # terminal
    assert slim[1] == whole[1]  # JUnit
    assert slim[2] == whole[2]  # pytest-json-report
    assert held["kinds"] == ["LoggedCheck"] and kept["kinds"] == ["SubtestReport"]
    assert held["checks"] == kept["checks"] > 6
    assert (sorted(held["texts"]), sorted(held["crashes"])) == (sorted(kept["texts"]), sorted(kept["crashes"]))
    assert all(text.startswith("[") for text, _, _ in held["texts"])
    assert held["shared"] == held["checks"]  # each keeps its line of its task's failure text, no copy
    assert held["kept_by_rerunfailures"] == 0 and held["exceptions"] == 0


HELD_PASSES = '''
import json
import pytest

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    stats = session.config.pluginmanager.getplugin("terminalreporter").stats
    passed = stats.get("passed", [])
    with open("held.json", "w") as f:
        json.dump({"kinds": sorted({type(r).__name__ for r in passed}), "count": len(passed),
                   "ids": sorted(r.nodeid for r in passed), "keywords": sum(len(r.keywords) for r in passed)}, f)
'''
PASS_SLIM_OFF = '''
import pytest_agenteval.plugin.lean as lean
lean._slim_pass = lambda config, report: None  # as before: the terminal keeps each passed task's report
'''


def _run_passing(pytester: pytest.Pytester, *args: str) -> tuple[str, dict[str, object]]:
    result = pytester.runpytest_subprocess("--agent=agents_mod:Closer", "--runs=3", "-p", "no:randomly",
                                           "--durations=0", "--durations-min=0", *args)
    assert result.parseoutcomes()["passed"] == 9  # EX-1, EX-10, EX-11 (EX-3 fails: Closer closes T-0001)
    # durations and the session's time differ from run to run, and so does the durations' order
    lines = [re.sub(r"^=+ | =+$", "", re.sub(r"[0-9]+\.[0-9]+s", "Ts", line)) for line in result.outlines]
    # (and under xdist, the order tasks end in: the progress line's letters are compared sorted)
    lines = ["".join(sorted(line)) if re.match(r"^[.FEsx]+ +\[", line) else line for line in lines]
    held = json.loads((pytester.path / "held.json").read_text())
    return "\n".join(sorted(re.sub(r"\bgw[0-9]+\b", "gw", line) for line in lines)), held


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_passed_tasks_kept_small_print_the_same(pytester: pytest.Pytester, workers: list[str]) -> None:
    """A passed task's call report becomes a small stand-in in the terminal's "passed" list once
    logged: the closing line, --durations and the rest of the output are what a run that keeps
    every report whole prints; -rA, which prints passed tests' sections, keeps them whole."""
    write_tasks(pytester, task_line(task_id="EX-10"), task_line(task_id="EX-11"))
    pytester.makeconftest(HELD_PASSES)
    slim, held = _run_passing(pytester, *workers)
    pytester.makeconftest(HELD_PASSES + PASS_SLIM_OFF)
    whole, kept = _run_passing(pytester, *workers)
    assert slim == whole
    assert "9 passed" in slim and "Ts call" in slim
    assert held["kinds"] == ["LoggedPass"] and kept["kinds"] == ["TestReport"]
    assert (held["count"], held["ids"]) == (kept["count"], kept["ids"]) and held["count"] == 9
    assert held["keywords"] == 0 < kept["keywords"]
    pytester.makeconftest(HELD_PASSES)
    _, all_kept = _run_passing(pytester, "-rA", *workers)
    assert all_kept["kinds"] == ["TestReport"]
