"""An isolated agent's OS resource limits and its protocol (issue #25): an agent past a limit, or
one that sends a malformed or oversized frame, fails its own episode with its own failure mode
and one line saying what, never a hang or the harness failing. Run as root and unprivileged."""

from __future__ import annotations

import pytest

from pytest_agenteval.agents.containment import probe
from pytest_agenteval.agents.limits import Limits, LimitsError
from pytest_agenteval.agents.sandbox import frame
from tests.helpers.tasks import result_lines, task_line

BWRAP, WHY_NOT = probe()
STRONGEST = "--agenteval-isolate" if BWRAP else "--agenteval-isolate=process"

AGENTS = '''
import os, time

class BurnsCpu:
    def run(self, episode):
        while True:
            pass

class EatsMemory:
    def run(self, episode):
        hoard = bytearray(1024 * 2**20)

class WritesBigFile:
    def run(self, episode):
        with open("/tmp/big", "wb") as out:
            out.write(b"x" * 4 * 2**20)

class FillsTmp:
    """Files in the sandbox's /tmp are memory: many small ones past the memory limit."""
    def run(self, episode):
        written = 0
        try:
            for n in range(400):
                with open(f"/tmp/part{n}", "wb") as out:
                    out.write(b"x" * 2**20)
                written += 1
        except OSError as exc:
            raise RuntimeError(f"/tmp full after {written} MiB: {exc.strerror}") from None

class Forks:
    def run(self, episode):
        children = []
        try:
            for _ in range(200):
                pid = os.fork()
                if pid == 0:
                    time.sleep(60)
                    os._exit(0)
                children.append(pid)
        finally:
            for pid in children:
                os.kill(pid, 9)

def sends(text):
    class Sends:
        def run(self, episode):
            episode._outbox.write(text)
            episode._outbox.flush()
            time.sleep(60)
    return Sends

NotJson = sends("this is not json\\n")
TooDeep = sends("[" * 5000 + "]" * 5000 + "\\n")
NumberAsAction = sends('{"id": 1, "call": 42}\\n')
BadUsage = sends('{"usage": {"tokens": "many"}}\\n')
Oversized = sends("x" * (17 * 2**20))
SpecAnswer = sends('{"ok": true}\\n')  # the spec check's answer, during the episode
HugeCost = sends('{"usage": {"cost": 1' + "0" * 400 + '}}\\n')  # past a float: OverflowError
HugeTokens = sends('{"usage": {"input_tokens": 1' + "0" * 4000 + '}}\\n')  # the summary's mean overflowed


class NamesNotStrings:
    """Model names the harness sorts: an int among strings made the grade fail to build."""
    def run(self, episode):
        for model in ("a", 5, "m" * 10_000):
            episode._outbox.write('{"usage": {"model": %s, "input_tokens": 1}}\\n' % __import__("json").dumps(model))
        episode._outbox.flush()
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(limited=AGENTS)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    return pytester


def agent_check(pytester: pytest.Pytester, agent: str, *extra: str) -> dict:
    result = pytester.runpytest(f"--agent=limited:{agent}", "--agenteval-results=r.jsonl", "--agenteval-timeout=60",
                                "-p", "no:cacheprovider", *extra, "t.jsonl")
    result.assert_outcomes(failed=1)  # the agent's own failure: the harness goes on and reports it
    grade = result_lines(pytester.path / "r.jsonl")[0]
    return next(c for c in grade["checks"] if c["name"] == "agent_completed")


# A limit met inside the sandbox is the agent process's own report (it could forge one: red team 21).
REPORTS = "the agent process reports hitting its"
OWN = "its own report, which the harness cannot check"


@pytest.mark.parametrize(("agent", "limits", "expected"), [
    ("BurnsCpu", "cpu=1", "the agent process ended by SIGXCPU, the signal of its CPU time limit of 1 s "
                          "(--agenteval-limits cpu=SECONDS raises it; a process can also send it to itself)"),
    ("EatsMemory", "memory=512M", f"{REPORTS} memory limit (--agenteval-limits memory=...; {OWN}): MemoryError:  "
                                  "(at limited.py:10)"),
    ("WritesBigFile", "file_size=1M", f"{REPORTS} file size limit (--agenteval-limits file_size=...; {OWN}): "
                                      "OSError: [Errno 27] File too large (at limited.py:15)"),
])
def test_an_agent_past_a_limit_fails_with_that_limit_named(project: pytest.Pytester, agent: str, limits: str,
                                                            expected: str) -> None:
    check = agent_check(project, agent, STRONGEST, f"--agenteval-limits={limits}")
    assert (check["failure_mode"], check["detail"]) == ("agent_resource_limit", expected)


@pytest.mark.skipif(BWRAP is None, reason=f"the process limit is per sandbox under bwrap only: {WHY_NOT}")
def test_an_agent_past_its_process_limit_fails_with_that_limit_named(project: pytest.Pytester) -> None:
    check = agent_check(project, "Forks", "--agenteval-isolate", "--agenteval-limits=processes=16")
    assert check["failure_mode"] == "agent_resource_limit"
    assert check["detail"].startswith(f"{REPORTS} processes limit (--agenteval-limits processes=...; {OWN}): "
                                      "BlockingIOError: [Errno 11] Resource temporarily unavailable")


@pytest.mark.skipif(BWRAP is None, reason=f"the sandbox's own /tmp is bwrap's: {WHY_NOT}")
def test_files_in_the_sandboxs_tmp_count_against_its_memory_limit(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=limited:FillsTmp", "--agenteval-isolate", "--agenteval-timeout=60",
                               "--agenteval-limits=memory=256M,file_size=2M", "-p", "no:cacheprovider", "t.jsonl")
    result.assert_outcomes(errors=1)  # the agent raised: its episode errors, the run goes on
    found = result.stdout.str().split("/tmp full after ")[1]
    assert int(found.split(" MiB")[0]) <= 256 and found.split(": ", 1)[1].startswith("No space left on device")


def test_without_limits_the_same_agent_is_not_stopped_by_one(project: pytest.Pytester) -> None:
    check = agent_check(project, "WritesBigFile", STRONGEST, "--agenteval-limits=file_size=none")
    assert check["passed"]  # the check itself passes; the episode fails on its state (it closed nothing)


def test_the_limits_in_force_are_in_the_header_and_a_bad_value_is_one_line(project: pytest.Pytester) -> None:
    project.makeini("[pytest]\nagenteval_limits = cpu=30\n")
    result = project.runpytest("--agent=limited:NotJson", "--agenteval-isolate=process", "--co", "t.jsonl")
    result.stdout.fnmatch_lines(["agenteval sandbox limits: cpu 30 s, memory 4G, processes 256 (not set at the "
                                 "process level), file size 64M, open files 1024"])
    result = project.runpytest("--agent=limited:NotJson", "--agenteval-isolate=process",
                               "--agenteval-limits=cpu=ten", "t.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == ("ERROR: --agenteval-limits=cpu=ten: cpu=ten: must be a whole number above 0 "
                                      "(seconds), or none for no limit")


@pytest.mark.parametrize(("agent", "expected"), [
    ("NotJson", "frame 1: not JSON (Expecting value: line 1 column 1 (char 0)): b'this is not json\\n'"),
    ("TooDeep", "frame 1: JSON nested deeper than 64 levels (b'" + "[" * 80 + "'...)"),
    ("NumberAsAction", "frame 1: call: the action's name must be a string: b'{\"id\": 1, \"call\": 42}\\n'"),
    ("BadUsage", "frame 1: usage: must be an object with keys among calls, cost, input_tokens, latency, model, "
                 "output_tokens: b'{\"usage\": {\"tokens\": \"many\"}}\\n'"),
    ("Oversized", "frame 1: a frame longer than 16 MiB (b'" + "x" * 80 + "'...)"),
    # Red team 3: these three failed the harness's own code (KeyError, OverflowError), labelled
    # "the test was stopped while the agent ran", or the run's end (no summary line).
    ("SpecAnswer", "frame 1: an answer to the spec check during its episode: b'{\"ok\": true}\\n'"),
    ("HugeCost", "frame 1: usage: record_usage: cost must be a number >= 0 or None, got an integer of 1329 bits"),
    ("HugeTokens", "frame 1: usage: record_usage: input_tokens must be a whole number >= 0 and at most 2**53, "
                   "got an integer of 13288 bits"),
])
def test_a_malformed_or_oversized_frame_is_a_protocol_violation(project: pytest.Pytester, agent: str,
                                                                 expected: str) -> None:
    check = agent_check(project, agent, STRONGEST)
    assert check["failure_mode"] == "agent_protocol_violation"
    assert check["detail"] == f"the agent process broke the protocol: {expected}"


def test_model_names_of_any_json_type_are_counted_as_text(project: pytest.Pytester) -> None:
    # Before: TypeError sorting the names; the episode was not graded and its line was lost.
    result = project.runpytest("--agent=limited:NamesNotStrings", "--agenteval-results=r.jsonl",
                               "--agenteval-timeout=60", "-p", "no:cacheprovider", STRONGEST, "t.jsonl")
    result.assert_outcomes(passed=1)
    grade, summary = result_lines(project.path / "r.jsonl")[:2]
    assert sorted(grade["usage"]["models"]) == ["5", "a", "m" * 200]
    assert grade["usage"]["input_tokens"] == 3 and "summary" in summary


def test_frames_are_checked_field_by_field() -> None:
    assert frame(b'{"id": 3, "call": "get_ticket", "arguments": {"ticket_id": "T-1"}}\n', 100) == (
        {"id": 3, "call": "get_ticket", "arguments": {"ticket_id": "T-1"}}, None)
    assert frame(b'{"done": true, "error": "x"}\n', 100)[1] == (
        "a frame must hold exactly one of done, error, call, usage, transcript, ok: "
        "b'{\"done\": true, \"error\": \"x\"}\\n'")
    # (arguments that are not an object are the episode's to refuse, as a step: red team 72)
    assert frame(b'{"call": "a", "arguments": [1]}\n', 100) == ({"call": "a", "arguments": [1]}, None)
    assert frame(b'["[[[[[[", {"done": true}]\n', 100)[1] == "not a JSON object: b'[\"[[[[[[\", {\"done\": true}]\\n'"
    deep_in_a_string = b'{"error": "' + b"[" * 200 + b'"}\n'
    assert frame(deep_in_a_string, 2**20) == ({"error": "[" * 200}, None)  # brackets in a string do not nest


def test_limits_parse_with_units_defaults_and_none() -> None:
    assert Limits.parse("cpu=60, memory=2G,file-size=512K") == Limits(cpu=60, memory=2 * 2**30, file_size=512 * 2**10)
    assert Limits.parse("processes=none").for_child("bwrap") == {"cpu": 600, "memory": 4 * 2**30,
                                                                 "file_size": 64 * 2**20, "open_files": 1024}
    assert "processes" not in Limits().for_child("process")  # it would count every process of the user
    with pytest.raises(LimitsError, match=r"^--agenteval-limits=disk=1: 'disk=1' is not NAME=VALUE with NAME one "
                                          r"of cpu, memory, processes, file_size, open_files \(e.g. cpu=60,memory=2G\)$"):
        Limits.parse("disk=1")
