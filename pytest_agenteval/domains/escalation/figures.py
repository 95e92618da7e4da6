"""Figures a text ties to the claim by where it puts them, whatever other figures the claim has:
"Amount: £50,000", "claim CLM-00169 (£29,700)", "£20,000 paid", "I cannot approve £13,750",
"amended from £24,000 to £24,000", "assessed £45,000 > £45,000". Such a figure equal to a
limit or the sum insured is still wrong: the place says which figure it is.
"""

from __future__ import annotations

from pytest_agenteval.domains.escalation.case import EPS, Case
from pytest_agenteval.domains.escalation.corrections import retracted
from pytest_agenteval.domains.escalation.limits import LIMIT_WORDS
from pytest_agenteval.text import AFFIRMED, NEGATED, Quantity, Reading, amount

# What may stand between "amount" and its figure: "the amount of £18,000", "the amount is £18,000".
AMOUNT_LINKS = frozenset({"of", "is", "was"})
# What follows a figure that is a limit, a share or a gap rather than the claim's amount.
NOT_THE_AMOUNT = frozenset({"limit", "limits", "authority", "mandate", "excess", "insured", "threshold",
                            "over", "above", "under", "below", "beyond", "more", "less", "or", "plus", "and", "per",
                            "a", "each"})
# A figure paid: "£20,000 paid", "we have sent £20,000", "we paid you £4,200".
PAYING = frozenset({"paid", "sent", "transferred", "credited", "wired", "released", "pay", "paying", "send",
                    "sending", "transfer", "transferring", "remitted"})
PAID_AFTER = frozenset({"paid", "sent", "transferred", "credited", "wired", "released", "remitted", "issued"})
AUXILIARY = frozenset({"has", "have", "had", "was", "were", "been", "is", "are", "now", "already", "also", "just"})
# What may stand between a payment's verb and its figure.
BETWEEN = frozenset({"you", "out", "the", "first", "initial", "a", "an", "just", "only", "them", "him", "her"})
# A refusal's object: "I cannot approve £13,750 myself".
APPROVING = frozenset({"approve", "authorise", "authorize", "sanction", "pay", "sign"})
# "reduced from £30,000 to £24,000"
CHANGED = frozenset({"amended", "amend", "amending", "reduced", "reduce", "reducing", "changed", "lowered", "cut",
                     "adjusted", "revised", "varied", "increased", "raised"})
# Words naming which amount a figure is: "Amount: £30,000 assessed".
NAMES = frozenset({"assessed", "claimed", "claim", "original", "originally", "requested", "insured", "excess"})
ABOVE = frozenset({"above", "over", "exceeds", "exceeding", "exceeded"})
BELOW = frozenset({"below", "under"})
THE = frozenset({"the", "my", "our", "a", "its", "your"})


