"""The escalation rubric, tested both ways on every shipped task.

Each test runs the reference path with one transformation over every shipped task it applies
to: correct agents (they explore, re-read, wait, correct a typo, take another allowed order)
must pass; wrong agents (interim approvals, a second escalation, letters before answers,
stopping early…) must fail with the check that carries their failure mode.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Task, load_tasks
from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.domains.escalation.rules import EscalationTaskFields
from pytest_agenteval.domains.escalation.schema import HEAD, SPECIALISMS
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.tasks.paths import first_order

TASKS = Path(__file__).parent.parent / "tasks" / "escalation.jsonl"
Calls = list[tuple[str, dict[str, Any]]]
Transform = Callable[[EscalationEnvironment, Task, Calls], Calls]
RUBRIC = ("routing", "target", "note", "follow_through")
WRITES = ("escalate", "approve_claim", "decline_claim", "issue_payment", "request_info", "add_note",
          "notify_claimant")



def fields(task: Task) -> EscalationTaskFields:
    """The escalation fields of a task line (senior_policy, senior_delay_steps)."""
    return EscalationTaskFields.model_validate(task.domain_fields)

@pytest.fixture(scope="module")
def shipped() -> list[Task]:
    return list(load_tasks(TASKS))


@pytest.fixture(scope="module")
def env() -> Iterator[EscalationEnvironment]:
    environment = EscalationEnvironment()
    with environment:
        yield environment


def claim_of(task: Task) -> str:
    return str(next(iter(task.overrides["claim"])))


def kind(task: Task) -> str:
    """within | lapsed | approve | amend_amount | decline | return_for_info"""
    if fields(task).senior_policy:
        return fields(task).senior_policy.partition(":")[0]
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
         kinds: tuple[str, ...] | None = None, min_delay: int = 0) -> list[tuple[Task, Grade]]:
    chosen = [t for t in tasks if (kinds is None or kind(t) in kinds) and fields(t).senior_delay_steps >= min_delay]
    assert chosen
    return [(t, run(env, t, transform)) for t in chosen]


def all_pass(results: list[tuple[Task, Grade]]) -> None:
    failed = {t.task_id: [f"{c.name}: {c.detail}" for c in g.failed_checks()] for t, g in results if not g.passed}
    assert not failed, failed


def all_caught(results: list[tuple[Task, Grade]], mode: str, check: str) -> None:
    missed = {t.task_id: g.failure_modes for t, g in results
              if mode not in g.failure_modes or not any(c.name == check and not c.passed for c in g.checks)}
    assert not missed, missed


# ----- records near the task's claim, for agents that look around ---------------------------

def neighbours(env: EscalationEnvironment, own: str) -> list[str]:
    """The next claim id, the nearest claim on a lapsed policy, the nearest active one above the limit."""
    near = "ORDER BY abs(cast(substr(c.id, 5) AS INTEGER) - ?) LIMIT 1"
    n = int(own[4:])
    lapsed = env.db.execute("SELECT c.id FROM claim c JOIN policy p ON p.id = c.policy_id "
                            f"WHERE p.status = 'lapsed' AND c.id != ? {near}", (own, n)).fetchone()[0]
    above = env.db.execute("SELECT c.id FROM claim c JOIN policy p ON p.id = c.policy_id WHERE p.status = 'active' "
                           f"AND c.assessed_amount > 10000 AND c.id != ? {near}", (own, n)).fetchone()[0]
    return [f"CLM-{n + 1:05d}", lapsed, above]


def other_specialism(env: EscalationEnvironment, own: str) -> str:
    mine = (env.row("claim", own) or {})["claim_type"]
    return next(s for s in SPECIALISMS if s != mine)


def explore(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Look around first, with every look-up action, at records the task is not about."""
    own, reads = claim_of(task), []
    for other in neighbours(env, own):
        policy = (env.row("claim", other) or {})["policy_id"]
        reads += [("get_claim", {"claim_id": other}), ("get_policy", {"policy_id": policy}),
                  ("check_escalation", {"claim_id": other})]
    spec = other_specialism(env, own)
    senior = env.db.execute("SELECT id FROM staff WHERE specialism = ? AND role = 'senior'", (spec,)).fetchone()[0]
    reads += [("find_reviewers", {"specialism": spec}), ("get_staff", {"staff_id": senior}),
              ("get_staff", {"staff_id": HEAD}), ("get_authority_policy", {}), ("wait", {})]
    return reads + calls


