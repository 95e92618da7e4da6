"""Honest counts: a task is one test, passed or failed; its checks are counted apart.

pytest 9 counts a failed subtest as a failed test, and its parent once more; every reporter
built on reports inherits that (issue #18): "131 failed, 58 passed" for 80 tasks, JUnit
``tests="1410"``, ``-x`` stopping after the first failed check. Here, for the checks of task
items only (a user's own subtests are left alone):

- the task's own call report fails by itself, before any other plugin sees it, with a message
  naming every failed check (pytest's subtests plugin would flip it later, in the terminal's
  status hook, and say only "contains 3 failed subtests"; pytest-sugar and pytest-html read the
  outcome before that and counted the task as passed);
- a failed check's status is "checks failed", not "failed" (a passed check's is not counted):
  the closing line reads "22 failed, 58 passed, 99 checks failed", and the progress line has
  one letter per task;
- a failed check does not count towards ``-x``/``--maxfail`` (pytest's session and xdist's
  controller count every failed report; we give back what a check took), so the run stops
  after the failed *task*, with all its checks reported;
- pytest-html shows one row per task (its check rows are dropped through its row hook);
- the JUnit XML is rewritten after pytest writes it: one ``<failure>`` per failed task naming
  each failed check (an ``<error>`` with the agent's traceback for an errored one), and the
  suite's counts per task.

What each of these needs of another plugin is in ``plugin/integrations/`` (xdist, allure,
sugar, pytest_html, junit), each with its self-test and fallback.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.plugin.compat import index_teardown_reports, subtest_description, uses_internals
from pytest_agenteval.plugin.integrations import allure, junit, xdist
from pytest_agenteval.plugin.subtests import FAILED_CHECKS, GRADE_PROPERTY, REPORTING_CHECKS

CHECKS_FAILED = "checks failed"  # the terminal's key (and closing line's word) for failed checks


def is_check_report(report: Any) -> bool:
    """A check of a task item: task items' reports point at their ``.jsonl`` task file."""
    return isinstance(report, pytest.SubtestReport) and str(report.location[0]).endswith(".jsonl")


def failed_checks_text(grade: dict[str, Any]) -> str:
    """``3 of 14 checks failed: a, b, c`` and one line per failed check: name [mode] detail."""
    checks = grade.get("checks", [])
    failed = [c for c in checks if not c["passed"]]
    head = f"{len(failed)} of {len(checks)} check{'s' if len(checks) != 1 else ''} failed: " + ", ".join(
        c["name"] for c in failed)
    return "\n".join([head, *(f"  {c['name']} [{c['failure_mode']}] {c['detail']}" for c in failed)])


def _grade(properties: list[tuple[str, object]]) -> dict[str, Any] | None:
    for name, value in properties:
        if name == GRADE_PROPERTY:
            return dict(json.loads(str(value)))
    return None


class Outcomes:
    """Registered in every process (serial, xdist controller and workers)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.session: pytest.Session | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(wrapper=True, tryfirst=True)  # outermost: after allure's wrapper has seen the report
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if (call.when == "call" and report.passed and not item.stash.get(REPORTING_CHECKS, False)
                and item.stash.get(FAILED_CHECKS, 0) > 0):
            grade = _grade(item.user_properties)
            if grade is not None:
                report.outcome = "failed"
                report.longrepr = failed_checks_text(grade)
                allure.tell(self.config, item, report.longrepr)
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report: Any, config: pytest.Config) -> tuple[str, str, str] | None:
        if report.when != "call" or not is_check_report(report):
            return None
        description = subtest_description(config, report)
        if report.failed:
            return CHECKS_FAILED, "", f"SUBFAILED{description}"
        # Passed checks are not counted in the closing line: a second "checks …" entry would
        # share its first word with this one, which is all pytester's parseoutcomes reads.
        return "", "", f"SUBPASSED{description}" if config.get_verbosity() > 0 else ""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Give back the failure a failed check is about to add to -x/--maxfail's counts."""
        if not (report.failed and is_check_report(report)):
            return
        if self.session is not None:
            self.session.testsfailed -= 1
        xdist.give_back_failure(self.config)

    @pytest.hookimpl(trylast=True)  # after junitxml has written its file; before the terminal's summary
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        reporter = self.config.pluginmanager.getplugin("terminalreporter")
        if reporter is not None and uses_internals(self.config):
            index_teardown_reports(reporter)
        path = getattr(self.config.option, "xmlpath", None)
        if path and not xdist.is_worker(self.config) and Path(path).is_file():
            junit.rewrite_if_enabled(Path(path), failed_checks_text)