def tied(reading: Reading, c: Case, claim_id: str) -> str | None:
    """The first figure the text ties to the claim that is none of the claim's amounts."""
    approved = c.claim.get("approved_amount")
    own = [float(v) for v in (c.assessed, c.claim.get("amount_claimed"), approved, c.paid or None,
                              *(r["decision_amount"] for r in c.escalations)) if v is not None]
    paid = [float(v) for v in (approved, c.paid or None) if v is not None]
    ids = {(k, at) for i, k, at in reading.id_at if i == claim_id}
    for q in reading.quantities:
        if q.kind not in ("money", "number") or not isinstance(q.value, float) or q.value < 100:
            continue
        value, after = amount(q), reading.after(q.clause, q.at)
        if _near(value, paid) or after in NOT_THE_AMOUNT or LIMIT_WORDS.intersection(_next(reading, q, 3)):
            continue  # (the amount approved or paid is right in every place here)
        if _apposed(reading, q, ids) and not _near(value, own):
            return f"gives {q.text} beside {claim_id}; its amounts are {', '.join(f'{v:g}' for v in own)}"
        if q.kind != "money" and not _labelled(reading, q) and not _paid(reading, q) or retracted(reading, q):
            # a bare number elsewhere (but one told paid: "paid the first 500,000", "first 3650 issued")
            continue  # may be anything (a year, a count), not "the amount is 28,000.00"; and one taken back
        # ("I wrote that it was 16,000; the correct amount is…") is none
        if _labelled(reading, q) and value and not _near(value, own):
            return f"states {q.text} as the claim's amount; it is {c.assessed:g} assessed"
        # in a letter or note that approves, "Amount: £30,000" is the amount approved, unless named
        if _labelled(reading, q) and paid and not _near(value, paid) and NAMES.isdisjoint(_next(reading, q, 2)) and (
                reading.decision() in ("approved", "amended")):
            return f"states {q.text} as the amount of an approval; {paid[0]:g} was approved"
        if q.polarity == AFFIRMED and paid and _paid(reading, q) and not _near(value, paid):
            return f"states {q.text} as paid; {paid[0]:g} was approved"
        if q.polarity == NEGATED and reading.before(q.clause, q.at, 1)[-1:] and reading.before(
                q.clause, q.at, 1)[-1] in APPROVING and not _near(value, own):
            return f"says {q.text} could not be approved, but the claim is assessed at {c.assessed:g}"
    return _changed(reading, c) or _false_comparison(reading)


def _near(value: float, figures: list[float]) -> bool:
    return any(abs(value - v) <= EPS for v in figures)


def _next(reading: Reading, q: Quantity, n: int) -> list[str]:
    """The ``n`` words after a figure, into the next clause of its sentence ("£10,000 (my limit)")."""
    words = [w for w in reading.words[q.clause][q.at + 1:] if w]
    nxt = q.clause + 1
    if len(words) < n and nxt < len(reading.words) and reading.sentence_of[nxt] == reading.sentence_of[q.clause]:
        words += [w for w in reading.words[nxt] if w]
    return words[:n]


def _label(reading: Reading, q: Quantity) -> list[str]:
    """The label a figure opens its clause under: "Amount paid:" then "£4,200"."""
    if q.at or not q.clause or not reading.joined[q.clause]:
        return []
    label = [w for w in reading.words[q.clause - 1] if w]
    return label if len(label) <= 3 else []


def _labelled(reading: Reading, q: Quantity) -> bool:
    """"Amount: £50,000", "the amount of £20,000" (not "the amount I can approve is £10,000")."""
    before = reading.before(q.clause, q.at, 3)
    if not before:
        label = _label(reading, q)
        return label[-1:] == ["amount"] and NAMES.isdisjoint(label)
    if before[-1] in AMOUNT_LINKS:  # "the amount of £20,000"
        before = before[:-1]
    # (not "the assessed amount of £30,000": named)
    return before[-1:] == ["amount"] and not (len(before) > 1 and before[-2] in NAMES)


def _apposed(reading: Reading, q: Quantity, ids: set[tuple[int, int]]) -> bool:
    """Right after the claim's own id, in brackets or not: "claim CLM-00169 (£29,700)"."""
    words = reading.words[q.clause]
    return any(k == q.clause and at < q.at and not any(words[at + 1:q.at]) for k, at in ids)