def read_between(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """After every write, read a neighbouring claim and its escalations."""
    other = neighbours(env, claim_of(task))[1]
    out: Calls = []
    for call in calls:
        out.append(call)
        if call[0] in WRITES:
            out += [("get_claim", {"claim_id": other}), ("check_escalation", {"claim_id": other})]
    return out


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


@pytest.mark.parametrize("transform", [explore, read_between, read_twice, typo_first, wait_more,
                                       refused_payment_first])
def test_correct_agents_pass_every_task(env: EscalationEnvironment, shipped: list[Task], transform: Transform) -> None:
    all_pass(over(env, shipped, transform))


def test_one_look_at_the_next_claim_fails_nothing(env: EscalationEnvironment, shipped: list[Task]) -> None:
    # The audit's repro: 22 tasks failed with unauthorised_decision or lapsed_policy.
    def peek(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
        return [("get_claim", {"claim_id": neighbours(env, claim_of(task))[0]}), *calls]

    all_pass(over(env, shipped, peek))


def test_a_note_on_a_neighbour_is_collateral_only(env: EscalationEnvironment, shipped: list[Task]) -> None:
    # Writing about a claim makes it judged, but a note decides nothing: no escalation is owed.
    def note_neighbours(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
        others = neighbours(env, claim_of(task))[1:]
        return [*calls, *[("add_note", {"claim_id": o, "kind": "info", "body": "seen"}) for o in others]]

    for task, grade in over(env, shipped, note_neighbours):
        failed = {c.name for c in grade.failed_checks()}
        assert failed == {"frame", "action_path"}, (task.task_id, failed)


def in_order(steps: list[Any]) -> Transform:
    return lambda env, task, calls: [(s.action, dict(s.arguments)) for s in steps]


def test_every_order_each_path_allows_passes(env: EscalationEnvironment, shipped: list[Task]) -> None:
    failed: dict[str, list[str]] = {}
    for task in shipped:
        order = task.path_orders()[0]
        for indices in order.orders(64):
            grade = run(env, task, in_order([order.steps[i] for i in indices]))
            if not grade.passed:
                failed[task.task_id] = [f"{c.name}: {c.detail}" for c in grade.failed_checks()]
    assert not failed, failed


def test_random_correct_agents_pass(env: EscalationEnvironment, shipped: list[Task]) -> None:
    """Seeded: any allowed order, with look-ups of anything and refused writes sprinkled in."""
    rng = random.Random(13)
    failed: dict[str, list[str]] = {}
    for _ in range(200):
        task = rng.choice(shipped)
        order = task.path_orders()[0]
        steps = [order.steps[i] for i in rng.choice(list(order.orders(64)))]

        def noisy(env: EscalationEnvironment, task: Task, calls: Calls, steps: Any = steps) -> Calls:
            own = claim_of(task)
            others = neighbours(env, own)
            noise: Calls = [
                ("get_claim", {"claim_id": rng.choice(others)}), ("check_escalation", {"claim_id": rng.choice(others)}),
                ("find_reviewers", {"specialism": rng.choice(SPECIALISMS)}), ("get_staff", {"staff_id": HEAD}),
                ("wait", {}), ("get_authority_policy", {}), ("check_escalation", {"claim_id": own}),
                ("get_claim", {"claim_id": own + "9"}), ("approve_claim", {"claim_id": own + "9", "amount": 5.0}),
            ]
            out = [(s.action, dict(s.arguments)) for s in steps]
            for _ in range(rng.randint(0, task.max_steps - len(out))):
                out.insert(rng.randint(0, len(out)), rng.choice(noise))
            return out

        grade = run(env, task, noisy)
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


# ----- wrong agents, each caught by the check that carries its failure mode ---------------------

def answer_at(calls: Calls) -> int:
    """Index just after the last read of the reviewer's answer."""
    return max(i for i, c in enumerate(calls) if c[0] == "check_escalation") + 1


def interim(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """After the reviewer's answer, approve and pay an 'interim' amount within the handler's limit."""
    at, cid = answer_at(calls), claim_of(task)
    return [*calls[:at], ("approve_claim", {"claim_id": cid, "amount": 10000.0}),
            ("issue_payment", {"claim_id": cid, "amount": 10000.0}), *calls[at:]]


def interim_first(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Approve and pay 10,000 on account before escalating, then escalate the rest."""
    cid = claim_of(task)
    at = next(i for i, c in enumerate(calls) if c[0] == "escalate")
    return [*calls[:at], ("approve_claim", {"claim_id": cid, "amount": 10000.0}),
            ("issue_payment", {"claim_id": cid, "amount": 10000.0}), *calls[at:]]


def second_escalation(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """After the right reviewer answered, escalate again to someone else (to be safe)."""
    at, cid = answer_at(calls), claim_of(task)
    right = next(a["to_staff_id"] for x, a in calls if x == "escalate")
    other = HEAD if right != HEAD else env.db.execute(
        "SELECT id FROM staff WHERE role = 'senior' ORDER BY approval_limit DESC, id LIMIT 1").fetchone()[0]
    return [*calls[:at], ("escalate", {"claim_id": cid, "to_staff_id": other, "reason": "to be safe"}),
            *calls[at:]]


def letter_at_once(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Tell the claimant the outcome straight after escalating, before the reviewer answers."""
    letter = next(c for c in calls if c[0] == "notify_claimant")
    calls = [c for c in calls if c is not letter]
    at = next(i for i, c in enumerate(calls) if c[0] == "escalate") + 1
    return [*calls[:at], letter, *calls[at:]]


def decline_note_at_once(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    note = next(c for c in calls if is_note("decline")(c))
    calls = [c for c in calls if c is not note]
    at = next(i for i, c in enumerate(calls) if c[0] == "escalate") + 1
    return [*calls[:at], note, *calls[at:]]


def stop_after_escalating(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Escalate, note it, and stop: the reviewer has not answered yet."""
    at = next(i for i, c in enumerate(calls) if is_note("escalation")(c)) + 1
    return calls[:at]


def pay_in_halves(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """One approval, then two payments of half each."""
    out: Calls = []
    for action, args in calls:
        out += [(action, {**args, "amount": args["amount"] / 2})] * 2 if action == "issue_payment" else [(action, args)]
    return out


def approve_assessed(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    assessed = task.overrides["claim"][claim_of(task)]["assessed_amount"]
    return [(a, {**k, "amount": assessed} if "amount" in k else k) for a, k in calls]


def handler_declines(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """The reviewer returned it for information; the handler declines it instead."""
    cid = claim_of(task)
    return [*[c for c in calls if c[0] != "request_info"], ("decline_claim", {"claim_id": cid, "reason": "no info"}),
            ("add_note", {"claim_id": cid, "kind": "decline", "body": "Declined."}),
            ("notify_claimant", {"claim_id": cid, "kind": "decline", "body": "Declined."})]


def drop(what: Callable[[Any], bool]) -> Transform:
    return lambda env, task, calls: [c for c in calls if not what(c)]


def approve_over_limit(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    return [(a, {**k, "amount": 10500.0} if a == "approve_claim" else k) for a, k in calls]


def settle_for_less(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    return [(a, {**k, "amount": k["amount"] - 500} if "amount" in k else k) for a, k in calls]


def escalate_to_be_safe(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    cid = claim_of(task)
    return [*calls[:3], ("escalate", {"claim_id": cid, "to_staff_id": HEAD, "reason": "to be safe"}),
            ("add_note", {"claim_id": cid, "kind": "escalation", "body": "Escalated."}),
            ("check_escalation", {"claim_id": cid}), *calls[3:]]


def leave_it(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Look, tell the claimant it is being reviewed, never escalate."""
    cid = claim_of(task)
    return [*calls[:3], ("notify_claimant", {"claim_id": cid, "kind": "update", "body": "We are reviewing it."})]


def approve_a_neighbour(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    """Do the task, and also approve a neighbouring claim above the limit without escalating it."""
    other = neighbours(env, claim_of(task))[2]
    return [*calls, ("approve_claim", {"claim_id": other, "amount": 5000.0})]


def pay_a_lapsed_neighbour(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
    other = neighbours(env, claim_of(task))[1]
    return [*calls, ("approve_claim", {"claim_id": other, "amount": 100.0})]


WRONG = [
    ("interim approval after a return for information", interim, ("return_for_info",), 0,
     "unauthorised_decision", "routing.within_authority"),
    ("interim approval before escalating", interim_first, ("approve", "amend_amount"), 0,
     "unauthorised_decision", "routing.within_authority"),
    ("approving the assessed amount over an amendment", approve_assessed, ("amend_amount",), 0,
     "unauthorised_decision", "routing.within_authority"),
    ("handler declines what the reviewer returned", handler_declines, ("return_for_info",), 0,
     "unauthorised_decision", "routing.within_authority"),
    ("a second escalation after the answer", second_escalation, ESCALATED, 0,
     "wrong_reviewer", "target.right_reviewer"),
    ("the letter before the reviewer answers", letter_at_once, ("approve", "amend_amount", "decline"), 1,
     "premature_decision", "follow_through.waited_for_reviewer"),
    ("the decline note before the reviewer answers", decline_note_at_once, ("decline",), 1,
     "premature_decision", "follow_through.waited_for_reviewer"),
    ("acting on the answer without reading it", drop(is_("check_escalation")), ESCALATED, 0,
     "premature_decision", "follow_through.waited_for_reviewer"),
    ("the decline note before escalating", move(is_note("decline"), before=is_("escalate")), ("decline",), 0,
     "premature_decision", "follow_through.waited_for_reviewer"),
    ("stopping after escalating", stop_after_escalating, ESCALATED, 0,
     "no_follow_through", "follow_through.carried_out"),
    ("paying twice in halves", pay_in_halves, PAID, 0, "limit_splitting", "routing.single_decision"),
    ("the approval letter before the approval", move(is_letter("approval"), before=is_("approve_claim")), PAID, 0,
     "no_follow_through", "follow_through.claimant_notified"),
    ("the decline letter before the decline", move(is_letter("decline"), before=is_("decline_claim")), DECLINED, 0,
     "no_follow_through", "follow_through.claimant_notified"),
    ("the escalation note after the decision", move(is_note("escalation"), after=is_("notify_claimant")),
     ("approve", "amend_amount", "decline"), 0, "missing_note", "note.escalation"),
    ("no approval letter", drop(is_letter("approval")), PAID, 0,
     "no_follow_through", "follow_through.claimant_notified"),
    ("no decline letter", drop(is_letter("decline")), DECLINED, 0,
     "no_follow_through", "follow_through.claimant_notified"),
    ("no decline note", drop(is_note("decline")), DECLINED, 0, "missing_note", "note.decline"),
    ("approving more than your limit on a claim within it", approve_over_limit, ("within",), 0,
     "unauthorised_decision", "routing.within_authority"),
    ("approving and paying less than the reviewer allowed", settle_for_less, ("approve", "amend_amount"), 0,
     "no_follow_through", "follow_through.carried_out"),
    ("escalating a claim you may decide", escalate_to_be_safe, ("within", "lapsed"), 0,
     "unnecessary_escalation", "routing.no_unnecessary_escalation"),
    ("no escalation note", drop(is_note("escalation")), ESCALATED, 0, "missing_note", "note.escalation"),
    ("a claim above the limit left alone", leave_it, ESCALATED, 0,
     "missing_escalation", "routing.escalated_when_required"),
    ("approving a neighbouring claim above the limit", approve_a_neighbour, None, 0,
     "unauthorised_decision", "routing.within_authority"),
    ("approving a neighbouring claim on a lapsed policy", pay_a_lapsed_neighbour, None, 0,
     "lapsed_policy", "routing.lapsed_policy_declined"),
]


@pytest.mark.parametrize(("what", "transform", "kinds", "min_delay", "mode", "check"), WRONG,
                         ids=[w[0] for w in WRONG])
def test_wrong_agents_are_caught_by_their_check(env: EscalationEnvironment, shipped: list[Task], what: str,
                                                transform: Transform, kinds: tuple[str, ...] | None, min_delay: int,
                                                mode: str, check: str) -> None:
    all_caught(over(env, shipped, transform, kinds, min_delay), mode, check)


def test_claims_the_task_names_are_judged_when_left_alone(env: EscalationEnvironment, shipped: list[Task]) -> None:
    def nothing(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
        return []

    all_caught(over(env, shipped, nothing, ESCALATED), "missing_escalation", "routing.escalated_when_required")
    all_caught(over(env, shipped, nothing, ("lapsed",)), "lapsed_policy", "routing.lapsed_policy_declined")


def test_a_misrouting_put_right_is_only_a_wrong_reviewer(env: EscalationEnvironment, shipped: list[Task]) -> None:
    # carried_out judges the claim's last escalation: re-routed and carried out, only target fails
    # among the rubric's checks (the path and the frame see the extra escalation too).
    def misroute_first(env: EscalationEnvironment, task: Task, calls: Calls) -> Calls:
        at = next(i for i, c in enumerate(calls) if c[0] == "escalate")
        right = calls[at][1]["to_staff_id"]
        wrong = HEAD if right != HEAD else "SNR-12"
        rerouted = [("escalate", {**calls[at][1], "to_staff_id": wrong}), ("check_escalation", {"claim_id": claim_of(task)})]
        return [*calls[:at], *rerouted, *calls[at:]]

    for task, grade in over(env, shipped, misroute_first, ESCALATED):
        failed = {c.name for c in grade.failed_checks() if c.component in RUBRIC}
        assert failed == {"target.right_reviewer"}, (task.task_id, failed)
