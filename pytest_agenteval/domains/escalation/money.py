"""What a text says of money, against the claim: the amount approved or paid, the claim's own
figures, a second payment, a balance still to come (how an amount stands to a limit: ``limits``)."""

from __future__ import annotations

import math
import re

from pytest_agenteval.domains.escalation.case import EPS, Case, reviewers
from pytest_agenteval.domains.escalation.corrections import retracted
from pytest_agenteval.domains.escalation.said import instructed_payments
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import (
    AFFIRMED,
    HYPOTHETICAL,
    LIMIT_KINDS,
    LINKS,
    NEGATED,
    Quantity,
    Reading,
    amount,
    clause_start,
    computed,
)


def worked_amounts(ctx: GradeContext, c: Case, reading: Reading) -> list[Quantity]:
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
    gaps = {abs(c.assessed - c.limit), *((c.assessed - approved,) if approved is not None else ()),
            *(abs(c.assessed - v) for v in limits)}  # "only 5,000 over SNR-03's limit" (the limits check's)
    known += [abs(c.assessed - v) for v in limits]
    if policy.get("sum_insured") is not None:  # "within it with £280,000 to spare" (86th audit)
        room = {float(policy["sum_insured"]) - v for v in (c.assessed, approved)
                if v is not None and float(policy["sum_insured"]) > v}  # (room to spare, not a shortfall)
        known += room
        gaps |= room
    if not c.paid or approved is None:
        known.append(0.0)  # "£0 payable", "approved £0" on a claim nothing was paid on
    worked = worked_amounts(ctx, c, reading)
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
                full and not any(abs(q.value - v) <= EPS for v in full)) and not (
                approved is not None and abs(q.value - approved) <= EPS and reading.affirms("amended")):
            # (not "approved at an amended 38,400; we've paid the full 38,400": the whole of it; 66th audit)
            return f"states {q.text} as the full amount; the claim was for {full[-1]:g}, assessed at {full[0]:g}"
    for q in reading.quantities:  # "we have paid 80% of your claim"
        share = reading.after(q.clause, q.at) == "of" or reading.before(q.clause, q.at, 1) in (
            ["approved"], ["paid"], ["settled"], ["covered"])  # "approved 90%"
        # "60% of the assessed amount": a share of the claim's own figure, said of it in any sentence
        of_claim = reading.after(q.clause, q.at) == "of" and bool(CLAIM_FIGURES.intersection(
            reading.words[q.clause][q.at + 2:q.at + 5]))
        of_limit = reading.after(q.clause, q.at) == "of" and bool(LIMIT_NOUNS.intersection(
            reading.words[q.clause][q.at + 2:q.at + 6]))  # "5,600 approved (56% of my limit)": 77th audit
        if q.kind != "rate" or q.polarity != AFFIRMED or not share or not isinstance(q.value, float) or of_limit or (
                AFFIRMED not in reading.in_sentence("approved", q.clause) and not of_claim):
            continue
        shares = [100 * v / base for v in paid for base in (c.assessed, c.claim.get("amount_claimed")) if base]
        way = roughly(reading, q)  # "a little over three-quarters of the £16,000" for 80% (88th audit)
        if shares and not any(abs(q.value - share) <= 0.5 or way and _share_near(q.value, share, way)
                              for share in shares):
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
            if named and figure and abs(_operand(reading, q, value) - figure) > EPS and not retracted(reading, q):
                return f"states {q.text} as {what}; it is {figure:g}"
    for q, _ in stated:  # "a further £4,200 will follow" on a claim paid in full
        before = reading.before(q.clause, q.at)
        if q.polarity == AFFIRMED and approved is not None and c.paid >= approved - EPS and {
                "further", "remaining", "additional", "another", "extra", "rest", "balance"} & set(before) and (
                {"will", "follow", "next", "later"} & set(reading.words[q.clause])):
            return f"promises {q.text} more, but the claim was paid the {approved:g} approved in full"
    if approved is not None and c.paid >= approved - EPS and (rest := _balance_to_come(reading.said)) and not (
            _DENIED_BEFORE.search(" ".join(reading.said[clause_start(reading.said, rest.start()):rest.start()].split()[
                -4:]))):  # (not "it was not split into two payments")
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
        if (way := roughly(reading, q)) and any(near(value, v, way) for v in (
                [approved] if approving and approved is not None else known)):
            continue  # "just over half a million pounds" for 505,000 (68th audit)
        # "reduced from the assessed £30,000", "approved out of the £16,000 claimed" (84th audit)
        contrast = CONTRAST.intersection(reading.before(q.clause, q.at)) or " out of " in " {} ".format(
            " ".join(reading.before(q.clause, q.at, 4)))
        decided_here = (reading.polarities("approved", q.clause) | reading.polarities("amended", q.clause)) & {AFFIRMED}
        # a figure referred to ("the assessed amount of £30,000 was above my limit") in a clause that
        # decides nothing is not the amount decided, though another clause of its sentence approves
        # (not a figure the verb itself takes: "I approved 35k and paid 28k" states 35k approved; 84th audit)
        direct = reading.before(q.clause, q.at, 1) in (["approved"], ["paid"], ["settled"], ["appr"], ["pd"])
        excused = q.clause in approved_in and not direct or not decided_here and (
            reading.sentence_of[q.clause] in approved_near or q.reference) or _base_of_share(reading, q) or (
            # "your £30,000 claim": the claim's, judged above
            reading.after(q.clause, q.at) == "claim") or _named_limit(reading, q) or _named_gap(reading, q) or (
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
                reading, q) and not _counterfactual(reading, q):
            return f"states {q.text}, which is no amount of this claim"
    return None


