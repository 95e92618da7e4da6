"""The booking rubric: what task data cannot say, as named checks with failure modes.

Scope: the rubric judges the facilities the task is about (named in its instruction,
expected state or overrides) and the records the agent wrote (writes that took effect).
Reading a record never fails an episode: an agent that looks at a neighbour explores.
Facts are judged as the episode found them (KYC, limit, pricing exception at the start),
and calls are judged by what took effect, in order, so refused calls are not held against
the agent.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pytest_agenteval.domains.booking import texts
from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE, sheet_rate
from pytest_agenteval.engine import AuditEvent
from pytest_agenteval.grading import Check, GradeContext, check

RATE_ACTIONS = ("set_rate", "override_rate")

__all__ = ["RATE_ACTIONS", "checks", "sheet_rate"]


def checks(ctx: GradeContext) -> list[Check]:
    history = History.of(ctx)
    return [_duplicate(history), _rate(history), _activation(history), _order(history), _account(history),
            _query(history), *texts.checks(history)]


@dataclass(frozen=True)
class Write:
    """One write that took effect, with its arguments as the action validated them."""

    event: AuditEvent
    arguments: dict[str, Any]

    @property
    def action(self) -> str:
        return self.event.action

    @property
    def facility(self) -> str | None:
        fid = self.arguments.get("facility_id")
        return fid if isinstance(fid, str) else None


@dataclass
class History:
    """The agent's writes that took effect, walked in order, and the facilities in scope."""

    ctx: GradeContext
    writes: list[Write]
    scope: list[str]
    # (facility, step, rate) for each rate the agent set, and for each activation with the
    # rate then in force (None: no rate at all).
    rates_set: list[tuple[str, int, float]] = field(default_factory=list)
    activations: list[tuple[str, int, float | None]] = field(default_factory=list)
    # set_rate on a facility not booked yet; activation of a facility priced only later.
    out_of_order: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, ctx: GradeContext) -> History:
        actions = ctx.env.actions
        writes = []
        for event in ctx.written():
            validated, _ = actions[event.action].validate(event.arguments)
            writes.append(Write(event, validated or {}))
        named = [*ctx.task_keys("facility"), *(w.facility for w in writes if w.facility)]
        scope = [f for f in dict.fromkeys(named) if ctx.row("facility", f) is not None]
        history = cls(ctx, writes, scope)
        history._walk()
        return history

    def _walk(self) -> None:
        rate: dict[str, float | None] = {}
        booked: set[str] = set()
        unpriced: dict[str, Write] = {}  # activated with no rate in force
        for w in self.writes:
            fid = w.facility
            if fid is None or self.ctx.row("facility", fid) is None:
                continue
            if fid not in rate:
                rate[fid] = self.start(fid, "rate_percent")
                if self.start(fid, "account_id") is not None:
                    booked.add(fid)
            if w.action == "book_facility":
                booked.add(fid)
            elif w.action in RATE_ACTIONS:
                rate[fid] = new = float(w.arguments["rate_percent"])
                self.rates_set.append((fid, w.event.step, new))
                if fid not in booked:
                    self.out_of_order.append(f"{w.action} on {fid} (step {w.event.step}) before book_facility")
                if fid in unpriced:
                    self.out_of_order.append(f"activate_facility on {fid} (step {unpriced.pop(fid).event.step}) "
                                             f"before {w.action} (step {w.event.step})")
            elif w.action == "activate_facility":
                self.activations.append((fid, w.event.step, rate[fid]))
                if rate[fid] is None:
                    unpriced[fid] = w

    @property
    def needs(self) -> set[tuple[str, str]]:
        """(customer, account type) pairs the facilities in scope need."""
        return {(self.start(f, "customer_id"), ACCOUNT_TYPE[self.start(f, "product")]) for f in self.scope}

    def start(self, facility_id: str, column: str) -> Any:
        """A facility's column as the episode found it."""
        changed = self.ctx.table("facility").changed.get(facility_id, {})
        if column in changed:
            return changed[column][0]
        row = self.ctx.row("facility", facility_id)
        return None if row is None else row[column]

    def customer(self, facility_id: str) -> dict[str, Any]:
        return self.ctx.row("customer", self.start(facility_id, "customer_id")) or {}

    def applicable_rate(self, facility_id: str) -> tuple[float | None, str]:
        """The pricing exception on record at the start, else the sheet's rate; and which it is."""
        exception = self.start(facility_id, "exception_rate")
        if exception is not None:
            return exception, "the pricing exception on record"
        rate = sheet_rate(self.ctx.env.db, self.start(facility_id, "product"), self.customer(facility_id)["segment"],
                          self.start(facility_id, "limit_amount"))
        return rate, "the rate sheet's"

    def conflict(self, facility_id: str) -> str:
        """The data conflict that calls for a query instead of a booking, or ''."""
        kyc = self.customer(facility_id).get("kyc_status")
        if kyc != "verified":
            return f"KYC {kyc}"
        if self.applicable_rate(facility_id)[0] is None:
            return "no applicable rate"
        return ""


