"""Task folders holding what is not a task file: links, FIFOs, devices, folders, huge nesting.

Each is one error naming the file (or one line from the ``agenteval`` command), and the rest
runs. FIFOs, links and devices are made here in tmp_path; git cannot carry them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.taskfiles.loader import TaskLoader
from tests.helpers.tasks import task_dict, task_line

FIX = "only regular files are read as task files; move it out of the task folder"
MESSAGES = {
    "dangling.jsonl": "dangling.jsonl:1: <file>: is a symbolic link to 'nowhere.jsonl', which does not exist "
                      "(point it at a task file, or remove it)",
    "fifo.jsonl": f"fifo.jsonl:1: <file>: is a named pipe (FIFO), not a regular file ({FIX})",
    "zero.jsonl": f"zero.jsonl:1: <file>: is a character device, not a regular file ({FIX})",
}
DEEP = "deep.jsonl:1: <json>: nested 1,001 levels deep; the limit is 64 (flatten the value; a task needs only a few levels)"


def hostile_folder(tasks: Path) -> None:
    tasks.mkdir(exist_ok=True)
    (tasks / "dangling.jsonl").symlink_to("nowhere.jsonl")
    os.mkfifo(tasks / "fifo.jsonl")  # opening it for reading would wait for a writer forever
    (tasks / "zero.jsonl").symlink_to("/dev/zero")  # reading it never ends
    (tasks / "x.jsonl").mkdir()  # a folder named like a task file is a folder
    (tasks / "linked_folder.jsonl").symlink_to("x.jsonl")
    (tasks / "deep.jsonl").write_text(json.dumps(task_dict(task_id="DEEP-1"))[:-1]
                                      + ', "overrides": ' + "[" * 1000 + "]" * 1000 + "}\n")
    (tasks / "good.jsonl").write_text(task_line(task_id="GOOD-1") + "\n")


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_the_loader_reads_only_regular_files(tmp_path: Path, name: str) -> None:
    hostile_folder(tmp_path)
    tasks, problems = TaskLoader().load_file(tmp_path / name, display=name)
    assert tasks == [] and [str(p) for p in problems] == [MESSAGES[name]]


def test_a_folder_is_not_read_as_a_file(tmp_path: Path) -> None:
    hostile_folder(tmp_path)
    _, problems = TaskLoader().load_file(tmp_path / "x.jsonl", display="x.jsonl")
    assert [str(p) for p in problems] == [f"x.jsonl:1: <file>: is a folder, not a regular file ({FIX})"]


def test_pytest_reports_each_and_runs_the_rest(pytester: pytest.Pytester) -> None:
    hostile_folder(pytester.path / "tasks")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "-rE", "tasks")
    out = result.stdout.str()
    assert "INTERNALERROR" not in out and "Traceback" not in out
    result.assert_outcomes(passed=1, errors=4)  # the folder x.jsonl and the link to it are no error
    for message in [*MESSAGES.values(), DEEP]:
        assert f"tasks/{message}" in out


def test_pytest_markers_survives_the_folder(pytester: pytest.Pytester) -> None:
    hostile_folder(pytester.path / "tasks")
    result = pytester.runpytest("--markers", "-p", "no:cacheprovider", "tasks")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["@pytest.mark.wrong_ticket: failure mode tag (agenteval)"])


def test_agenteval_validate_prints_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    hostile_folder(tmp_path / "tasks")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "tasks"]) == 1
    out = capsys.readouterr().out.splitlines()
    for message in [*MESSAGES.values(), DEEP]:
        assert f"tasks/{message}" in out


def test_agenteval_tools_on_a_deep_line_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    hostile_folder(tmp_path / "tasks")
    monkeypatch.chdir(tmp_path)
    assert main(["tools", "tasks/deep.jsonl"]) == 2
    assert capsys.readouterr().err.splitlines() == [f"tasks/{DEEP}"]


def test_a_file_edited_during_the_run_is_graded_as_hashed(pytester: pytest.Pytester) -> None:
    original = task_line(task_id="FIRST-1") + "\n"
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(original)
    # Edited after configure hashed it for the run record, before collection loads it.
    pytester.makeconftest(f"""
        from pathlib import Path
        def pytest_sessionstart(session):
            Path({str(pytester.path / "tasks" / "t.jsonl")!r}).write_text({task_line(task_id="EDITED-1") + chr(10)!r})
    """)
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-results=r.jsonl")
    result.assert_outcomes(passed=1)
    lines = [json.loads(line) for line in (pytester.path / "r.jsonl").read_text().split("\n") if line]
    record = lines[0]["run_record"]
    assert record["task_files"] == [{"path": "tasks/t.jsonl", "tasks": 1,
                                     "sha256": hashlib.sha256(original.encode()).hexdigest()}]
    assert [line["task_id"] for line in lines if "task_id" in line] == ["FIRST-1"]
