"""Signed results files: each forgery that used to pass ``replay``/``report``/``compare`` is named,
one line each, and the command exits non-zero; an unsigned file is said to be unsigned."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.signing import KEY_ENV, Signer, key_id, verify
from tests.helpers.tasks import task_line

KEY = "k" * 32
OTHER_KEY = "o" * 32
ROOT = Path(__file__).parent.parent


def _pytest(project: Path, out: str, *args: str, key: str | None = KEY) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != KEY_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if key is not None:
        env[KEY_ENV] = key
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           f"--agenteval-results={out}", *args, "tasks"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Signed runs of two tasks: the reference agent (passes), do-nothing (fails), and -n 2."""
    project = tmp_path_factory.mktemp("signed")
    (project / "tasks").mkdir()
    (project / "tasks" / "a.jsonl").write_text(task_line(task_id="EX-1") + "\n" + task_line(task_id="EX-2") + "\n")
    for name, args in {"ref.jsonl": ["--agent=reference"], "noop.jsonl": ["--agent=noop"],
                       "xdist.jsonl": ["--agent=reference", "-n", "2"]}.items():
        _pytest(project, name, *args)
    _pytest(project, "unsigned.jsonl", "--agent=reference", key=None)
    return project


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path, records: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    return str(path)


def run_id(path: Path) -> str:
    return str(lines(path)[0]["run_record"]["signing"]["run_id"])


def agenteval(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], list[str]]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch, runs: Path) -> Path:
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.chdir(runs)
    return runs


