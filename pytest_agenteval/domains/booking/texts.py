"""Queries and hold reasons judged by what they say, against the facility's records.

A reason fails when it names a record other than its facility's (another facility, another
customer, an account that is not the customer's), says KYC is fine when it is not (or the
reverse), says a rate is missing when one applies (or the reverse), or states a rate that is
neither the applicable one nor the facility's own. Silence is never a contradiction.
"""

from __future__ import annotations

from typing import Any, Protocol

from pytest_agenteval.grading import Check, GradeContext
from pytest_agenteval.grading.texts import Text, text_checks
from pytest_agenteval.text import AFFIRMED, ENGLISH, NEGATED, Reading


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
         "anti money laundering", "onboard*", "customer check*", "verification", "sanctions screening",
         *VERIFIED_CUSTOMER),
    ok=VERIFIED_CUSTOMER,  # "customer fully verified" names KYC and its state at once
    rate=("rate", "rates", "pricing", "price*", "tariff*", "band*", "grid", "rate sheet", "sheet", "interest"),
    exception=("exception*", "concession*", "special rate", "waiver*"),
    expiry=("expir*", "end date", "ends", "until", "lapse*", "how long", "validity", "valid until", "when"),
    # What makes a rate a problem here: the limit falls outside the sheet.
    # A rate said to be the facility's: "we applied 7.42%", "priced at the sheet rate of 4.38%".
    priced=("applied", "priced", "priced at", "charged", "booked at", "set at", "set to", "put at"),
    problem=("above", "beyond", "outside", "exceed*", "null", "none", "no entry", "not available", "not found",
             "not listed", "off the sheet", "larger", "bigger", "higher", "greater", "too high", "too large",
             "only goes up", "only up to", "not cover*", "stop below", "stops below", "end below", "ends below",
             "stop short", "stops short", "top out", "tops out", "max out", "maxes out"),
)
TEXTS = {("raise_query", "reason"): "misleading_query", ("place_on_hold", "reason"): "misleading_query"}


def checks(h: History) -> list[Check]:
    return text_checks(h.ctx, lambda t: _judge(h, t), component="booking", ok={
        "misleading_query": "every query and hold reason agrees with the facility's records"})


def _judge(h: History, t: Text) -> str | None:
    fid = t.event.arguments.get("facility_id")
    if not isinstance(fid, str) or h.ctx.row("facility", fid) is None:
        return None
    where = f"{fid}: {t.event.action} at step {t.event.step} {t.quote()}"
    for problem in (_records(h, fid, t.reading), _facts(h, fid, t.reading)):
        if problem:
            return f"{where} {problem}"
    return None


def _records(h: History, fid: str, reading: Reading) -> str | None:
    ctx, customer = h.ctx, h.start(fid, "customer_id")
    for ident in reading.named():
        if ident in (fid, customer):
            continue
        account = ctx.row("account", ident)
        if account is not None and account["customer_id"] == customer:
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
