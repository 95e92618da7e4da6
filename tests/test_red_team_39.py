"""Red team 39: an earlier run's results read from inside an archive (full marks), agents that
keep every descriptor or byte until the kernel refuses one more (unlabelled deaths), a sandbox that
died before its episode killing the reaper (later episodes timed out, the run hung a minute at its
end), a start that raised in the harness (a traceback, counted), and a start error kept after
the pool recovered (a later episode failed)."""

from __future__ import annotations

import gzip
import io
import tarfile
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.agents import pool as pools
from pytest_agenteval.plugin.view import in_view
from tests.helpers.sandboxing import BWRAP
from tests.helpers.tasks import result_lines, task_line

STRONGEST = "--agenteval-isolate" if BWRAP else "--agenteval-isolate=process"
RESULTS = b'{"run_record": {"agent": "x"}}\n{"task_id": "ESC-001", "checks": [{"detail": "acceptable: ..."}]}\n'
LOG = b"".join(b"Collecting package-%d\n  Downloading it (12 kB)\n" % n for n in range(4000))  # ~150 KB


def _tar(path: Path, members: dict[str, bytes], mode: str) -> Path:
    with tarfile.open(path, mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize("make", [
    lambda d: _tar(d / "ci-artifacts.tar.gz", {"logs/build.log": LOG, "results/old.jsonl": RESULTS}, "w:gz"),
    lambda d: _tar(d / "plain.tar", {"logs/build.log": LOG, "old": RESULTS}, "w"),
    lambda d: _zip(d / "ci.zip", {**{f"notes/n{k}.txt": b"nothing" for k in range(8)}, "results/old.jsonl": RESULTS}),
    lambda d: _zip(d / "nested.zip", {"old.jsonl.gz": gzip.compress(RESULTS)}),
    lambda d: _write(d / "prev.gz", gzip.compress(gzip.compress(RESULTS))),
    lambda d: _write(d / "ci.log", LOG + b"===== short test summary info =====\nFAILED ESC-001\n"),  # past 64 KiB
], ids=["tar.gz after a log", "plain tar", "ninth zip member", "gzip in a zip", "gzip twice", "a log's end"])
def test_results_deep_in_a_file_or_an_archive_are_not_in_view(tmp_path: Path, make: Any) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    make(tmp_path)
    assert in_view(tmp_path) == ["agent.py"]  # (red team 40: whatever a file holds, only code is copied)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_an_agents_own_files_are_in_view_when_listed(tmp_path: Path) -> None:
    _zip(tmp_path / "tools.zip", {"pkg/__init__.py": b"", "pkg/data.txt": LOG})
    _write(tmp_path / "prompts.txt", LOG)
    assert in_view(tmp_path) == []
    assert in_view(tmp_path, shown=["*.txt", "tools.zip"]) == ["prompts.txt", "tools.zip"]


AGENTS = '''
import os

class KeepsDescriptors:
    def run(self, episode):
        held = []
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))

class KeepsMemory:
    def run(self, episode):
        held = []
        while True:
            held.append(bytearray(2**20))
'''


@pytest.mark.parametrize(("agent", "limits", "said"), [
    ("KeepsDescriptors", "open_files=64", "open files limit (--agenteval-limits open_files=...; its own report, which "
                                          "the harness cannot check): OSError: [Errno 24] Too many open files"),
    ("KeepsMemory", "memory=512M", "memory limit (--agenteval-limits memory=...; its own report, which the harness "
                                   "cannot check): MemoryError:  (at keeps.py:13)"),
])
def test_an_agent_that_keeps_all_it_got_is_told_as_past_its_limit(pytester: pytest.Pytester, agent: str,
                                                                  limits: str, said: str) -> None:
    pytester.makepyfile(keeps=AGENTS)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest(f"--agent=keeps:{agent}", STRONGEST, f"--agenteval-limits={limits}",
                                "--agenteval-results=r.jsonl", "--agenteval-timeout=60", "-p", "no:cacheprovider",
                                "t.jsonl")
    result.assert_outcomes(failed=1)  # labelled, not errored: it died of the limit before
    check = next(c for c in result_lines(pytester.path / "r.jsonl")[0]["checks"] if c["name"] == "agent_completed")
    assert check["failure_mode"] == "agent_resource_limit"
    assert said in check["detail"]


class _Child:
    def __init__(self, fails: bool = False) -> None:
        self.fails, self.reaped = fails, False

    def stop(self) -> None:
        self.reaped = True

    def kill(self) -> None:
        pass

    def reap(self) -> None:
        if self.fails:
            raise BrokenPipeError(32, "Broken pipe")  # closing a stdin whose sandbox died before its episode
        self.reaped = True


def test_the_reaper_outlives_a_sandbox_whose_teardown_fails() -> None:
    reaper = pools._Reaper()
    reaper.add(_Child(fails=True))  # type: ignore[arg-type]
    later = _Child()
    reaper.add(later)  # type: ignore[arg-type]
    assert reaper.drain(timeout=30)  # (before: the thread was dead and this waited its whole time)
    assert later.reaped


def test_a_start_that_failed_then_succeeded_fails_no_later_episode() -> None:
    starts: list[int] = []
    ready = threading.Event()

    def start() -> Any:
        starts.append(1)
        if len(starts) == 1:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        ready.set()
        return _Child()

    pool = pools.WarmPool(start, spares=1)
    try:
        assert ready.wait(30)
        with pool._cond:
            while not pool._ready:
                pool._cond.wait(0.05)
            assert pool._error is None  # the error was the failed start's, and that start was tried again
        assert isinstance(pool.take(), _Child)
    finally:
        pool.close()


CONFTEST = '''
from pytest_agenteval.agents import containment
_start = containment.Containment.start
_calls = [0]

def start(self, *args, **kwargs):
    _calls[0] += 1
    if _calls[0] == 3:  # the spec check's, the first pooled one, then its replacement: refused
        raise BlockingIOError(11, "Resource temporarily unavailable")
    return _start(self, *args, **kwargs)

containment.Containment.start = start
'''


def test_a_sandbox_the_harness_could_not_start_errors_its_episode_in_one_line(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(idle="class Agent:\n    def run(self, episode):\n        pass\n")
    (pytester.path / "t.jsonl").write_text("".join(task_line(task_id=f"EX-{k}") + "\n" for k in (1, 2, 3)))
    result = pytester.runpytest("--agent=idle:Agent", STRONGEST, "--agenteval-timeout=60", "-p", "no:cacheprovider",
                                "t.jsonl")
    result.assert_outcomes(failed=2, errors=1)  # errored: out of the pass rates, not counted against the agent
    result.stdout.fnmatch_lines(["*the sandbox could not start, not the agent's doing: [[]Errno 11[]] Resource "
                                 "temporarily unavailable*"])
    assert "Traceback" not in result.stdout.str() and "sandbox.py" not in result.stdout.str()
