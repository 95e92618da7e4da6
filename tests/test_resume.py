"""``--agenteval-resume``: a killed run continued, errored episodes run again, other runs refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.compressed import GZIP_MAGIC, results_bytes
from pytest_agenteval.report.merge import merge, read_results_file
from pytest_agenteval.report.signing import verify
from tests.helpers.tasks import task_line

AGENT = '''
import os, pathlib, re, time

class CloseNamed:
    """Closes the ticket its instruction names, except on T-0002 (closes T-0001: fails).
    With HANG_ON=T-000n it marks the file `hanging` and hangs on that task, to be killed."""
    def run(self, episode):
        ticket = re.search(r"T-\\d{4}", episode.instruction).group(0)
        if ticket == os.environ.get("HANG_ON"):
            pathlib.Path("hanging").write_text(ticket)
            time.sleep(600)
        episode.call("close_ticket", {"ticket_id": "T-0001" if ticket == "T-0002" else ticket})
'''
TICKETS = range(1, 7)


def write_project(root: Path) -> None:
    (root / "agent_mod.py").write_text(AGENT)
    (root / "tasks").mkdir()
    lines = [task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-000{i}.",
                       expected_final_state={"ticket": {f"T-000{i}": {"status": "closed"}}},
                       acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": f"T-000{i}"}}]])
             for i in TICKETS]
    (root / "tasks" / "example.jsonl").write_text("\n".join(lines) + "\n")


def pytest_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "--agent=agent_mod:CloseNamed",
            "tasks", *args]


def grade_lines(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in results_bytes(path).decode().splitlines()]
    return [{k: v for k, v in line.items() if k not in ("duration", "signature")} for line in lines if "task_id" in line]


@pytest.fixture
def project(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    write_project(root)
    return root


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_run_killed_mid_way_resumes_to_the_grades_of_an_uninterrupted_run(
        project: Path, tmp_path_factory: pytest.TempPathFactory, suffix: str) -> None:
    """Compressed too: a killed run's ``.gz`` file still holds every line it finished."""
    r, u = f"r{suffix}", f"u{suffix}"
    key = tmp_path_factory.mktemp("key") / "signing.key"  # outside the project, as it must be
    key.write_text("k" * 32)
    signed = (f"--agenteval-signing-key={key}",)
    env = {**os.environ, "HANG_ON": "T-0004"}
    killed = subprocess.Popen(pytest_command(f"--agenteval-results={r}", *signed), cwd=project, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 300  # only a bound on a broken test, not what is asserted
        while not (project / "hanging").exists():
            assert killed.poll() is None and time.monotonic() < deadline, "the run ended before hanging on EX-4"
            time.sleep(0.05)
    finally:
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
    assert [g["task_id"] for g in grade_lines(project / r)] == ["EX-1", "EX-2", "EX-3"]

    resumed = subprocess.run(pytest_command(f"--agenteval-resume={r}", *signed), cwd=project,
                             capture_output=True, text=True, check=False)
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr  # EX-2 fails, as in any run
    assert (f"agenteval resume: {r}, cut short after line 4 (the file will say so): 3 episode(s) graded there "
            "are kept, 0 errored one(s) run again" in resumed.stdout)
    assert "3 deselected" in resumed.stdout and "agenteval: 6 episodes, K=1" in resumed.stdout

    whole = subprocess.run(pytest_command(f"--agenteval-results={u}", *signed), cwd=project,
                           capture_output=True, text=True, check=False)
    assert whole.returncode == 1
    resumed_grades, whole_grades = grade_lines(project / r), grade_lines(project / u)
    assert sorted(g["task_id"] for g in resumed_grades) == [f"EX-{i}" for i in TICKETS]  # one line per episode
    by_task = lambda grades: sorted(grades, key=lambda g: g["task_id"])  # noqa: E731
    assert by_task(resumed_grades) == by_task(whole_grades)
    # Still one signed results file: verified, and its closing summary counts all six episodes.
    check = verify(project / r, b"k" * 32)
    assert check.verified, check.problems
    records = [json.loads(line) for line in results_bytes(project / r).decode().splitlines()]
    assert ((project / r).read_bytes()[:2] == GZIP_MAGIC) == suffix.endswith(".gz")
    assert records[-1]["summary"]["episodes"] == 6
    # Signed, where it began: a file cut by hand and resumed until it passed looks like this too
    # (red team 20), so every reader says the grades after it are a second try.
    assert records[4]["resumed"] == {"after_line": 4, "cut_short": True, "errored_run_again": 0,
                                     "continues_run": records[3]["signature"]["run"]}  # (a new run: red team 67)
    assert any(f"{r}:5: resumed after line 4, where the file was cut short" in note
               for note in merge([read_results_file(project / r)]).notes)


def test_errored_episodes_are_run_again_and_the_rerun_counts(project: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    first = subprocess.run(pytest_command("--agenteval-results=r.jsonl"), cwd=project, capture_output=True,
                           check=False)
    assert first.returncode == 1
    lines = (project / "r.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    at = next(i for i, r in enumerate(records) if r.get("task_id") == "EX-5")
    records[at] = {**records[at], "passed": False, "error": {"kind": "endpoint", "message": "refused"}}
    closed = [json.dumps(r) for r in records[:-1]]  # as if the outage ended the run before its summary
    (project / "r.jsonl").write_text("\n".join(closed) + "\n")
    again = subprocess.run(pytest_command("--agenteval-resume=r.jsonl", "-v"), cwd=project, capture_output=True,
                           text=True, check=False)
    assert "5 episode(s) graded there are kept, 1 errored one(s) run again" in again.stdout
    assert "test_task[EX-5] PASSED" in again.stdout and "5 deselected" in again.stdout
    ex5 = [g for g in grade_lines(project / "r.jsonl") if g["task_id"] == "EX-5"]
    assert [g.get("error") is None for g in ex5] == [False, True]  # the errored line, then the rerun's
    assert main(["report", str(project / "r.jsonl")]) == 0
    row = next(line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("all "))
    assert row[1:4] == ["6", "6", "0.83"]  # six episodes: the rerun of EX-5 replaces its errored line


@pytest.mark.parametrize(("change", "message"), [
    (["--agent=reference"], "is a run of another agent or labels (agent agent_mod:CloseNamed; they differ in agent "
                            "(agent_mod:CloseNamed vs reference)) (resume with the same --agent and "
                            "--agenteval-label, or start a new results file)"),
    (["--agenteval-label=model=b"], "is a run of another agent or labels (agent agent_mod:CloseNamed; they differ "
                                    "in labels (none vs model=b))*"),
    (["--runs=2"], "ran --runs 1 (resume with --runs 1)"),
])
def test_a_file_of_another_run_is_refused_in_one_line(pytester: pytest.Pytester, change: list[str],
                                                      message: str) -> None:
    write_project(pytester.path)
    pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-results=r.jsonl")
    agent = [] if change[0].startswith("--agent=") else ["--agent=agent_mod:CloseNamed"]
    result = pytester.runpytest(*agent, *change, "--agenteval-resume=r.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agenteval-resume=r.jsonl: {message}"])
    assert "Traceback" not in result.stderr.str()


def test_a_file_of_other_task_files_is_refused(pytester: pytest.Pytester) -> None:
    write_project(pytester.path)
    pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-results=r.jsonl")
    tasks = pytester.path / "tasks" / "example.jsonl"
    tasks.write_text(tasks.read_text().replace("Close ticket T-0006.", "Close ticket T-0006 now."))
    result = pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-resume=r.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=r.jsonl: ran other task files than this run (differing: "
                                 "tasks/example.jsonl) (resume with the task files it ran, unchanged, or start a new "
                                 "results file)"])


def test_a_signed_file_needs_its_key_and_a_missing_file_is_named(pytester: pytest.Pytester,
                                                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    write_project(pytester.path)
    key = tmp_path_factory.mktemp("key") / "k"
    key.write_text("s" * 32)
    pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-results=r.jsonl", f"--agenteval-signing-key={key}")
    result = pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-resume=r.jsonl")
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=r.jsonl: is signed (key id *); pass the key it was signed "
                                 "with (--agenteval-signing-key PATH or AGENTEVAL_SIGNING_KEY) to append to it"])
    result = pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-resume=nothing.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=nothing.jsonl: cannot read it: No such file or directory "
                                 "(name the results file of the run to continue)"])


