"""``--agenteval-html=PATH``: the HTML report, written on the controller when the session ends."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.episodes import episode_details
from pytest_agenteval.report.html import write_html
from pytest_agenteval.report.labels import about_run


def check_writable(path: str) -> None:
    """Fail at the start, not after the run: ``path`` names a file in a folder this process can write.

    Writing a scratch file there is the only honest test (permission bits say nothing about a
    read-only file system, and root ignores them)."""
    target = Path(path)
    if target.is_dir():
        raise pytest.UsageError(f"--agenteval-html={path}: is a folder (name a file to write)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".agenteval-html-"):
            pass
    except OSError as exc:
        raise pytest.UsageError(f"--agenteval-html={path}: cannot write there: {exc.strerror or exc} "
                                "(name a file in a folder you can write)") from None


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
        write_html(self.path, grades, self.reporter.k, sources=sorted(self.reporter_sources()), details=details,
                   about=about_run(self.reporter.run_record))

    def reporter_sources(self) -> set[str]:
        return {Path(f).name for f in self.task_files}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.reporter.grades:
            terminalreporter.write_line(f"agenteval HTML report: {self.path}")
