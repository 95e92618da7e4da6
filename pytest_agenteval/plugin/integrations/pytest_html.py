"""pytest-html: one row per task.

pytest-html keeps one report per outcome per test: a passed check's report would be a second,
"Passed", row of a failed task. Its public ``pytest_html_results_table_row`` hook empties a
check's cells, which drops the row. An errored episode's row says Error (pytest-html calls any
failed *call* "Failed"), and its summary counts it under Errors: the tally it adds the row to
right after ``pytest_html_results_table_html`` (``BaseReport._report._outcomes``) is corrected
first. Self-test: the hooks are declared by the installed pytest-html. Fallback: the check rows
stay, and an errored episode is a failed row.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_agenteval.plugin.errored import errored_kind
from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "pytest_html"


def self_test() -> bool:
    from pytest_html import hooks

    return all(callable(getattr(hooks, name, None)) for name in (
        "pytest_html_results_table_row", "pytest_html_results_table_html"))


class HtmlRows:
    def __init__(self, is_check_report: Any, config: pytest.Config | None = None) -> None:
        self.is_check_report = is_check_report
        self.config = config

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report: Any, cells: list[str]) -> None:
        if self.is_check_report(report):
            del cells[:]
        elif cells and _errored(report):
            cells[0] = '<td class="col-result">Error</td>'

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_html(self, report: Any, data: list[str]) -> None:
        if self.config is None or not _errored(report):
            return
        for plugin in self.config.pluginmanager.get_plugins():  # its report object has no name
            tally = getattr(getattr(plugin, "_report", None), "_outcomes", None)
            if type(plugin).__module__.startswith("pytest_html") and isinstance(tally, dict) and (
                    {"failed", "error"} <= tally.keys()):
                tally["failed"]["value"] -= 1
                tally["error"]["value"] += 1


def _errored(report: Any) -> bool:
    return errored_kind(report) is not None and bool(report.failed)


def wanted(config: pytest.Config) -> bool:
    return config.pluginmanager.hasplugin("html") and enabled(NAME, self_test)
