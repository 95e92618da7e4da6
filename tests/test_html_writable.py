"""``--agenteval-html`` that cannot be written fails at the start, in one line, exit 4 (before:
the whole run went by and the write failed at the end)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.tasks import task_line


def tasks_here(pytester: pytest.Pytester) -> None:
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")


def test_a_folder_that_cannot_hold_the_report_fails_at_the_start(pytester: pytest.Pytester) -> None:
    tasks_here(pytester)
    (pytester.path / "blocker").write_text("a file, not a folder")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-html=blocker/r.html")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-html=blocker/r.html: cannot write there: *"
                                 "(name a file in a folder you can write)"])
    assert "passed" not in result.stdout.str()  # nothing ran


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_fails_at_the_start(pytester: pytest.Pytester) -> None:
    tasks_here(pytester)
    folder = Path(pytester.path / "ro")
    folder.mkdir(mode=0o555)
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-html=ro/r.html")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-html=ro/r.html: cannot write there: Permission denied "
                                 "(name a file in a folder you can write)"])
