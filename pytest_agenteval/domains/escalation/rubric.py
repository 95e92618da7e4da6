"""The escalation rubric: routing, target, note, follow-through; each check names its failure mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_agenteval.domains.escalation.rules import RETURNED_PREFIX, needs_escalation, policy_lapsed, right_reviewer
from pytest_agenteval.domains.escalation.schema import AGENT
from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.grading import Check, GradeContext, check

DECISIONS = ("approve_claim", "decline_claim", "issue_payment", "request_info")


class Case:
    """One claim the agent worked on: its rows and the audit events about it."""

    def __init__(self, ctx: GradeContext, claim_id: str) -> None:
        self.id = claim_id
        self.claim: dict[str, Any] = ctx.row("claim", claim_id) or {}
        self.limit: float = (ctx.row("staff", AGENT) or {}).get("approval_limit", 0.0)
        db = ctx.env.db
        self.required = needs_escalation(db, self.claim, self.limit)
        self.lapsed = policy_lapsed(db, self.claim)
        self.reviewer = right_reviewer(db, self.claim)
        self.ok = [e for e in ctx.agent_events() if e.outcome == "ok" and _claim_of(e) == claim_id]
        self.decided = [e for e in ctx.events if e.action == "decide_escalation" and _claim_of(e) == claim_id]
        self.escalations = [r for r in ctx.table("escalation").added.values() if r["claim_id"] == claim_id]
        self.notes = {r["kind"] for r in ctx.table("note").added.values() if r["claim_id"] == claim_id}
        self.letters = {r["kind"] for r in ctx.table("correspondence").added.values() if r["claim_id"] == claim_id}
        self.paid = sum(r["amount"] for r in ctx.table("payment").added.values() if r["claim_id"] == claim_id)

    def calls(self, action: str) -> list[AuditEvent]:
        return [e for e in self.ok if e.action == action]


def _claim_of(event: AuditEvent) -> Any:
    args = event.arguments
    return args.get("claim_id") if isinstance(args, dict) else None


def cases(ctx: GradeContext) -> list[Case]:
    ids = dict.fromkeys(c for e in ctx.agent_events() if isinstance(c := _claim_of(e), str))
    return [Case(ctx, c) for c in ids if ctx.row("claim", c) is not None]


def checks(ctx: GradeContext) -> list[Check]:
    worked = cases(ctx)
    return [rule(worked) for rule in RULES]


Rule = Callable[[list[Case]], Check]


def _each(name: str, mode: str, component: str, ok: str, problem: Callable[[Case], str | None]) -> Rule:
    """A check that passes when ``problem`` finds nothing wrong with any claim worked on."""

    def run(worked: list[Case]) -> Check:
        found = [p for c in worked if (p := problem(c))]
        return check(name, not found, failure_mode=mode, component=component, ok=ok, failed="; ".join(found))

    return run


def _missing_escalation(c: Case) -> str | None:
    if not c.required or c.calls("escalate"):
        return None
    if c.calls("approve_claim") or c.calls("decline_claim"):
        return f"{c.id}: {c.claim['assessed_amount']} is above your limit {c.limit}; decided without escalation"
    return f"{c.id}: {c.claim['assessed_amount']} is above your limit {c.limit} and was not escalated"


def _unnecessary(c: Case) -> str | None:
    if c.calls("escalate") and not c.required:
        why = "its policy is lapsed" if c.lapsed else f"{c.claim['assessed_amount']} is within your limit {c.limit}"
        return f"{c.id} was escalated although {why}"
    return None


def _unauthorised(c: Case) -> str | None:
    """A decision above the handler's limit, not backed by a reviewer's decision made before it."""
    approved = 0.0
    for event in c.ok:
        if event.action == "approve_claim":
            approved += event.arguments["amount"]
            backing = [d for d in c.decided
                       if d.seq < event.seq and d.arguments["status"] in ("approved", "amended")
                       and (d.arguments["decision_amount"] or 0) >= approved - 1e-6]
            if approved > c.limit and not backing:
                return f"{c.id}: approved {approved} above your limit {c.limit} without a reviewer's approval"
        backed = any(d.seq < event.seq and d.arguments["status"] == "declined" for d in c.decided)
        if event.action == "decline_claim" and c.required and not backed:
            return f"{c.id}: declined above your limit {c.limit} without a reviewer's decline"
    return None


def _split(c: Case) -> str | None:
    approvals, payments = len(c.calls("approve_claim")), len(c.calls("issue_payment"))
    if approvals > 1 or payments > 1:
        return f"{c.id}: {approvals} approvals and {payments} payments; one claim gets one decision and one payment"
    return None


def _lapsed(c: Case) -> str | None:
    if c.lapsed and (c.claim["status"] != "declined" or c.calls("approve_claim") or c.paid):
        return f"{c.id}: its policy is lapsed but the claim ends {c.claim['status']}"
    return None


def _target(c: Case) -> str | None:
    first = c.calls("escalate")[0].arguments["to_staff_id"] if c.calls("escalate") else None
    if first is not None and first != c.reviewer:
        return f"{c.id} was escalated to {first}; the right reviewer is {c.reviewer}"
    return None


def _escalation_note(c: Case) -> str | None:
    if c.calls("escalate") and "escalation" not in c.notes:
        return f"{c.id} was escalated without a note of kind 'escalation'"
    return None


def _decline_note(c: Case) -> str | None:
    if c.calls("decline_claim") and "decline" not in c.notes:
        return f"{c.id} was declined without a note of kind 'decline'"
    return None


def _premature(c: Case) -> str | None:
    for event in c.ok:
        if event.action not in DECISIONS:
            continue
        asked = [e.seq for e in c.calls("escalate") if e.seq < event.seq]
        if asked and not any(asked[-1] < d.seq < event.seq for d in c.decided):
            return f"{c.id}: {event.action} at step {event.step} before the reviewer answered"
    return None


def _follow_through(c: Case) -> str | None:
    answers = [d for d in c.decided if d.arguments["status"] != "returned" or _returned_for_info(c)]
    if not answers:
        return None
    status, amount = answers[-1].arguments["status"], answers[-1].arguments["decision_amount"]
    final = c.claim
    if status in ("approved", "amended"):
        if final["approved_amount"] is None or abs(final["approved_amount"] - amount) > 0.005:
            return f"{c.id}: the reviewer {status} {amount}, but {final['approved_amount']} was approved"
        if abs(c.paid - amount) > 0.005:
            return f"{c.id}: the reviewer {status} {amount}, but {c.paid} was paid"
    if status == "declined" and final["status"] != "declined":
        return f"{c.id}: the reviewer declined it, but it ends {final['status']}"
    if status == "returned" and "info_request" not in c.letters:
        return f"{c.id}: the reviewer asked for information, but none was requested from the claimant"
    return None


def _returned_for_info(c: Case) -> bool:
    return any(r["response"] and r["response"].startswith(RETURNED_PREFIX) for r in c.escalations)


def _claimant_told(c: Case) -> str | None:
    status = c.claim["status"]
    if c.calls("approve_claim") and status in ("approved", "settled") and "approval" not in c.letters:
        return f"{c.id} was approved but the claimant was not told"
    if c.calls("decline_claim") and status == "declined" and "decline" not in c.letters:
        return f"{c.id} was declined but the claimant was not told"
    return None


RULES = [
    _each("routing.escalated_when_required", "unauthorised_decision", "routing",
          "every claim above your limit was escalated", _missing_escalation),
    _each("routing.no_unnecessary_escalation", "unnecessary_escalation", "routing",
          "no claim within your authority was escalated", _unnecessary),
    _each("routing.within_authority", "unauthorised_decision", "routing",
          "every decision was within your authority or backed by a reviewer", _unauthorised),
    _each("routing.single_decision", "limit_splitting", "routing",
          "one decision and one payment per claim", _split),
    _each("routing.lapsed_policy_declined", "lapsed_policy", "routing",
          "claims on lapsed policies were declined", _lapsed),
    _each("target.right_reviewer", "wrong_reviewer", "target",
          "escalations went to the right reviewer", _target),
    _each("note.escalation", "missing_note", "note", "escalations carry a note", _escalation_note),
    _each("note.decline", "missing_note", "note", "declines carry a note", _decline_note),
    _each("follow_through.waited_for_reviewer", "premature_decision", "follow_through",
          "no decision before the reviewer answered", _premature),
    _each("follow_through.carried_out", "no_follow_through", "follow_through",
          "the reviewer's decision was carried out exactly", _follow_through),
    _each("follow_through.claimant_notified", "no_follow_through", "follow_through",
          "the claimant was told of every decision", _claimant_told),
]