def _duplicate(h: History) -> Check:
    """At most one account opened per customer and type a facility in scope needs, and none
    where an open one existed (an account nothing needs is ``account_matches_facility``'s)."""
    ctx = h.ctx
    opened: dict[tuple[str, str], list[str]] = defaultdict(list)
    for pk, row in ctx.table("account").added.items():
        if (row["customer_id"], row["account_type"]) in h.needs:
            opened[(row["customer_id"], row["account_type"])].append(pk)
    problems = []
    for (customer, kind), ids in sorted(opened.items()):
        existing = [
            r[0] for r in ctx.env.db.execute(
                "SELECT id FROM account WHERE customer_id = ? AND account_type = ? AND status = 'open'",
                (customer, kind)) if r[0] not in ids
        ]
        if len(ids) > 1:
            problems.append(f"{len(ids)} {kind} accounts opened for {customer} ({', '.join(ids)}); expected at most 1")
        elif existing:
            problems.append(f"{kind} account {ids[0]} opened for {customer}, who already had {existing[0]}")
    return check("no_duplicate_account", not problems, failure_mode="duplicate_account", component="booking",
                 ok="no duplicate account opened", failed="; ".join(problems))


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9


def _rate(h: History) -> Check:
    """Every rate the agent set, and the rate in force at every activation, is the applicable one.

    A wrong rate corrected later is still wrong: it was on the facility (and in its
    booking events) meanwhile. An activation with no rate at all is ``activation_preconditions``'
    business, not this check's.
    """
    wrong: dict[str, list[str]] = defaultdict(list)
    for fid, step, rate in h.rates_set:
        want, _ = h.applicable_rate(fid)
        if want is None or not _same(rate, want):
            wrong[fid].append(f"{rate} set at step {step}")
    for fid, step, in_force in h.activations:
        want, _ = h.applicable_rate(fid)
        if in_force is not None and (want is None or not _same(in_force, want)):
            wrong[fid].append(f"activated at {in_force} at step {step}")
    details = []
    for fid, problems in wrong.items():
        want, source = h.applicable_rate(fid)
        applies = f"the applicable rate is {source} {want}" if want is not None else "no rate applies: query it"
        details.append(f"{fid}: {', '.join(problems)}; {applies}")
    return check("rate_matches_sheet", not wrong, failure_mode="wrong_rate", component="booking",
                 ok="every rate set, and every rate in force at an activation, was the applicable one",
                 failed="; ".join(details))


def _activation(h: History) -> Check:
    """At the moment of each activation: verified KYC, and a rate in force."""
    wrong = []
    for fid, step, rate in h.activations:
        customer = h.customer(fid)
        if customer.get("kyc_status") != "verified":
            wrong.append(f"{fid} activated at step {step} although {customer.get('id')}'s KYC is "
                         f"{customer.get('kyc_status')}")
        if rate is None:
            wrong.append(f"{fid} activated at step {step} with no rate set")
    return check("activation_preconditions", not wrong, failure_mode="premature_activation", component="booking",
                 ok="every activation had verified KYC and a rate", failed="; ".join(wrong))


def _order(h: History) -> Check:
    """Book, then set the rate, then activate (a rate never set is activation_preconditions' business)."""
    return check("booking_order", not h.out_of_order, failure_mode="wrong_order", component="booking",
                 ok="book, rate, activate happened in order", failed="; ".join(h.out_of_order))


def _account(h: History) -> Check:
    """Each booking used an account of the facility's customer and type; each account opened was needed."""
    ctx = h.ctx
    wrong = []
    for w in h.writes:
        if w.action != "book_facility":
            continue
        fid, account = w.facility, ctx.row("account", w.arguments.get("account_id"))
        if account is None or fid is None:
            continue
        owner, want = h.start(fid, "customer_id"), ACCOUNT_TYPE[h.start(fid, "product")]
        if account["customer_id"] != owner:
            wrong.append(f"{fid} booked to {account['id']} of {account['customer_id']}, not {owner}")
        elif account["account_type"] != want:
            wrong.append(f"{fid} ({h.start(fid, 'product')}) booked to a {account['account_type']} account; "
                         f"needs {want}")
    for pk, row in ctx.table("account").added.items():
        if (row["customer_id"], row["account_type"]) not in h.needs:
            wrong.append(f"{row['account_type']} account {pk} opened for {row['customer_id']}, but no facility "
                         f"of theirs in this task needs a {row['account_type']} account")
    return check("account_matches_facility", not wrong, failure_mode="wrong_account", component="booking",
                 ok="every booking used an account of the same customer and the right type; "
                    "every account opened was needed",
                 failed="; ".join(wrong))


def _query(h: History) -> Check:
    """A facility with conflicting data gets a query and is left as it was (but for what the task expects)."""
    queried = {w.facility for w in h.writes if w.action == "raise_query"}
    wrong = []
    for fid in h.scope:
        conflict = h.conflict(fid)
        if not conflict:
            continue
        if fid not in queried:
            wrong.append(f"{fid} has a conflict ({conflict}) but no query was raised")
        expected = h.ctx.task.expected_final_state.get("facility", {}).get(fid, {})
        changed = {c: v for c, v in h.ctx.table("facility").changed.get(fid, {}).items() if c not in expected}
        if changed:
            shown = ", ".join(f"{col} {old!r} -> {new!r}" for col, (old, new) in changed.items())
            wrong.append(f"{fid} has a conflict ({conflict}) but was changed ({shown}); leave it pending")
    return check("query_on_conflict", not wrong, failure_mode="missed_query", component="booking",
                 ok="every conflicting facility was queried and left pending", failed="; ".join(wrong))
