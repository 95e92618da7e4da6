"""The ``agenteval`` command never shows a traceback for a user's mistake: one line naming the
problem and the fix, exit 2 (issue #14, item 7). Folders stand for the task files in them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from tests.helpers.tasks import task_line

RESULTS_FIX = "(pass the file written by --agenteval-results)"


def agenteval(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real console entry point, in a child process: what a user sees, tracebacks included."""
    return subprocess.run([sys.executable, "-c", "import sys; from pytest_agenteval.cli import main; "
                           "sys.exit(main())", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def one_line_error(result: subprocess.CompletedProcess[str], expected: str) -> None:
    __tracebackhide__ = True
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.splitlines() == [expected], result.stderr
    assert result.returncode == 2, (result.returncode, result.stdout)


def unsigned(results: Path) -> str:
    """What replay says first of a results file written without a signing key."""
    return (f"note: {results}: unsigned: its lines could have been edited, swapped, reordered or removed unnoticed "
            "(to sign runs, set AGENTEVAL_SIGNING_KEY or pass --agenteval-signing-key PATH when running pytest)")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "a.jsonl").write_text(task_line(task_id="EX-1") + "\n")
    (tmp_path / "tasks" / "more").mkdir()
    (tmp_path / "tasks" / "more" / "b.jsonl").write_text(task_line(task_id="EX-2") + "\n")
    (tmp_path / "tasks" / "notes.txt").write_text("not a task file\n")
    return tmp_path


def record(project: Path, *task_files: str) -> Path:
    """A results file of the reference agent on ``task_files``."""
    out = project / "r.jsonl"
    subprocess.run([sys.executable, "-m", "pytest", "--agent=reference", f"--agenteval-results={out}", "-q",
                    "-p", "no:cacheprovider", *task_files], cwd=project, check=True, capture_output=True)
    return out


def test_validate_accepts_a_folder(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(project / "tasks")]) == 0
    assert "tasks: 2; reference passed 2/2; do-nothing failed 2/2" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["validate"], ["tools"], ["mcp", "--grade-out", "g.json"]])
def test_a_missing_task_file_is_one_line(project: Path, command: list[str]) -> None:
    one_line_error(agenteval(command[0], "tasks/nope.jsonl", *command[1:], cwd=project),
                   f"agenteval {command[0]}: tasks/nope.jsonl: no such file or folder (check the path)")


def test_a_folder_without_task_files_is_one_line(project: Path) -> None:
    (project / "empty").mkdir()
    one_line_error(agenteval("validate", "empty", cwd=project),
                   "agenteval validate: empty: no task files (*.jsonl) in this folder (pass task files, or a folder "
                   "holding them)")


def test_tools_finds_a_task_in_a_folder(project: Path) -> None:
    result = agenteval("tools", "tasks", "--task", "EX-2", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "close_ticket" in {t["function"]["name"] for t in json.loads(result.stdout)}
    one_line_error(agenteval("tools", "tasks", "--task", "EX-9", cwd=project),
                   "agenteval tools: no task 'EX-9' in tasks (check the task_id)")


def test_validate_population_must_be_positive(project: Path) -> None:
    result = agenteval("validate", "tasks", "--population", "-5", cwd=project)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == "agenteval validate: error: argument --population: must be 1 or more, got -5"


def test_replay_with_a_missing_results_file_is_one_line(project: Path) -> None:
    one_line_error(agenteval("replay", "nope.jsonl", "tasks", cwd=project),
                   "agenteval replay: nope.jsonl: no such file or folder (check the path)")


def test_replay_with_a_task_file_as_results_is_one_line(project: Path) -> None:
    one_line_error(agenteval("replay", "tasks/a.jsonl", "tasks", cwd=project),
                   "agenteval replay: tasks/a.jsonl:1: not a results file: this line is not a grade (run is not a "
                   f"whole number) {RESULTS_FIX}")


@pytest.mark.parametrize(("content", "problem"), [
    ("garbage\n", "tasks/../junk.jsonl:1: not a results file: not valid JSON"),
    ('[1, 2]\n', "tasks/../junk.jsonl:1: not a results file: this line is not a grade"),
    ("", "tasks/../junk.jsonl: not a results file: it is empty"),
    (b"\xff\xfe\n", "tasks/../junk.jsonl: not a results file: not UTF-8 text"),
])
def test_replay_with_a_garbage_results_file_is_one_line(project: Path, content: str | bytes, problem: str) -> None:
    path = project / "junk.jsonl"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    one_line_error(agenteval("replay", "tasks/../junk.jsonl", "tasks", cwd=project),
                   f"agenteval replay: {problem} {RESULTS_FIX}")


def test_replay_with_a_folder_as_results_is_one_line(project: Path) -> None:
    one_line_error(agenteval("replay", "tasks", "tasks", cwd=project),
                   f"agenteval replay: tasks: is a folder, not a results file {RESULTS_FIX}")


def test_replay_with_a_bad_task_line_names_the_line(project: Path) -> None:
    results = record(project, "tasks")
    (project / "tasks" / "a.jsonl").write_text('{"task_id": "EX-1"\n')
    result = agenteval("replay", str(results), "tasks", cwd=project)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0].startswith("tasks/a.jsonl:1: <json>: not valid JSON")


