"""Red team 67 (issue #25): evidence. Every cryptographic splice held; what broke was around it.
A signature that is not ASCII, or a line nested too deep to re-encode, crashed the verifier (a
traceback, INTERNALERROR on resume) instead of naming the line. ``report --out`` wrote the first
source's run record as the merged file's, so a merge laundered an in-process shard as sandboxed,
hid another shard's ``--reruns`` and dropped its task files' hashes; resume accepted another
``--reruns``. A file resumed after its summary and cut back to that summary verified as the
resumed run: a resume now signs what it appends as a new run (the header's id), and a file
must end with a summary of its last run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.merge import merged_run_record
from pytest_agenteval.report.signing import KEY_ENV, _holds, verify
from tests.test_signing import KEY, _pytest, agenteval, flaky_project, lines, write


@pytest.fixture(scope="module")
def resumed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[str]]:
    """A signed run with an errored episode, resumed after its summary: (project, its stdout, the file's lines)."""
    project = flaky_project(tmp_path_factory.mktemp("resumed"))
    _pytest(project, "r.jsonl", "--agent=flaky:Agent")
    first = (project / "r.jsonl").read_text().splitlines()
    resumed = _pytest(project, "r.jsonl", "--agent=flaky:Agent", "--agenteval-resume=r.jsonl", "-v")  # (a header)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    return project, resumed.stdout, first


def test_a_resumed_file_is_a_new_run_and_the_header_names_it(resumed_run: tuple[Path, str, list[str]]) -> None:
    project, stdout, first = resumed_run
    check = verify(project / "r.jsonl", KEY.encode())
    assert check.verified, check.problems
    old = json.loads(first[0])["run_record"]["signing"]["run_id"]
    assert check.run_id != old and f"run {check.run_id})" in stdout
    marks = [r["resumed"] for r in lines(project / "r.jsonl") if "resumed" in r]
    assert marks and marks[0]["continues_run"] == old


def test_a_resumed_file_cut_back_to_its_first_summary_is_the_earlier_run(
        resumed_run: tuple[Path, str, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    project, stdout, first = resumed_run
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(first) + "\n")
    resumed_id = verify(project / "r.jsonl", KEY.encode()).run_id
    assert verify(cut, KEY.encode()).run_id != resumed_id
    monkeypatch.setenv(KEY_ENV, KEY)
    status, out, err = agenteval(capsys, "report", str(cut), "--run-id", str(resumed_id))
    assert status != 0 and any("not the run you named" in line for line in out + err)


def test_a_resumed_file_cut_before_its_last_summary_is_said_to_be(resumed_run: tuple[Path, str, list[str]],
                                                                   tmp_path: Path) -> None:
    project, _, _ = resumed_run
    whole = (project / "r.jsonl").read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(whole[:-1]) + "\n")  # the resume's summary gone, the first run's kept
    assert any("no signed summary line" in p for p in verify(cut, KEY.encode()).problems)


def _signed_file(tmp_path: Path) -> Path:
    project = flaky_project(tmp_path / "p")
    _pytest(project, "r.jsonl", "--agent=reference")
    return project / "r.jsonl"


@pytest.mark.parametrize("hostile", ["\u00e9", "deep"])
def test_a_hostile_signature_or_nesting_is_a_named_line_not_a_traceback(
        tmp_path: Path, hostile: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").mkdir()
    path = _signed_file(tmp_path)
    records = lines(path)
    if hostile == "deep":  # (written as text: json.dumps would need the depth it tests)
        records[1]["notes"] = "DEEP"
        path.write_text("".join(json.dumps(r).replace('"DEEP"', "[" * 990 + '"x"' + "]" * 990) + "\n"
                                for r in records))
    else:
        records[1]["signature"]["hmac"] = hostile
        write(path, records)
    monkeypatch.setenv(KEY_ENV, KEY)
    for command in (["report", str(path)], ["replay", str(path), str(path.parent / "tasks")],
                    ["compare", str(path), str(path)]):
        status, out, err = agenteval(capsys, *command)
        assert status != 0 and not any("Traceback" in line for line in out + err)
        assert any(f"{path}:2:" in line for line in out + err), (out, err)


def test_a_merged_record_keeps_the_weakest_containment_most_reruns_and_every_task_file() -> None:
    boxed = {"agent": "a", "options": {"isolate": "bwrap (user namespace)", "reruns": 0},
             "task_files": [{"path": "tasks/b.jsonl", "sha256": "1"}]}
    loose = {"agent": "a", "options": {"isolate": False, "reruns": 6},
             "task_files": [{"path": "tasks/e.jsonl", "sha256": "2"}]}
    merged = merged_run_record([boxed, loose])
    assert merged["options"] == {"isolate": False, "reruns": 6}
    assert merged["task_files"] == boxed["task_files"] + loose["task_files"]
    assert merged_run_record([boxed]) == boxed


def test_a_merged_file_prints_its_run_id_and_keeps_what_its_sources_ran(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Its run id, to pin with --run-id (it was printed nowhere), and its sources' containment."""
    project = flaky_project(tmp_path)
    _pytest(project, "a.jsonl", "--agent=reference", "-k", "EX-1")
    _pytest(project, "b.jsonl", "--agent=reference", "-k", "EX-2")
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.chdir(project)
    status, out, _ = agenteval(capsys, "report", "a.jsonl", "b.jsonl", "--out", "m.jsonl")
    check = verify(project / "m.jsonl", KEY.encode())
    assert status == 0, out
    assert any(line.startswith("agenteval report: m.jsonl: signed (") and f"run {check.run_id})" in line
               for line in out), out
    assert check.verified and "ran unsandboxed" in check.said


def test_resume_with_other_reruns_is_refused(tmp_path: Path) -> None:
    project = flaky_project(tmp_path)
    _pytest(project, "r.jsonl", "--agent=flaky:Agent")
    resumed = _pytest(project, "r.jsonl", "--agent=flaky:Agent", "--reruns", "6", "--agenteval-resume=r.jsonl")
    assert resumed.returncode == pytest.ExitCode.USAGE_ERROR
    assert "ran --reruns 0 (resume with --reruns 0)" in resumed.stderr


def test_a_line_too_deep_to_encode_holds_no_signature() -> None:
    """Whatever depth the reader lets through, the signature check names it, never raises."""
    nested: Any = "x"
    for _ in range(5000):
        nested = [nested]
    record = {"task_id": "EX-1", "notes": nested, "signature": {"run": "r", "line": 2, "prev": "", "hmac": "00"}}
    assert _holds(KEY.encode(), record) is False
