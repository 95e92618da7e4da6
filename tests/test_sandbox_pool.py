"""Warm sandboxes and concurrent isolated episodes (issue #25): every episode a fresh sandbox,
grades as in a serial run, and no process of any sandbox left when the run ends, however it ends.

Which processes are a run's: those whose working folder is the pytester project (the harness
runs there, so the process-level child and bwrap do; inside bwrap, the search path is the
same folder), less this test's own process. Run as root and as an unprivileged user.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pytest_agenteval.agents.containment import probe
from tests.helpers.tasks import episode_grades, interruptible, task_line

BWRAP, WHY_NOT = probe()
LEVELS = [pytest.param("bwrap", marks=pytest.mark.skipif(BWRAP is None, reason=f"no OS sandbox: {WHY_NOT}")),
          "process"]

AGENTS = '''
import os, sys, time

STARTED = os.getpid()  # at import: in the sandbox, before it waits for its episode


class Good:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
        episode.call("add_comment", {"ticket_id": "T-0001", "body": f"sandbox {STARTED}"})


class Remembers:
    """Passes only in a sandbox that never served an episode before."""
    seen = 0

    def run(self, episode):
        Remembers.seen += 1
        if Remembers.seen == 1:
            episode.call("close_ticket", {"ticket_id": "T-0001"})


class SlowWithChild:
    """Leaves a process behind (under bwrap, in a session of its own), then takes its time."""
    def run(self, episode):
        if os.fork() == 0:
            if os.environ.get("LEAVE_SESSION"):
                os.setsid()  # out of its process group: only bwrap's PID namespace still holds it
            time.sleep(600)
            os._exit(0)
        time.sleep(0.3)
        episode.call("close_ticket", {"ticket_id": "T-0001"})


class Hangs:
    def run(self, episode):
        time.sleep(600)
'''


def project(pytester: pytest.Pytester, tasks: int) -> pytest.Pytester:
    pytester.makepyfile(pool_agents=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(task_line(
        task_id=f"EX-{i}", acceptable_action_paths=None) for i in range(1, tasks + 1)) + "\n")
    return pytester


def isolate(level: str) -> str:
    return "--agenteval-isolate" if level == "bwrap" else "--agenteval-isolate=process"


def leftovers(path: Path) -> list[str]:
    """Processes other than this one working in ``path``: what a run left behind."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if Path(os.readlink(entry / "cwd")) == path:
                    found.append(f"{entry.name}: {(entry / 'cmdline').read_bytes()[:120]!r}")
            except OSError:
                continue
    return found


def kill_leftovers(path: Path) -> None:
    for line in leftovers(path):
        os.kill(int(line.split(":")[0]), signal.SIGKILL)


@pytest.mark.parametrize("level", LEVELS)
def test_32_isolated_episodes_at_once_grade_as_serial_and_leave_nothing(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    project(pytester, 32)
    if level == "bwrap":
        monkeypatch.setenv("LEAVE_SESSION", "1")
    try:
        runs = {}
        for name, extra in (("serial", []), ("concurrent", ["--agenteval-concurrency", "32"])):
            result = pytester.runpytest_subprocess("--agent=pool_agents:SlowWithChild", isolate(level),
                                                   f"--agenteval-results={name}.jsonl", "-p", "no:cacheprovider",
                                                   "--agenteval-timeout=120", *extra)
            result.assert_outcomes(passed=32)
            assert leftovers(pytester.path) == []  # the sleepers too: each sandbox went with its episode
            runs[name] = episode_grades(pytester.path / f"{name}.jsonl")
        assert runs["concurrent"] == runs["serial"]
    finally:
        kill_leftovers(pytester.path)


@pytest.mark.parametrize("level", LEVELS)
def test_every_episode_gets_a_sandbox_of_its_own(pytester: pytest.Pytester, level: str) -> None:
    project(pytester, 6)
    result = pytester.runpytest_subprocess("--agent=pool_agents:Remembers", isolate(level),
                                           "--agenteval-concurrency", "3", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6)  # a reused sandbox would fail its second episode


@pytest.mark.parametrize("level", LEVELS)
def test_ctrl_c_leaves_no_sandbox_behind(pytester: pytest.Pytester, level: str) -> None:
    project(pytester, 8)
    # Ctrl-C a moment into the first test: episodes in flight, sandboxes waiting (when exactly
    # does not matter: at no point may a sandbox outlive the run).
    pytester.makeconftest("import os, signal, threading\n"
                          "def pytest_runtest_call(item):\n"
                          "    if item.name.endswith('[EX-1]'):\n"
                          "        threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT)).start()\n")
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "--agent=pool_agents:Hangs", isolate(level),
                               "--agenteval-concurrency", "4", "--agenteval-timeout=60", "-p", "no:cacheprovider",
                               "-p", "no:randomly"],
                              cwd=pytester.path, capture_output=True, text=True, timeout=120,
                              preexec_fn=interruptible, env={**os.environ, "PYTEST_ADDOPTS": ""}, check=False)
        assert done.returncode == pytest.ExitCode.INTERRUPTED, done.stdout[-2000:]
        assert leftovers(pytester.path) == []
    finally:
        kill_leftovers(pytester.path)


@pytest.mark.parametrize("level", LEVELS)
def test_a_timed_out_episode_and_xdist_workers_leave_no_sandbox_behind(pytester: pytest.Pytester,
                                                                      level: str) -> None:
    project(pytester, 4)
    try:
        # (3 s, not 1: the agent is imported in the sandbox within the episode's time limit, which a
        # loaded machine exceeded at 1 s, failing the run at start-up instead of timing out the episodes)
        result = pytester.runpytest_subprocess("--agent=pool_agents:Hangs", isolate(level), "-n", "2",
                                               "--agenteval-timeout=3", "--agenteval-concurrency", "2",
                                               "-p", "no:cacheprovider")
        result.assert_outcomes(failed=4)
        result.stdout.fnmatch_lines(["*agent_completed [[]agent_timeout[]]*"])
        assert leftovers(pytester.path) == []
    finally:
        kill_leftovers(pytester.path)


def test_waiting_for_killed_sandboxes_is_bounded() -> None:
    """A serial episode waits for the sandboxes before it to be gone before its agent is imported;
    a teardown that hangs must not hold the run (red team 9): the wait gives up, and says so."""
    from pytest_agenteval.agents.pool import _Reaper

    released = threading.Event()

    class Hanging:
        def kill(self) -> None:
            pass

        def reap(self) -> None:
            released.wait()

    reaper = _Reaper()
    reaper.add(Hanging())  # type: ignore[arg-type]
    assert reaper.drain(timeout=0.05) is False
    released.set()
    assert reaper.drain(timeout=60) is True
