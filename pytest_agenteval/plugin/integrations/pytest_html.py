"""pytest-html: one row per task.

pytest-html keeps one report per outcome per test: a passed check's report would be a second,
"Passed", row of a failed task. Its public ``pytest_html_results_table_row`` hook empties a
check's cells, which drops the row. Self-test: the hook is declared by the installed
pytest-html. Fallback: the check rows stay.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "pytest_html"


def self_test() -> bool:
    from pytest_html import hooks

    return callable(getattr(hooks, "pytest_html_results_table_row", None))


class HtmlRows:
    def __init__(self, is_check_report: Any) -> None:
        self.is_check_report = is_check_report

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report: Any, cells: list[str]) -> None:
        if self.is_check_report(report):
            del cells[:]


def wanted(config: pytest.Config) -> bool:
    return config.pluginmanager.hasplugin("html") and enabled(NAME, self_test)
