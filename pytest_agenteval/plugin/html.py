"""``--agenteval-html=PATH``: the HTML report, written on the controller when the session ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.episodes import episode_details
from pytest_agenteval.report.html import write_html


class HtmlReport:
    """Reads the grades the reporter gathered; replays episodes for the drill-down's observations."""

    def __init__(self, config: pytest.Config, path: str, reporter: Any, pool: Any, task_files: list[str]) -> None:
        self.config, self.path, self.reporter, self.pool = config, path, reporter, pool
        self.task_files = [f if Path(f).is_absolute() else str(config.rootpath / f) for f in task_files]

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        grades = self.reporter.grades
        if not grades:
            return
        details = episode_details(grades, self.task_files, pool=self.pool)
        write_html(self.path, grades, self.reporter.k, sources=sorted(self.reporter_sources()), details=details)

    def reporter_sources(self) -> set[str]:
        return {Path(f).name for f in self.task_files}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.reporter.grades:
            terminalreporter.write_line(f"agenteval HTML report: {self.path}")