def test_resuming_a_complete_file_runs_nothing_and_exits_as_it_ended(pytester: pytest.Pytester) -> None:
    write_project(pytester.path)
    assert pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-results=r.jsonl").ret == 1
    before = len((pytester.path / "r.jsonl").read_text().splitlines())
    result = pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-resume=r.jsonl")
    result.stdout.fnmatch_lines(["*6 deselected*", "agenteval resume: 1 failed episode(s) kept from the results file*"])
    assert result.ret == 1  # EX-2 failed in the file
    assert len((pytester.path / "r.jsonl").read_text().splitlines()) == before + 2  # a resume's mark, a summary
    gated = pytester.runpytest("--agent=agent_mod:CloseNamed", "--agenteval-resume=r.jsonl",
                               "--agenteval-fail-under=0.5")
    # With a gate its verdict is the exit code, and the resume line says so (it said the run fails).
    gated.stdout.fnmatch_lines(["agenteval resume: 1 failed episode(s) kept from the results file (in the table; "
                                "the gate below decides the exit code)", "agenteval gate: passed*"])
    assert gated.ret == 0


def test_a_tampered_signed_file_is_refused_not_extended(pytester: pytest.Pytester,
                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    """Red team: EX-2's failed line edited to passed (its signature kept), then resumed with the key.
    Appending would re-sign a summary counting the forged pass; the file is verified first."""
    write_project(pytester.path)
    key = tmp_path_factory.mktemp("key") / "k"
    key.write_text("s" * 32)
    signed = (f"--agenteval-signing-key={key}", "--agent=agent_mod:CloseNamed")
    pytester.runpytest(*signed, "--agenteval-results=r.jsonl", "-p", "no:randomly", "-k", "not EX-6")
    path = pytester.path / "r.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    forged = next(line for line in lines if line.get("task_id") == "EX-2")
    assert forged["passed"] is False
    forged["passed"] = True
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = path.read_bytes()
    result = pytester.runpytest(*signed, "--agenteval-resume=r.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=r.jsonl: does not verify under its key: r.jsonl:*: "
                                 "signature does not match (the line was edited after the run) (resume only a file "
                                 "a signed run wrote, untouched; agenteval replay names every problem)"])
    assert path.read_bytes() == before


