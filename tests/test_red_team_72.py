"""Red team 72 (issue #25, a second acceptance round): 10 attempts, 2 broke, none passing a
failing episode. An errored attempt failed with the agent's own message, so an agent writing
"[agent_timeout]" in it was rerun by ``--only-rerun '\\[agent_timeout\\]'`` (and could dodge
``--rerun-except``): its brackets are now shown as parentheses. A model's broken tool-call JSON,
passed on by an adapter as the arguments, failed the whole episode as a protocol violation under
``--agenteval-isolate`` but was a refused step in process: the child's frame now carries any
arguments to the episode, which refuses them as a step in every placement (tests/test_placements.py)."""

from __future__ import annotations

import pytest

from tests.helpers.tasks import result_lines, task_line

pytest.importorskip("pytest_rerunfailures")


def test_an_agents_own_words_choose_no_rerun(pytester: pytest.Pytester) -> None:
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    pytester.makepyfile(tagged="class Agent:\n    def run(self, episode):\n"
                               "        raise RuntimeError('upstream stalled [agent_timeout]')\n")
    result = pytester.runpytest("--agent=tagged:Agent", "--reruns=2", r"--only-rerun=\[agent_timeout\]",
                                "--agenteval-results=r.jsonl", "-p", "no:cacheprovider", "t.jsonl")
    outcomes = result.parseoutcomes()
    assert "rerun" not in outcomes, result.stdout.str()
    assert [g.get("attempt") for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g] == [None]
    result.stdout.fnmatch_lines(["1 errored (not in any pass rate): agent_code 1; EX-1 run 1"])