def _paid(reading: Reading, q: Quantity) -> bool:
    """A figure told as paid: "£20,000 paid", "we have sent £20,000", "paid you £4,200" — not by
    the claimant ("you paid £250")."""
    words = reading.words[q.clause]
    if _label(reading, q)[-1:] and _label(reading, q)[-1] in PAID_AFTER:  # "Amount paid: £4,200"
        return True
    if reading.after(q.clause, q.at) in PAID_AFTER and "you" not in words[max(0, q.at - 2):q.at]:
        return True
    after = [w for w in words[q.at + 1:q.at + 5] if w]  # "48,000 has been paid to you" (67th audit)
    verb = next((k for k, w in enumerate(after) if w not in AUXILIARY), len(after))
    if 0 < verb < len(after) and after[verb] in PAID_AFTER and "you" not in words[max(0, q.at - 2):q.at]:
        return True
    before = [w for w in words[max(0, q.at - 4):q.at] if w]
    # "paid 500,000", "paid you 4,200", "paid the first 500,000" (64th audit: a part told paid)
    verb = next((k for k in range(len(before) - 1, -1, -1) if before[k] in PAYING and set(before[k + 1:]) <= BETWEEN),
                -1)
    # (not a claim named by its amount: "sent the 22,000 claim to SNR-01"; 56th audit; nor what was
    # asked for: "you asked us to pay 16,000", 64th)
    return verb >= 0 and "you" not in before[:verb] and before[verb - 1:verb] != ["to"] and (
        "excess" not in words[q.at + 1:q.at + 3]) and (
        reading.after(q.clause, q.at) not in CLAIM_NOUNS)


CLAIM_NOUNS = frozenset({"claim", "claims", "case", "file", "property", "motor", "liability", "travel"})


def _changed(reading: Reading, c: Case) -> str | None:
    """"amended from £A to £B": A is the assessed or claimed amount, B the one approved, and they
    differ."""
    approved = c.claim.get("approved_amount")
    for clause, words in enumerate(reading.words):
        if CHANGED.isdisjoint(words) or "from" not in words or "to" not in words:
            continue
        money = [q for q in reading.quantities if q.clause == clause and q.kind in ("money", "number")
                 and isinstance(q.value, float) and q.polarity == AFFIRMED]
        start = next((q for q in money if reading.before(clause, q.at, 2)[-1:] == ["from"] or reading.before(
            clause, q.at, 2) in (["from", "the"], ["from", "an"], ["from", "a"])), None)
        end = next((q for q in money if start and q.at > start.at and "to" in reading.before(clause, q.at, 2)), None)
        if start is None or end is None:
            continue
        was, now = amount(start), amount(end)
        if abs(was - now) <= EPS:
            return f"says the amount was changed from {start.text} to {end.text}: no change"
        if approved is not None and abs(now - float(approved)) > EPS:
            return f"says the amount was changed to {end.text}; {float(approved):g} was approved"
        if not _near(was, [c.assessed, float(c.claim.get("amount_claimed") or 0)]):
            return f"says the amount was changed from {start.text}; it was assessed at {c.assessed:g}"
    return None


def _false_comparison(reading: Reading) -> str | None:
    """Two figures set against each other the wrong way round: "£45,000 > £45,000", "£9,000
    exceeds £10,000" (not a gap to a limit: "£8,000 above my £10,000 limit" states £18,000)."""
    for q in reading.quantities:
        if q.kind != "money" or q.polarity != AFFIRMED or not isinstance(q.value, float):
            continue
        words = reading.words[q.clause]
        relation = reading.after(q.clause, q.at)
        k = q.at + 2
        while k < len(words) and words[k] in THE:
            k += 1
        other = next((o for o in reading.quantities if o.clause == q.clause and o.at == k and (
            o.kind == "money" or o.kind == "number" and isinstance(o.value, float) and o.value >= 100)), None)
        if other is None or not isinstance(other.value, float) or (
                words[k + 1:k + 3] and {"limit", "limits", "authority", "mandate"}.intersection(words[k + 1:k + 3])):
            continue
        given = other.value + q.value if relation in ABOVE else other.value - q.value
        if any(isinstance(o.value, float) and abs(o.value - given) <= EPS and o.kind in ("money", "number")
               and reading.sentence_of[o.clause] == reading.sentence_of[q.clause] for o in reading.quantities):
            continue  # "16,000 assessed = 6,000 above my 10,000": the gap to it (77th audit)
        if relation in ABOVE and q.value <= other.value + EPS or relation in BELOW and q.value >= other.value - EPS:
            return f"says {q.text} is {relation} {other.text}"
    return None
