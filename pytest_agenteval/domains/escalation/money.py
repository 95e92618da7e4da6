"""What a text says of money and limits, against the claim: the amount approved or paid, the
claim's own figures, a second payment, and how an amount stands to whose limit."""

from __future__ import annotations

import re
from typing import Any

from pytest_agenteval.domains.escalation.case import EPS, Case, reviewers
from pytest_agenteval.domains.escalation.corrections import retracted
from pytest_agenteval.domains.escalation.said import instructed_payments
from pytest_agenteval.domains.escalation.schema import AGENT, HEAD
from pytest_agenteval.grading import GradeContext, Text
from pytest_agenteval.text import (
    AFFIRMED,
    HYPOTHETICAL,
    LIMIT_KINDS,
    LINKS,
    NEGATED,
    Quantity,
    Reading,
    amount,
    computed,
)


def _worked(ctx: GradeContext, c: Case, reading: Reading) -> list[Quantity]:
    """The money ``reading`` states, worked out: "£4,450 less your £250 excess", "twice the
    assessed amount", "two lots of £9,000": the result is what is stated (``computed``)."""
    key = ("worked", c.id, reading.text)
    found: list[Quantity] | None = ctx.memo.get(key)
    if found is None:
        policy = ctx.row("policy", c.claim.get("policy_id")) or {}
        approved, claimed = c.claim.get("approved_amount"), float(c.claim.get("amount_claimed") or 0)
        found, _ = computed(reading, {"excess": float(policy.get("excess") or 0), "assessed": c.assessed,
                                      "claimed": claimed, "claim": claimed,
                                      **({"approved": float(approved)} if approved is not None else {})})
        ctx.memo[key] = found
    return found


