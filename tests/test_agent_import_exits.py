"""An agent module that ends or stops its process at import: one usage-error line, exit 4.

Without this, ``os._exit(0)`` at import made pytest exit 0 with no output and no results (a
CI gate passed), KeyboardInterrupt exited 2 silently and SystemExit was an INTERNALERROR.
"""

from __future__ import annotations

import pytest

from tests.helpers.tasks import task_line

ADVICE = "an agent module must not exit or stop at import; move that code into the agent's run"
CASES = {
    "import os\nos._exit(0)\n":
        "ERROR: --agent=hostile:Agent: importing 'hostile' ended the process before the import finished "
        "(exit status 0) (an agent module must import without ending its process; move that code into the "
        "agent's run)",
    "raise KeyboardInterrupt\n":
        f"ERROR: --agent=hostile:Agent: importing 'hostile' raised KeyboardInterrupt (at hostile.py:1) ({ADVICE})",
    "import sys\nsys.exit(0)\n":
        f"ERROR: --agent=hostile:Agent: importing 'hostile' raised SystemExit: 0 (at hostile.py:2) ({ADVICE})",
}


@pytest.mark.parametrize("source", list(CASES), ids=["os._exit", "KeyboardInterrupt", "SystemExit"])
def test_an_agent_module_ending_at_import_is_a_usage_error(pytester: pytest.Pytester, source: str) -> None:
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.makepyfile(hostile=source + "class Agent:\n    def run(self, episode):\n        pass\n")
    # In a subprocess: were the probe to miss, os._exit would end this test's own process.
    result = pytester.runpytest_subprocess("--agent=hostile:Agent", "-p", "no:cacheprovider", "tasks",
                                           "--agenteval-results=r.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line] == [CASES[source]]
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_module_that_imports_fine_is_imported_once_in_the_harness(pytester: pytest.Pytester) -> None:
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.makepyfile(calm="class Agent:\n    def run(self, episode):\n        pass\n")
    result = pytester.runpytest_subprocess("--agent=calm:Agent", "-p", "no:cacheprovider", "tasks")
    result.assert_outcomes(failed=1)  # probed, then imported and run: it does nothing, so it fails
