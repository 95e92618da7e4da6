"""Red team 10: an isolated child that floods its pipe or keeps whole frames queued, a transcript
of millions of messages, a key given twice in a signed results line, and call arguments the
audit log's encoder refused; each one that got through pinned here."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest

from pytest_agenteval.agents.containment import Child
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.sandbox import _Late, _Pipes
from pytest_agenteval.agents.usage import TRANSCRIPT_CAP, UsageLedger
from pytest_agenteval.cli import main
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.report.signing import KEY_ENV, verify
from tests.helpers.tasks import make_task, task_line

FLOODS = '''
import sys


class Agent:
    """Sends calls without reading the answers (the parent's writes then wait for room in the
    pipe), then writes 768 MiB with no newline while the parent waits to write."""

    def run(self, episode):
        out = episode._outbox
        for n in range(1, 3001):
            out.write('{"id": %d, "call": "get_ticket", "arguments": {"ticket_id": "T-0001"}}\\n' % n)
        out.flush()
        chunk = "x" * 2**20
        for _ in range(768):
            out.write(chunk)
            out.flush()
'''
# Runs pytest and prints the largest resident size (KiB on Linux) of any process it waited for.
PEAK = ("import resource, subprocess, sys\nsubprocess.run(sys.argv[1:], check=False)\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def test_a_child_that_never_reads_its_answers_cannot_fill_the_harness_memory(pytester: pytest.Pytester) -> None:
    """The threat model: a crash, a hang or megabytes of output fail only that episode. While the
    parent waited for room to write an answer it read the child's stdout on, into a buffer with
    no bound: a child that never read its answers and kept writing grew the harness by all it
    wrote (768 MiB written: the harness peaked at ~900 MiB; unbounded until the time limit, 300 s
    by default, which at pipe speed is more memory than a machine has). Now at most one frame's
    bound (16 MiB) is held unread; the child waits to write more."""
    pytester.makefile(".jsonl", t=task_line())
    pytester.makepyfile(floods=FLOODS)
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "pytest", "t.jsonl",
                           "--agent=floods:Agent", "--agenteval-isolate=process", "--agenteval-timeout=5",
                           "--agenteval-results=r.jsonl", "-p", "no:randomly", "-p", "no:cacheprovider"],
                          cwd=pytester.path, capture_output=True, text=True, timeout=300, check=False)
    peak_mib = int(done.stdout.rsplit("PEAK ", 1)[1]) // 1024
    assert "1 failed" in done.stdout  # its own episode failed, the run went on
    assert peak_mib < 400, f"the harness held {peak_mib} MiB"


def test_whole_frames_queued_do_not_hold_the_harness_past_its_deadline() -> None:
    """The deadline was checked only when the parent waited for output: a child that kept whole
    frames queued (cheap to write, dearer to handle) was never timed out. Every line read now
    checks it."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys, time\nsys.stdout.write('{\"usage\": {}}\\n' * 2)\n"
                             "sys.stdout.flush()\ntime.sleep(60)"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    child = Child(proc, -1)
    pipes = _Pipes(child, None)
    try:
        assert pipes.read_line() == b'{"usage": {}}\n'  # one write under PIPE_BUF: both lines came in one read
        pipes.deadline = time.monotonic() - 1
        with pytest.raises(_Late):
            pipes.read_line()
    finally:
        pipes.close()
        child.stop()


class Counted:
    """A message that counts how often it is made JSON-able (``jsonable`` shows it as text)."""

    made = 0

    def __str__(self) -> str:
        Counted.made += 1
        return "m"


def test_a_transcript_of_millions_of_messages_is_capped_without_reading_them_all() -> None:
    """One transcript frame (16 MiB: seven million messages ``0``) made grading take ~24 s, after
    the agent's time limit: every message was made JSON-able and measured twice, though at most
    the last ``TRANSCRIPT_CAP`` can fit. With pytest-timeout the test then timed out in grading.
    Now only the first and the last ``TRANSCRIPT_CAP`` are read (~0.9 s for the same frame)."""
    count = 3_000_000
    ledger = UsageLedger()
    ledger.attach([{"role": "user", "content": "start"}, *[Counted()] * count])
    Counted.made = 0
    kept = ledger.transcript()
    assert kept is not None
    assert Counted.made <= TRANSCRIPT_CAP  # a message is at least one character: no more can fit
    assert kept[0] == {"role": "user", "content": "start"} and kept[-1] == "m"
    assert kept[1]["left_out_messages"] == count - (len(kept) - 2)


def test_a_key_given_twice_in_a_signed_line_is_named(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The threat model: with a key, ``report`` names each line that was edited. A failed grade
    line with ``"passed": true`` put before its own ``"passed": false`` verified: the signature
    covers what Python's parser keeps (the last), while a reader that keeps the first (or a
    person, or grep) sees a pass. The task-file loader already refuses a key given twice for
    this reason; the results file's verification did not."""
    monkeypatch.setenv(KEY_ENV, "k" * 32)
    pytester.makefile(".jsonl", t=task_line())
    pytester.runpytest_subprocess("t.jsonl", "--agent=noop", "--agenteval-results=r.jsonl",
                                  "-p", "no:cacheprovider").assert_outcomes(failed=1)
    path = pytester.path / "r.jsonl"
    assert verify(path, b"k" * 32).verified
    lines = path.read_text().splitlines(keepends=True)
    assert json.loads(lines[1])["passed"] is False
    lines[1] = '{"passed": true, ' + lines[1][1:]
    path.write_text("".join(lines))
    first_wins = json.loads(lines[1], object_pairs_hook=lambda pairs: dict(reversed(pairs)))
    assert first_wins["passed"] is True and json.loads(lines[1])["passed"] is False
    capsys.readouterr()
    assert main(["report", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2: the key 'passed' is given twice in one object" in err


DEEP: Any = []
for _ in range(100_000):
    DEEP = [DEEP]
CYCLE: dict[str, Any] = {}
CYCLE["self"] = CYCLE


@pytest.mark.parametrize("arguments", [
    {"ticket_id": "T-0001", "n": 10**5000},  # past Python's 4300 digits: str() refuses it
    {"ticket_id": "T-0001", (1, 2): "x"},  # a key JSON cannot hold
    {"ticket_id": "T-0001", 1: "x"},  # keys that cannot be sorted together
    {"ticket_id": "T-0001", "deep": DEEP},  # past the recursion limit
    {"ticket_id": "T-0001", "cycle": CYCLE},
], ids=["huge-int", "tuple-key", "mixed-keys", "deep", "cycle"])
def test_arguments_the_encoder_refuses_come_back_as_data_and_are_logged(arguments: dict[Any, Any]) -> None:
    """The threat model's table: an agent that sends wrong types or huge values gets an
    observation. These reached the in-process agent as a ValueError, TypeError or RecursionError
    from ``episode.call``, raised by the audit log's JSON encoder after the action had run, and
    the call was missing from the log (an action that took such a value would have written
    unlogged)."""
    env = ExampleEnvironment()
    seen: list[Any] = []

    def play(episode: Any) -> None:
        try:
            seen.append(episode.call("close_ticket", arguments))
        except Exception as exc:  # noqa: BLE001 - what the harness raised is the finding
            seen.append(exc)

    agent = type("Agent", (), {"run": lambda self, episode: play(episode)})
    run_episode(env, make_task(), agent, time_limit=10.0)
    assert isinstance(seen[0], dict) and seen[0]["error"] == "invalid_arguments", seen[0]
    (event,) = env.audit_log()
    assert event.action == "close_ticket" and event.outcome == "error"
