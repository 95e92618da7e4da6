"""Red team 8: the judge's verdict file, a channel to the sandbox waiting for the next episode,
duplicate keys in a task line, and installed agent packages; each one that got through pinned here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import task_dict, task_line

JUDGED = {"kind": "judged", "name": "reply_is_kind", "action": "add_comment", "argument": "body",
          "rubric": "The reply is polite.", "failure_mode": "rude_reply"}
REPLY = [{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}},
         {"action": "add_comment", "arguments": {"ticket_id": "T-0001", "body": "a reply"}}]
REASONING_JUDGE = '''
def judge(request):
    return (True, "the reply should quote the refund of 420 GBP")
'''
READS_THE_VERDICTS = '''
import os


class Agent:
    def run(self, episode):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "judge.cache")
        try:
            with open(path) as file:
                raise RuntimeError("READ " + file.read())
        except OSError as exc:
            raise RuntimeError("hidden: " + type(exc).__name__) from None
'''


@needs_bwrap
def test_the_judge_cache_named_on_the_command_line_is_hidden(pytester: pytest.Pytester) -> None:
    """``--agenteval-judge-cache=judge.cache`` (a name not ending ``.jsonl``) in the project
    folder was readable by an isolated agent: every earlier verdict, with the judge's reason
    (which can name the expected answer), though the threat model lists the cache among what the
    sandbox hides. The results, HTML and key files given on the command line were hidden; this
    one was not."""
    pytester.makefile(".jsonl", t=task_line(acceptable_action_paths=[REPLY], checks=[JUDGED],
                                            expected_final_state={"ticket": {"T-0001": {"status": "closed"}},
                                                                  "comment": {"+": [{"ticket_id": "T-0001"}]}}))
    pytester.makepyfile(reasoning_judge=REASONING_JUDGE, spy=READS_THE_VERDICTS)
    os.chmod(pytester.path, 0o755)
    judge = ("--agenteval-judge=reasoning_judge:judge", "--agenteval-judge-cache=judge.cache", "-p", "no:randomly")
    pytester.runpytest_subprocess("t.jsonl", "--agent=reference", *judge).assert_outcomes(passed=1)
    assert "420 GBP" in (pytester.path / "judge.cache").read_text()
    (pytester.path / "judge.cache").chmod(0o644)
    result = pytester.runpytest_subprocess("t.jsonl", "--agent=spy:Agent", "--agenteval-isolate", *judge)
    result.assert_outcomes(errors=1)  # the agent raises what it read, or that it could not
    assert "420 GBP" not in result.stdout.str()
    assert "hidden: " in result.stdout.str()


TALKS_TO_THE_NEXT_SANDBOX = '''
"""Byte-range read locks on this file (shown to every sandbox, read-only) carry a message: the
episode playing holds them, the sandbox waiting for the next episode (which has imported this
module) reads them with F_GETLK."""
import fcntl, os, struct, threading, time

FD = os.open(os.path.abspath(__file__), os.O_RDONLY)
BASE = 1 << 20
heard = []


def received():
    out = bytearray()
    for i in range(512):
        asked = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, BASE + i * 256, 256, 0)
        kind, _, start, _, _ = struct.unpack("hhqqi4x", fcntl.fcntl(FD, fcntl.F_GETLK, asked))
        if kind == fcntl.F_UNLCK:
            break
        out.append(start - BASE - i * 256)
    return out.decode(errors="replace")


def listen():
    while True:
        message = received()
        if message and message not in heard:
            heard.append(message)
        time.sleep(0.005)


threading.Thread(target=listen, daemon=True).start()


class Agent:
    def run(self, episode):
        from_others = [m for m in heard if not m.startswith(episode.task_id + "|")]
        if from_others:
            raise RuntimeError(f"{episode.task_id} heard {from_others}")
        message = f"{episode.task_id}|{episode.instruction}".encode()
        for i, byte in enumerate(message):
            fcntl.lockf(FD, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, BASE + i * 256 + byte)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
        time.sleep(1.0)  # long enough for the waiting sandbox to read the locks
'''


@needs_bwrap
def test_an_episode_cannot_reach_the_sandbox_waiting_for_the_next_one(pytester: pytest.Pytester) -> None:
    """isolation.md: "nothing an agent leaves in memory, in /tmp, in a process it started or on
    a socket reaches the next episode"; the threat model: "an episode cannot reach the sandbox
    waiting for the next one". The waiting sandbox has imported the agent's module, so its code
    runs while the episode before plays; both see the project folder's files (read-only), and
    POSIX locks need no write access. Serially, at the default concurrency, each episode's
    agent received the one before's task id and instruction (and could send what it observed)."""
    lines = [task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-0001 (secret {i}).") for i in range(1, 4)]
    (pytester.path / "t.jsonl").write_text("\n".join(lines) + "\n")
    pytester.makepyfile(talker=TALKS_TO_THE_NEXT_SANDBOX)
    os.chmod(pytester.path, 0o755)
    result = pytester.runpytest_subprocess("t.jsonl", "--agent=talker:Agent", "--agenteval-isolate",
                                           "-p", "no:randomly", "-p", "no:cacheprovider")
    assert "secret 1" not in result.stdout.str() and "secret 2" not in result.stdout.str()
    result.assert_outcomes(passed=3)


def test_a_key_given_twice_in_a_task_line_is_one_error_naming_it(pytester: pytest.Pytester) -> None:
    """JSON with a key twice: Python's and pydantic's parsers keep the last, silently, while a
    reviewer reading the line sees the first. A line whose ``expected_final_state`` is given
    twice (closed, then nothing expected) was collected and graded against the second."""
    line = json.dumps(task_dict())[:-1] + ', "expected_final_state": {}}'
    assert json.loads(line)["expected_final_state"] == {}
    (pytester.path / "t.jsonl").write_text(task_line(task_id="EX-2") + "\n" + line + "\n")
    result = pytester.runpytest("t.jsonl", "--agent=noop", "-p", "no:randomly")
    result.assert_outcomes(failed=1, errors=1)
    result.stdout.fnmatch_lines(["*t.jsonl:2: expected_final_state: given twice*"])


def test_the_threat_model_says_an_installed_agent_runs_in_the_harness() -> None:
    """An agent installed in pytest's environment (a wheel, ``pip install -e``) is not contained:
    its ``.pth`` file ran at the harness's start (as root, outside every sandbox) and its
    ``pytest11`` entry point was loaded as a plugin by pytest, though the threat model said the
    harness never imports the agent's code. The docs must tell users to give an untrusted agent
    as a folder, not install it."""
    text = (Path(__file__).parent.parent / "docs" / "threat-model.md").read_text()
    assert ".pth" in text and "pytest11" in text and "installed" in text
    assert "give an untrusted agent as a folder" in " ".join(text.lower().split())


def test_a_device_given_to_resume_is_one_usage_line(pytester: pytest.Pytester) -> None:
    """``--agenteval-resume=/dev/zero`` (or ``agenteval report /dev/zero``) read on without end,
    filling the memory: task files refuse devices, results files did not. A pipe stays
    readable (``agenteval report <(zcat r.jsonl.gz)``)."""
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest_subprocess("t.jsonl", "--agent=noop", "--agenteval-resume=/dev/zero",
                                           "-p", "no:randomly", timeout=60)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agenteval-resume=/dev/zero: cannot read it: it is a device*"])


def test_runs_past_any_use_is_a_usage_error(pytester: pytest.Pytester) -> None:
    """``--runs=99999999999999999999`` (a typo, a pasted number) made collection build items
    until the memory ran out: no error, no end."""
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest_subprocess("t.jsonl", "--agent=noop", "--runs=99999999999999999999",
                                           "-p", "no:randomly", timeout=60)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--runs=99999999999999999999: must be 1 to *"])
