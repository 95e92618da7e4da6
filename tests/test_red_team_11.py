"""Red team 11: grading integrity through the harness (not free text): rates a run reports,
the gate, and grades an agent can move without earning them; each one that got through
pinned here."""

from __future__ import annotations

import json

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.metrics import pass_at_k, pass_hat_k
from tests.helpers.tasks import task_line, write_ex1_and_ex3

# Closes T-0001 whatever it is asked (EX-1 passes, EX-3 fails), except that on EX-3's second
# run it raises: an errored episode. Its run is known from the seed it is given (stdlib only).
DODGER = '''
import hashlib


def seed_of(task_id, run):
    return int.from_bytes(hashlib.sha256(f"{task_id}:{run}".encode()).digest()[:4], "big")


class Agent:
    def run(self, episode):
        if episode.seed == seed_of("EX-3", 2):
            raise KeyError("T-0003")
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


def test_an_errored_run_does_not_erase_another_runs_failure_from_pass_hat_k(pytester: pytest.Pytester) -> None:
    """pass^K left out every task with fewer than K graded episodes. An agent that failed a task
    on one run and raised on the other (an errored episode, which ``max_errored`` may allow) had
    the task left out, failure and all: ``pass^2 1.00`` beside ``pass@1 0.50``, and the gate
    passed at 1 with exit 0. A task with a failed run cannot have all K runs pass: it counts 0."""
    write_ex1_and_ex3(pytester.path)
    pytester.makepyfile(dodger=DODGER)
    pytester.makefile(".toml", pyproject="[tool.agenteval]\nmax_errored = 0.25\n")
    result = pytester.runpytest("tasks/", "--agent=dodger:Agent", "--runs", "2", "--agenteval-fail-under=1",
                                "--agenteval-isolate=process", "-p", "no:randomly")
    result.stdout.fnmatch_lines(["agenteval gate: FAILED: all pass^2 0.500 < 1 (2 tasks, 3 episodes; "
                                 "1 errored episode(s) left out)"])
    assert result.ret == 1
    assert pass_hat_k([(2, 2), (0, 1)], 2) == 0.5  # the failed task, short of K, is a task that failed
    assert pass_hat_k([(2, 2), (1, 1)], 2) == 1.0  # short of K with no failure: nothing known, left out
    assert pass_at_k([(0, 2), (1, 1)], 2) == 0.5  # short of K with a pass: it passed within K


def test_a_run_stopped_by_maxfail_does_not_pass_the_gate(pytester: pytest.Pytester) -> None:
    """With ``-x`` (or ``--maxfail``, often in ``addopts``), pytest stopped after the first failed
    task and the gate judged the two episodes played: ``pass@1 0.500 >= 0.5``, exit 0, though
    four of six tasks never ran (they would have failed: the agent closes T-0001 whatever it is
    asked). A gate now holds only a run that tried every task it selected."""
    write_ex1_and_ex3(pytester.path)
    more = [task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-000{i}.",
                      expected_final_state={"ticket": {f"T-000{i}": {"status": "closed"}}},
                      acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": f"T-000{i}"}}]])
            for i in range(4, 8)]
    with (pytester.path / "tasks" / "example.jsonl").open("a") as f:
        f.write("\n".join(more) + "\n")
    pytester.makepyfile(dodger=DODGER)
    result = pytester.runpytest("tasks/", "--agent=dodger:Agent", "-x", "--agenteval-fail-under=0.5",
                                "-p", "no:randomly")
    result.stdout.fnmatch_lines(["agenteval gate: FAILED: the run stopped early (stopping after 1 failures)*"])
    assert result.ret == 1


# Ctrl-C once the first task has been reported (as a person pressing it between two tasks).
CTRL_C_AFTER_FIRST = '''
def pytest_runtest_logfinish(nodeid, location):
    raise KeyboardInterrupt
