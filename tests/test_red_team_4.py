"""Red team 4: attacks on ``--agenteval-isolate`` by a hostile agent module, each one that got
through pinned here (findings: the sandbox's environment and its /dev)."""

from __future__ import annotations

import pytest

from pytest_agenteval.agents.containment import probe
from tests.helpers.tasks import result_lines, task_line

BWRAP, WHY_NOT = probe()
needs_bwrap = pytest.mark.skipif(BWRAP is None, reason=f"no OS sandbox here: {WHY_NOT}")
KEY = "0123456789abcdef0123456789abcdef"

STEALS_THE_KEY = '''
import os

# At import, in the sandbox that checks --agent at the start: the key, if it is there.
_KEY = os.environ.get("AGENTEVAL_SIGNING_KEY")


class Agent:
    def run(self, episode):
        raise RuntimeError(f"key at import: {_KEY}; key in the episode: {os.environ.get('AGENTEVAL_SIGNING_KEY')}")
'''


@pytest.mark.parametrize("level", [pytest.param("", marks=needs_bwrap), "=process"])
def test_no_agent_process_sees_the_signing_key_variable(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                       level: str) -> None:
    """The start-up check of ``--agent`` ran in a sandbox before the plugin took
    AGENTEVAL_SIGNING_KEY out of its environment: a module that failed its import with the key
    printed it in the usage error; one that sends it out (LLM agents have the network) could sign
    a forged results file."""
    pytester.makepyfile(steals=STEALS_THE_KEY.replace(
        "class Agent:", "if _KEY:\n    raise RuntimeError('stolen: ' + _KEY)\n\n\nclass Agent:"))
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    monkeypatch.setenv("AGENTEVAL_SIGNING_KEY", KEY)
    result = pytester.runpytest("--agent=steals:Agent", f"--agenteval-isolate{level}", "--agenteval-results=r.jsonl",
                                "t.jsonl")
    assert KEY not in result.stdout.str() + result.stderr.str()
    result.assert_outcomes(errors=1)
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    detail = next(c["detail"] for c in grade["checks"] if c["name"] == "agent_completed")
    assert "key at import: None; key in the episode: None" in detail


FILLS_DEV_SHM = '''
import os


class Agent:
    """Keeps files in /dev/shm, another in-memory folder besides /tmp: 5 x 60 MiB under a
    256 MiB memory limit (each file under the 64 MiB file size limit)."""
    def run(self, episode):
        written = 0
        try:
            for i in range(5):
                with open(f"/dev/shm/f{i}", "wb") as f:
                    for _ in range(60):
                        f.write(b"x" * (1 << 20))
                        written += 1
        except OSError as exc:
            raise RuntimeError(f"refused after {written} MiB: {exc.strerror}") from None
        raise RuntimeError(f"kept {written} MiB in /dev/shm")
'''


@needs_bwrap
def test_files_in_dev_shm_cannot_hold_memory_past_the_limit(pytester: pytest.Pytester) -> None:
    """bwrap's /dev is a tmpfs of half the machine's memory; as an unprivileged user the agent
    owns it (its user namespace made it) and kept 300 MiB there under memory=256M, as each
    concurrent sandbox could keep gigabytes. (As root the sandbox is nobody: /dev is not its.)"""
    pytester.makepyfile(fills=FILLS_DEV_SHM)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=fills:Agent", "--agenteval-isolate", "--agenteval-limits=memory=256M",
                       "--agenteval-results=r.jsonl", "t.jsonl")
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    detail = next(c["detail"] for c in grade["checks"] if c["name"] == "agent_completed")
    assert "kept 300 MiB" not in detail, detail
