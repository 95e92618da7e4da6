"""Red team 37: special files in the project folder and on the command line. A FIFO anywhere in
the project hung every isolated run at start-up (the hiding walk opened it to see what it holds);
a device as the signing key read on until the memory was gone."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_agenteval.plugin import view
from tests.helpers.tasks import task_dict


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_project_is_left_out_without_being_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "notes.py")  # no writer: opening it for reading would wait for ever
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    assert view.in_view(tmp_path, shown=["notes.py"]) == ["agent.py"]
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, ["notes.py"], [])
    assert sorted(os.listdir(copy)) == ["agent.py"]


def test_a_regular_file_the_ini_lists_is_in_view(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("my own notes\n")
    assert view.in_view(tmp_path) == []
    assert view.in_view(tmp_path, shown=["notes.txt"]) == ["notes.txt"]


@pytest.mark.parametrize("spec", ["memory=9000000T", "file_size=17000000T"])
def test_a_limit_past_what_the_system_can_set_is_refused(spec: str) -> None:
    from pytest_agenteval.agents.limits import Limits, LimitsError
    with pytest.raises(LimitsError, match="more than the system can set"):
        Limits.parse(spec)


def test_a_device_as_the_signing_key_is_refused_in_one_line() -> None:
    from pytest_agenteval.report.signing import SigningKeyError, load_key
    with pytest.raises(SigningKeyError, match="not a regular file"):
        load_key("/dev/zero", option="--agenteval-signing-key")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_the_signing_key_is_refused(tmp_path: Path) -> None:
    from pytest_agenteval.report.signing import SigningKeyError, load_key
    os.mkfifo(tmp_path / "key")
    with pytest.raises(SigningKeyError, match="not a regular file"):
        load_key(tmp_path / "key", option="--agenteval-signing-key")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("option", ["--agenteval-results", "--agenteval-html"])
def test_a_fifo_as_an_output_is_refused_before_the_run(pytester: pytest.Pytester, option: str) -> None:
    (pytester.path / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    os.mkfifo(pytester.path / "out")  # no reader: opening it to write would wait for ever
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", f"{option}=out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {option}=out: is a FIFO (it would wait for a program to read it), not a "
                                 "file (name a regular file to write)"])


def test_a_device_as_the_html_report_is_refused_before_the_run(pytester: pytest.Pytester) -> None:
    (pytester.path / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-html=/dev/full")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "Traceback" not in result.stderr.str()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_report_and_replay_refuse_a_fifo_as_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_agenteval.cli import main
    os.mkfifo(tmp_path / "out")
    results = tmp_path / "r.jsonl"
    results.write_text("")
    assert main(["report", str(results), "--out", str(tmp_path / "out")]) == 2
    assert "is a FIFO" in capsys.readouterr().err


@pytest.mark.parametrize(("isolate", "caveat"), [
    ("bwrap (no network, seccomp)", ""),
    ("process", "; its agent ran at the process level, as the user holding the key"),
    (False, "; its agent ran unsandboxed, as the user holding the key"),
])
def test_a_verified_run_says_when_its_agent_could_read_the_key(isolate: object, caveat: str) -> None:
    from pytest_agenteval.report.signing import _uncontained
    said = _uncontained({"options": {"isolate": isolate}})
    assert said.startswith(caveat) and (said == "") == (caveat == "")


def test_an_agent_process_holds_at_most_1024_open_files() -> None:
    import subprocess
    import sys
    code = ("import resource, sys; sys.path.insert(0, sys.argv[1]); "
            "from pytest_agenteval.agents._child import apply_limits; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1])); "
            "from pytest_agenteval.agents.limits import Limits; "
            "apply_limits(Limits().for_child('process')); print(*resource.getrlimit(resource.RLIMIT_NOFILE))")
    import pytest_agenteval
    root = str(Path(pytest_agenteval.__file__).parent.parent)
    out = subprocess.run([sys.executable, "-c", code, root], capture_output=True, text=True, check=True).stdout
    assert [int(v) for v in out.split()] == [1024, 1024]