'''


@pytest.mark.parametrize("how", ["cut", "ctrl-c"])
def test_agenteval_report_does_not_pass_the_gate_over_a_run_that_did_not_finish(
        pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], how: str) -> None:
    """A results file cut before its summary (the run was killed: the CI job's time ran out, the
    machine ran out of memory) or written by a Ctrl-C'd run holds only the episodes that ended;
    ``agenteval report --fail-under`` gated them as the whole run (``pass@1 1.000 >= 0.9``, exit
    0), and ``--out`` wrote a complete-looking merged file. The run's own gate never passes an
    interrupted run. Now such a file is noted, fails the gate, and a merged file says so too."""
    write_ex1_and_ex3(pytester.path)
    pytester.makepyfile(dodger=DODGER)
    if how == "ctrl-c":
        pytester.makeconftest(CTRL_C_AFTER_FIRST)
    pytester.runpytest_subprocess("tasks/", "--agent=dodger:Agent", "--agenteval-results=r.jsonl", "-p", "no:randomly")
    results = pytester.path / "r.jsonl"
    lines = results.read_text().splitlines()
    if how == "cut":  # killed once EX-1 (passed) was written: the run record and one grade
        assert json.loads(lines[1])["task_id"] == "EX-1"
        results.write_text("\n".join(lines[:2]) + "\n")
    else:
        assert json.loads(lines[-1])["summary"]["interrupted"] is True
    capsys.readouterr()
    assert main(["report", "r.jsonl", "--fail-under", "0.9", "--out", "merged.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "agenteval gate: passed: all pass@1 1.000 >= 0.9 (1 tasks, 1 episodes)" in out
    assert "agenteval gate: FAILED: r.jsonl: the run did not finish" in out
    assert main(["report", "merged.jsonl", "--fail-under", "0.9"]) == 1
    assert "agenteval gate: FAILED: merged.jsonl: the run did not finish" in capsys.readouterr().out


# Fails each task's first attempt (closes T-0009), passes every later one.
FLAKY = '''
class Agent:
    tries = {}

    def run(self, episode):
        n = Agent.tries[episode.task_id] = Agent.tries.get(episode.task_id, 0) + 1
        right = {"EX-1": "T-0001", "EX-3": "T-0003"}[episode.task_id]
        episode.call("close_ticket", {"ticket_id": right if n > 1 else "T-0009"})
'''


def test_agenteval_report_gates_a_rerun_run_as_the_run_itself_did(pytester: pytest.Pytester,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``--reruns 1`` the run's table and gate say pass@1 1.00 (each item's final attempt,
    docs/running.md: "passes within N+1 tries"), and its run record does not say reruns were on;
    ``agenteval report`` over the same file keeps each superseded failure as another run of its
    task (``3 episodes``, pass@1 0.50) and fails the gate the run passed: two verdicts on one
    file, and ``compare`` reads it the report's way. Now the report leaves replaced attempts out
    as the run did, says so, the run record names the reruns, and ``compare`` says when the two
    sides' reruns differ."""
    write_ex1_and_ex3(pytester.path)
    pytester.makepyfile(flaky=FLAKY)
    ran = pytester.runpytest("tasks/", "--agent=flaky:Agent", "--reruns", "1", "--agenteval-fail-under=1",
                             "--agenteval-results=r.jsonl", "-p", "no:randomly")
    assert ran.ret == 0
    capsys.readouterr()
    assert main(["report", "r.jsonl", "--fail-under", "1"]) == 0
    assert "2 attempt(s) replaced by a rerun left out" in capsys.readouterr().out
    assert json.loads((pytester.path / "r.jsonl").read_text().splitlines()[0])["run_record"]["options"]["reruns"] == 1
    pytester.runpytest("tasks/", "--agent=flaky:Agent", "--agenteval-results=plain.jsonl", "-p", "no:randomly")
    main(["compare", "plain.jsonl", "r.jsonl", "--allow-mixed"])
    assert "reruns differ (base 0, new 1)" in capsys.readouterr().out