@pytest.mark.parametrize("encoding", ["utf-32-le", "utf-16-le", "utf-8-sig"])
def test_a_last_line_the_verifier_cannot_read_is_not_kept(pytester: pytest.Pytester, encoding: str,
                                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    """Red team: a passing EX-2 appended in UTF-32 (or UTF-16, or with a byte-order mark). The
    verifier reads UTF-8 and took it for a line cut short by a kill, which resuming forgives; the
    resume reader took bytes, which JSON decodes in any of those, and kept the forged pass."""
    write_project(pytester.path)
    key = tmp_path_factory.mktemp("key") / "k"
    key.write_text("s" * 32)
    signed = (f"--agenteval-signing-key={key}", "--agent=agent_mod:CloseNamed", "-p", "no:randomly")
    pytester.runpytest(*signed, "--agenteval-results=r.jsonl", "-k", "EX-2")
    path = pytester.path / "r.jsonl"
    grade = next(json.loads(line) for line in path.read_text().splitlines() if '"task_id"' in line)
    assert grade["passed"] is False
    forged = {**grade, "passed": True, "checks": [{**c, "passed": True} for c in grade["checks"]]}
    path.write_bytes(path.read_bytes() + json.dumps(forged).encode(encoding) + b"\n")
    result = pytester.runpytest(*signed, "--agenteval-resume=r.jsonl", "-k", "EX-2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-resume=r.jsonl: line 4 is not valid JSON (resume only a file "
                                 "written by --agenteval-results)"])


def test_a_signed_file_cut_by_a_kill_still_resumes(pytester: pytest.Pytester,
                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    write_project(pytester.path)
    key = tmp_path_factory.mktemp("key") / "k"
    key.write_text("s" * 32)
    signed = (f"--agenteval-signing-key={key}", "--agent=agent_mod:CloseNamed")
    pytester.runpytest(*signed, "--agenteval-results=r.jsonl", "-p", "no:randomly")
    path = pytester.path / "r.jsonl"
    kept = path.read_text().splitlines()[:3]  # the run record and two grades; no summary
    path.write_text("\n".join(kept) + "\n" + '{"task_id": "EX-3", "cut')
    result = pytester.runpytest(*signed, "--agenteval-resume=r.jsonl", "-p", "no:randomly")
    assert result.ret == 1, result.stderr.str()
    assert verify(path, b"s" * 32).verified
