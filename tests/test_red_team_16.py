"""Red team 16: leftovers, exhaustion, order and guessing; each attack that got through pinned here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval.validate import validate
from tests.helpers.tasks import result_lines

ROOT = Path(__file__).parent.parent

# Reads nothing about the claim: escalates every claim to the head of claims, then carries out
# the answer to its own escalation. ESC-031..034 (the head is the right reviewer) pass.
ESCALATES_TO_THE_HEAD = '''
import re


class Agent:
    def run(self, episode):
        cid = re.search(r"CLM-\\d+", episode.instruction).group(0)
        episode.call("escalate", {"claim_id": cid, "to_staff_id": "HOC-1", "reason": "above my authority limit"})
        episode.call("add_note", {"claim_id": cid, "kind": "escalation", "body": "Escalated to HOC-1."})
        for _ in range(10):
            answer = (episode.call("check_escalation", {"claim_id": cid}).get("result") or [{}])[-1]
            if answer.get("status") != "pending":
                break
            episode.call("wait", {})
        if answer.get("status") in ("approved", "amended"):
            episode.call("approve_claim", {"claim_id": cid, "amount": answer["decision_amount"]})
            episode.call("issue_payment", {"claim_id": cid, "amount": answer["decision_amount"]})
            episode.call("notify_claimant", {"claim_id": cid, "kind": "approval", "body": "Approved and paid."})
'''


def _escalation(*ids: str) -> str:
    lines = (ROOT / "tasks" / "escalation.jsonl").read_text().splitlines()[1:]
    return "".join(line + "\n" for line in lines if json.loads(line)["task_id"] in ids)


def test_the_head_baseline_finds_what_an_agent_that_reads_nothing_passes(
        pytester: pytest.Pytester) -> None:
    """An isolated agent that never read the claim, its policy, the authority policy or the
    reviewers passed ESC-031 (bwrap, every check) by escalating to the head and doing what the
    head said; validate's 'always escalate to the head' stopped at the escalation, so it passed
    nothing and the guessability table said 0."""
    (pytester.path / "esc.jsonl").write_text(_escalation("ESC-007", "ESC-031"))
    pytester.makepyfile(head=ESCALATES_TO_THE_HEAD)
    results = pytester.path / "r.jsonl"
    pytester.runpytest("esc.jsonl", "--agent=head:Agent", "--agenteval-isolate", f"--agenteval-results={results}",
                       "-p", "no:randomly", "-p", "no:cacheprovider")
    grades = {g["task_id"]: g for g in result_lines(results) if "task_id" in g}
    assert not any(read in json.dumps(grades["ESC-031"]) for read in ("get_claim", "get_policy", "find_reviewers"))
    assert grades["ESC-031"]["passed"] and not grades["ESC-007"]["passed"]
    section = next(s for s in validate([str(pytester.path / "esc.jsonl")]).sections if s.name == "baselines")
    [per_file] = section.data.values()
    passed = per_file["constant always escalate to the head"]["passed"]
    assert passed == ["ESC-031"], "the baseline misses a task an agent that reads nothing passes"