LIMIT_NOUNS = frozenset({"limit", "authority", "mandate", "insured", "excess"})
GAP_NOUNS = frozenset({"reduction", "cut", "deduction", "difference", "shortfall", "saving", "increase", "uplift",
                       "discount", "gap", "drop", "decrease", "trim"})


def _named_gap(reading: Reading, q: Quantity) -> bool:
    """``q`` is named as a difference ("a reduction of 6,000", "200 below it"): judged as a
    figure of the claim (a wrong one is no amount of it), never as the amount approved."""
    before = reading.before(q.clause, q.at, 2)
    if reading.after(q.clause, q.at) in ("over", "above", "under", "below", "beyond", "short") and (
            reading.after(q.clause, q.at + 1) in ("it", "that", "this", "them")):
        return True  # "just under my 10,000 authority - 200 below it"
    if reading.after(q.clause, q.at) in GAP_NOUNS:
        return True  # "the £6,000 difference is the reviewer's reduction" (86th audit)
    if reading.words[q.clause][q.at + 1:q.at + 3] == ("to", "spare"):
        return True  # "within it with £280,000 to spare" (86th audit)
    return bool(GAP_NOUNS.intersection(before[-1:]) or before[-1:] == ["of"] and GAP_NOUNS.intersection(before[:1]))


def roughly(reading: Reading, q: Quantity) -> str:
    """How the words right before ``q`` round it: "about" (either side), "over" (it is a little
    more: "just over £500,000"), "under" ("nearly", "just under", "almost"), or "" (exactly)."""
    before = reading.before(q.clause, q.at, 3)
    if before[-1:] and before[-1] in APPROXIMATELY - {"equivalent", "equals"}:
        return "about"
    if before[-2:] in (["more", "than"], ["less", "than"]):  # "more than half", "a little less than"
        side = "over" if before[-2] == "more" else "under"
        return side if before[-3:-2] and before[-3] in SOFTENERS else f"well {side}"
    if before[-2:-1] and before[-2] in FAR and before[-1] in ("over", "above", "under", "below"):
        return "well under" if before[-1] in ("under", "below") else "well over"  # "well over half" (red team 70)
    if before[-2:-1] and before[-2] in SOFTENERS and before[-1] in ("over", "above", "more"):
        return "over"  # "just over", "a bit over"
    if before[-1:] in (["nearly"], ["almost"]) or before[-2:] == ["shy", "of"] or before[-2:-1] and (
            before[-2] in SOFTENERS and before[-1] in ("under", "below", "less")):
        return "under"  # "just under", "a bit under £900k" (88th audit)
    return ""


def _share_near(said: float, share: float, way: str) -> bool:
    """A share told roughly, within a few points: "about 80%" (3 either side), "a little over three
    quarters" or "nearly half" (6, on the side said); "about 90%" of 80% is wrong (88th audit)."""
    if way.startswith("well"):
        return share > said if way == "well over" else share < said
    if way == "about":
        return abs(share - said) <= 3
    return abs(share - said) <= 6 and (share >= said if way == "over" else share <= said)


SOFTENERS = frozenset({"just", "little", "slightly", "bit", "shade", "tad", "touch", "fraction"})
FAR = frozenset({"well", "comfortably", "far", "way", "much", "easily", "considerably", "substantially"})


