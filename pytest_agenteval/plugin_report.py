"""Reporting on the controller: grades from every worker, the reliability table, outputs."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
from _pytest.subtests import SubtestReport

from pytest_agenteval.fixtures import GRADE_PROPERTY
from pytest_agenteval.plugin_checks import replay_passed
from pytest_agenteval.report.metrics import summary_json, summary_lines, summary_title
from pytest_agenteval.report.results import ResultsWriter

if TYPE_CHECKING:
    from pytest_agenteval.plugin import State


class Reporter:
    """Registered only where reports arrive: the xdist controller, or a serial run."""

    def __init__(self, config: pytest.Config, state: State) -> None:
        self.config = config
        self.k = state.runs
        self.grades: list[dict[str, Any]] = []
        self.by_nodeid: dict[str, dict[str, Any]] = {}
        path = config.getoption("agenteval_results")
        self.writer = ResultsWriter(path) if path else None

    @pytest.hookimpl(tryfirst=True)  # passed checks are replayed before the test's own report
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if isinstance(report, SubtestReport):
            return
        replay_passed(self.config, report)
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == GRADE_PROPERTY:
                grade = json.loads(str(value))
                self.grades.append(grade)
                self.by_nodeid[report.nodeid] = grade
                if self.writer is not None:
                    self.writer.write({**grade, "nodeid": report.nodeid, "duration": round(report.duration, 6)})

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.grades:
            return
        terminalreporter.write_sep("=", summary_title(self.grades, self.k))
        for line in summary_lines(self.grades, self.k):  # the same lines as `agenteval report`
            terminalreporter.write_line(line)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.writer is not None:
            self.writer.close(summary_json(self.grades, self.k))

    @pytest.hookimpl(optionalhook=True)
    def pytest_json_modifyreport(self, json_report: dict[str, Any]) -> None:
        """Repair pytest-json-report 1.5 under subtests and attach each test's grade."""
        tests = json_report.get("tests", [])
        for test in tests:
            if test.get("outcome") in ("subtests passed", "checks passed"):
                test["outcome"] = "passed"
            grade = self.by_nodeid.get(test.get("nodeid", ""))
            if grade is not None:
                test["agenteval"] = grade
                # Stored once: the same grade as a JSON string among the user properties was half the file.
                test["user_properties"] = [p for p in test.get("user_properties", []) if GRADE_PROPERTY not in p]
                if not test["user_properties"]:
                    del test["user_properties"]
        summary = json_report.get("summary", {})
        kept = {k: summary[k] for k in ("collected", "deselected") if k in summary}
        json_report["summary"] = {**dict(Counter(t["outcome"] for t in tests)), "total": len(tests), **kept}