def test_replay_counts_identical_different_and_task_not_found_separately(project: Path) -> None:
    results = record(project, "tasks/a.jsonl", "tasks/more/b.jsonl")
    result = agenteval("replay", str(results), "tasks/a.jsonl", cwd=project)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        unsigned(results),
        "EX-2 run 1: its task is not in the given task files (pass the task file it came from)",
        "replayed 2 episode(s): 1 identical, 0 different, 1 whose task was not found",
    ]
    again = agenteval("replay", str(results), "tasks", cwd=project)
    assert again.returncode == 0 and again.stdout.splitlines() == [
        unsigned(results), "replayed 2 episode(s): 2 identical, 0 different, 0 whose task was not found"]


def test_replay_cannot_write_its_output(project: Path) -> None:
    results = record(project, "tasks")
    one_line_error(agenteval("replay", str(results), "tasks", "--out", "tasks", cwd=project),
                   "agenteval replay: --out tasks: is a folder (name a file to write)")


def test_replay_output_below_a_file_is_one_line(project: Path) -> None:
    results = record(project, "tasks/a.jsonl")
    one_line_error(agenteval("replay", str(results), "tasks", "--out", "tasks/a.jsonl/x.jsonl", cwd=project),
                   "agenteval replay: --out tasks/a.jsonl/x.jsonl: cannot write it: tasks/a.jsonl is a file, not a folder "
                   "(name a file you can write)")


@pytest.mark.parametrize("out", ["r.jsonl", "tasks/a.jsonl"])
def test_replay_never_overwrites_its_own_inputs(project: Path, out: str) -> None:
    results = record(project, "tasks/a.jsonl")
    before = results.read_text(), (project / "tasks" / "a.jsonl").read_text()
    one_line_error(agenteval("replay", "r.jsonl", "tasks", "--out", out, cwd=project),
                   f"agenteval replay: --out {out}: is one of the files being replayed (name a new file)")
    assert (results.read_text(), (project / "tasks" / "a.jsonl").read_text()) == before


CHECKS = "checks is not a list of checks with name, passed, and failure_mode and detail when failed"


@pytest.mark.parametrize(("tamper", "problem"), [
    (lambda g: g.update(checks=[1, 2]), CHECKS),
    (lambda g: g.update(run="one"), "run is not a whole number"),
    (lambda g: g.update(actions={"action": "close_ticket"}), "actions is not a list of objects with an action name"),
    (lambda g: g["checks"][0].pop("name"), CHECKS),
])
def test_replay_with_a_mangled_grade_is_one_line(project: Path, tamper: object, problem: str) -> None:
    results = record(project, "tasks/a.jsonl")
    lines = results.read_text().splitlines()
    grade = json.loads(lines[1])
    tamper(grade)  # type: ignore[operator]
    results.write_text("\n".join([lines[0], json.dumps(grade), *lines[2:]]) + "\n")
    one_line_error(agenteval("replay", "r.jsonl", "tasks", cwd=project),
                   f"agenteval replay: r.jsonl:2: not a results file: this line is not a grade ({problem}) {RESULTS_FIX}")


def test_replay_says_when_a_task_file_changed_since_the_run(project: Path) -> None:
    results = record(project, "tasks/a.jsonl")
    path = project / "tasks" / "a.jsonl"
    recorded = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(task_line(task_id="EX-1", instruction="Close ticket T-0001, please.") + "\n")
    now = hashlib.sha256(path.read_bytes()).hexdigest()
    result = agenteval("replay", str(results), "tasks/a.jsonl", cwd=project)
    assert result.stdout.splitlines() == [
        unsigned(results),
        f"note: tasks/a.jsonl is not the file the run graded (sha256 {recorded[:12]} then, {now[:12]} now): "
        "a difference may come from the task, not the grader",
        "replayed 1 episode(s): 1 identical, 0 different, 0 whose task was not found",
    ]
