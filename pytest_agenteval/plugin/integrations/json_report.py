"""pytest-json-report (``--json-report``): each test's grade once, under ``agenteval``.

An implementation of ``pytest_agenteval_episode_graded``: the grades are kept only when the
JSON report is being written (it holds every test's data itself until the end). What it
touches of json-report: its ``pytest_json_modifyreport`` hook (public) and the shape of the
report it passes (``tests``, ``summary``, each test's ``outcome``, ``call`` and
``user_properties``), which 1.5 documents. ``self_test`` checks that shape on a report made
the way json-report makes it; ``AGENTEVAL_INTEGRATIONS=off`` (or a failed self-test) leaves the
report as json-report wrote it, apart from the run record.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pytest_agenteval.plugin.integrations.switch import enabled
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY

NAME = "json_report"


def active(config: pytest.Config) -> bool:
    """Whether this run writes a JSON report: json-report's ``--json-report`` option, or its plugin
    given to ``pytest.main(plugins=[JSONReport()])`` (it marks the config ``_json_report``)."""
    return bool(getattr(config.option, "json_report", False)) or hasattr(config, "_json_report")


def self_test() -> bool:
    """Whether a json-report-shaped report is repaired as this module expects."""
    report: dict[str, Any] = {"tests": [{"nodeid": "t.jsonl::test_task[X]", "outcome": "subtests passed",
                                         "user_properties": [{GRADE_PROPERTY: "{}"}]}],
                              "summary": {"passed": 1, "total": 1, "collected": 1}}
    repair(report, {"t.jsonl::test_task[X]": {"task_id": "X"}}, {"agent": "probe"})
    test = report["tests"][0]
    return (test["outcome"] == "passed" and test["agenteval"] == {"task_id": "X"} and "user_properties" not in test
            and report["summary"] == {"passed": 1, "total": 1, "collected": 1} and bool(report["agenteval_run"]))


def repair(json_report: dict[str, Any], grades: dict[str, dict[str, Any]], run_record: dict[str, Any]) -> None:
    """Repair pytest-json-report 1.5 under subtests; attach each test's grade and the run record."""
    json_report["agenteval_run"] = run_record
    tests = json_report.get("tests", [])
    for test in tests:
        if test.get("outcome") == "rerun":  # kept from a superseded attempt: the final one decides
            test["outcome"] = test.get("call", {}).get("outcome", "rerun")
        if test.get("outcome") == "subtests passed":
            test["outcome"] = "passed"
        grade = grades.get(test.get("nodeid", ""))
        if grade is not None:
            test["agenteval"] = grade
            # Stored once: the same grade as a JSON string among the user properties was half the file.
            test["user_properties"] = [p for p in test.get("user_properties", []) if GRADE_PROPERTY not in p]
            if not test["user_properties"]:
                del test["user_properties"]
    summary = json_report.get("summary", {})
    kept = {k: summary[k] for k in ("collected", "deselected") if k in summary}
    json_report["summary"] = {**dict(Counter(t["outcome"] for t in tests)), "total": len(tests), **kept}


class JsonReportGrades:
    """Registered on the controller; keeps grades only while a JSON report is being written."""

    _LINE_ONLY = ("nodeid", "duration", "attempt", "counted", "signature")

    def __init__(self, config: pytest.Config, run_record: dict[str, Any], kept: dict[str, dict[str, Any]]) -> None:
        self.config = config
        self.run_record = run_record
        self.grades: dict[str, dict[str, Any]] = dict(kept)  # the counted grade of each item
        self.repairs = enabled(NAME, self_test)

    def pytest_agenteval_episode_graded(self, grade: dict[str, Any], counted: bool) -> None:
        if counted and active(self.config):
            self.grades[str(grade["nodeid"])] = {k: v for k, v in grade.items() if k not in self._LINE_ONLY}

    @pytest.hookimpl(optionalhook=True)
    def pytest_json_modifyreport(self, json_report: dict[str, Any]) -> None:
        if self.repairs:
            repair(json_report, self.grades, self.run_record)
        else:
            json_report["agenteval_run"] = self.run_record
