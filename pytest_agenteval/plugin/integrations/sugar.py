"""pytest-sugar: its closing tally counts tasks, not checks.

sugar files every report by its outcome through its own status function, not the
``pytest_report_teststatus`` hook (Teemu/pytest-sugar#205), so each check would count as a
passed or failed test. ``SugarCounts`` moves a check's report from sugar's ``passed``/``failed``
list (``SugarTerminalReporter.stats``, the terminal reporter's public ``stats``) to
``checks passed``/``checks failed`` as it arrives. Fallback: sugar's tally counts checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

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
        if type(reporter).__name__ != "SugarTerminalReporter" or not self.is_check_report(report):
            return
        for category in ("passed", "failed"):
            filed = reporter.stats.get(category, [])
            if filed and filed[-1] is report:
                filed.pop()
                reporter.stats.setdefault(f"checks {category}", []).append(report)
