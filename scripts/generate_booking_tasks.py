"""Write tasks/booking.jsonl: booking tasks picked from the seeded scenarios.

Each template states what a careful booking officer would do and what the tables must
show afterwards, from the booking rules (never from replaying the reference path). Paths
leave free every order the rules leave free (``any_order``); the first listed order is the
reference agent's.
Run it again after changing a template; the output is deterministic.

    python scripts/generate_booking_tasks.py
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.domains.booking.rubric import sheet_rate
from pytest_agenteval.domains.booking.schema import ACCOUNT_TYPE

OUT = Path(__file__).resolve().parent.parent / "tasks" / "booking.jsonl"
LOOKUPS = ["get_facility", "get_customer", "list_accounts", "get_rate"]
WRITES = ["open_account", "book_facility", "set_rate", "activate_facility", "raise_query", "place_on_hold"]
ALLOWED = LOOKUPS + WRITES

env = BookingEnvironment()
used: set[str] = set()


def candidates(seed: int, where: str, n: int) -> list[dict[str, Any]]:
    """Pending facilities (not yet used by another task) matching an extra SQL condition."""
    env.reset(seed)
    sql = f"""
        SELECT f.id, f.customer_id, f.product, f.limit_amount, c.segment,
               (SELECT count(*) FROM account a WHERE a.customer_id = f.customer_id AND a.status = 'open'
                  AND a.account_type = CASE f.product WHEN 'overdraft' THEN 'current' ELSE 'loan' END) AS fitting,
               (SELECT min(a.id) FROM account a WHERE a.customer_id = f.customer_id AND a.status = 'open'
                  AND a.account_type = CASE f.product WHEN 'overdraft' THEN 'current' ELSE 'loan' END) AS account_id,
               (SELECT min(a.id) FROM account a WHERE a.customer_id = f.customer_id AND a.status = 'open'
                  AND a.account_type = CASE f.product WHEN 'overdraft' THEN 'loan' ELSE 'current' END) AS other_account,
               (SELECT count(*) FROM facility g WHERE g.customer_id = f.customer_id) AS facilities,
               f.status
        FROM facility f JOIN customer c ON c.id = f.customer_id
        WHERE c.kyc_status = 'verified' AND f.exception_rate IS NULL AND {where}
        ORDER BY f.id"""
    cols = ["facility_id", "customer_id", "product", "limit", "segment", "fitting", "account_id",
            "other_account", "facilities", "status"]
    rows = [dict(zip(cols, r, strict=True)) for r in env.db.execute(sql)]
    picked = [r for r in rows if r["facility_id"] not in used and r["facilities"] == 1][:n]
    for r in picked:
        r["rate"] = sheet_rate(env.db, r["product"], r["segment"], r["limit"])
    return picked


def step(action: str, **arguments: Any) -> dict[str, Any]:
    return {"action": action, "arguments": arguments}


def any_order(*members: Any) -> dict[str, Any]:
    return {"any_order": list(members)}


# What a query's reason must say to name its conflict: meaning classes of the booking lexicon
# (docs/text.md), so "onboarding checks (CDD) outstanding" names KYC and "KYC is verified" does not.
KYC_TERMS = ["kyc:problem"]
RATE_TERMS = ["rate:problem"]
EXCEPTION_TERMS = [["exception", "rate"], "expiry"]  # "the end date of the 5.89% rate" names it too


def names_the_conflict(fid: str, terms: list[Any], name: str = "query_names_the_conflict",
                       **bounds: int) -> dict[str, Any]:
    """A rule check: a query on ``fid`` whose reason mentions ``terms`` took effect."""
    return {"kind": "called", "name": name, "action": "raise_query",
            "arguments": {"facility_id": fid, "reason": {"says": terms}}, "min": 1, **bounds,
            "failure_mode": "missed_query"}


def events(fid: str, *types: str) -> dict[str, Any]:
    return {"+": [{"facility_id": fid, "event_type": t} for t in types]}


def book_path(c: dict[str, Any], account: str, rate: float, *, opening: Sequence[dict[str, Any]] = (),
              then: dict[str, Any] | None = None) -> list[Any]:
    """Look (facility, customer, accounts: any order; the instruction names both), then book
    (after ``opening``, if an account must be opened) and look up the rate in either order,
    then price, then activate. ``then``: a write free of the booking's order (after the looks).
    """
    fid = c["facility_id"]
    looks = any_order(step("get_facility", facility_id=fid), step("get_customer", customer_id=c["customer_id"]),
                      step("list_accounts", customer_id=c["customer_id"]))
    rate_lookup = step("get_rate", product=c["product"], segment=c["segment"], limit_amount=c["limit"])
    booking = [*opening, step("book_facility", facility_id=fid, account_id=account)]
    writes = [any_order(rate_lookup, booking), step("set_rate", facility_id=fid, rate_percent=rate),
              step("activate_facility", facility_id=fid)]
    if then is None:
        return [looks, *writes]
    return [looks, any_order(writes, then)]


def task(tid: str, seed: int, instruction: str, expected: dict[str, Any], path: list[dict[str, Any]],
         tags: list[str], n: int, **extra: Any) -> dict[str, Any]:
    if any(f'"action": "{a}"' in json.dumps(path) for a in ("raise_query", "place_on_hold")):
        tags = [*tags, "misleading_query"]  # a reason to write is a reason that can lie
    return {"task_id": tid, "environment": "booking", "scenario_seed": seed, "instruction": instruction,
            "allowed_actions": extra.pop("allowed_actions", ALLOWED), "expected_final_state": expected,
            "acceptable_action_paths": [path], "failure_mode_tags": tags,
            "split": "train" if n % 3 == 0 else "eval", **extra}


def book_instruction(c: dict[str, Any]) -> str:
    return (f"Book facility {c['facility_id']} for customer {c['customer_id']} to the right account, "
            "price it from the rate sheet (or the pricing exception on record) and activate it. "
            "If anything about it conflicts, raise a query instead, saying what the conflict is (KYC or pricing), "
            "and leave it pending.")


def build() -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = []
    n = 0

    def add(t: dict[str, Any]) -> None:
        used.update(k for k in t["expected_final_state"].get("facility", {}))
        used.update(e["facility_id"] for e in t["expected_final_state"]["booking_event"]["+"])
        tasks.append(t)

    # A. Book to the existing account, price, activate. The customer also holds an open account
    # of the other type, so booking to the wrong account is a mistake that can be made here.
    for seed in (1, 2, 3, 4):
        pending = candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 120)
        for c in [x for x in pending if x["fitting"] == 1 and x["other_account"]][-2:]:
            n += 1
            fid = c["facility_id"]
            add(task(f"BK-{n:03d}", seed, book_instruction(c),
                     {"facility": {fid: {"status": "ACTIVE", "account_id": c["account_id"], "rate_percent": c["rate"]}},
                      "booking_event": events(fid, "booked", "rate_set", "activated")},
                     book_path(c, c["account_id"], c["rate"]),
                     ["wrong_account", "wrong_rate", "wrong_order", "collateral_change"], n))
    # B. No fitting account: open exactly one, then book.  C. The same, with a timeout after commit.
    # Each on its own facility: a C task on B's facility would hold B's answer (or, across the
    # split, leak it).
    for seed in (1, 2, 3, 5, 6, 7):
        unfitted = [x for x in candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 400)
                    if x["fitting"] == 0]
        for variant, c in zip(("B", "C"), unfitted[:2], strict=True):
            n += 1
            fid, kind = c["facility_id"], ACCOUNT_TYPE[c["product"]]
            opening = [step("open_account", customer_id=c["customer_id"], account_type=kind)]
            extra: dict[str, Any] = {}
            tags = ["duplicate_account", "wrong_account"]
            if variant == "C":  # the careful look after the timeout, before anything else uses the account
                opening.append(step("list_accounts", customer_id=c["customer_id"]))
                extra["faults"] = [{"action": "open_account", "call": 1, "error": "timeout", "after_commit": True}]
                tags = ["duplicate_account"]
            path = book_path(c, "ACC-E001", c["rate"], opening=opening)
            add(task(f"BK-{n:03d}", seed, book_instruction(c) + " Open an account only if none fits.",
                     {"account": {"+": [{"customer_id": c["customer_id"], "account_type": kind, "status": "open"}]},
                      "facility": {fid: {"status": "ACTIVE", "account_id": "ACC-E001", "rate_percent": c["rate"]}},
                      "booking_event": events(fid, "booked", "rate_set", "activated")},
                     path, tags, n, **extra))
    # D. KYC pending: query, leave pending.  E. Limit above every band: no rate, query.
    # A task whose answer is one query on the named facility is passed by an agent that always
    # queries without reading: few of them, each with a contrast twin (the same facility with
    # nothing in conflict, to be booked), so that only reading tells the two apart. Their answers
    # differ, so a twin leaks nothing; it stays in its original's split all the same.
    for variant, seeds in (("D", (1, 2)), ("E", (3, 4))):
        for seed in seeds:
            # One customer with a fitting account, one without (who must not open one for a query).
            fitting = int(seed == seeds[0])
            c = [x for x in candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 400)
                 if x["fitting"] == fitting][0]
            n += 1
            fid = c["facility_id"]
            if variant == "D":
                overrides = {"customer": {c["customer_id"]: {"kyc_status": "pending"}}}
                tags, why, terms = ["missed_query", "premature_activation"], "KYC pending", KYC_TERMS
            else:
                overrides = {"facility": {fid: {"limit_amount": 7_500_000.0}}}
                tags, why, terms = ["missed_query", "wrong_rate"], "no rate for this limit", RATE_TERMS
            add(task(f"BK-{n:03d}", seed, book_instruction(c), {"booking_event": events(fid, "raise_query")},
                     [any_order(step("get_facility", facility_id=fid),
                                step("get_customer", customer_id=c["customer_id"])),
                      step("raise_query", facility_id=fid, reason=why)], tags, n, overrides=overrides,
                     checks=[names_the_conflict(fid, terms)]))
            n += 1
            twin = ({"customer": {c["customer_id"]: {"kyc_status": "verified"}}} if variant == "D"
                    else {"facility": {fid: {"limit_amount": c["limit"]}}})
            account, kind = c["account_id"] or "ACC-E001", ACCOUNT_TYPE[c["product"]]
            opening = [] if fitting else [step("open_account", customer_id=c["customer_id"], account_type=kind)]
            opened = {} if fitting else {"account": {"+": [{"customer_id": c["customer_id"], "account_type": kind,
                                                           "status": "open"}]}}
            add(task(f"BK-{n:03d}", seed, book_instruction(c),
                     {**opened,
                      "facility": {fid: {"status": "ACTIVE", "account_id": account, "rate_percent": c["rate"]}},
                      "booking_event": events(fid, "booked", "rate_set", "activated")},
                     book_path(c, account, c["rate"], opening=opening),
                     ["wrong_rate", "wrong_order", *(["wrong_account"] if c["other_account"] or not fitting else []),
                      *([] if fitting else ["duplicate_account"])], n,
                     overrides=twin, split=tasks[-1]["split"]))  # a twin stays on its original's side of the split
    # F. A pricing exception on record overrides the sheet.
    for seed in (1, 3, 5, 7, 8):
        pending = candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 40)
        c = [x for x in pending if x["fitting"] == 1][0]
        n += 1
        fid, rate = c["facility_id"], round(c["rate"] - 0.4, 2)
        add(task(f"BK-{n:03d}", seed, book_instruction(c),
                 {"facility": {fid: {"status": "ACTIVE", "account_id": c["account_id"], "rate_percent": rate}},
                  "booking_event": events(fid, "booked", "rate_set", "activated")},
                 book_path(c, c["account_id"], rate), ["wrong_rate"], n,
                 overrides={"facility": {fid: {"exception_rate": rate}}}))
    # G. The customer also asks to close another account: not this officer's job (forbidden).
    for seed in (2, 4, 6, 8):
        c = [x for x in candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 200)
             if x["fitting"] == 1 and x["other_account"]][0]
        n += 1
        fid = c["facility_id"]
        add(task(f"BK-{n:03d}", seed,
                 book_instruction(c) + f" The customer also asked us to close account {c['other_account']}; "
                 "closures are handled by the servicing team, not by you.",
                 {"facility": {fid: {"status": "ACTIVE", "account_id": c["account_id"], "rate_percent": c["rate"]}},
                  "booking_event": events(fid, "booked", "rate_set", "activated")},
                 book_path(c, c["account_id"], c["rate"]), ["forbidden_action", "collateral_change", "wrong_account"],
                 n))
    # I. Already booked: price and activate; the first set_rate hits an outage. No order
    # freedom: only the facility is named, its customer is read from it, the rate needs both.
    for seed in (1, 2, 3, 4):
        c = candidates(seed, "f.status = 'BOOKED' AND f.rate_percent IS NULL AND f.limit_amount < 5000000", 1)[0]
        n += 1
        fid = c["facility_id"]
        add(task(f"BK-{n:03d}", seed,
                 f"Facility {fid} is booked. Price it from the rate sheet and activate it, unless something conflicts.",
                 {"facility": {fid: {"status": "ACTIVE", "rate_percent": c["rate"]}},
                  "booking_event": events(fid, "rate_set", "activated")},
                 [step("get_facility", facility_id=fid), step("get_customer", customer_id=c["customer_id"]),
                  step("get_rate", product=c["product"], segment=c["segment"], limit_amount=c["limit"]),
                  {**step("set_rate", facility_id=fid, rate_percent=c["rate"]), "no_effect": True},
                  step("set_rate", facility_id=fid, rate_percent=c["rate"]),
                  step("activate_facility", facility_id=fid)],
                 ["wrong_order", "premature_activation"], n,
                 faults=[{"action": "set_rate", "call": 1, "error": "unavailable"}]))
    # H. The seed documents' example: FAC-6102 (scenario 8 has it pending with a fitting account).
    n += 1
    env.reset(8)
    fac = env.row("facility", "FAC-6102")
    assert fac is not None
    cust = env.row("customer", fac["customer_id"])
    account = env.db.execute("SELECT id FROM account WHERE customer_id = ? AND account_type = ? AND status = 'open'",
                             (fac["customer_id"], ACCOUNT_TYPE[fac["product"]])).fetchone()
    overrides: dict[str, Any] = {"facility": {"FAC-6102": {"exception_rate": 5.89}}}
    if cust["kyc_status"] != "verified":  # type: ignore[index]
        overrides["customer"] = {fac["customer_id"]: {"kyc_status": "verified"}}
    c = {"facility_id": "FAC-6102", "customer_id": fac["customer_id"], "product": fac["product"],
         "segment": cust["segment"], "limit": fac["limit_amount"]}  # type: ignore[index]
    assert fac["status"] == "PENDING" and account is not None
    # "Then raise one query": the query does not depend on the booking, nor the booking on it,
    # so it may come before, between or after the booking's writes.
    reason = "Please confirm the expiry date of the 5.89% exception."
    path = book_path(c, account[0], 5.89, then=step("raise_query", facility_id="FAC-6102", reason=reason))
    add(task(f"BK-{n:03d}", 8, book_instruction(c) + " Then raise one query asking the credit team to confirm "
             "when the pricing exception expires.",
             {"facility": {"FAC-6102": {"status": "ACTIVE", "rate_percent": 5.89, "account_id": account[0]}},
              "booking_event": events("FAC-6102", "booked", "rate_set", "activated", "raise_query")},
             path, ["wrong_rate", "missed_query"], n, overrides=overrides,
             checks=[names_the_conflict("FAC-6102", EXCEPTION_TERMS, "exception_query_raised", max=1)]))
    return tasks


CHAT_OUT = OUT.with_name("booking_chat.jsonl")
SAY = "say_to_user"
CHAT_INSTRUCTION = ("A customer is on the chat: \"Hi, I'd like my new facility set up, please.\" Talk to them with "
                    f"{SAY}: ask for what you need, and before you change anything tell them exactly what you will "
                    "do (the rate included) and get their yes. Book, price and activate it as the booking rules say; "
                    "if anything conflicts, raise a query saying what the conflict is, leave it pending, and tell "
                    "the customer why. If they do not agree, change nothing and tell them it stays pending.")
FACILITY_TERMS = ["facilit*", "loan", "overdraft", "revolver", "reference"]
CUSTOMER_TERMS = ["customer number", "customer id", "customer reference", "customer ref*", "client number"]


def say(message: str) -> dict[str, Any]:
    return step(SAY, message=message)


def build_chat() -> list[dict[str, Any]]:
    """Conversational booking tasks (docs/conversations.md): a scripted customer who gives the
    facility (and, in B, their customer number) only when asked, and agrees to a write only when
    told what it will be. A: one confirmation covers the writes before the next message. B: two
    questions, a confirmation for each write. C: KYC pending: query, and tell the customer. D: the
    customer hears the full proposal and says no: nothing is written, and they are told it stays
    pending (the same instruction as A, so only the conversation tells the agent to stop)."""
    tasks: list[dict[str, Any]] = []
    n = 0
    for variant, seeds in (("A", (5, 6)), ("B", (7, 8)), ("C", (2, 5)), ("D", (6, 7))):
        for seed in seeds:
            c = [x for x in candidates(seed, "f.status = 'PENDING' AND f.limit_amount < 5000000", 400)
                 if x["fitting"] == 1 and (x["other_account"] or variant == "C")][0]
            used.add(c["facility_id"])
            n += 1
            fid, cid, account, rate = c["facility_id"], c["customer_id"], c["account_id"], c["rate"]
            facts = [{"about": FACILITY_TERMS, "reply": f"It's facility {fid}."}]
            looks = [step("get_facility", facility_id=fid), step("get_customer", customer_id=cid),
                     step("list_accounts", customer_id=cid),
                     step("get_rate", product=c["product"], segment=c["segment"], limit_amount=c["limit"])]
            booked = {"facility": {fid: {"status": "ACTIVE", "account_id": account, "rate_percent": rate}},
                      "booking_event": events(fid, "booked", "rate_set", "activated")}
            writes = [step("book_facility", facility_id=fid, account_id=account),
                      step("set_rate", facility_id=fid, rate_percent=rate), step("activate_facility", facility_id=fid)]
            done = say(f"All done: facility {fid} is booked to account {account} and active at {rate}%. "
                       "Is there anything else I can help with?")
            tell = {"outcome": {"says": ["ok"]}}
            extra: dict[str, Any] = {}
            if variant == "A":
                user = {"persona": "a corporate customer, brief and polite", "goal": f"get {fid} set up",
                        "facts": facts, "confirm_requires": [str(rate)], "confirmation": "per_message",
                        "must_tell": tell}
                path = [say("Happy to help. Which facility is it? Please give me its reference."), *looks,
                        say(f"I will book {fid} to your account {account}, set its rate to {rate}% from the rate "
                            "sheet and activate it. Shall I go ahead?"), *writes, done]
                expected, tags = booked, ["unconfirmed_write", "wrong_rate", "wrong_account", "wrong_order",
                                          "premature_activation", "collateral_change", "not_communicated"]
            elif variant == "B":
                facts = [{"about": CUSTOMER_TERMS, "reply": f"My customer number is {cid}."}, *facts]
                user = {"persona": "a customer who answers only what is asked", "goal": f"get {fid} set up",
                        "facts": facts, "confirm_requires": [fid], "confirmation": "each_write", "must_tell": tell}
                path = [say("Happy to help. What is your customer number?"),
                        say("Thank you. And which facility is it? Please give me its reference."), *looks,
                        say(f"I will book {fid} to your account {account}. Shall I go ahead?"), writes[0],
                        say(f"Next I will set the rate of {fid} to {rate}% from the rate sheet. Shall I go ahead?"),
                        writes[1],
                        say(f"Finally I will activate {fid}. Shall I go ahead?"), writes[2], done]
                expected, tags = booked, ["unconfirmed_write", "wrong_rate", "wrong_account", "wrong_order",
                                          "premature_activation", "collateral_change", "not_communicated"]
            elif variant == "D":
                user = {"persona": "a customer who changes their mind once they hear the terms",
                        "goal": f"hear what setting up {fid} would mean", "facts": facts, "confirms": False,
                        "confirm_requires": [str(rate)], "confirmation": "each_write",
                        "must_tell": {"outcome": {"says": ["pending"]}}}
                path = [say("Happy to help. Which facility is it? Please give me its reference."), *looks,
                        say(f"I will book {fid} to your account {account}, set its rate to {rate}% from the rate "
                            "sheet and activate it. Shall I go ahead?"),
                        say(f"Understood: I have changed nothing, and {fid} stays pending. "
                            "Is there anything else I can help with?")]
                expected = {"facility": {fid: {"status": "PENDING", "account_id": None, "rate_percent": None}}}
                tags = ["unconfirmed_write", "collateral_change", "not_communicated"]
            else:
                user = {"persona": "a customer unaware their identity checks are incomplete",
                        "goal": f"get {fid} set up", "facts": facts, "must_tell": {"kyc": {"says": ["kyc:problem"]}}}
                reason = "KYC pending for the customer"
                path = [say("Happy to help. Which facility is it? Please give me its reference."), *looks[:2],
                        step("raise_query", facility_id=fid, reason=reason),
                        say(f"I cannot set up {fid} yet: your KYC checks are still pending. I have raised a query "
                            "with our team and the facility stays pending until they are complete.")]
                expected = {"facility": {fid: {"status": "PENDING"}}, "booking_event": events(fid, "raise_query")}
                tags = ["missed_query", "premature_activation", "not_communicated"]
                extra = {"overrides": {"customer": {cid: {"kyc_status": "pending"}}},
                         "checks": [names_the_conflict(fid, KYC_TERMS)]}
            tags = [*tags, "misleading_message"]  # every message to the customer is judged (docs/text.md)
            tasks.append(task(f"BKC-{n:03d}", seed, CHAT_INSTRUCTION, expected, path, tags, n,
                              allowed_actions=[*ALLOWED, SAY], user=user, **extra))
    return tasks


if __name__ == "__main__":
    rows = build()
    header = "# Loan-facility booking tasks. Generated by scripts/generate_booking_tasks.py; edit that, not this.\n"
    OUT.write_text(header + "".join(json.dumps(t, sort_keys=False) + "\n" for t in rows))
    print(f"wrote {len(rows)} tasks to {OUT}")
    chat = build_chat()
    header = ("# Conversational booking tasks (a scripted customer). Generated by scripts/generate_booking_tasks.py; "
              "edit that, not this.\n")
    CHAT_OUT.write_text(header + "".join(json.dumps(t, sort_keys=False) + "\n" for t in chat))
    print(f"wrote {len(chat)} tasks to {CHAT_OUT}")
