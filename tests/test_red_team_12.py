"""Red team 12: determinism, races under concurrency, the seccomp filter, and the gate; each
attack that got through pinned here."""

from __future__ import annotations

import errno
import json
import os
import signal

import pytest

from pytest_agenteval.report.gate import Gate, judge
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line, write_ex1_and_ex3

# Closes the ticket its instruction names, except T-0003's: there it raises (an errored episode).
DODGES_THE_TAG = '''
import re


class Agent:
    def run(self, episode):
        ticket = re.search(r"T-\\d{4}", episode.instruction).group(0)
        if ticket == "T-0003":
            raise KeyError(ticket)
        episode.call("close_ticket", {"ticket_id": ticket})
'''


def _more_tasks(folder: object, ids: range) -> None:
    from pathlib import Path

    more = [task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-000{i}.",
                      expected_final_state={"ticket": {f"T-000{i}": {"status": "closed"}}},
                      acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": f"T-000{i}"}}]])
            for i in ids]
    with (Path(str(folder)) / "tasks" / "example.jsonl").open("a") as f:
        f.write("\n".join(more) + "\n")


def test_a_tag_whose_every_episode_errored_is_not_passed_by_the_gate(pytester: pytest.Pytester) -> None:
    """``fail_under_tags`` gates a failure mode; ``max_errored`` allows a share of the run's
    episodes to error (a flaky provider). An agent that raised on exactly the tagged tasks had
    the tag reported as ``no graded episode in this run, not gated`` (as if deselected with -k)
    and the run passed the tag's gate with exit 0, on a tag it never played. Its episodes ran:
    the tag's gate holds the errored ones to ``max_errored`` too."""
    write_ex1_and_ex3(pytester.path, failure_mode_tags=["wrong_ticket", "slow_close"])
    _more_tasks(pytester.path, range(4, 8))
    pytester.makepyfile(dodger=DODGES_THE_TAG)
    pytester.makefile(".toml", pyproject="[tool.agenteval]\nmax_errored = 0.2\nfail_under_tags = {slow_close = 1}\n")
    result = pytester.runpytest("tasks/", "--agent=dodger:Agent", "--agenteval-fail-under=1",
                                "--agenteval-isolate=process", "-p", "no:randomly")
    assert "tag slow_close: no graded episode in this run, not gated" not in result.stdout.str()
    result.stdout.fnmatch_lines(["agenteval gate: FAILED: tag slow_close: 1 of 1 episodes errored*"])
    assert result.ret == 1
    # `agenteval report --fail-under` judges a file's grades with the same function
    grades = [{"task_id": f"T{i}", "run": 1, "environment": "e", "passed": True, "failure_modes": [],
               "failure_mode_tags": ["x"] if i == 0 else []} for i in range(50)]
    grades[0]["error"] = {"kind": "agent_code"}
    verdict = judge(grades, 1, Gate(overall=1.0, tags={"x": 1.0}, max_errored=0.02))
    assert not verdict.passed
    assert "agenteval gate: FAILED: tag x: 1 of 1 episodes errored" in verdict.lines[-1]


# Other ways to a denied call, each in a process of its own (a killed one reports its signal):
# an x32 call, an i386 call (int 0x80), io_uring_setup with bits set above rax's low 32; and
# the sandbox's pid 1 (bwrap's init: the agent can reach it with pidfd_getfd and /proc/1/mem):
# is it under the filter too?
AROUND_THE_FILTER = r'''
import ctypes, json, mmap, os, subprocess, sys

RAW = """
import ctypes, mmap
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(bytes.fromhex(CODE))
print(ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(m)))())
"""
CODES = {
    "i386 getpid": "b814000000cd80c3",  # mov eax, 20; int 0x80; ret
    # mov rax, 1<<32 | 425 (io_uring_setup); mov rdi, 1; xor esi, esi; syscall; ret
    "io_uring_setup, high bits": "48b8" + ((1 << 32) | 425).to_bytes(8, "little").hex() + "48c7c701000000" + "31f6" + "0f05c3",
}


def run_alone(source):
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True)
    return f"signal {-done.returncode}" if done.returncode < 0 else done.stdout.strip()


class Agent:
    def run(self, episode):
        seen = {"x32 getpid": run_alone(
            "import ctypes; print(ctypes.CDLL(None).syscall(ctypes.c_long(0x40000000 | 39)))")}
        for name, code in CODES.items():
            seen[name] = run_alone(f"CODE = {code!r}\n" + RAW)
        status = dict(line.split(":", 1) for line in open("/proc/1/status").read().splitlines())
        seen["pid 1 seccomp"] = status["Seccomp"].strip()
        libc = ctypes.CDLL(None, use_errno=True)
        pidfd = libc.syscall(ctypes.c_long(434), ctypes.c_long(1), ctypes.c_long(0))  # pidfd_open(1)
        seen["pid 1 reachable"] = pidfd >= 0 and libc.syscall(ctypes.c_long(438), ctypes.c_long(pidfd),
                                                               ctypes.c_long(0), ctypes.c_long(0)) >= 0
        raise RuntimeError(json.dumps(seen))
'''


@needs_bwrap
@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x32 and i386 calls are x86_64's")
def test_no_other_numbering_or_process_in_the_sandbox_gets_round_the_seccomp_filter(
        pytester: pytest.Pytester) -> None:
    """Held: x32 and i386 calls kill the process (SIGSYS); a call number with bits above 32 is
    the call the kernel runs, and denied; the sandbox's pid 1 (bwrap's init, which the agent
    can reach with pidfd_getfd or /proc/1/mem, ptrace's equivalents) runs under the filter too
    (as root the agent cannot reach it at all: it runs as nobody)."""
    write_ex1_and_ex3(pytester.path)
    pytester.makepyfile(around=AROUND_THE_FILTER)
    results = pytester.path / "r.jsonl"
    pytester.runpytest("tasks/", "--agent=around:Agent", "--agenteval-isolate", "-k", "EX-1",
                       f"--agenteval-results={results}", "-p", "no:randomly")
    grade = next(g for g in result_lines(results) if "task_id" in g)
    message = grade["error"]["message"]
    seen = json.loads(message.removeprefix("RuntimeError: ").rsplit(" (at ", 1)[0])
    sigsys = f"signal {int(signal.SIGSYS)}"
    assert seen["x32 getpid"] == sigsys
    assert seen["i386 getpid"] == sigsys
    assert seen["io_uring_setup, high bits"] == str(-errno.EPERM)
    assert seen["pid 1 seccomp"] == "2"  # SECCOMP_MODE_FILTER
