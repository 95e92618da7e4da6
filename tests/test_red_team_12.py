"""Red team 12: determinism, races under concurrency, the seccomp filter, and the gate; each
attack that got through pinned here."""

from __future__ import annotations

import pytest

from tests.helpers.tasks import task_line, write_ex1_and_ex3

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
