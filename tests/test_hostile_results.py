"""A results file from someone else (a vendor's run, a CI artefact) is read within bounds: a gzip
bomb, a line nested too deep, bytes that are not UTF-8 and a grade line with fields of the wrong
type are each one line naming the file from every reader (report, compare, show, replay,
``--agenteval-resume``, ``--agent=replay:FILE``), never a traceback (found by the red team)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_agenteval import readback
from pytest_agenteval.cli import main
from pytest_agenteval.readback import results_bytes
from pytest_agenteval.report.results import ResultsWriter
from tests.helpers.tasks import write_ex1_and_ex3

AGENT = '''
class Agent:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(closer=AGENT)
    write_ex1_and_ex3(pytester.path)
    pytester.runpytest("--agent=closer:Agent", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    monkeypatch.setattr(readback, "FLOOR", 2**20, raising=False)  # a bomb of 1 MiB, not 64, is enough to be refused
    return pytester


def lines(folder: Path) -> list[str]:
    return (folder / "r.jsonl").read_text().splitlines()


def bomb(folder: Path) -> bytes:
    return gzip.compress(b" " * 2 * 2**20)  # 2 MiB of blanks in ~2 KiB: past 100 times its size


def deep(folder: Path) -> bytes:
    first, *rest = lines(folder)
    return "\n".join([first, "[" * 100_000, *rest]).encode() + b"\n"  # not the last line: not "cut short"


def not_utf8(folder: Path) -> bytes:
    return gzip.compress((folder / "r.jsonl").read_bytes().replace(b'"EX-1"', b'"EX-\xff"'))


def wrong_field(field: str, value: object) -> Callable[[Path], bytes]:
    def make(folder: Path) -> bytes:
        first, grade, *rest = lines(folder)
        changed = {**json.loads(grade), field: value}
        return "\n".join([first, json.dumps(changed), *rest]).encode() + b"\n"
    make.__name__ = f"{field}={value!r}"
    return make


HOSTILE = [bomb, deep, not_utf8, wrong_field("run", "1"), wrong_field("checks", "x"), wrong_field("score", "x"),
           wrong_field("steps_used", None), wrong_field("actions", None), wrong_field("environment", []),
           wrong_field("failure_modes", None), wrong_field("error", "boom"), wrong_field("task_id", ["EX-1"]),
           wrong_field("checks", [{"name": "c", "passed": True, "detail": None}]),
           wrong_field("usage", {"input_tokens": "many", "output_tokens": 1}), wrong_field("usage", {})]

# Shapes a reader shows as best it can (a transcript and a diff are whatever the agent and the
# environment made): no error at all, and no traceback.
SHOWN = [wrong_field("final_state_diff", {"ticket": {"added": "x", "removed": 1.5, "changed": {"T": "x"}}}),
         wrong_field("transcript", [{"role": "assistant", "tool_calls": [{"function": "x"}, "y"]}, 7]),
         wrong_field("transcript", [{"role": "assistant", "tool_calls": "x"}])]


@pytest.mark.parametrize("make", HOSTILE, ids=lambda m: m.__name__)
def test_every_command_says_one_line(run: pytest.Pytester, make: Callable[[Path], bytes],
                                     capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(run.path)
    (run.path / "bad.jsonl.gz").write_bytes(make(run.path))
    for command in (["report", "bad.jsonl.gz", "--html", "out.html"], ["compare", "bad.jsonl.gz", "r.jsonl"],
                    ["show", "bad.jsonl.gz", "EX-1"], ["replay", "bad.jsonl.gz", "tasks/example.jsonl"]):
        try:
            status = main(command)
        except SystemExit as exc:  # a usage error: argparse's exit
            status = exc.code
        err = capsys.readouterr().err.strip().splitlines()
        assert status == 2 and len(err) == 1 and "bad.jsonl.gz" in err[0], (command, err)
        assert "Traceback" not in err[0] and ("a gzip bomb" in err[0]) == (make is bomb)


@pytest.mark.parametrize("make", SHOWN, ids=lambda m: m.__name__)
def test_odd_transcripts_and_diffs_are_shown(run: pytest.Pytester, make: Callable[[Path], bytes],
                                             capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(run.path)
    (run.path / "odd.jsonl").write_bytes(make(run.path))
    assert main(["report", "odd.jsonl", "--html", "out.html"]) == 0
    assert main(["show", "odd.jsonl", "EX-1"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("make", [bomb, deep, wrong_field("run", "1"), wrong_field("run", None)],
                         ids=lambda m: m.__name__)
def test_resume_says_one_line(run: pytest.Pytester, make: Callable[[Path], bytes]) -> None:
    (run.path / "bad.jsonl.gz").write_bytes(make(run.path))
    result = run.runpytest("--agent=closer:Agent", "--agenteval-resume=bad.jsonl.gz", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    (said,) = [line for line in result.stderr.lines if line.strip()]
    assert said.startswith("ERROR: --agenteval-resume=bad.jsonl.gz: ") and ("a gzip bomb" in said) == (make is bomb)


@pytest.mark.parametrize("make", [bomb, deep, not_utf8], ids=lambda m: m.__name__)
def test_a_replay_file_says_one_line(run: pytest.Pytester, make: Callable[[Path], bytes]) -> None:
    (run.path / "bad.jsonl.gz").write_bytes(make(run.path))
    result = run.runpytest("--agent=replay:bad.jsonl.gz", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line.strip()] == [
        next(line for line in result.stderr.lines if line.startswith("ERROR: --agent=replay:bad.jsonl.gz: "))]


def test_a_compressed_results_file_replays_as_the_plain_one(run: pytest.Pytester) -> None:
    (run.path / "r.jsonl.gz").write_bytes(gzip.compress((run.path / "r.jsonl").read_bytes()))
    for name in ("r.jsonl", "r.jsonl.gz"):
        run.runpytest(f"--agent=replay:{name}", "-p", "no:cacheprovider").assert_outcomes(passed=1, failed=1)


def test_a_genuine_file_of_nearly_identical_lines_is_inside_the_bound(run: pytest.Pytester) -> None:
    first, grade, *_ = lines(run.path)
    writer = ResultsWriter(run.path / "many.jsonl.gz")  # as the plugin writes: a sync flush per line
    writer.start(json.loads(first)["run_record"])
    for number in range(1, 3001):  # one task run 3,000 times: lines that differ in run and duration only
        writer.write({**json.loads(grade), "run": number, "duration": number / 7})
    writer.close()
    plain = results_bytes(run.path / "many.jsonl.gz")  # FLOOR is 1 MiB here: the ratio is what holds
    assert len(plain) > readback.FLOOR and plain.count(b"\n") == 3001
