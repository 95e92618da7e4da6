"""The claims-escalation domain on in-memory databases: rules, scripted seniors, rubric."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Task, load_tasks
from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.domains.escalation.rules import EscalationTaskFields, right_reviewer
from pytest_agenteval.tasks.paths import first_order

TASKS = Path(__file__).parent.parent / "tasks" / "escalation.jsonl"
Calls = list[tuple[str, dict[str, Any]]]



def fields(task: Task) -> EscalationTaskFields:
    """The escalation fields of a task line (senior_policy, senior_delay_steps)."""
    return EscalationTaskFields.model_validate(task.domain_fields)

@pytest.fixture(scope="module")
def shipped() -> dict[str, Task]:
    return {t.task_id: t for t in load_tasks(TASKS)}


@pytest.fixture(scope="module")
def env() -> Iterator[EscalationEnvironment]:
    with EscalationEnvironment() as environment:
        yield environment


def test_suite_size_splits_and_tags(shipped: dict[str, Task]) -> None:
    assert len(shipped) >= 40
    assert {t.split for t in shipped.values()} == {"train", "eval"}
    assert len({t.scenario_seed for t in shipped.values()}) >= 4
    for tag in ("wrong_reviewer", "unauthorised_decision", "missing_escalation", "limit_splitting", "unnecessary_escalation",
                "premature_decision", "no_follow_through", "missing_note", "lapsed_policy"):
        assert sum(tag in t.failure_mode_tags for t in shipped.values()) >= 4, tag
    policies = {fields(t).senior_policy.partition(":")[0] for t in shipped.values() if fields(t).senior_policy}
    assert policies == {"approve", "amend_amount", "decline", "return_for_info"}
    assert {fields(t).senior_delay_steps for t in shipped.values()} >= {0, 1, 2, 3}


def calls_of(task: Task) -> Calls:
    return [(s.action, dict(s.arguments)) for s in first_order(task.acceptable_action_paths[0])]


def play(env: EscalationEnvironment, task: Task, calls: Calls) -> tuple[list[str], list[dict[str, Any]]]:
    env.reset(task.scenario_seed, task=task)
    observations = [env.apply(a, k) for a, k in calls]
    return env.grade().failure_modes, observations


def pick(shipped: dict[str, Task], policy: str | None, *, tag: str | None = None, delay: int | None = None) -> Task:
    return next(t for t in shipped.values()
                if (fields(t).senior_policy or "").startswith(policy or "") and (policy or not fields(t).senior_policy)
                and (tag is None or tag in t.tags) and (delay is None or fields(t).senior_delay_steps == delay))


# ----- rules -------------------------------------------------------------------------

def test_right_reviewer_follows_limit_specialism_absence_and_head(env: EscalationEnvironment) -> None:
    env.reset(1)
    claim = dict(env.row("claim", "CLM-00001"))
    seniors = [r[0] for r in env.db.execute(
        "SELECT id FROM staff WHERE role = 'senior' AND specialism = ? ORDER BY approval_limit", (claim["claim_type"],))]
    env.db.execute("UPDATE staff SET status = 'present' WHERE role = 'senior'")
    assert right_reviewer(env.db, {**claim, "assessed_amount": 20_000}) == seniors[0]
    assert right_reviewer(env.db, {**claim, "assessed_amount": 120_000}) == seniors[1]
    assert right_reviewer(env.db, {**claim, "assessed_amount": 900_000}) == "HOC-1"
    env.db.execute("UPDATE staff SET status = 'absent' WHERE id IN (?, ?)", (seniors[0], seniors[1]))
    assert right_reviewer(env.db, {**claim, "assessed_amount": 20_000}) == seniors[2]  # deputy of the deputy
    env.db.execute("UPDATE staff SET status = 'absent' WHERE id = ?", (seniors[2],))
    assert right_reviewer(env.db, {**claim, "assessed_amount": 20_000}) == "HOC-1"
    env.reset(1)


@pytest.mark.parametrize(("policy", "status"), [("approve", "approved"), ("amend_amount", "amended"),
                                                ("decline", "declined"), ("return_for_info", "returned")])
def test_each_senior_policy(env: EscalationEnvironment, shipped: dict[str, Task], policy: str, status: str) -> None:
    task = pick(shipped, policy)
    calls = calls_of(task)
    upto = next(i for i, c in enumerate(calls) if c[0] == "check_escalation") + 1
    _, obs = play(env, task, calls[:upto])
    answer = obs[-1]["result"][-1]
    assert answer["status"] == status
    if policy == "amend_amount":
        assert answer["decision_amount"] == float(fields(task).senior_policy.split(":")[1])
    senior_rows = [e for e in env.audit_log() if e.actor_role == "senior"]
    assert [e.action for e in senior_rows] == ["decide_escalation"]


@pytest.mark.parametrize("delay", [0, 1, 2, 3])
def test_the_decision_appears_after_the_delay(env: EscalationEnvironment, shipped: dict[str, Task], delay: int) -> None:
    task = pick(shipped, "approve", delay=delay) if delay != 1 else pick(shipped, "amend", delay=1)
    calls = calls_of(task)
    at = next(i for i, c in enumerate(calls) if c[0] == "escalate")
    probe = ("check_escalation", {"claim_id": calls[at][1]["claim_id"]})
    _, obs = play(env, task, [*calls[: at + 1], *[probe] * (delay + 1)])
    statuses = [o["result"][-1]["status"] for o in obs[at + 1:]]
    # The escalating step counts: after `delay` further steps the answer is there.
    assert statuses == ["pending"] * delay + [statuses[-1]] and statuses[-1] != "pending"


def test_wrong_reviewer_returns_it_as_misrouted_and_absent_never_answers(
        env: EscalationEnvironment, shipped: dict[str, Task]) -> None:
    task = pick(shipped, "approve", tag="wrong_reviewer", delay=0)
    calls = calls_of(task)
    claim_id = calls[0][1]["claim_id"]
    wrong = "HOC-1"
    _, obs = play(env, task, [("escalate", {"claim_id": claim_id, "to_staff_id": wrong, "reason": "x"}),
                              ("check_escalation", {"claim_id": claim_id})])
    assert obs[-1]["result"][0]["status"] == "returned"
    assert obs[-1]["result"][0]["response"].startswith("misrouted:")
    deputy_task = next(t for t in shipped.values() if any(v == {"status": "absent"} for v in t.overrides.get("staff", {}).values()))
    absent = next(k for k, v in deputy_task.overrides["staff"].items() if v == {"status": "absent"})
    deputy_claim = calls_of(deputy_task)[0][1]["claim_id"]
    _, obs = play(env, deputy_task, [("escalate", {"claim_id": deputy_claim, "to_staff_id": absent, "reason": "x"}),
                                     *[("wait", {})] * 5, ("check_escalation", {"claim_id": deputy_claim})])
    assert obs[-1]["result"][0]["status"] == "pending"


def test_rules_refuse_impossible_actions(env: EscalationEnvironment) -> None:
    env.reset(2)
    claim = env.db.execute("SELECT id FROM claim WHERE handler_id = 'STF-001' LIMIT 1").fetchone()[0]
    assert env.apply("escalate", {"claim_id": claim, "to_staff_id": "STF-002", "reason": "x"})["error"] == "invalid_target"
    assert env.apply("issue_payment", {"claim_id": claim, "amount": 10.0})["error"] == "not_approved"
    assert env.apply("decline_claim", {"claim_id": claim, "reason": "x"})["ok"]
    assert env.apply("approve_claim", {"claim_id": claim, "amount": 10.0})["error"] == "already_decided"
    assert env.apply("add_note", {"claim_id": claim, "kind": "gossip", "body": "x"})["error"] == "invalid_arguments"


# ----- each rubric check, on a hand-made episode that breaks it -------------------------

def without(*actions: str) -> Callable[[Calls], Calls]:
    return lambda calls: [c for c in calls if c[0] not in actions]


def replace(action: str, **changes: Any) -> Callable[[Calls], Calls]:
    return lambda calls: [(a, {**k, **changes} if a == action else k) for a, k in calls]


def split(calls: Calls) -> Calls:
    out: Calls = []
    for a, k in calls:
        out += [(a, {**k, "amount": k["amount"] / 2})] * 2 if a in ("approve_claim", "issue_payment") else [(a, k)]
    return out


def decide_directly(calls: Calls) -> Calls:
    return [c for c in calls if c[0] not in ("find_reviewers", "escalate", "add_note", "wait", "check_escalation")]


def escalate_first(calls: Calls) -> Calls:
    claim_id = calls[0][1]["claim_id"]
    return [*calls[:3], ("escalate", {"claim_id": claim_id, "to_staff_id": "HOC-1", "reason": "x"}), *calls[3:]]


def pay_assessed(task: Task) -> Callable[[Calls], Calls]:
    assessed = next(iter(task.overrides["claim"].values()))["assessed_amount"]
    return lambda calls: [(a, {**k, "amount": assessed} if a in ("approve_claim", "issue_payment") else k)
                          for a, k in calls]


CASES: list[tuple[str, dict[str, Any], Any, str]] = [
    ("wrong reviewer", {"policy": "approve", "delay": 0}, replace("escalate", to_staff_id="HOC-1"), "wrong_reviewer"),
    ("decided above the limit", {"policy": "approve", "delay": 0}, decide_directly, "unauthorised_decision"),
    ("split approval and payment", {"policy": "approve", "delay": 0}, split, "limit_splitting"),
    ("escalated within authority", {"policy": None, "tag": "unnecessary_escalation"}, escalate_first,
     "unnecessary_escalation"),
    ("acted before the answer", {"policy": "approve", "delay": 3}, without("wait"), "premature_decision"),
    ("skipped the escalation note", {"policy": "approve", "delay": 0}, without("add_note"), "missing_note"),
    ("skipped the decline note", {"policy": "decline"}, lambda c: [x for x in c if x[1].get("kind") != "decline"
                                                                   or x[0] != "add_note"], "missing_note"),
    ("ignored the decline", {"policy": "decline"}, without("decline_claim", "add_note", "notify_claimant"),
     "no_follow_through"),
    ("never asked for information", {"policy": "return_for_info"}, without("request_info"), "no_follow_through"),
]


@pytest.mark.parametrize(("what", "select", "sabotage", "mode"), CASES, ids=[c[0] for c in CASES])
def test_each_rubric_check_fires(env: EscalationEnvironment, shipped: dict[str, Task], what: str,
                                 select: dict[str, Any], sabotage: Any, mode: str) -> None:
    task = pick(shipped, select.get("policy"), tag=select.get("tag"), delay=select.get("delay"))
    modes, _ = play(env, task, sabotage(calls_of(task)))
    assert mode in modes, (what, modes)


def test_ignored_amendment_is_no_follow_through(env: EscalationEnvironment, shipped: dict[str, Task]) -> None:
    task = pick(shipped, "amend_amount")
    modes, _ = play(env, task, pay_assessed(task)(calls_of(task)))
    assert "no_follow_through" in modes


def test_lapsed_policy_approved_is_caught(env: EscalationEnvironment, shipped: dict[str, Task]) -> None:
    task = next(t for t in shipped.values() if "lapsed_policy" in t.tags)
    claim_id = calls_of(task)[0][1]["claim_id"]
    modes, _ = play(env, task, [("approve_claim", {"claim_id": claim_id, "amount": 100.0})])
    assert "lapsed_policy" in modes


def test_senior_actions_are_audited_as_senior(env: EscalationEnvironment, shipped: dict[str, Task]) -> None:
    task = pick(shipped, "approve", delay=0)
    play(env, task, calls_of(task))
    roles = {(e.actor_role, e.actor_id) for e in env.audit_log()}
    reviewer = task.expected_final_state["escalation"]["+"][0]["to_staff"]
    assert roles == {("handler", "STF-001"), ("senior", reviewer)}
