""""Paid in full" read as of the claim or of the amount approved: after an amendment, "we paid
the £24,000 in full" and "paid that in full" tell the amount approved paid whole; "approved your
claim in full" tells the whole claim (the check is ``decisions.decision``'s)."""

from __future__ import annotations

from pytest_agenteval.domains.escalation.case import EPS
from pytest_agenteval.text import AFFIRMED, Mention, Quantity, Reading, amount


def whole_in_full(reading: Reading, approved: float) -> bool:
    """"Paid in full" of the claim, not of the amount approved: "we have paid the £24,000 in full",
    "approved at £24,000, paid in full", "£24,000, the full amount approved" say what was paid;
    "approved your claim in full and paid £24,000", "paid in full: £24,000" say the whole claim."""
    def approved_here(q: Quantity, m: Mention) -> bool:
        return q.kind == "money" and q.polarity == AFFIRMED and isinstance(q.value, float) and abs(
            q.value - approved) <= EPS and reading.sentence_of[q.clause] == reading.sentence_of[m.clause]

    def of_the_amount(m: Mention) -> bool:
        words = reading.words[m.clause]
        end = m.at + len(m.words.split())
        if {"claimed", "assessed", "claim"}.intersection((*words[end:end + 2], *m.words.split())):  # "the full
            # amount you claimed", "the whole of your claim" (red team 64)
            return False
        return any(approved_here(q, m) and (q.clause == m.clause and q.at == m.at - 1 or APPROVING_AT.intersection(
            reading.before(q.clause, q.at, 2)) or q.clause == m.clause and q.at < m.at and {"been", "was", "is"} & set(
            words[q.at + 1:m.at])) for q in reading.quantities) or words[end:end + 1] in (  # ("The amount of
            # 24,000 has been paid to you in full": the amount is what was paid; 81st audit)
            ("approved",), ("agreed",)) or _of_the_figure_before(reading, m, approved) or _pointed_back(
            reading, m, approved)
    def of_payment(m: Mention) -> bool:  # "we paid everything", not "after reviewing everything"
        return m.words != "everything" or AFFIRMED in reading.polarities("approved", m.clause)
    return any(m.meaning == "in_full" and m.polarity == AFFIRMED and of_payment(m) and not of_the_amount(m)
               for m in reading.mentions)


def _pointed_back(reading: Reading, m: Mention, approved: float) -> bool:
    """"paid that in full", "paid that amount in full" after the approved figure is told: that
    figure, paid whole (70th, 71st audits)."""
    return bool(POINTING.intersection(reading.before(m.clause, m.at, 3))) and any(
        q.kind == "money" and isinstance(q.value, float) and abs(q.value - approved) <= EPS and (
            q.clause, q.at) < (m.clause, m.at) for q in reading.quantities)


POINTING = frozenset({"that", "this", "it", "sum"})


def amendment_told(reading: Reading, approved: float) -> bool:
    """The text tells the amendment and the amount approved ("approved at an amended amount of
    12,800, and we've paid that in full", "amended amounts are paid in full - so 24,000 approved
    and paid"): its "in full" is of that amount (48th audit)."""
    return reading.affirms("amended") and any(
        q.kind in ("money", "number") and isinstance(q.value, float) and abs(amount(q) - approved) <= EPS
        and q.polarity == AFFIRMED for q in reading.quantities)


def _of_the_figure_before(reading: Reading, m: Mention, approved: float) -> bool:
    """"…approved at the amended amount of £12,800. This has been paid to you in full.": a sentence
    opened by "this", "that" or "it" speaks of the amount approved the sentence before named."""
    sentence = reading.sentence_of[m.clause]
    first = next((k for k in range(len(reading.words)) if reading.sentence_of[k] == sentence), m.clause)
    opening = [w for w in reading.words[first] if w][:1]
    return opening in (["this"], ["that"], ["it"], ["which"]) and any(
        q.kind == "money" and q.polarity == AFFIRMED and isinstance(q.value, float) and abs(q.value - approved) <= EPS
        and reading.sentence_of[q.clause] == sentence - 1 for q in reading.quantities)


APPROVING_AT = frozenset({"approved", "amended", "agreed", "reduced", "settled", "appr", "apprvd", "approving"})


def as_assessed(reading: Reading) -> bool:
    """The whole claim named by its own figure, approved: "Claim approved in full, as assessed" is
    the assessed amount whatever amendment the text told before (83rd audit)."""
    return any(m.meaning == "in_full" and m.polarity == AFFIRMED and m.words in ("as assessed", "as claimed") and (
        AFFIRMED in reading.in_sentence("approved", m.clause)) for m in reading.mentions)
