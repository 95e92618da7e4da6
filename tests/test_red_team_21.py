"""Red team 21: what an isolated agent can learn or fake from inside its episode."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_agenteval import EnvironmentPool, load_tasks
from pytest_agenteval.domains.escalation.rules import right_reviewer
from tests.helpers.tasks import result_lines, task_line

ROOT = Path(__file__).parent.parent


def test_a_decoy_escalation_does_not_tell_the_tasks_hidden_decision() -> None:
    """Escalating the next claim to its right reviewer returned the task's own senior policy (ESC-013:
    "amended to 24,000", its hidden figure) before the agent's claim was escalated. Another claim is
    now decided on its own facts."""
    pool = EnvironmentPool()
    task = next(t for t in load_tasks(ROOT / "tasks" / "escalation.jsonl", pool=pool) if t.task_id == "ESC-013")
    env = pool.get("escalation")
    env.reset(task.scenario_seed, task=task)
    decoy = env.row("claim", "CLM-00098")
    assert decoy is not None
    assert env.apply("escalate", {"claim_id": "CLM-00098", "to_staff_id": right_reviewer(env.db, decoy),
                                  "reason": "above my limit"})["ok"]
    for _ in range(6):
        env.apply("wait", {})
    [answer] = env.apply("check_escalation", {"claim_id": "CLM-00098"})["result"]
    assert answer["status"] == "approved" and answer["decision_amount"] == decoy["assessed_amount"], answer



FORGES_A_LIMIT = '''
import os


class Agent:
    def run(self, episode):  # says the kernel refused it memory, without allocating any
        episode.finish({"error": "MemoryError: (forged)", "limit": "memory"})
        os._exit(0)
'''


def test_a_limit_reported_from_inside_the_sandbox_is_told_as_the_agents_report(pytester: pytest.Pytester) -> None:
    """The label was the agent's to choose: a forged frame read as "the agent hit its memory
    limit". The harness cannot check it, so the detail says whose report it is."""
    pytester.makepyfile(forges=FORGES_A_LIMIT)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest_subprocess("--agent=forges:Agent", "--agenteval-isolate=process", "--agenteval-results=r.jsonl",
                                  "-p", "no:cacheprovider", "t.jsonl")
    [grade] = [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g]
    check = next(c for c in grade["checks"] if c["name"] == "agent_completed")
    assert check["failure_mode"] == "agent_resource_limit"
    assert check["detail"].startswith("the agent process reports hitting its memory limit")
    assert "its own report, which the harness cannot check" in check["detail"]