def test_every_line_is_signed_and_a_genuine_file_verifies(keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("ref.jsonl", "xdist.jsonl"):  # under xdist the controller signs
        records = lines(keyed / name)
        assert [r["signature"]["line"] for r in records] == [1, 2, 3, 4]
        assert records[0]["run_record"]["signing"] == {"algorithm": "hmac-sha256", "key_id": key_id(KEY.encode()),
                                                      "run_id": run_id(keyed / name)}
        assert records[-1]["signature"]["grades"] == 2
        assert KEY not in (keyed / name).read_text()
        status, out, err = agenteval(capsys, "replay", name, "tasks")
        assert (status, err) == (0, [])
        assert out == [f"{name}: signed and verified: 4 lines, 2 grade line(s), run {run_id(keyed / name)}, "
                       f"key id {key_id(KEY.encode())}; its agent ran unsandboxed, as the user holding the key: this "
                       "proves nothing against that agent (run untrusted agents with --agenteval-isolate)",
                       "replayed 2 episode(s): 2 identical, 0 different, 0 whose task was not found"]


def test_a_failed_line_swapped_for_another_runs_passing_line(keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noop, ref = lines(keyed / "noop.jsonl"), lines(keyed / "ref.jsonl")
    forged = write(keyed / "swapped.jsonl", [noop[0], ref[1], *noop[2:]])
    for command in (["replay", forged, "tasks"], ["report", forged], ["compare", forged, forged]):
        status, _, err = agenteval(capsys, *command)
        assert status == 1
        assert err[0] == (f"{forged}:2: a line of another run (run {run_id(keyed / 'ref.jsonl')}; this file is run "
                          f"{run_id(keyed / 'noop.jsonl')}): taken from another results file")
        assert err[-1].startswith(f"agenteval {command[0]}: ") and len(err) == 2  # compare names a file once


def test_a_deleted_episode(keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noop = lines(keyed / "noop.jsonl")
    forged = write(keyed / "deleted.jsonl", [noop[0], *noop[2:]])
    status, _, err = agenteval(capsys, "report", forged)
    assert status == 1 and err == [
        f"{forged}:2: signed as line 3: line 2 of the run missing before it (removed)",
        f"{forged}:3: the summary counts 2 grade line(s), the file has 1 (lines removed or added)",
        "agenteval report: 2 problem(s) above: the results are not evidence of what ran (use the files the signed "
        "runs wrote, with their key)"]


def test_a_renamed_agent_and_an_edited_summary(keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noop = lines(keyed / "noop.jsonl")
    first, last = json.loads(json.dumps(noop[0])), json.loads(json.dumps(noop[-1]))
    first["run_record"]["agent"] = last["run_record"]["agent"] = "reference"
    renamed = write(keyed / "renamed.jsonl", [first, *noop[1:-1], last])
    status, _, err = agenteval(capsys, "report", renamed)
    assert status == 1 and err[:2] == [f"{renamed}:1: signature does not match (the line was edited after the run)",
                                       f"{renamed}:4: signature does not match (the line was edited after the run)"]
    summary = json.loads(json.dumps(noop[-1]))
    summary["summary"]["episodes"] = 3
    edited = write(keyed / "edited.jsonl", [*noop[:-1], summary])
    status, _, err = agenteval(capsys, "replay", edited, "tasks")
    assert status == 1 and err[:-1] == [f"{edited}:4: signature does not match (the line was edited after the run)"]


def test_a_file_cut_before_its_summary(keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = write(keyed / "cut.jsonl", lines(keyed / "ref.jsonl")[:-1])
    status, _, err = agenteval(capsys, "report", cut)
    assert status == 1 and err[0] == (f"{cut}: no signed summary line: the run was interrupted, or lines were "
                                      "removed from its end (nothing shows the file is complete)")


def test_unsigned_and_unkeyed_files_are_said_to_be_so(runs: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.chdir(runs)
    status, out, _ = agenteval(capsys, "report", "unsigned.jsonl")
    assert status == 0 and out[0] == (
        "note: unsigned.jsonl: unsigned: its lines could have been edited, swapped, reordered or removed unnoticed "
        f"(to sign runs, set {KEY_ENV} or pass --agenteval-signing-key PATH when running pytest)")
    status, out, _ = agenteval(capsys, "report", "ref.jsonl")
    assert status == 0 and out[0] == (
        f"note: ref.jsonl: signed (key id {key_id(KEY.encode())}), but no key given: not verified, nothing about "
        f"forgery checked (set {KEY_ENV} or pass --signing-key PATH)")
    monkeypatch.setenv(KEY_ENV, KEY)
    status, _, err = agenteval(capsys, "replay", "unsigned.jsonl", "tasks")
    assert status == 1 and err[0] == ("unsigned.jsonl: unsigned, but a signing key was given: nothing shows these "
                                      "lines are what a run wrote (pass the file the signed run wrote)")
    (runs / "other.key").write_text(OTHER_KEY + "\n")
    status, _, err = agenteval(capsys, "compare", "ref.jsonl", "ref.jsonl", "--signing-key", "other.key")
    assert status == 1 and err[0] == (f"ref.jsonl: signed with another key (key id {key_id(KEY.encode())}; the key "
                                      f"given has id {key_id(OTHER_KEY.encode())}): not verified (pass the key the "
                                      "run was signed with)")


def test_a_merged_report_keeps_each_sources_verification_and_is_signed_anew(
        keyed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "ref.jsonl", "xdist.jsonl", "--out", "merged.jsonl"]) == 0
    capsys.readouterr()
    merged = lines(keyed / "merged.jsonl")
    assert merged[0]["run_record"]["verification"] == {"ref.jsonl": "signed, verified",
                                                       "xdist.jsonl": "signed, verified"}
    assert verify(keyed / "merged.jsonl", KEY.encode()).verified


def test_reordered_lines_are_found() -> None:
    signer = Signer(KEY.encode(), run_id="r1")
    records = [signer.sign({"run_record": {"signing": signer.block()}}),
               *(signer.sign({"task_id": t, "run": 1}, grade=True) for t in ("A", "B")),
               signer.sign({"summary": {}}, closing=True)]
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"reordered-{os.getpid()}.jsonl"
    try:
        write(path, [records[0], records[2], records[1], records[3]])
        assert verify(path, KEY.encode()).problems == (
            f"{path}:2: signed as line 3, where line 2 belongs: moved",
            f"{path}:3: signed as line 2, after line 3: moved or repeated")
        write(path, [records[0], records[1], records[1], records[3]])
        assert verify(path, KEY.encode()).problems == (
            f"{path}:3: signed as line 2, after line 2: moved or repeated",
            f"{path}:4: signed as line 4: line 3 of the run missing before it (removed)")
        write(path, records[1:])  # the run record removed
        assert verify(path, KEY.encode()).problems == (
            f"{path}:1: signed as line 2: line 1 of the run missing before it (removed)",)
    finally:
        path.unlink()


def test_a_byte_that_decodes_to_what_was_signed_is_an_edit(tmp_path: Path) -> None:
    """A signed "\\ufffd" rewritten as the raw byte 0xFF: a lenient decoder reads the signed
    character back, so the line verified while every reader refused the file (red team 19)."""
    signer = Signer(KEY.encode(), run_id="r1")
    records = [signer.sign({"run_record": {"signing": signer.block()}}),
               signer.sign({"task_id": "A", "run": 1, "action": "x\ufffd"}, grade=True),
               signer.sign({"summary": {}}, closing=True)]
    path = tmp_path / "r.jsonl"
    write(path, records)
    assert verify(path, KEY.encode()).verified
    path.write_bytes(path.read_bytes().replace(b"\\ufffd", b"\xff"))
    check = verify(path, KEY.encode())
    assert not check.verified and check.problems[0] == f"{path}:2: not UTF-8 text: edited after the run"


def test_the_plugin_refuses_a_key_inside_the_project_or_too_short(pytester: pytest.Pytester,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    pytester.makefile(".jsonl", a=task_line())
    (pytester.path / "in.key").write_text(KEY)
    result = pytester.runpytest_subprocess("--agent=reference", "--agenteval-results=r.jsonl",
                                           "--agenteval-signing-key=in.key")
    result.stderr.fnmatch_lines(["ERROR: --agenteval-signing-key=in.key: inside the project folder (*), where "
                                 "agents and task files live (keep the key outside it, readable only by you)"])
    monkeypatch.setenv(KEY_ENV, "short")
    result = pytester.runpytest_subprocess("--agent=reference", "--agenteval-results=r.jsonl")
    result.stderr.fnmatch_lines([f"ERROR: {KEY_ENV}: the key is too short (5 bytes; use at least 16, e.g. python "
                                 "-c 'import secrets; print(secrets.token_hex(32))')"])


def test_the_header_names_the_key_and_run_never_the_key(pytester: pytest.Pytester,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makefile(".jsonl", a=task_line())
    key_file = pytester.path.parent / "outside.key"
    key_file.write_text(KEY)
    monkeypatch.delenv(KEY_ENV, raising=False)
    result = pytester.runpytest_subprocess("--agent=reference", "--agenteval-results=r.jsonl",
                                           f"--agenteval-signing-key={key_file}")
    run = run_id(pytester.path / "r.jsonl")
    result.stdout.fnmatch_lines([f"agenteval results: signed (hmac-sha256, key id {key_id(KEY.encode())}, run {run})"])
    assert KEY not in result.stdout.str() and verify(pytester.path / "r.jsonl", KEY.encode()).verified


# Isolated at the process level: a bwrap sandbox could not write seen.txt into the hidden project.
@pytest.mark.parametrize("how", [[], ["-n", "2"], ["--agenteval-isolate=process"]])
def test_agents_and_workers_never_see_the_key(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                              how: list[str]) -> None:
    pytester.makefile(".jsonl", a="\n".join(task_line(task_id=f"EX-{i}") for i in (1, 2)))
    pytester.makepyfile(spy=f"import os\nclass Agent:\n    def run(self, episode):\n"
                            f"        with open('seen.txt', 'a') as f:\n"
                            f"            f.write(repr(os.environ.get({KEY_ENV!r})) + '\\n')\n")
    monkeypatch.setenv(KEY_ENV, KEY)
    result = pytester.runpytest_subprocess("a.jsonl", "--agent=spy:Agent", "--agenteval-results=r.jsonl", *how)
    assert result.ret == 1, result.stdout.str()  # do-nothing fails both
    assert (pytester.path / "seen.txt").read_text().splitlines() == ["None", "None"]
    assert verify(pytester.path / "r.jsonl", KEY.encode()).verified


def test_a_key_file_that_cannot_be_read_is_one_line(runs: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(runs)
    status, out, err = agenteval(capsys, "report", "ref.jsonl", "--signing-key", "missing.key")
    assert (status, out, err) == (2, [], ["agenteval report: --signing-key missing.key: cannot read it: No such file "
                                          "or directory (name a file holding the key)"])


def test_a_file_replaced_by_the_other_named_runs_or_swapped_is_found(keyed: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 3: with both run ids named, each file alone is "one of them": the new run's file
    replaced by a copy of the base run's compared as "no change", and two files swapped turned a
    regression into an improvement."""
    failing, passing = run_id(keyed / "noop.jsonl"), run_id(keyed / "ref.jsonl")
    copy = write(keyed / "copy.jsonl", lines(keyed / "ref.jsonl"))
    status, _, err = agenteval(capsys, "compare", "ref.jsonl", copy, "--run-id", passing, "--run-id", failing)
    assert status == 1
    assert err[:2] == [f"{copy}: signed as run {passing}, as ref.jsonl is: one run given twice (a copy of another "
                       "file, not the run you named)",
                       f"--run-id {failing}: no file given is that run (its file was replaced by another)"]
    status, _, err = agenteval(capsys, "report", "ref.jsonl", copy, "--run-id", passing, "--run-id", failing)
    assert status == 1 and err[0].startswith(f"{copy}: signed as run {passing}, as ref.jsonl is: one run given twice")
    status, _, err = agenteval(capsys, "compare", "ref.jsonl", "noop.jsonl", "--run-id", failing, "--run-id", passing)
    assert status == 1
    assert err[0] == (f"ref.jsonl: signed as run {passing}, but the --run-id in its place names {failing} (give the "
                      "run ids in the order of the files): files swapped")
    status, _, err = agenteval(capsys, "report", "noop.jsonl", "ref.jsonl", "--allow-mixed", "--run-id", passing,
                               "--run-id", failing)
    assert status == 0 and err == []  # report merges: the run ids in any order


def test_a_whole_file_of_another_run_is_found_by_the_run_id_recorded(keyed: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Red team: the failing run's file replaced, whole, by an older passing run's (both genuine).
    Signatures alone verify it; the run id the user recorded from the header does not match."""
    failing, passing = run_id(keyed / "noop.jsonl"), run_id(keyed / "ref.jsonl")
    substituted = write(keyed / "substituted.jsonl", lines(keyed / "ref.jsonl"))
    for command in (["replay", substituted, "tasks"], ["report", substituted], ["compare", substituted, substituted]):
        status, out, err = agenteval(capsys, *command, "--run-id", failing)
        assert status == 1, out
        assert err[0] == (f"{substituted}: signed as run {passing}, not the run you named (--run-id {failing}): "
                          "a whole results file of another run")
        assert agenteval(capsys, *command, "--run-id", passing)[0] == 0
    status, out, _ = agenteval(capsys, "compare", "noop.jsonl", "ref.jsonl", "--run-id", failing, "--run-id", passing)
    assert status == 0, out
    monkeypatch.delenv(KEY_ENV)  # no key: the run id proves nothing, and that is a problem, not a pass
    status, _, err = agenteval(capsys, "report", substituted, "--run-id", passing)
    assert status == 1
    assert err[0].startswith(f"{substituted}: --run-id {passing}: its run cannot be checked: the file is not verified")


def test_a_signed_summary_counting_other_episodes_than_its_lines_is_found(tmp_path: Path) -> None:
    """The harness signs what it counted: a summary over more episodes than the file has lines
    (red team 27: a run cut between counting an episode and writing it) does not verify; a
    superseded attempt ("counted": false) is no episode."""
    signer = Signer(KEY.encode(), run_id="r1")
    records = [signer.sign({"run_record": {"signing": signer.block()}}),
               signer.sign({"task_id": "A", "run": 1, "counted": False}, grade=True),
               signer.sign({"task_id": "A", "run": 1}, grade=True),
               signer.sign({"summary": {"episodes": 2}}, closing=True)]
    path = tmp_path / "r.jsonl"
    write(path, records)
    assert verify(path, KEY.encode()).problems == (
        f"{path}:4: the summary counts 2 episode(s), the file has 1 counted grade line(s) (the run was cut "
        "between counting an episode and writing it)",)
    signer = Signer(KEY.encode(), run_id="r1")  # the same lines, a true summary
    good = [signer.sign({"run_record": {"signing": signer.block()}}),
            signer.sign({"task_id": "A", "run": 1, "counted": False}, grade=True),
            signer.sign({"task_id": "A", "run": 1}, grade=True),
            signer.sign({"summary": {"episodes": 1}}, closing=True)]
    write(path, good)
    assert verify(path, KEY.encode()).verified


def flaky_project(path: Path) -> Path:
    """Two tasks; the agent ``flaky:Agent`` errors on EX-2 the first time (a provider outage), then passes it."""
    (path / "tasks").mkdir()
    (path / "tasks" / "a.jsonl").write_text(task_line(task_id="EX-1") + "\n" + task_line(task_id="EX-2") + "\n")
    (path / "flaky.py").write_text(
        "import os\n"
        "class Agent:\n"
        "    def run(self, episode):\n"
        "        flag = os.path.join(os.path.dirname(__file__), 'tried-' + episode.task_id)\n"
        "        if episode.task_id == 'EX-2' and not os.path.exists(flag):\n"
        "            open(flag, 'w').close()\n"
        "            raise RuntimeError('provider down')\n"
        "        episode.call('close_ticket', {'ticket_id': 'T-0001'})\n")
    return path


def test_a_signed_run_with_errored_episodes_verifies_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A summary counts errored episodes apart from played ones, and a resume plays them again
    under the same items: a genuine file verifies before and after (red team 28: every signed
    run with an errored episode was called cut and could not be resumed)."""
    flaky_project(tmp_path)
    _pytest(tmp_path, "r.jsonl", "--agent=flaky:Agent")
    assert lines(tmp_path / "r.jsonl")[-1]["summary"]["errored"] == 1
    monkeypatch.setenv(KEY_ENV, KEY)
    assert verify(tmp_path / "r.jsonl", KEY.encode()).verified
    resumed = _pytest(tmp_path, "r.jsonl", "--agent=flaky:Agent", "--agenteval-resume=r.jsonl")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    check = verify(tmp_path / "r.jsonl", KEY.encode())
    assert check.verified, check.problems
    assert lines(tmp_path / "r.jsonl")[-1]["summary"]["episodes"] == 2
