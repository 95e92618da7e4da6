"""Flat memory: what pytest would keep of each episode after every reporter has seen it.

pytest's terminal reporter keeps every report until the session ends (``stats``), and each
report of a task item carries the episode's grade as a JSON string among its user properties
(under xdist, a copy per report; serially, the item's own list). Over a long run that was
most of the memory a run grew by. Once a test's teardown report has been logged (JUnit,
pytest-json-report, pytest-html and allure have taken what they keep), the grade is taken off
its reports and its item, and a passed check's report is taken out of the terminal's uncounted
``""`` list (its status line is written; nothing reads it later), as are a task item's passed
setup and teardown reports unless ``-rP``/``-rA`` will print their captured output. The grade itself went to the
plugin's hooks as the call report arrived (``reporter``): the results file on disk, the table
as a compact tally. A failed check's report, which the terminal only counts, is replaced in its
list by a small stand-in that prints the same, and a passed task's own call report in "passed"
by one that keeps what is counted (``logged_checks``). Registered in every process
(an xdist worker's items hold grades too).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from pytest_agenteval.plugin.integrations import rerunfailures
from pytest_agenteval.plugin.logged_checks import LoggedCheck, LoggedPass, stand_in
from pytest_agenteval.plugin.outcomes import CHECKS_FAILED, is_check_report
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY


class Lean:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._graded: dict[str, pytest.TestReport] = {}  # call reports carrying a grade, until teardown
        self._checks: dict[str, list[LoggedCheck]] = {}  # a task's failed checks, until its own call report
        chars = str(getattr(config.option, "reportchars", "") or "")
        self._keep_passed = "P" in chars or "A" in chars  # -rP / -rA print passed tests' teardown sections

    @pytest.hookimpl(wrapper=True)  # after every other reporter (trylast ones too) has seen the report
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None, None, None]:
        yield
        if isinstance(report, pytest.SubtestReport):
            if is_check_report(report):
                if report.passed:
                    _forget(self.config, report)
                elif report.failed:
                    small = _slim(self.config, report)
                    if small is not None:
                        self._checks.setdefault(report.nodeid, []).append(small)
            return
        if report.when != "setup":  # the task's call report has a line per failed check: keep one copy
            for small in self._checks.pop(report.nodeid, ()):
                small.share(report)
        # A teardown with captured output is kept: a failed task's failure section prints it.
        if (report.when != "call" and report.passed and not self._keep_passed and _is_task(report)
                and not (report.when == "teardown" and report.sections)):
            _forget(self.config, report)
        if report.when == "call" and report.passed and not self._keep_passed and _is_task(report):
            _slim_pass(self.config, report)
        if report.when == "call" and any(p[0] == GRADE_PROPERTY for p in report.user_properties):
            self._graded[report.nodeid] = report
        elif report.when == "teardown":
            call = self._graded.pop(report.nodeid, None)
            for done in (call, report):
                if done is not None:
                    _drop_grade(done)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        """The item's own copy, once its reports (teardown's last) are logged; and the failed
        checks' exceptions pytest-rerunfailures keeps on it."""
        try:
            return (yield)
        finally:
            rerunfailures.release_attempt(item)
            if any(p[0] == GRADE_PROPERTY for p in item.user_properties):
                item.user_properties[:] = [p for p in item.user_properties if p[0] != GRADE_PROPERTY]

    def pytest_sessionfinish(self) -> None:
        self._graded.clear()
        self._checks.clear()


def _drop_grade(report: pytest.TestReport) -> None:
    report.user_properties[:] = [p for p in report.user_properties if p[0] != GRADE_PROPERTY]


def _is_task(report: pytest.TestReport) -> bool:
    return str(report.location[0]).endswith(".jsonl")


def _filed(config: pytest.Config, key: str, report: Any) -> tuple[list[Any], int] | None:
    """Where the terminal filed ``report`` under ``key`` (just now: among the last few)."""
    reporter = config.pluginmanager.getplugin("terminalreporter")
    filed = getattr(reporter, "stats", {}).get(key)
    if not filed:
        return None
    for at in range(len(filed) - 1, max(len(filed) - 4, -1), -1):
        if filed[at] is report:
            return filed, at
    return None


def _forget(config: pytest.Config, report: Any) -> None:
    found = _filed(config, "", report)
    if found is not None:
        del found[0][found[1]]


def _slim(config: pytest.Config, report: pytest.SubtestReport) -> LoggedCheck | None:
    """A failed check's report, counted under "checks failed", becomes a small stand-in there."""
    found = _filed(config, CHECKS_FAILED, report)
    small = stand_in(report) if found is not None else None
    if found is not None and small is not None:
        found[0][found[1]] = small
    return small


def _slim_pass(config: pytest.Config, report: pytest.TestReport) -> None:
    """A passed task's call report, which the terminal only counts, becomes a small stand-in there."""
    found = _filed(config, "passed", report)
    if found is not None:
        found[0][found[1]] = LoggedPass(report)
