"""Flat memory (issue #28): once an episode is reported, pytest keeps no copy of its grade and no
passed check's report; the table is computed from compact tallies (metrics.tally)."""

from __future__ import annotations

import json

import pytest
from test_plugin import write_tasks

from conftest import task_line
from pytest_agenteval.report.metrics import summary_json, summary_lines, tally

HELD = '''
import json
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