def near(value: float, exact: float, way: str) -> bool:
    """``value`` rounds ``exact`` the way said: to within 2%, or to one or two significant figures
    ("roughly £4,000" of £4,200: red team 54); "well over" is only a side."""
    if way.startswith("well"):
        return exact > value if way == "well over" else exact < value
    if abs(value - exact) > 0.02 * abs(exact) + EPS and not any(abs(value - r) <= EPS for r in _rounded(exact)):
        return False
    return way == "about" or (exact >= value - EPS if way == "over" else exact <= value + EPS)


def _rounded(exact: float) -> set[float]:
    """``exact`` rounded to one and to two significant figures (4,250: 4,000 and 4,300)."""
    if exact <= 0:
        return set()
    units = (10.0 ** (math.floor(math.log10(exact)) - figures + 1) for figures in (1, 2))
    return {math.floor(exact / unit + 0.5) * unit for unit in units}


def _counterfactual(reading: Reading, q: Quantity) -> bool:
    """A figure supposed against the facts: "if it were 10,001 I would escalate" (audit 52)."""
    words = reading.words[q.clause]
    return q.polarity == HYPOTHETICAL and not {"if", "had"}.isdisjoint(words[:q.at]) and not {
        "were", "been", "was"}.isdisjoint(words[:q.at])


def _named_limit(reading: Reading, q: Quantity) -> bool:
    """A figure the noun after it calls a limit: "within my 10,000 limit", "a 10,000 approval limit",
    "50k sum insured" in a clause that pays nothing (judged as the sum insured elsewhere)."""
    after = [w for w in reading.words[q.clause][q.at + 1:q.at + 3] if w]
    if after == ["sum", "insured"]:  # "(active, motor, 50k SI)": a policy's figure, where nothing is paid or capped
        return not PAYING.intersection(reading.words[q.clause])
    if reading.before(q.clause, q.at, 3)[-2:] == ["up", "to"] and ({"claims", "amounts", "anything"} & set(
            reading.before(q.clause, q.at, 6)) or reading.before(q.clause, q.at, 3)[:1] in (["approve"], ["decide"])):
        return True  # "Rule 1 lets me approve claims up to 10,000": what may be approved (85th audit)
    if reading.named_across_id(q, frozenset({"insured", "excess", "limit"})):
        return True  # "the sum insured on POL-00331 is £900,000" (86th audit)
    return bool(after) and (after[0] in ("limit", "limits") or after[0] in LIMIT_KINDS and after[1:2] == ["limit"])


PAYING = frozenset({"paid", "pay", "payment", "capped", "cap", "limited", "approved", "settled", "payable"})


# More money to come, with no figure: "the balance will follow after inspection", "paid out in two
# instalments" (on a claim paid in full, neither is so).
BALANCE_TO_COME = lazy(r"\b(?:the\s+)?(?:balance|remainder|rest|second\s+half|second\s+instal?ment|"
                       r"remaining\s+(?:amount|[£$€]?[\d,.]+k?)|difference(?:\s+of\s+[£$€]?[\d,.]+k?)?)\s+"
                       r"(?:will|is\s+to|shall|to)\s+(?:then\s+)?(?:follow|be\s+"
                       r"(?:paid|made|sent|issued|released|reconsidered|reviewed|looked\s+at\s+again))\b"
                       # "the payment will be split, with the rest coming next month" (88th audit)
                       r"|\b(?:the\s+)?(?:balance|remainder|rest)\s+(?:coming|following|to\s+come|due|arriving)\b"
                       r"|\bpayment\s+will\s+be\s+split\b"
                       # "we will pay the other 6,000 when you send receipts" (45th audit)
                       r"|\b(?:we|i|and)(?:'ll|\s+will|\s+shall)\s+(?:then\s+|also\s+)?pay\s+(?:you\s+)?(?:the\s+)?"
                       r"(?:other|rest|remaining|balance|remainder|difference)\b|\b(?:in|into|over)\s+"
                       r"(?:two|three|several|\d)\s+(?:instal{0,2}ments|tranches|parts|payments|transfers)\b"
                       r"(?!\s*\|?\s*[:=|\-\u2013]\s*(?:no|n|false|none|never|0)\b)"  # ("… payments: no")
                       # "a small part has been held back" of a claim paid in full (audit 52)
                       r"|(?<!no\s)(?<!any\s)\b(?:a\s+(?:small\s+)?)?(?:part|portion|share|some)\s+(?:of\s+(?:it|the\s+\w+)\s+)?(?:has\s+been|"
                       r"have\s+been|was|were|is\s+being|will\s+be)\s+(?:held\s+back|withheld|retained|kept\s+back)\b",
                       re.IGNORECASE)

