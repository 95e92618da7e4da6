"""pytest-sugar: its closing tally counts tasks, not checks.

sugar files every report by its outcome through its own status function, not the
``pytest_report_teststatus`` hook (Teemu/pytest-sugar#205), so each check would count as a
passed or failed test. ``SugarCounts`` moves a check's report from sugar's ``passed``/``failed``
list (``SugarTerminalReporter.stats``, the terminal reporter's public ``stats``) to
``checks passed``/``checks failed`` as it arrives, and an errored episode's out of ``failed``.
Fallback: sugar's tally counts checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pytest_agenteval.plugin.errored import errored_kind
from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "sugar"


def self_test() -> bool:
    import pytest_sugar

    return isinstance(pytest_sugar.SugarTerminalReporter, type) and issubclass(
        pytest_sugar.SugarTerminalReporter, pytest.TerminalReporter)


def wanted(config: pytest.Config) -> bool:
    return config.pluginmanager.hasplugin("sugar") and enabled(NAME, self_test)


class SugarCounts:
    def __init__(self, config: pytest.Config, is_check_report: Callable[[Any], bool]) -> None:
        self.config = config
        self.is_check_report = is_check_report

    @pytest.hookimpl(trylast=True)  # after sugar's reporter has filed the report
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        reporter = self.config.pluginmanager.getplugin("terminalreporter")
        if type(reporter).__name__ != "SugarTerminalReporter":
            return
        if self.is_check_report(report):
            moves = {"passed": "checks passed", "failed": "checks failed"}
        elif errored_kind(report) is not None:  # an errored episode: no failure in sugar's tally
            moves = {"failed": "error"}  # (sugar prints "error" for setup/teardown only)
        else:
            return
        for category, to in moves.items():
            filed = reporter.stats.get(category, [])
            if filed and filed[-1] is report:
                filed.pop()
                reporter.stats.setdefault(to, []).append(report)
