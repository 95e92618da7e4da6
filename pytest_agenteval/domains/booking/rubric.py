"""The booking rubric: what task data cannot say, as named checks with failure modes."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from typing import Any

from pytest_agenteval.domains.booking.schema import ACCOUNT_TYPE
from pytest_agenteval.grading import Check, GradeContext, check


def sheet_rate(db: sqlite3.Connection, product: str, segment: str, limit: float) -> float | None:
    row = db.execute(
        "SELECT rate_percent FROM rate_sheet WHERE product = ? AND segment = ? AND band_min <= ? AND ? < band_max",
        (product, segment, limit, limit),
    ).fetchone()
    return None if row is None else row[0]


def expected_rate(ctx: GradeContext, facility: dict[str, Any]) -> float | None:
    """The pricing exception on record, else the rate sheet's rate for the customer's segment."""
    if facility["exception_rate"] is not None:
        return facility["exception_rate"]
    customer = ctx.row("customer", facility["customer_id"])
    return sheet_rate(ctx.env.db, facility["product"], customer["segment"], facility["limit_amount"])  # type: ignore[index]


def checks(ctx: GradeContext) -> list[Check]:
    return [_duplicate(ctx), _rate(ctx), _activation(ctx), _order(ctx), _account(ctx), _query(ctx)]


def _duplicate(ctx: GradeContext) -> Check:
    opened: dict[tuple[str, str], list[str]] = defaultdict(list)
    for pk, row in ctx.table("account").added.items():
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


def _changed_facilities(ctx: GradeContext, field: str) -> list[tuple[str, dict[str, Any]]]:
    diff = ctx.table("facility")
    return [(pk, diff.rows[pk]) for pk, fields in diff.changed.items() if field in fields]


def _rate(ctx: GradeContext) -> Check:
    wrong = []
    for pk, row in _changed_facilities(ctx, "rate_percent"):
        want = expected_rate(ctx, row)
        if want is None or abs(row["rate_percent"] - want) > 1e-9:
            wrong.append(f"{pk} rate {row['rate_percent']} but the applicable rate is {want}")
    return check("rate_matches_sheet", not wrong, failure_mode="wrong_rate", component="booking",
                 ok="every rate set matches the rate sheet or the exception on record", failed="; ".join(wrong))


def _activation(ctx: GradeContext) -> Check:
    """At the moment of each activation: verified KYC, and a rate already set."""
    first = _first_ok(ctx)
    wrong = []
    for (act, fid), seq in first.items():
        if act != "activate_facility":
            continue
        facility = ctx.row("facility", fid) or {}
        kyc = (ctx.row("customer", facility.get("customer_id")) or {}).get("kyc_status")
        if kyc != "verified":
            wrong.append(f"{fid} activated although {facility.get('customer_id')}'s KYC is {kyc}")
        rated = _at_start(ctx, fid, "rate_percent") is not None or first.get(("set_rate", fid), seq + 1) < seq
        if not rated:
            wrong.append(f"{fid} activated before any rate was set")
    return check("activation_preconditions", not wrong, failure_mode="premature_activation", component="booking",
                 ok="every activation had verified KYC and a rate", failed="; ".join(wrong))


def _first_ok(ctx: GradeContext) -> dict[tuple[str, str], int]:
    """The audit sequence number of the first successful call of each (action, facility)."""
    first: dict[tuple[str, str], int] = {}
    for event in ctx.agent_events():
        args = event.arguments
        if event.outcome == "ok" and isinstance(args, dict) and isinstance(args.get("facility_id"), str):
            first.setdefault((event.action, args["facility_id"]), event.seq)
    return first


def _at_start(ctx: GradeContext, facility_id: str, field: str) -> Any:
    """A facility's field as the scenario had it, before the episode."""
    changed = ctx.table("facility").changed.get(facility_id, {})
    if field in changed:
        return changed[field][0]
    row = ctx.row("facility", facility_id)
    return None if row is None else row[field]


ORDER = {"set_rate": ("book_facility",), "activate_facility": ("book_facility", "set_rate")}
ALREADY = {"book_facility": "account_id", "set_rate": "rate_percent"}


def _order(ctx: GradeContext) -> Check:
    """Book, then set the rate, then activate: per facility, by the order of successful calls."""
    first = _first_ok(ctx)
    wrong = []
    for (act, fid), seq in sorted(first.items(), key=lambda kv: kv[1]):
        for before in ORDER.get(act, ()):
            done = first.get((before, fid))
            if done is None and _at_start(ctx, fid, ALREADY[before]) is not None:
                continue  # done before the episode began
            if done is None or done > seq:
                wrong.append(f"{act} on {fid} before {before}")
    return check("booking_order", not wrong, failure_mode="wrong_order", component="booking",
                 ok="book, rate, activate happened in order", failed="; ".join(wrong))


def _account(ctx: GradeContext) -> Check:
    wrong = []
    for pk, row in _changed_facilities(ctx, "account_id"):
        account = ctx.row("account", row["account_id"]) if row["account_id"] else None
        if account is None:
            continue
        want = ACCOUNT_TYPE[row["product"]]
        if account["customer_id"] != row["customer_id"]:
            wrong.append(f"{pk} booked to {account['id']} of {account['customer_id']}, not {row['customer_id']}")
        elif account["account_type"] != want:
            wrong.append(f"{pk} ({row['product']}) booked to a {account['account_type']} account; needs {want}")
    return check("account_matches_facility", not wrong, failure_mode="wrong_account", component="booking",
                 ok="every booking used an account of the same customer and the right type",
                 failed="; ".join(wrong))


def _in_hand(ctx: GradeContext) -> list[str]:
    seen: dict[str, None] = {}
    for event in ctx.agent_events():
        args = event.arguments
        if isinstance(args, dict) and isinstance(args.get("facility_id"), str):
            seen.setdefault(args["facility_id"], None)
    return [f for f in seen if ctx.row("facility", f) is not None]


def _query(ctx: GradeContext) -> Check:
    """A facility with conflicting data gets a query and stays pending."""
    queried = {r["facility_id"] for r in ctx.table("booking_event").added.values() if r["event_type"] == "raise_query"}
    wrong = []
    for fid in _in_hand(ctx):
        facility = ctx.row("facility", fid)
        assert facility is not None
        kyc = ctx.row("customer", facility["customer_id"])["kyc_status"]  # type: ignore[index]
        conflict = ""
        if kyc != "verified":
            conflict = f"KYC {kyc}"
        elif expected_rate(ctx, facility) is None:
            conflict = "no applicable rate"
        if not conflict:
            continue
        if fid not in queried:
            wrong.append(f"{fid} has a conflict ({conflict}) but no query was raised")
        if facility["status"] not in ("PENDING", "ON_HOLD") and fid in ctx.table("facility").changed:
            wrong.append(f"{fid} has a conflict ({conflict}) but was moved to {facility['status']}")
    return check("query_on_conflict", not wrong, failure_mode="missed_query", component="booking",
                 ok="every conflicting facility was queried and left pending", failed="; ".join(wrong))