# Every match of BALANCE_TO_COME holds one of these (lowercased): an ASCII text without any has none.
_BALANCE_CUES = ("balance", "remainder", "rest", "second", "split", "remaining", "instal", "tranche", "parts",
                 "payments", "transfers", "difference", "other", "held back", "withheld", "retained", "kept back")


_DENIED_BEFORE = lazy(r"\b(?:not|never|no|without|nor)\b|n't", re.IGNORECASE)


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
    if not APPROXIMATELY.intersection(reading.before(q.clause, q.at, 2)):
        return False
    if EXCHANGE.intersection(words) and any(o.clause == q.clause and o.at < q.at and o.kind == "money"
                                            for o in reading.quantities):
        return True
    # "GBP 4,200 (≈ €4,900)": an aside in another currency right after the figure (red team 55)
    return bool(_currency(q.text)) and any(o.kind == "money" and (o.clause == q.clause - 1 or o.clause == q.clause and (
        o.at < q.at)) and _currency(o.text) and _currency(o.text) != _currency(q.text) for o in reading.quantities)


def _currency(text: str) -> str:
    """The currency a figure is written in: its sign or code, or "" for none."""
    low = text.strip().lower()
    return next((sign for sign, marks in _CURRENCIES.items() if low.startswith(marks) or low.endswith(marks)), "")


_CURRENCIES = {"£": ("£", "gbp", "pounds", "quid"), "€": ("€", "eur", "euros"), "$": ("$", "usd", "dollars")}


APPROXIMATELY = frozenset({"roughly", "approximately", "approx", "around", "about", "circa", "equivalent", "equals",
                           "some"})
EXCHANGE = frozenset({"rate", "exchange", "converted", "conversion", "equivalent", "euros", "dollars"})
CLAIM_FIGURES = frozenset({"assessed", "claimed", "claim", "assessment"})
EQUIVALENT = frozenset({"equiv", "equivalent", "converted", "conversion", "fx"})


BALANCE = frozenset({"balance", "outstanding", "owed", "owing", "remaining", "remainder", "further", "left", "due",
                     "difference", "shortfall", "more"})




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


def _base_of_share(reading: Reading, q: Quantity) -> bool:
    """"approved 80% of the £30,000 you claimed": the amount a share is of (the share is judged
    as a share above)."""
    return any(r.kind == "rate" and r.clause == q.clause and 0 < q.at - r.at <= 4  # "80% of the assessed 35,000"
               and "of" in reading.words[q.clause][r.at + 1:q.at] for r in reading.quantities)


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


def _operand(reading: Reading, q: Quantity, value: float) -> float:
    """The figure a name right after it names: in "the 22,000 assessed less 4,400" the 22,000, not
    the 17,600 worked out (86th audit)."""
    raw = next((r for r in reading.quantities if r.clause == q.clause and r.at == q.at), None)
    named_first = raw is not None and raw.text != q.text and isinstance(raw.value, float) and reading.after(
        q.clause, q.at) in ASSESSED | CLAIMED
    return float(raw.value) if named_first else value  # type: ignore[union-attr,arg-type]


def _figure_of(reading: Reading, q: Quantity, names: frozenset[str]) -> bool:
    """``q`` is the figure named: right after the name (or the name and *at/of/is*, or a heading
    "Assessment:"), or right before it, a subject aside ("the £66,000 you claimed"); no other
    amount between ("assessed £45,000 > £10,000": the £10,000 is not)."""
    words = reading.words[q.clause]
    before = list(words[max(0, q.at - 2):q.at])
    heading = [w for w in reading.words[q.clause - 1] if w] if q.clause else []
    if not before and reading.joined[q.clause] and 0 < len(heading) <= 3 and reading.after(q.clause, q.at) not in (
            "over", "above", "under", "below", "beyond", "more", "less", "short"):  # "Assessment: £50,000"
        # (not "48,000 assessed - 38,000 over my limit": a gap; 74th audit)
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
CONTRAST = frozenset({"from", "than", "instead", "rather", "versus", "vs", "against"})  # ("38,400 against 48,000
# assessed": 86th audit)


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
