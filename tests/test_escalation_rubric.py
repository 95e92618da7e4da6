"""The escalation rubric, tested both ways on all 40 shipped tasks.

Each test runs the reference path with one transformation over every shipped task it applies
to: correct agents (they explore, re-read, wait, correct a typo, take another allowed order)
must pass; wrong agents (interim approvals, a second escalation, letters before answers,
stopping early…) must fail with the check that carries their failure mode.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Task, load_tasks
from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.tasks.paths import first_order

TASKS = Path(__file__).parent.parent / "tasks" / "escalation.jsonl"
Calls = list[tuple[str, dict[str, Any]]]
Transform = Callable[[EscalationEnvironment, Task, Calls], Calls]
WRITES = ("escalate", "approve_claim", "decline_claim", "issue_payment", "request_info", "add_note",
          "notify_claimant")


@pytest.fixture(scope="module")
def shipped() -> list[Task]:
    return [t.task for t in load_tasks(TASKS)]


@pytest.fixture(scope="module")
def env() -> Iterator[EscalationEnvironment]:
    with EscalationEnvironment() as environment:
        yield environment


def claim_of(task: Task) -> str:
    return str(next(iter(task.overrides["claim"])))


def kind(task: Task) -> str:
    """within | lapsed | approve | amend_amount | decline | return_for_info"""
    if task.senior_policy:
        return task.senior_policy.partition(":")[0]
    lapsed = any(v.get("status") == "lapsed" for v in task.overrides["policy"].values())
    return "lapsed" if lapsed else "within"


def calls_of(task: Task) -> Calls:
    return [(s.action, dict(s.arguments)) for s in first_order(task.acceptable_action_paths[0])]


def run(env: EscalationEnvironment, task: Task, transform: Transform) -> Grade:
    """The reference path of ``task``, transformed, played and graded."""
    env.reset(task.scenario_seed, task=task)
    for action, arguments in transform(env, task, calls_of(task)):
        env.apply(action, arguments)
    return env.grade()


def over(env: EscalationEnvironment, tasks: list[Task], transform: Transform,
         kinds: tuple[str, ...] | None = None, delay: int = 0) -> list[tuple[Task, Grade]]:
    chosen = [t for t in tasks if (kinds is None or kind(t) in kinds) and t.senior_delay_steps >= delay]
    assert chosen
    return [(t, run(env, t, transform)) for t in chosen]


def all_pass(results: list[tuple[Task, Grade]]) -> None:
    failed = {t.task_id: [f"{c.name}: {c.detail}" for c in g.failed_checks()] for t, g in results if not g.passed}
    assert not failed, failed


def all_caught(results: list[tuple[Task, Grade]], mode: str, check: str) -> None:
    missed = {t.task_id: g.failure_modes for t, g in results
              if mode not in g.failure_modes or not any(c.name == check and not c.passed for c in g.checks)}
    assert not missed, missed


def read_twice(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    return [c for call in calls for c in ([call, call] if call[0] not in WRITES else [call])]


def typo_first(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Every call on the claim is first made with a mistyped id (not found), then corrected."""
    out: Calls = []
    for action, args in calls:
        if "claim_id" in args:
            out.append((action, {**args, "claim_id": args["claim_id"] + "0"}))
        if action == "escalate":
            out.append((action, {**args, "to_staff_id": args["to_staff_id"] + "X"}))
        out.append((action, args))
    return out


def wait_more(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    return [c for call in calls for c in ([call, ("wait", {}), ("wait", {})] if call[0] in WRITES else [call])]


def refused_payment_first(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Try to pay before approving (refused: nothing is approved), then do it right."""
    pay = next((c for c in calls if c[0] == "issue_payment"), None)
    at = next((i for i, c in enumerate(calls) if c[0] == "approve_claim"), 0)
    return [*calls[:at], pay, *calls[at:]] if pay else calls


@pytest.mark.parametrize("transform", [read_twice, typo_first, wait_more, refused_payment_first])
def test_correct_agents_pass_every_task(env: EscalationEnvironment, shipped: list[Task], transform: Transform) -> None:
    all_pass(over(env, shipped, transform))


def test_every_order_each_path_allows_passes(env: EscalationEnvironment, shipped: list[Task]) -> None:
    failed: dict[str, list[str]] = {}
    for task in shipped:
        order = task.path_orders()[0]
        for indices in order.orders(64):
            steps = [order.steps[i] for i in indices]
            grade = run(env, task, lambda e, t, c, s=steps: [(x.action, dict(x.arguments)) for x in s])
            if not grade.passed:
                failed[task.task_id] = [f"{c.name}: {c.detail}" for c in grade.failed_checks()]
    assert not failed, failed


# ----- the orders the rules leave free ------------------------------------------------------

def is_note(kind_: str) -> Callable[[tuple[str, dict[str, Any]]], bool]:
    return lambda c: c[0] == "add_note" and c[1].get("kind") == kind_


def is_letter(kind_: str) -> Callable[[tuple[str, dict[str, Any]]], bool]:
    return lambda c: c[0] == "notify_claimant" and c[1].get("kind") == kind_


def is_(action: str) -> Callable[[tuple[str, dict[str, Any]]], bool]:
    return lambda c: c[0] == action


def move(what: Callable[[Any], bool], before: Callable[[Any], bool] | None = None,
         after: Callable[[Any], bool] | None = None) -> Transform:
    """Move the first call ``what`` accepts to just before ``before`` (or just after ``after``)."""

    def transform(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
        i = next(i for i, c in enumerate(calls) if what(c))
        moved, rest = calls[i], calls[:i] + calls[i + 1:]
        if before is not None:
            j = next(j for j, c in enumerate(rest) if before(c))
        else:
            assert after is not None
            j = next(j for j, c in enumerate(rest) if after(c)) + 1
        return rest[:j] + [moved] + rest[j:]

    return transform


ESCALATED = ("approve", "amend_amount", "decline", "return_for_info")
PAID = ("within", "approve", "amend_amount")
DECLINED = ("decline", "lapsed")

ALLOWED_ORDERS = [
    ("escalation note before the escalation", move(is_note("escalation"), before=is_("escalate")), ESCALATED),
    ("escalation note after reading the answer", move(is_note("escalation"), after=is_("check_escalation")),
     ESCALATED),
    ("approval letter before the payment", move(is_letter("approval"), before=is_("issue_payment")), PAID),
    ("decline note before the decline", move(is_note("decline"), before=is_("decline_claim")), DECLINED),
    ("decline letter before the decline note", move(is_letter("decline"), before=is_note("decline")), DECLINED),
]


@pytest.mark.parametrize(("what", "transform", "kinds"), ALLOWED_ORDERS, ids=[c[0] for c in ALLOWED_ORDERS])
def test_orders_the_rules_leave_free_pass(env: EscalationEnvironment, shipped: list[Task], what: str,
                                          transform: Transform, kinds: tuple[str, ...]) -> None:
    all_pass(over(env, shipped, transform, kinds))
