"""Queries and hold reasons judged by what they say, against the facility's records.

A reason fails when it names a record other than its facility's (another facility, another
customer, an account that is not the customer's), says KYC is fine when it is not (or the
reverse), says a rate is missing when one applies (or the reverse), or states a rate that is
neither the applicable one nor the facility's own. Silence is never a contradiction.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from pytest_agenteval.grading import Check, GradeContext
from pytest_agenteval.grading.texts import Text, text_checks
from pytest_agenteval.text import AFFIRMED, ENGLISH, HYPOTHETICAL, NEGATED, Reading


class History(Protocol):
    """What the texts are judged against (the rubric's ``History``)."""

    ctx: GradeContext

    def start(self, facility_id: str, column: str) -> Any: ...
    def customer(self, facility_id: str) -> dict[str, Any]: ...
    def applicable_rate(self, facility_id: str) -> tuple[float | None, str]: ...

VERIFIED_CUSTOMER = ("customer verified", "customer fully verified", "customer is verified",
                     "customer is fully verified", "verified customer", "fully verified customer",
                     "customer has been verified")
LEXICON = ENGLISH.extend(
    kyc=("kyc", "know your customer", "identity", "id check*", "due diligence", "cdd", "edd", "aml",
         "anti money laundering", "onboard*", "customer check*", "verification", "sanctions screening", "compliance",
         *VERIFIED_CUSTOMER),
    ok=VERIFIED_CUSTOMER,  # "customer fully verified" names KYC and its state at once
    # KYC failed (or expired), as opposed to not yet done
    failed=("failed", "failure", "fails", "unsuccessful", "expired", "lapsed", "revoked"),
    threshold=("and above", "or above", "and over", "or more", "and beyond"),  # "limits of £5m and above"
    rate=("rate", "rates", "pricing", "price*", "tariff*", "band*", "grid", "rate sheet", "sheet", "interest"),
    exception=("exception*", "concession*", "special rate", "waiver*"),
    expiry=("expir*", "end date", "ends", "until", "lapse*", "how long", "validity", "valid until", "when",
            "how much longer", "runs out", "run out", "running out", "cease*", "stops applying", "stop applying",
            "sunset*"),
    # What makes a rate a problem here: the limit falls outside the sheet.
    # A rate said to be the facility's: "we applied 7.42%", "priced at the sheet rate of 4.38%".
    priced=("applied", "priced", "priced at", "charged", "booked at", "set at", "set to", "put at"),
    # The facility's own state: "has not been booked", "is already active", "is closed".
    booked=("booked",),
    activated=("activated", "active", "live", "drawn"),
    closed=("closed", "cancelled", "terminated"),
    # What the facility and its customer are: its product, the customer's segment.
    term_loan=("term loan", "term loans"),
    revolver=("revolver", "revolvers", "revolving", "rcf"),
    overdraft=("overdraft", "overdrafts"),
    retail=("retail",),
    sme=("sme", "smes", "small business", "small and medium"),
    corporate=("corporate",),
    problem=("above", "beyond", "outside", "exceed*", "null", "none", "no entry", "not available", "not found",
             "not listed", "off the sheet", "larger", "bigger", "higher", "greater", "too high", "too large",
             "only goes up", "only up to", "not cover*", "stop below", "stops below", "end below", "ends below",
             "stop short", "stops short", "top out", "tops out", "max out", "maxes out", "more than", "too big",
             "stop at", "stops at", "end at", "ends at", "yet to verify", "yet to be verified", "yet to complete",
             "yet to be completed", "yet to be done", "yet to clear", "yet to be cleared", "falls outside",
             "fall outside", "not go up to", "not go as high", "not go that high", "not reach", "not extend to",
             "not stretch to"),
)
CUSTOMER_NAME = re.compile(r"\bCustomer \d+\b")
TEXTS = {("raise_query", "reason"): "misleading_query", ("place_on_hold", "reason"): "misleading_query"}


def checks(h: History) -> list[Check]:
    return text_checks(h.ctx, lambda t: _judge(h, t), component="booking", ok={
        "misleading_query": "every query and hold reason agrees with the facility's records"})


def _judge(h: History, t: Text) -> str | None:
    fid = t.event.arguments.get("facility_id")
    if not isinstance(fid, str) or h.ctx.row("facility", fid) is None:
        return None
    where = f"{fid}: {t.event.action} at step {t.event.step} {t.quote()}"
    for problem in (_records(h, fid, t.reading), _facts(h, fid, t.reading), _facility(h, fid, t),
                    _limit(h, fid, t.reading)):
        if problem:
            return f"{where} {problem}"
    return None


def _records(h: History, fid: str, reading: Reading) -> str | None:
    ctx, customer = h.ctx, h.start(fid, "customer_id")
    name = (ctx.row("customer", customer) or {}).get("name")
    for m in CUSTOMER_NAME.finditer(reading.text):  # "Customer 9999's KYC is pending"
        if m.group(0) != name:
            return f"names {m.group(0)}, but {fid}'s customer is {name}"
    for ident in reading.named():
        if ident in (fid, customer):
            continue
        account = ctx.row("account", ident)
        if account is not None and account["customer_id"] == customer:
            clause = next(k for i, k in reading.ids if i == ident)
            if AFFIRMED in reading.polarities("closed", clause) and account["status"] != "closed":
                return f"says account {ident} is closed, but it is {account['status']}"
            continue
        if ctx.row("facility", ident) is not None:
            return f"names facility {ident}, not the facility queried"
        if ctx.row("customer", ident) is not None:
            return f"names customer {ident}; {fid} is {customer}'s"
        if account is not None:
            return f"names account {ident}, which is {account['customer_id']}'s, not {customer}'s"
        return f"names {ident}, which is no record"
    return None


def _facts(h: History, fid: str, reading: Reading) -> str | None:
    kyc = h.customer(fid).get("kyc_status")
    said = reading.status("kyc")
    if "ok" in said and kyc != "verified":
        return f"says KYC is in order, but {h.start(fid, 'customer_id')}'s KYC is {kyc}"
    if "problem" in said and kyc == "verified":
        return f"says KYC is a problem, but {h.start(fid, 'customer_id')}'s KYC is verified"
    kyc_clauses = {m.clause for m in reading.mentions if m.meaning == "kyc"}
    if kyc == "pending" and any(m.meaning == "failed" and m.polarity == AFFIRMED and m.clause in kyc_clauses
                                and reading.after(m.clause, m.at) != "to" for m in reading.mentions):
        return f"says KYC failed, but {h.start(fid, 'customer_id')}'s KYC is pending"
    if h.start(fid, "exception_rate") is None and reading.status("exception"):
        return f"says something of {fid}'s pricing exception, but it has none"
    applicable, source = h.applicable_rate(fid)
    said = reading.status("rate")
    if "problem" in said and applicable is not None and not reading.mentions_meaning("exception"):
        return f"says the rate is a problem, but {source} rate {applicable} applies"
    if "ok" in said and applicable is None:
        return "says the rate is in order, but no rate applies"
    # The rates a reason may state: the one that applies, the facility's own, and the sheet's for its
    # product and segment (any band: "the top band is 7.35%, but the limit is above it").
    sheet = [r[0] for r in h.ctx.env.db.execute(
        "SELECT rate_percent FROM rate_sheet WHERE product = ? AND segment = ?",
        (h.start(fid, "product"), h.customer(fid).get("segment")))]
    known = [r for r in (applicable, h.start(fid, "rate_percent"), h.start(fid, "exception_rate"), *sheet)
             if r is not None]
    own = h.start(fid, "rate_percent")
    final = (h.ctx.row("facility", fid) or {}).get("rate_percent")
    exception = h.start(fid, "exception_rate")
    for q in reading.quantities:  # "Sheet rate 5.89%, exception 7.42%": a rate named as the sheet's or the exception's
        if q.kind != "rate" or not isinstance(q.value, float):
            continue
        label = {*reading.before(q.clause, q.at, 2), reading.after(q.clause, q.at)}
        if label & {"exception", "concession"} and exception is not None and abs(q.value - exception) > 1e-9:
            return f"calls {q.text} the pricing exception, but the exception is {exception}"
        if "sheet" in label and not label & {"exception", "concession"} and not any(
                abs(q.value - r) <= 1e-9 for r in sheet):
            return f"calls {q.text} the sheet's rate, but the sheet's rates for {fid} are {sheet}"
    for q in reading.quantities:
        in_rate_clause = q.kind == "number" and reading.polarities("rate", q.clause) - {NEGATED}
        if q.polarity == NEGATED or not (q.kind == "rate" or in_rate_clause):
            continue
        if q.polarity == AFFIRMED and AFFIRMED in reading.polarities("priced", q.clause) and not any(
                r is not None and abs(float(q.value) - r) <= 1e-9 for r in (own, final)):  # type: ignore[arg-type]
            return f"says {fid} is priced at {q.text}, but its rate is {final if final is not None else 'not set'}"
        if not any(abs(float(q.value) - r) <= 1e-9 for r in known):  # type: ignore[arg-type]
            want = f"{source} rate is {applicable}" if applicable is not None else "no rate applies"
            return f"states the rate {q.text}, but the {want}"
    return None


PRODUCTS = ("term_loan", "revolver", "overdraft")
SEGMENTS = ("retail", "sme", "corporate")
# Clauses about another thing than the facility: "the customer's account is active", "KYC is closed".
OTHER_TOPICS = ("kyc", "rate", "exception")
OTHER_THINGS = frozenset({"account", "accounts", "customer", "customers", "query", "queries", "case", "ticket",
                          "check", "checks", "file", "band", "sheet"})
MODAL_WORDS = frozenset({"can", "cannot", "could", "should", "must", "would", "will", "may", "might", "shall", "to",
                         "until", "before", "once", "unless"})


def _state_at(h: History, fid: str, t: Text) -> tuple[bool, bool, str]:
    """(booked, active, status) of the facility when the text was written."""
    booked = h.start(fid, "account_id") is not None
    status = str(h.start(fid, "status"))
    for event in h.ctx.written():
        if event.seq >= t.event.seq or event.arguments.get("facility_id") != fid:
            continue
        if event.action == "book_facility":
            booked, status = True, "BOOKED"
        elif event.action == "activate_facility":
            status = "ACTIVE"
        elif event.action == "place_on_hold":
            status = "ON_HOLD"
    return booked or status in ("BOOKED", "ACTIVE"), status == "ACTIVE", status


def _facility(h: History, fid: str, t: Text) -> str | None:
    """What a reason says the facility is: booked or not, active or not, closed; its product and
    its customer's segment. A state said of something else in its clause (the account, KYC, the
    rate or the exception) or only as a possibility ("cannot be booked until…") is not judged."""
    reading = t.reading
    booked, active, status = _state_at(h, fid, t)
    truth = {"booked": booked, "activated": active, "closed": status == "CLOSED"}
    for m in reading.mentions:
        if m.meaning not in truth or m.polarity == HYPOTHETICAL:
            continue
        words = set(reading.words[m.clause])
        about_other = any(reading.polarities(o, m.clause) for o in OTHER_TOPICS) or words & OTHER_THINGS
        if about_other or MODAL_WORDS.intersection(reading.before(m.clause, m.at)):
            continue
        if (m.polarity == AFFIRMED) != truth[m.meaning]:
            state = {"booked": "booked", "activated": "active", "closed": "closed"}[m.meaning]
            return f"says {fid} is {'' if m.polarity == AFFIRMED else 'not '}{state}, but it is {status}"
    product, segment = h.start(fid, "product"), h.customer(fid).get("segment")
    for group, own, what in ((PRODUCTS, product, "product"), (SEGMENTS, segment, "segment")):
        for other in group:
            if other != own and AFFIRMED in reading.polarities(other):
                return f"calls the {what} {other.replace('_', ' ')}, but it is {str(own).replace('_', ' ')}"
    return None


# Words that make an amount the facility's limit ("a limit of £9,000,000", "the £9m facility"), unless
# the sheet's figures are meant ("the top band's limit of £5m").
LIMIT_WORDS = frozenset({"limit", "limits", "facility", "loan", "overdraft", "revolver", "amount", "size"})
SHEET_WORDS = frozenset({"sheet", "band", "bands", "top", "maximum", "max", "highest", "cap", "ceiling", "grid",
                         "bands'", "up"})


def _limit(h: History, fid: str, reading: Reading) -> str | None:
    """An amount given as the facility's limit is its limit."""
    limit = h.start(fid, "limit_amount")
    for q in reading.quantities:
        if q.kind != "money" or not isinstance(q.value, float):
            continue
        before = reading.before(q.clause, q.at)  # "no rate for a limit of £9m" still gives the limit
        if before[-1:] in (["not"], ["no"]) or not reading.figure_of(q, LIMIT_WORDS):
            continue
        if SHEET_WORDS.intersection(before) or reading.after(q.clause, q.at) in SHEET_WORDS:
            continue  # "the sheet's maximum of £5m", "Limit > £5m sheet max"
        if abs(q.value - float(limit)) > 0.5:
            return f"states {q.text} as {fid}'s limit, but it is {limit:g}"
    return None