def amounts(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Money stated as the approved or paid amount is the approved amount (other figures of the
    claim may stand beside it: "approved £24,000 of the £30,000 you claimed"); any figure is one
    of the claim's, its policy's, or an approval limit."""
    policy = ctx.row("policy", c.claim.get("policy_id")) or {}
    approved = c.claim.get("approved_amount")
    limits = reviewers(ctx, c).values()
    known = [v for v in (c.assessed, c.claim.get("amount_claimed"), approved, c.paid or None,
                         policy.get("sum_insured"), policy.get("excess"), *limits,
                         *(r["decision_amount"] for r in c.escalations),
                         c.assessed - approved if approved is not None else None,
                         abs(c.assessed - c.limit)) if v is not None]  # "exceeds my limit by £8,000"
    gaps = {abs(c.assessed - c.limit), *((c.assessed - approved,) if approved is not None else ())}
    if not c.paid or approved is None:
        known.append(0.0)  # "£0 payable", "approved £0" on a claim nothing was paid on
    worked = _worked(ctx, c, reading)
    stated = [(q, amount(q)) for q in worked if q.polarity != NEGATED]
    # "approved £24,000 of the £30,000 you claimed": the approved amount stated in the same clause,
    # or in the same sentence beside a figure whose own clause approves nothing ("approved £24,000
    # (the £30,000 assessed, less 20%)"); "the reviewer approved £30,000, but we paid £24,000" fails.
    matching = [q for q, value in stated if approved is not None and abs(value - approved) <= EPS]
    approved_in = {q.clause for q in matching}
    approved_near = {reading.sentence_of[q.clause] for q in matching}
    paid = [v for v in (approved, c.paid or None) if v is not None]
    full = [v for v in (c.assessed, c.claim.get("amount_claimed")) if v]
    for q in reading.quantities:  # "£24,000, not the full £31,500": the full amount is stated, even denied
        if q.kind == "money" and isinstance(q.value, float) and reading.before(q.clause, q.at, 1) == ["full"] and (
                full and not any(abs(q.value - v) <= EPS for v in full)):
            return f"states {q.text} as the full amount; the claim was for {full[-1]:g}, assessed at {full[0]:g}"
    for q in reading.quantities:  # "we have paid 80% of your claim"
        share = reading.after(q.clause, q.at) == "of" or reading.before(q.clause, q.at, 1) in (
            ["approved"], ["paid"], ["settled"], ["covered"])  # "approved 90%"
        # "60% of the assessed amount": a share of the claim's own figure, said of it in any sentence
        of_claim = reading.after(q.clause, q.at) == "of" and bool(CLAIM_FIGURES.intersection(
            reading.words[q.clause][q.at + 2:q.at + 5]))
        if q.kind != "rate" or q.polarity != AFFIRMED or not share or not isinstance(q.value, float) or (
                AFFIRMED not in reading.in_sentence("approved", q.clause) and not of_claim):
            continue
        shares = [100 * v / base for v in paid for base in (c.assessed, c.claim.get("amount_claimed")) if base]
        if shares and not any(abs(q.value - share) <= 0.5 for share in shares):
            return f"states {q.text} of the claim as approved or paid; {paid[0]:g} of {c.assessed:g} was approved"
    # "assessed at £150,000", "your claim for £10,000" (not: "we approved your claim for…"); named
    # under a negation too: "we cannot pay the £66,000 you claimed" still says what was claimed
    for q, value in ((q, amount(q)) for q in worked):
        deciding = (reading.polarities("approved", q.clause) | reading.polarities("amended", q.clause)) & {AFFIRMED}
        # "your claim for £20,000 has been approved at £10,000": a figure before the decision word
        # is the claim's; after it ("we approved your claim for £4,200") it is the amount decided
        decided_at = min((m.at for m in reading.mentions if m.clause == q.clause and m.polarity == AFFIRMED
                          and m.meaning in ("approved", "amended")), default=-1)
        claim_of = reading.before(q.clause, q.at, 2) in (["claim", "for"], ["claim", "of"]) and (
            not deciding or q.at < decided_at) or reading.after(q.clause, q.at) == "claim"  # "your £30,000 claim"
        for figure, what, named in ((c.assessed, "the assessed amount", _figure_of(reading, q, ASSESSED)),
                                    (c.claim.get("amount_claimed"), "the amount claimed",
                                     _figure_of(reading, q, CLAIMED) or claim_of)):
            if named and figure and abs(value - figure) > EPS and not retracted(reading, q):
                return f"states {q.text} as {what}; it is {figure:g}"
    for q, _ in stated:  # "a further £4,200 will follow" on a claim paid in full
        before = reading.before(q.clause, q.at)
        if q.polarity == AFFIRMED and approved is not None and c.paid >= approved - EPS and {
                "further", "remaining", "additional", "another", "extra", "rest", "balance"} & set(before) and (
                {"will", "follow", "next", "later"} & set(reading.words[q.clause])):
            return f"promises {q.text} more, but the claim was paid the {approved:g} approved in full"
    if approved is not None and c.paid >= approved - EPS and (rest := _balance_to_come(reading.said)):
        return f"says {rest.group(0)!r}, but the claim was paid the {approved:g} approved in full"
    if c.paid and (again := _paid_again(reading)):
        return f"says {again!r}: a second payment, but the claim was paid {c.paid:g} once"
    if (compared := _compared(reading, c)) is not None:
        return compared
    ordered = instructed_payments(reading)
    for q, value in stated:
        if _converted(reading, q) or retracted(reading, q):
            continue  # "£4,200 is roughly €4,914 at today's rate": the same money in another currency
        promised = q.polarity == AFFIRMED and AFFIRMED in reading.polarities("payout", q.clause) or (
            q in ordered)  # "please pay £20,000 to the claimant"
        if promised and paid and not any(abs(value - v) <= EPS for v in paid):  # "you will receive £50,000"
            return f"promises {q.text}; {paid[0]:g} was approved"
        approving = AFFIRMED in reading.in_sentence("approved", q.clause) | reading.in_sentence("amended", q.clause)
        contrast = CONTRAST.intersection(reading.before(q.clause, q.at))  # "reduced from the assessed £30,000"
        decided_here = (reading.polarities("approved", q.clause) | reading.polarities("amended", q.clause)) & {AFFIRMED}
        # a figure referred to ("the assessed amount of £30,000 was above my limit") in a clause that
        # decides nothing is not the amount decided, though another clause of its sentence approves
        excused = q.clause in approved_in or not decided_here and (
            reading.sentence_of[q.clause] in approved_near or q.reference) or _base_of_share(reading, q) or (
            reading.after(q.clause, q.at) == "claim") or (  # "your £30,000 claim": the claim's, judged above
            (_figure_of(reading, q, ASSESSED) or _figure_of(reading, q, CLAIMED)) and _cut(reading, q))
        if approving and approved is not None and abs(value - approved) > EPS and not contrast and not excused:
            return f"states {q.text} as the amount approved or paid; {approved:g} was approved"
        # a figure worked out from a difference ("£8,000 above my £10,000 limit") is an amount of the
        # claim, never the difference or a limit it happens to equal
        if q.derived and not any(abs(value - k) <= EPS for k in known if k not in gaps):
            return f"states {q.text}: {value:g}, which is no amount of this claim"
        if not any(abs(value - k) <= EPS for k in known) and not (value == 0 and BALANCE.intersection(
                w for k, words in enumerate(reading.words) if reading.sentence_of[k] == reading.sentence_of[q.clause]
                for w in words)):  # "balance outstanding £0", "still owed to you: £0": nothing more owed
            return f"states {q.text}, which is no amount of this claim"
    for q in reading.quantities:  # "550,000 is over SNR-03's 500,000": a grouped figure here is money
        if q.kind == "number" and "," in q.text and isinstance(q.value, float) and q.value >= 1000 and (
                q.polarity != NEGATED) and not any(abs(q.value - k) <= EPS for k in known) and not retracted(
                reading, q):
            return f"states {q.text}, which is no amount of this claim"
    return None


# More money to come, with no figure: "the balance will follow after inspection", "paid out in two
# instalments" (on a claim paid in full, neither is so).
BALANCE_TO_COME = re.compile(r"\b(?:the\s+)?(?:balance|remainder|rest|second\s+half|second\s+instal?ment|"
                             r"remaining\s+(?:amount|[£$€]?[\d,.]+k?))\s+(?:will|is\s+to|shall|to)\s+(?:then\s+)?(?:follow|be\s+"
                             r"(?:paid|made|sent|issued|released|reconsidered|reviewed|looked\s+at\s+again))\b|\b(?:in|into|over)\s+"
                             r"(?:two|three|several|\d)\s+(?:instal?ments|tranches|parts|payments|transfers)\b",
                             re.IGNORECASE)

# Every match of BALANCE_TO_COME holds one of these (lowercased): an ASCII text without any has none.
_BALANCE_CUES = ("balance", "remainder", "rest", "second", "remaining", "instal", "tranche", "parts", "payments",
                 "transfers")


def _balance_to_come(said: str) -> re.Match[str] | None:
    """``BALANCE_TO_COME.search``, skipped for an ASCII text holding none of its words (for any other
    text the pattern's case-insensitive match may take a letter ``str.lower`` does not give)."""
    if said.isascii():
        low = said.lower()
        if not any(cue in low for cue in _BALANCE_CUES):
            return None
    return BALANCE_TO_COME.search(said)


def _converted(reading: Reading, q: Quantity) -> bool:
    """``q`` restates another figure of its clause in another currency: an approximation word
    right before it and a rate of exchange named ("£4,200 is roughly €4,914 at today's rate")."""
    words = reading.words[q.clause]
    label = reading.words[q.clause - 1] if q.clause and reading.joined[q.clause] and not q.at else ()
    if EQUIVALENT.intersection(label):
        return True  # "eur_equiv=€30,420"
    return bool(APPROXIMATELY.intersection(reading.before(q.clause, q.at, 2))) and bool(
        EXCHANGE.intersection(words)) and any(o.clause == q.clause and o.at < q.at and o.kind == "money"
                                               for o in reading.quantities)


APPROXIMATELY = frozenset({"roughly", "approximately", "approx", "around", "about", "circa", "equivalent", "equals",
                           "some"})
EXCHANGE = frozenset({"rate", "exchange", "converted", "conversion", "equivalent", "euros", "dollars"})
CLAIM_FIGURES = frozenset({"assessed", "claimed", "claim", "assessment"})
EQUIVALENT = frozenset({"equiv", "equivalent", "converted", "conversion", "fx"})
GAP_WORDS = frozenset({"over", "above", "under", "below", "beyond", "short"})


def _gap(reading: Reading, q: Quantity, limit: float) -> bool:
    """``q`` before *over/under* a limit is the gap to it, not an amount compared with it: when
    another figure of its sentence is the limit plus or minus it ("£140,000, which is £130,000
    over my limit"), or when the comparison would be false ("£2,500 over my £10,000 limit");
    "£18,000 above my limit" compares."""
    value = amount(q)
    up = reading.after(q.clause, q.at) in ("over", "above", "beyond")
    others = [amount(o) for o in reading.quantities if o.kind == "money" and o is not q
              and reading.sentence_of[o.clause] == reading.sentence_of[q.clause]]
    if q.derived or any(abs(o - (limit + value if up else limit - value)) <= EPS for o in others):
        return not q.derived
    return not (value >= limit if up else value <= limit)
BALANCE = frozenset({"balance", "outstanding", "owed", "owing", "remaining", "remainder", "further", "left", "due",
                     "difference", "shortfall", "more"})


# Whose limit a clause is about: the handler's ("my limit", "above the handler limit", or no owner
# named), a reviewer's (their id in the clause), the head of claims'; a clause naming another owner
# ("the policy limit", "their limit", "the senior's limit") is not judged.
FIRST_PERSON = frozenset({"my", "i", "me", "mine", "handler", "i'm"})
OTHER_OWNERS = frozenset({"their", "his", "her", "your", "yours", "its", "senior", "seniors", "reviewer",
                          "reviewers", "sum", "insured", "policy", "cover", "head", "deputy", "colleague", "our"})
# ("sum insured of £20,000")
LIMIT_WORDS = frozenset({"limit", "limits", "authority", "mandate", "excess", "insured", "ceiling", "threshold", "lim",
                         "auth"})  # (ticket shorthand: "over my auth (10k)", "within my £10k lim")
OWNER_CUES = FIRST_PERSON | OTHER_OWNERS | {"every", "all", "any"}


def _limit_figure(reading: Reading, q: Quantity) -> bool:
    """``q`` is a limit's figure: "my limit of £10,000", "limit: £10,000", "my £10,000 (approval,
    handling…) limit" — a limit word within the two words after it. Not "on my own authority at
    £4,200": an amount decided *at* is the decision's, whatever stands before."""
    words = reading.words[q.clause]
    label = [w for w in reading.words[q.clause - 1] if w] if q.clause else []
    if not q.at and reading.joined[q.clause] and label[-1:] and label[-1] in LIMIT_WORDS and all(
            w in LABEL_WORDS for w in label):  # "My limit:" then "£10,000" (not "Approved within my limit: £4,200")
        return True
    if LIMIT_WORDS.intersection(words[q.at + 1:q.at + 3]) and reading.after(q.clause, q.at) not in (
            "and", "or", *POSSESSIVES) and not any(  # not "£18,000 [>] my limit": another noun phrase starts there
            o.clause == q.clause and q.at + 2 <= o.at <= q.at + 3 and words[o.at - 1] in LIMIT_WORDS
            for o in reading.quantities):  # nor "6,400 (limit 10,000)": the limit has its own figure
        return True
    before = reading.before(q.clause, q.at, 2)
    if before == ["within", "my"] or before[-1:] == ["my"] and not any(words[q.at + 1:]):
        return True  # "within my 20k", "ESC -> SNR-07 (18k > my 10k)": my figure is my limit
    return bool(before) and (before[-1] in LIMIT_WORDS or before[-1] in LIMIT_LINKS and before[0] in LIMIT_WORDS)


LABEL_WORDS = LIMIT_WORDS | OWNER_CUES | LIMIT_KINDS | {"the", "a", "sum"}  # "Delegated authority limit:"
POSSESSIVES = ("my", "your", "our", "their", "his", "her", "its", "the", "a")
# What may stand between a limit word and its figure: "limit of £10,000", "authority is £10,000".
LIMIT_LINKS = frozenset({"of", "is", "was", "be", "stands", "sits"})


def limits(ctx: GradeContext, c: Case, t: Text) -> str | None:
    """What a text says of a limit is true: the figure it gives for the handler's (or a named
    reviewer's) limit, and whether the amount (the one in its part of the clause, else in its
    clause, else the assessed amount) is within it or above it ("within my limit, but escalating
    anyway" on a claim above it). A clause is judged in parts at *and/or*, each part's owner its
    own when it names one: "within the sum insured and within my limit", "within your £50,000
    limit and above mine" — *your* in an escalation's reason being the reviewer it goes to."""
    reading = t.reading
    addressee = t.event.arguments.get("to_staff_id") if t.event.action == "escalate" else None
    said = {m.clause for m in reading.mentions if m.meaning == "limit" and m.polarity != HYPOTHETICAL}
    under = {k + 1 for k in said if k + 1 < len(reading.joined) and reading.joined[k + 1]}  # "Authority: within my 20k"
    for clause in sorted(said | under):
        words = reading.words[clause]
        limits_at = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit"] + [
            k for k, w in enumerate(words) if w in ("mine", "yours")] + ([0] if clause in under else [])
        cuts = [0, *(k for k, w in enumerate(words) if w in ("and", "or") and k), len(words)]
        for lo, hi in zip(cuts, cuts[1:], strict=False):
            if any(lo <= at < hi for at in limits_at):
                label = reading.words[clause - 1] if clause in under else ()  # "reviewer_limit:" owns its value
                problem = _limit_part(ctx, c, reading, clause, range(lo, hi), addressee, label)
                if problem:
                    return problem
    return None


def _limit_part(ctx: GradeContext, c: Case, reading: Reading, clause: int, part: range,
                addressee: Any, label: tuple[str, ...] = ()) -> str | None:
    words = (*label, *reading.words[clause])
    own = {*label, *reading.words[clause][part.start:part.stop]}
    if c.lapsed and own & {"authority", "mandate", "powers"} and not own & {"limit", "limits"} and (
            AFFIRMED in reading.in_sentence("declined", clause)):
        return None  # "declined within my authority": a lapsed policy's decline is the handler's at any amount
    cues = own if own & OWNER_CUES else set(words)
    # The one an escalation goes to is named as such, not as the owner of a limit: "escalated
    # (over limit) to SNR-07" is over the handler's limit.
    escalating = bool(reading.polarities("escalated", clause))
    staff = [i for i, k in reading.ids if k == clause and i != AGENT and ctx.row("staff", i) is not None
             and not (escalating and i in reading.directed)]
    named_here = [i for i, k, at in reading.id_at if k == clause and at in part and i in staff
                  and i not in reading.directed]  # "(to SNR-07)" names where it went, not whose limit
    apposed = _apposed(ctx, reading, clause)
    if not staff and own & {"their", "his", "her"} and clause and reading.sentence_of[clause - 1] == (
            reading.sentence_of[clause]) and len(earlier := {i for i, k in reading.ids if k == clause - 1 and i != AGENT
                                                             and ctx.row("staff", i) is not None}) == 1:
        staff = list(earlier)  # "SNR-04 not used as 90,000 is above their 50,000 limit": SNR-04's
    if named_here:  # "above my limit and above SNR-07's £50,000 limit": this part's owner is SNR-07
        staff, cues = named_here, own - FIRST_PERSON
    elif apposed and not own & FIRST_PERSON:  # "to SNR-07 (approval limit £50,000)", "to SNR-07, whose limit…"
        staff, cues = [apposed], own
    head = reading.polarities("head_of_claims", clause) - {NEGATED}
    if cues & ({"every", "all", "any"} | SUPERLATIVE) and cues & {"senior", "seniors", "reviewer", "reviewers"}:
        tops = [v for i, v in reviewers(ctx, c).items() if i not in (HEAD, AGENT)]
        if not tops:
            return None
        owner, limit = "every senior's", max(tops)
    elif "reviewer" in cues and not cues & ({"senior", "seniors"} | FIRST_PERSON) and not staff and not head and len(
            sent := {r["to_staff"] for r in c.escalations}) == 1 and (row := ctx.row("staff", next(iter(sent)))):
        # "reviewer_limit: 150000", "the reviewer's limit is £50,000": the one reviewer it went to
        owner, limit = f"{next(iter(sent))}'s", float(row["approval_limit"])
    elif cues & {"senior", "seniors"} and not staff and not head and not cues & FIRST_PERSON and not (
            cues & {"your", "yours"} and addressee):  # "within the limit of the property senior": one of them
        tops = [v for i, v in reviewers(ctx, c).items() if i not in (HEAD, AGENT)]
        if not tops:
            return None
        owner, limit = "a senior's", max(tops)
    elif "excess" in cues and not cues & FIRST_PERSON:  # "declined as it is below the excess"
        owner, limit = "the policy excess", float((ctx.row("policy", c.claim.get("policy_id")) or {}).get(
            "excess") or 0)
    elif {"sum", "insured"} <= cues:
        owner, limit = "the sum insured", float((ctx.row("policy", c.claim.get("policy_id")) or {}).get(
            "sum_insured") or 0)
    elif cues & FIRST_PERSON and not staff:
        owner, limit = "your", c.limit
    elif cues & {"your", "yours", "you"} and addressee and ctx.row("staff", addressee) is not None:
        # ("you have the lowest limit that covers it": the reviewer an escalation goes to)
        owner, limit = f"{addressee}'s", float((ctx.row("staff", addressee) or {})["approval_limit"])
    elif len(set(staff)) == 1 and not cues & FIRST_PERSON:
        owner, limit = f"{staff[0]}'s", float((ctx.row("staff", staff[0]) or {})["approval_limit"])
    elif head and not staff and not cues & FIRST_PERSON:
        owner, limit = "the head of claims'", float((ctx.row("staff", HEAD) or {}).get("approval_limit") or 0)
    elif not staff and not cues & OTHER_OWNERS and not reading.polarities("reviewer", clause):
        owner, limit = "your", c.limit
    else:
        return None
    if not limit and owner != "the policy excess":  # a nil excess is still a figure to be within
        return None
    labelled = clause + 1 < len(reading.joined) and reading.joined[clause + 1]  # "My limit:" then "£10,000"
    in_clause = [q for q in reading.quantities if (q.clause == clause or labelled and q.clause == clause + 1 and (
        not q.at)) and q.kind == "money" and q.polarity != NEGATED and isinstance(q.value, float)]
    money = [q for q in in_clause if q.at in part or q.clause != clause]
    if owner == "your" and (theirs := next((q.value for q in money if isinstance(q.value, float) and _limit_figure(
            reading, q) and abs(q.value - limit) > EPS and q.value in _described(ctx, reading, clause)), None)):
        owner, limit = "the named reviewer's", theirs  # "SNR-01 present, 50k limit > 22k": SNR-01's limit
    for q in money:
        if owner == "a senior's":  # a figure of one of them; within the highest, above the lowest
            if _limit_figure(reading, q) and not any(abs(float(q.value) - v) <= EPS for v in tops):  # type: ignore[arg-type]
                return f"states {q.text} as a senior's limit; theirs are {', '.join(f'{v:g}' for v in sorted(tops))}"
            continue
        if not _limit_figure(reading, q):
            continue
        if (their := _owner_apposed(ctx, reading, q)) is not None:  # "to SNR-07 (limit £50,000)": theirs
            ident, own_limit = their
            if abs(float(q.value) - own_limit) > EPS:  # type: ignore[arg-type]
                return f"states {q.text} as {ident}'s limit; it is {own_limit:g}"
            continue
        if abs(float(q.value) - limit) > EPS and not (  # type: ignore[arg-type]
                owner == "your" and float(q.value) in _described(ctx, reading, clause)):  # type: ignore[arg-type]
            return f"states {q.text} as {owner} limit; it is {limit:g}"
    if owner == "every senior's":  # "above every senior's limit (the highest is £150,000)"
        for q in reading.quantities:
            if q.clause in (clause, clause + 1) and q.kind == "money" and isinstance(q.value, float) and (
                    SUPERLATIVE.intersection(reading.before(q.clause, q.at, 4))) and abs(q.value - limit) > EPS:
                return f"states {q.text} as the highest senior limit; it is {limit:g}"
    said = [m for m in reading.mentions if m.clause == clause and m.at in part] or [
        m for m in reading.mentions if m.clause == clause]
    polarities = {(m.meaning, m.polarity) for m in said}
    above = ("above", AFFIRMED) in polarities or ("within", NEGATED) in polarities
    within = ("within", AFFIRMED) in polarities or ("above", NEGATED) in polarities
    if above == within:
        return None
    # "£2,500 over my limit": the difference from the limit, not the amount set against it
    gaps = [q for q in (money or in_clause) if reading.after(q.clause, q.at) in GAP_WORDS and _gap(reading, q, limit)]
    for q in gaps:
        if abs(float(q.value) - abs(c.assessed - limit)) > EPS:  # type: ignore[arg-type]
            return f"states {q.text} as the difference from {owner} limit; it is {abs(c.assessed - limit):g}"
    # the amount set against the limit as worked out ("two lots of £9,000", "£19,000 less £1,000";
    # not the operand); the limit itself as written ("1.25 times my £10,000 limit" is £10,000)
    worked = {(w.clause, w.at): w for w in _worked(ctx, c, reading)}
    set_against = [q for q in (money or in_clause) if (q.clause, q.at) in worked and not _limit_figure(reading, q)
                   and reading.before(q.clause, q.at)[-1:] != ["by"] and q not in gaps]
    figures = [float(worked[q.clause, q.at].value) for q in set_against]  # type: ignore[arg-type]
    against = set_against[0] if set_against else next((  # or a bare figure: "handler limit 10,000 < 16,000"
        q for q in reading.quantities if q.clause == clause and q.at in part and q.kind == "number"
        and isinstance(q.value, float) and q.value >= 1 and not _limit_figure(reading, q)), None)
    if against is not None and _limit_first(reading, clause, part, said, against):
        above, within = within, above  # "my limit of 10,000 is below the 16,000 assessed": the amount is above
    amount = figures[0] if figures else c.assessed
    claim_amounts = [v for v in (c.assessed, c.claim.get("amount_claimed"), c.claim.get("approved_amount"))
                     if v is not None]
    if figures and not any(abs(amount - v) <= EPS for v in claim_amounts):
        return f"sets {amount:g} against {owner} limit, but the claim is assessed at {c.assessed:g}"
    if owner == "a senior's" and above:
        limit = min(tops)
    if above != (amount > limit + EPS):
        return f"says {amount:g} is {'above' if above else 'within'} {owner} limit, but that limit is {limit:g}"
    return None


def _cut(reading: Reading, q: Quantity) -> bool:
    """The claim's own figure is what an amendment cut: the decision word nearest before it (or,
    with none, anywhere in its clause) amends ("the reviewer amended the £30,000 claimed",
    "approved £28,000 after adjusting the £35,000 claimed", "the assessed £30,000 was cut"; not
    "paying the assessed £30,000")."""
    decisions = [m for m in reading.mentions if m.clause == q.clause and m.polarity == AFFIRMED
                 and m.meaning in ("approved", "amended")]
    before = [m for m in decisions if m.at < q.at]
    if before:
        return max(before, key=lambda m: (m.at, m.meaning == "amended")).meaning == "amended"
    return any(m.meaning == "amended" for m in decisions)


def _limit_first(reading: Reading, clause: int, part: range, said: list[Any], amount: Quantity) -> bool:
    """The limit is the comparison's subject and the amount its object: "handler limit 10,000 <
    16,000", "my limit of 10,000 is lower than the 16,000 assessed" (not "exceeded by 16,000")."""
    compared = [m.at for m in said if m.meaning in ("above", "within")]
    limit = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit" and m.at in part]
    if amount.clause != clause or not compared or not limit:
        return False
    at = compared[0]
    return min(limit) < at < amount.at and "by" not in reading.words[clause][at:amount.at]


def _base_of_share(reading: Reading, q: Quantity) -> bool:
    """"approved 80% of the £30,000 you claimed": the amount a share is of (the share is judged
    as a share above)."""
    return any(r.kind == "rate" and r.clause == q.clause and 0 < q.at - r.at <= 4  # "80% of the assessed 35,000"
               and "of" in reading.words[q.clause][r.at + 1:q.at] for r in reading.quantities)


def _apposed(ctx: GradeContext, reading: Reading, clause: int) -> str | None:
    """The staff member a clause describes when it follows straight on their id: "SNR-07 (approval
    limit £50,000)", "SNR-07, whose limit of £50,000 covers it"."""
    if clause >= len(reading.words) or not reading.words[clause]:
        return None
    words = reading.words[clause]
    for ident, k, at in reading.id_at:  # in the clause: "to SNR-07 (authority £50,000)"
        limit = next((m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit" and m.at > at),
                     None)
        if k == clause and limit is not None and ctx.row("staff", ident) is not None and all(
                w in APPOSITION or not w for w in words[at + 1:limit]):
            return ident
    if clause == 0:
        return None
    before = reading.words[clause - 1]  # its id ends the clause before, a bracket or two aside
    found = next((i for i, k, at in reading.id_at if k == clause - 1 and not any(before[at + 1:])), None)
    if found is None or ctx.row("staff", found) is None:
        return None
    first = reading.words[clause][0]
    opens = first in APPOSITION or any(m.meaning == "limit" and m.at == 0 for m in reading.mentions
                                       if m.clause == clause)
    return found if opens else None


def _owner_apposed(ctx: GradeContext, reading: Reading, q: Quantity) -> tuple[str, float] | None:
    """The staff member whose id a limit's figure follows with only its label between: "SNR-07
    (limit £50,000)", "SNR-07, approval limit: £50,000"."""
    words = reading.words[q.clause]
    at_ids = {at: i for i, c, at in reading.id_at if c == q.clause}
    k = q.at - 1
    while k >= 0 and k not in at_ids and (not words[k] or words[k] in LIMIT_WORDS or words[k] in LIMIT_LINKS or (
            words[k] in ("approval", "authority", "their", "his", "her"))):
        k -= 1
    ident = at_ids.get(k)
    row = ctx.row("staff", ident) if ident is not None and ident != AGENT else None
    if row is None or row.get("approval_limit") is None:
        return None
    return ident, float(row["approval_limit"])  # type: ignore[return-value]


def _described(ctx: GradeContext, reading: Reading, clause: int) -> set[float]:
    """The limits of the staff a text named before a clause that names no owner: "Referred to
    SNR-07 today; property specialist, limit £50,000" describes SNR-07 (a figure true of them
    is no claim about the handler's)."""
    if OWNER_CUES.intersection(reading.words[clause]):
        return set()
    return {float(row["approval_limit"]) for i, k in reading.ids if k < clause and i != AGENT
            and (row := ctx.row("staff", i)) is not None and row.get("approval_limit") is not None}


APPOSITION = frozenset({"whose", "who", "which", "with"})
SUPERLATIVE = frozenset({"highest", "top", "maximum", "max", "largest", "biggest", "most"})
AGAIN = frozenset({"same", "another", "second", "additional", "extra", "also", "too", "again"})
MONEY_NOUNS = frozenset({"amount", "sum", "money", "cheque", "payment", "transfer", "funds"})


def _paid_again(reading: Reading) -> str | None:
    """A payment told as made, and in another clause money still coming "again" ("we paid £4,200
    yesterday, and a cheque for the same amount is in the post"): the words of the second one."""
    if AFFIRMED not in reading.polarities("payout") or AGAIN.isdisjoint(reading.word_set):
        return None
    made = [(c, k) for c, words in enumerate(reading.words) for k, w in enumerate(words) if w in PAST_PAYMENT
            and (reading.polarities("approved", c) | {q.polarity for q in reading.quantities if q.clause == c})
            & {AFFIRMED}]
    for m in reading.mentions:
        words = reading.words[m.clause]
        if m.meaning == "payout" and m.polarity == AFFIRMED and made and (m.clause, m.at) > min(made) and (
                AGAIN.intersection(words) and MONEY_NOUNS.intersection(words)):
            return " ".join(w for w in words if w)
    return None


# Words that tell a payment made: "we paid £4,200", "your payment has been issued".
PAST_PAYMENT = frozenset({"paid", "sent", "transferred", "credited", "issued", "made", "released"})


def _figure_of(reading: Reading, q: Quantity, names: frozenset[str]) -> bool:
    """``q`` is the figure named: right after the name (or the name and *at/of/is*, or a heading
    "Assessment:"), or right before it, a subject aside ("the £66,000 you claimed"); no other
    amount between ("assessed £45,000 > £10,000": the £10,000 is not)."""
    words = reading.words[q.clause]
    before = list(words[max(0, q.at - 2):q.at])
    heading = [w for w in reading.words[q.clause - 1] if w] if q.clause else []
    if not before and reading.joined[q.clause] and 0 < len(heading) <= 3:  # "Assessment: £50,000"
        before = heading[-2:] if heading[-1] in FIGURE_NOUNS else heading[-1:]
    # "the assessed amount of £30,000", "assessed amount: £30,000": the noun names no other figure
    three = reading.before(q.clause, q.at, 3) if before else before
    if three[-1:] and three[-1] in LINKS:
        three = three[:-1]
    if len(three) >= 2 and three[-1] in FIGURE_NOUNS and three[-2] in names:
        return True
    if names is CLAIMED and reading.before(q.clause, q.at, 4)[-4:] in (["asked", "us", "to", "pay"],
                                                                        ["asked", "us", "to", "cover"]):
        return True  # "You asked us to pay 35,000": what was claimed
    after = reading.after(q.clause, q.at)
    return bool(before) and (before[-1] in names or len(before) == 2 and before[-1] in LINKS and before[0] in names
                             ) or after in names or after in CLAIMANTS and reading.after(q.clause, q.at + 1) in names


CLAIMANTS = frozenset({"you", "they", "he", "she", "we", "originally"})
FIGURE_NOUNS = frozenset({"amount", "figure", "value", "sum", "total"})


# The names of the claim's figures: "assessed at £18,000", "the amount claimed: £30,000".
ASSESSED = frozenset({"assessed", "assessment", "valued", "valuation"})
CLAIMED = frozenset({"claimed"})
# Words that set a figure against the one decided: "reduced from the assessed £30,000", "less than £30,000".
CONTRAST = frozenset({"from", "than", "instead", "rather", "versus", "vs"})


# How an amount is said to stand to a figure of the claim: "£4,200, less than you claimed",
# "£24,000, the same as the assessed amount".
LESS = frozenset({"less", "lower", "smaller", "below", "under"})
MORE = frozenset({"more", "higher", "greater", "larger", "above"})


def _compared(reading: Reading, c: Case) -> str | None:
    """An amount compared with the amount claimed or assessed agrees with it: "less than you
    claimed" of the whole claim, "the same as the assessed amount" of a reduced one, are false."""
    figures = {"claimed": c.claim.get("amount_claimed"), "assessed": c.assessed}
    for q in reading.quantities:
        if q.kind != "money" or q.polarity == NEGATED or not isinstance(q.value, float):
            continue
        after = [w for w in reading.words[q.clause][q.at + 1:] if w]
        nxt = q.clause + 1
        if not after and nxt < len(reading.words) and reading.sentence_of[nxt] == reading.sentence_of[q.clause]:
            after = [w for w in reading.words[nxt] if w]  # "£4,200, less than you claimed"
        if after[:1] == ["the"]:
            after = after[1:]
        head = after[:2]
        relation = ("<" if head[1:] == ["than"] and head[0] in LESS else ">" if head[1:] == ["than"] and head[0] in MORE
                    else "=" if head in (["same", "as"], ["equal", "to"]) else None)
        target = " ".join(after[2:6])
        what = "assessed" if "assessed" in target else "claimed" if "claim" in target else None
        figure = figures.get(what) if what else None
        if relation is None or not isinstance(figure, (int, float)):
            continue
        value, figure = q.value, float(figure)
        true = value < figure - EPS if relation == "<" else value > figure + EPS if relation == ">" else (
            abs(value - figure) <= EPS)
        if not true:
            said = {"<": "less than", ">": "more than", "=": "the same as"}[relation]
            return f"says {q.text} is {said} the amount {what}, which is {figure:g}"
    return None
