"""Red team 38: what one agent exhausting its user's processes did to the run (a sandbox start
that failed once failed every later episode; a reaper thread that could not start made the run
wait for ever at its end), and a symlink in the project to a file whose read blocks."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.agents import pool as pools
from pytest_agenteval.plugin import view


class _Child:
    """Enough of a started sandbox for the pool: it is stopped, killed and reaped."""

    def __init__(self) -> None:
        self.reaped = False

    def stop(self) -> None:
        self.reaped = True

    def kill(self) -> None:
        pass

    def reap(self) -> None:
        self.reaped = True


def test_a_failed_sandbox_start_fails_one_episode_not_the_pool() -> None:
    starts: list[int] = []

    def start() -> Any:
        starts.append(1)
        if len(starts) == 1:
            raise BlockingIOError(11, "Resource temporarily unavailable")  # fork refused, once
        return _Child()

    pool = pools.WarmPool(start, spares=1)
    try:
        with pytest.raises(BlockingIOError):
            pool.take()
        taken = pool.take()  # the next episode gets a sandbox: the failure was not kept
        assert isinstance(taken, _Child)
    finally:
        pool.close()


def test_a_reaper_with_no_thread_to_be_had_reaps_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    reaper = pools._Reaper()
    monkeypatch.setattr(threading.Thread, "start", refuse)
    child = _Child()
    reaper.add(child)  # type: ignore[arg-type]
    assert child.reaped
    assert reaper.drain(timeout=0)  # nothing counted that no thread would take: the run can end


@pytest.mark.skipif(not os.path.exists("/proc/kmsg") or os.geteuid() != 0, reason="needs /proc/kmsg as root")
def test_a_link_to_a_blocking_proc_file_is_copied_as_a_link_unopened(tmp_path: Path) -> None:
    (tmp_path / "notes.py").symlink_to("/proc/kmsg")  # reading it waits for the kernel's next message
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, [], [])
    assert os.readlink(os.path.join(copy, "notes.py")) == "/proc/kmsg"  # (the sandbox's own /proc, if any)


def test_limits_above_the_harness_hard_limits_are_lowered_to_them() -> None:
    import subprocess
    import sys
    code = ("import resource; resource.setrlimit(resource.RLIMIT_CPU, (100, 100)); "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (10_000_000, 10_000_000)); "
            "from pytest_agenteval.agents.limits import Limits; l = Limits().clamped(); "
            "print(l.cpu, l.file_size, l.memory == Limits().memory)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["99", "10000000", "True"]  # (the CPU limit's hard one is a second above its soft one)


def test_a_malformed_limits_value_is_refused_without_isolation(pytester: pytest.Pytester) -> None:
    import json

    from tests.helpers.tasks import task_dict
    (pytester.path / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-limits=bogus")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--agenteval-limits=bogus: 'bogus' is not NAME=VALUE" in result.stderr.str()


def test_open_files_is_a_limit_like_the_others() -> None:
    from pytest_agenteval.agents._child import limit_hit
    from pytest_agenteval.agents.limits import Limits
    assert Limits.parse("open_files=4096").open_files == 4096
    assert Limits().describe("bwrap").endswith("open files 1024")
    assert limit_hit(OSError(24, "Too many open files")) == "open_files"  # told as the limit, not the agent's code
