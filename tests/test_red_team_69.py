"""Red team 69 (issue #25): bad input. A task file that is a symbolic link to itself made
``Path.resolve()`` raise RuntimeError (an INTERNALERROR, and a traceback from ``agenteval
replay``); a file in a folder that can be listed but not entered made ``Path.is_dir()`` and
``Path.exists()`` raise PermissionError; ``-m``/``-k`` deselected the error items of bad lines and
unreadable files (they carry no task's marks), so the run and its gate passed; a named pipe given
as a results file made every reader wait for a writer for ever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_agenteval.plugin import collect
from pytest_agenteval.taskfiles.files import is_folder, present, read_task_file, resolved
from tests.helpers.tasks import task_line

LOOP = "is a symbolic link that leads back to itself (point it at a task file, or remove it)"


def _tasks(folder: Path) -> None:
    folder.mkdir()
    (folder / "good.jsonl").write_text(task_line() + "\n" + task_line(task_id="EX-2") + "\n")
    os.symlink("loop.jsonl", folder / "loop.jsonl")


def test_a_task_file_linked_to_itself_is_one_error_and_the_rest_runs(pytester: pytest.Pytester) -> None:
    _tasks(pytester.path / "tasks")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "tasks/")
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.assert_outcomes(passed=2, errors=1)
    assert LOOP in result.stdout.str()
    # named on the command line: pytest's own one line (it finds nothing there), not an INTERNALERROR
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "tasks/loop.jsonl", "tasks/good.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "INTERNALERROR" not in result.stdout.str()
    result.stderr.fnmatch_lines(["ERROR: file or directory not found: tasks/loop.jsonl"])


def test_resolving_a_loop_gives_its_own_path(tmp_path: Path) -> None:
    os.symlink("me", tmp_path / "me")
    assert resolved(tmp_path / "me") == tmp_path / "me"
    problem = read_task_file(tmp_path / "me", shown="me")
    assert not isinstance(problem, bytes) and LOOP in str(problem)


def test_an_entry_that_cannot_be_looked_at_is_read_and_refused(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """As an unprivileged user, a file in a folder with mode 0644 cannot even be stat'ed: it is
    there (reading it says why not), not a crash; as root permissions do not bite, so the error
    is made."""
    (tmp_path / "x.jsonl").write_text(task_line() + "\n")

    def denied(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "lstat", denied)
    monkeypatch.setattr(Path, "is_dir", lambda self: denied())
    assert present(tmp_path / "x.jsonl") and not is_folder(tmp_path / "x.jsonl")
    monkeypatch.undo()
    assert not present(tmp_path / "nothing.jsonl")


def test_a_folder_that_cannot_be_entered_gives_its_files_to_be_refused(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nox").mkdir()
    (tmp_path / "nox" / "y.jsonl").write_text(task_line() + "\n")
    real = Path.is_dir

    def is_dir(self: Path) -> bool:
        if self.name == "y.jsonl":
            raise PermissionError(13, "Permission denied")
        return real(self)
    monkeypatch.setattr(Path, "is_dir", is_dir)
    monkeypatch.setattr(collect, "is_task_file", lambda path, config, explicit: True)
    assert list(collect._task_files([tmp_path], None, set())) == [tmp_path / "nox" / "y.jsonl"]  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("select", [["-m", "wrong_rate"], ["-k", "EX-2"], ["--deselect", "tasks/bad.jsonl::line2"]])
def test_a_selection_keeps_the_errors_of_task_files(pytester: pytest.Pytester, select: list[str]) -> None:
    tasks = pytester.path / "tasks"
    tasks.mkdir()
    (tasks / "bad.jsonl").write_text(task_line(failure_mode_tags=["wrong_rate"]) + "\n{not json\n"
                                     + task_line(task_id="EX-2", failure_mode_tags=["wrong_rate"]) + "\n")
    os.mkfifo(tasks / "pipe.jsonl")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-fail-under=0.5",
                                *select, "tasks/")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    outcomes = result.parseoutcomes()
    assert outcomes["errors"] == 2 and outcomes.get("deselected", 0) == (1 if select[0] == "-k" else 0)
    for line in ("*the run still fails*", "ERROR tasks/bad.jsonl::line2*", "ERROR tasks/pipe.jsonl*named pipe*"):
        result.stdout.fnmatch_lines([line])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("command", [["report", "fifo.jsonl"], ["replay", "fifo.jsonl", "tasks"],
                                     ["show", "fifo.jsonl", "EX-1"], ["compare", "fifo.jsonl", "fifo.jsonl"]])
def test_a_named_pipe_as_a_results_file_is_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    os.mkfifo(tmp_path / "fifo.jsonl")  # no writer: a blocking open would wait for ever
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    result = subprocess.run([sys.executable, "-c", "import sys; from pytest_agenteval.cli import main; sys.exit(main())",
                             *command], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "fifo.jsonl" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_resuming_a_named_pipe_is_one_line(pytester: pytest.Pytester) -> None:
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    os.mkfifo(pytester.path / "fifo.jsonl")
    result = pytester.runpytest_subprocess("--agent=reference", "-p", "no:cacheprovider",
                                           "--agenteval-resume=fifo.jsonl", "t.jsonl", timeout=120)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=fifo.jsonl: *"])


def test_replay_with_a_task_folder_holding_a_loop_is_one_line(pytester: pytest.Pytester) -> None:
    _tasks(pytester.path / "tasks")
    pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-results=r.jsonl",
                       "tasks/good.jsonl").assert_outcomes(passed=2)
    for target in ("tasks", "tasks/loop.jsonl"):
        result = subprocess.run([sys.executable, "-c", "import sys; from pytest_agenteval.cli import main; "
                                 "sys.exit(main())", "replay", "r.jsonl", target], cwd=pytester.path,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.splitlines()[-1].endswith(LOOP)


def test_a_limit_given_twice_is_refused() -> None:
    from pytest_agenteval.agents.limits import Limits, LimitsError
    with pytest.raises(LimitsError, match="cpu is given twice"):
        Limits.parse("cpu=1,cpu=2")
