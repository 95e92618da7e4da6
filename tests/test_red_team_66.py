"""Red team 66 (issue #25): two labels an isolated agent could forge. An agent that wrote
"bwrap: Creating new namespace failed…" to stderr and died while being imported was told "the
sandbox could not start, not the agent's doing" (an errored episode, blamed on the machine);
the child now says it has started before it imports the agent, and past that word the death is
the agent's. An agent that sent itself SIGXCPU was told "used up its CPU time limit": the signal
is now told as what ended it, not as a measure of the CPU it used."""

from __future__ import annotations

import pytest

from pytest_agenteval.agents.sandbox import STARTED, _answer
from tests.helpers.tasks import result_lines, task_line
from tests.test_sandbox_limits import STRONGEST

FAKE = "bwrap: Creating new namespace failed: No space left on device"


class _Pipes:
    """What ``_answer`` reads of a child that died: its lines, then its end."""

    def __init__(self, *lines: bytes) -> None:
        self.lines = list(lines)

    def read_line(self) -> bytes | None:
        return self.lines.pop(0) if self.lines else None

    def stderr_tail(self) -> str:
        return FAKE + "\n"

    def exit_code(self) -> int:
        return 1


def test_a_bwrap_line_after_the_child_started_is_the_agents() -> None:
    said = _answer(_Pipes(STARTED + b"\n"), "m:Agent")  # type: ignore[arg-type]
    assert said is not None and "the agent process ended while importing it" in said and "not the agent's" not in said


def test_a_bwrap_line_before_the_child_started_is_the_sandboxs() -> None:
    said = _answer(_Pipes(), "m:Agent")  # type: ignore[arg-type]
    assert said is not None and said.startswith("--agent=m:Agent: the sandbox could not start, not the agent's doing")


def test_an_agent_faking_a_sandbox_failure_at_import_is_told_as_its_own(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(faker=f"import os, sys\nsys.stderr.write({FAKE!r} + '\\n')\nsys.stderr.flush()\nos._exit(1)\n"
                                f"class Agent:\n    def run(self, episode):\n        pass\n")
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=faker:Agent", STRONGEST, "-p", "no:cacheprovider", "t.jsonl")
    assert result.ret != 0
    text = result.stdout.str() + result.stderr.str()
    assert "the agent process ended while importing it" in text and "not the agent's doing" not in text


def test_an_agent_sending_itself_sigxcpu_is_not_said_to_have_used_its_cpu(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(selfsig="import os, signal\nclass Agent:\n    def run(self, episode):\n"
                                "        os.kill(os.getpid(), signal.SIGXCPU)\n")
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=selfsig:Agent", STRONGEST, "--agenteval-results=r.jsonl", "-p",
                                "no:cacheprovider", "t.jsonl")
    result.assert_outcomes(failed=1)
    check = next(c for c in result_lines(pytester.path / "r.jsonl")[0]["checks"] if c["name"] == "agent_completed")
    assert check["failure_mode"] == "agent_resource_limit"
    assert "ended by SIGXCPU" in check["detail"] and "a process can also send it to itself" in check["detail"]
    assert "used up" not in check["detail"]
