"""``--agenteval-html=PATH``: the HTML report, written on the controller when the session ends."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.html import GradeSpool, run_warnings, write_report
from pytest_agenteval.report.labels import about_run
from pytest_agenteval.report.metrics import INTERRUPTED, NOT_GRADED
from pytest_agenteval.report.outputs import not_a_file


def check_writable(path: str) -> None:
    """Fail at the start, not after the run: ``path`` names a file in a folder this process can write.

    Writing a scratch file there is the only honest test (permission bits say nothing about a
    read-only file system, and root ignores them)."""
    target = Path(path)
    if target.is_dir():
        raise pytest.UsageError(f"--agenteval-html={path}: is a folder (name a file to write)")
    if (special := not_a_file(target)) is not None:
        raise pytest.UsageError(f"--agenteval-html={path}: {special}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".agenteval-html-"):
            pass
    except OSError as exc:
        raise pytest.UsageError(f"--agenteval-html={path}: cannot write there: {exc.strerror or exc} "
                                "(name a file in a folder you can write)") from None


class HtmlReport:
    """An implementation of the plugin's hooks: each counted grade is spooled to a scratch file as
    it arrives (nothing of it stays in memory), and the report is written when the run finishes,
    reading them back; the drill-down's observations are replayed from the task files."""

    def __init__(self, config: pytest.Config, path: str, k: int, pool: Any, task_files: list[str],
                 kept: dict[str, dict[str, Any]]) -> None:
        self.config, self.path, self.k, self.pool = config, path, k, pool
        self.task_files = [f if Path(f).is_absolute() else str(config.rootpath / f) for f in task_files]
        self.spool = GradeSpool()
        for nodeid, grade in kept.items():  # --agenteval-resume: the file's episodes are in the report
            self.spool.put(nodeid, grade)
        self.written = False

    def pytest_agenteval_episode_graded(self, grade: dict[str, Any], counted: bool) -> None:
        if counted:
            self.spool.put(str(grade["nodeid"]), grade)

    @pytest.hookimpl(trylast=True)
    def pytest_agenteval_run_finished(self, summary: dict[str, Any], run_record: dict[str, Any]) -> None:
        warnings = run_warnings([str(i) for i in summary.get(NOT_GRADED) or []],
                                ["this run"] if summary.get(INTERRUPTED) else [])
        try:
            if not len(self.spool) and not warnings:
                return
            write_report(self.path, self.spool, self.k, sources=sorted(self.reporter_sources()),
                         task_files=self.task_files, pool=self.pool, about=about_run(run_record), warnings=warnings)
            self.written = True
        finally:
            self.spool.close()

    def reporter_sources(self) -> set[str]:
        return {Path(f).name for f in self.task_files}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.written:
            terminalreporter.write_line(f"agenteval HTML report: {self.path}")
