"""The policy's own figures, told in passing: "the excess on your policy is 100", "an excess of
£500", "SI 900k", "sum_insured: 250000". A clause (or a label and its value) about the excess or
the sum insured that gives one figure and names no other gives that figure of the policy, and it
must be the policy's; so must a figure the next clause calls it ("10,000, which is the full sum
insured", "20,000, the full sum insured"), and an amount paid that "exhausts" it."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import EPS, Case
from pytest_agenteval.domains.escalation.corrections import retracted
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, NEGATED, Quantity, Reading, computed

CAPPED = frozenset({"limited", "capped", "maximum", "max"})
# What else a figure in the clause could be: then the clause is not about the policy's figure alone.
OTHER_FIGURES = frozenset({"assessed", "claimed", "approved", "paid", "payment", "limit", "authority", "amount",
                           "settlement", "total", "above", "over", "below", "within", "exceeds", "less",
                           "minus", "plus", "after", "deducted", "deducting", "net"})


def _compared(words: tuple[str, ...], at: int) -> bool:
    """The figure at ``at`` is set against the policy's figure after it, not given as it: "£120,000 is
    more than your sum insured" (86th audit)."""
    end = next((k for k in range(at + 1, len(words)) if words[k] in ("insured", "excess", "si")), at)
    return not COMPARED.isdisjoint(words[at + 1:end])


COMPARED = frozenset({"more", "less", "than", "above", "over", "below", "under", "exceeds", "exceeding", "exceeded",
                      "beyond", "within", "outside"})


def cover(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Each figure given as the policy's excess or sum insured is the policy's."""
    policy = ctx.row("policy", c.claim.get("policy_id")) or {}
    for clause, words in enumerate(reading.words):
        label = reading.words[clause - 1] if clause and reading.joined[clause] else ()
        said = {*words, *label}
        fields = []
        if "excess" in said and not _in_excess_of(words):
            fields.append(("excess", "excess"))
        if "insured" in said or "si" in said or "cover" in said and said & CAPPED:
            fields.append(("sum insured", "sum_insured"))  # "Cover under policy POL-1 is limited to £500,000"
        if not fields or OTHER_FIGURES.intersection(said):
            continue  # a figure of another kind beside it: not the policy's figure alone
        figures = [q for q in reading.quantities if q.clause == clause and q.kind in ("money", "number")
                   and isinstance(q.value, float) and not q.derived]
        for what, field in fields:
            # each figure by its own label when there are several: "SI 50,000 and an excess of 1,000"
            labelled = [q for q in figures if _labelled(reading, q) == field]
            if len(fields) > 1 or len(figures) > 1 and len(labelled) == 1:
                mine = labelled[-1:] if len(labelled) == 1 else []  # "875k on POL-1 (SI 875k)"
            else:
                mine = figures
            if len(mine) != 1 or policy.get(field) is None or _compared(words, mine[0].at):
                continue
            value, truth = mine[0].value, float(policy[field])
            if isinstance(value, float) and abs(value - truth) > EPS and not retracted(reading, mine[0]):
                return f"gives {mine[0].text} as the policy's {what}; it is {truth:g}"
    if (taken := _excess_taken(c, reading, float(policy.get("excess") or 0))) is not None:
        return taken
    if float(policy.get("excess") or 0) > EPS and "excess" in reading.word_set and (
            none := NO_EXCESS.search(reading.said)) and not ASKED.search(none.group(0)):
        return f"says {none.group(0)!r}, but the policy's excess is {float(policy['excess']):g}"
    return _equated(c, reading, float(policy.get("sum_insured") or 0))


def _labelled(reading: Reading, q: Quantity) -> str:
    """The policy figure a label right before ``q`` names: "SI 875k", "sum insured of 50,000",
    "an excess of 1,000"; else ""."""
    before = reading.before(q.clause, q.at, 2)
    if before[-1:] in (["si"], ["insured"]) or before in (["si", "of"], ["insured", "of"]):
        return "sum_insured"
    return "excess" if before[-1:] == ["excess"] or before == ["excess", "of"] else ""


# The excess said taken off the payment: "Excess deducted: 500", "less your 1,000 excess", "after
# the excess" (not "no excess was deducted", "without deducting the excess").
EXCESS_TAKEN = lazy(r"\bexcess\b[^.;\n]{0,25}?\b(?:deducted|taken off|subtracted|withheld|knocked off)\b|"
                    r"\b(?:deduct(?:ed|ing)?|less|minus|net of|after(?:\s+deducting)?)\s+(?:the\s+|your\s+)?"
                    r"(?:[£$€]?[\d,.]+k?\s+)?(?:policy\s+)?excess\b", re.IGNORECASE)
# The policy said to have no excess: "excess nil", "excess: none", "your policy has no excess" (not
# "no excess was deducted", "no excess to pay": what was taken, judged above).
NO_EXCESS = lazy(r"\bexcess\s*(?:[:=\-;]|is|of)?\s*(?:nil|none|zero|n/a|[£$€]?\s?0(?:\.00)?)(?!\w|[.,]\d)|"
                 r"\b(?:nil|zero)\s+excess\b|\bexcess[\s-]free\b|\bexcess\s+(?:is\s+|was\s+|has\s+been\s+)?waived\b|"
                 r"\b(?:has|have|with|carries|is)\s+no\s+excess\b(?!\s+(?:was|were|has|is|will|to|deducted|taken|"
                 r"applied|charged|payable|due))", re.IGNORECASE)
NOT_TAKEN = lazy(r"\b(?:no|not|without|nil|zero|never)\b|n't\b", re.IGNORECASE)
ASKED = lazy(r"\b(?:if|whether|asked|ask)\b|\?", re.IGNORECASE)


def _excess_taken(c: Case, reading: Reading, excess: float) -> str | None:
    """An excess said deducted from a claim paid the whole of what was approved: nothing was."""
    approved = c.claim.get("approved_amount")
    if approved is None or c.paid < float(approved) - EPS or "excess" not in reading.word_set:
        return None
    if any(q.text.split()[1:2] in (["less"], ["minus"]) and isinstance(q.value, float) and abs(
            q.value - float(approved)) <= EPS for q in computed(reading, {"excess": excess})[0]):
        return None  # "we have paid £10,800 less your £1,000 excess": what is left is what was paid
    for m in EXCESS_TAKEN.finditer(reading.said):
        # (asked, or answered no: "you asked if the excess had been taken off. It hasn't")
        if not NOT_TAKEN.search(reading.said[max(0, m.start() - 25):m.end() + 15]) and not ASKED.search(
                reading.said[max(0, m.start() - 30):m.end() + 1]):
            return f"says {m.group(0)!r}, but " + (f"the {float(approved):g} approved was paid in full" if excess > EPS
                                                     else "the policy has no excess")
    return None


# A clause that only names the sum insured, to say what the figure before it is: "…, which is
# the full sum insured (under your policy)", "…, the full sum insured".
EQUATING = frozenset({"which", "that", "is", "was", "ie", "i", "e", "being", "the", "your", "full", "whole", "entire",
                      "total", "maximum", "max", "policy", "sum", "insured", "under", "on", "of", "amount", "s",
                      ""})  # (an id: "that is the sum insured on your policy POL-1")
# The payment said to use the sum insured up: "this exhausts your policy's sum insured".
EXHAUSTS = frozenset({"exhausts", "exhausted", "exhaust", "uses", "used", "maxes", "maxed"})


def _equated(c: Case, reading: Reading, insured: float) -> str | None:
    if not insured:
        return None
    for clause, words in enumerate(reading.words):
        if "insured" not in words or "sum" not in words or reading.polarities("limit", clause) == {NEGATED}:
            continue
        if clause and set(words) <= EQUATING and reading.sentence_of[clause - 1] == reading.sentence_of[clause] and (
                not any(q.clause == clause for q in reading.quantities)):
            before = [q for q in reading.quantities if q.clause == clause - 1 and q.kind in ("money", "number")
                      and isinstance(q.value, float) and not q.derived]
            last = len(reading.words[clause - 1]) - 1
            value = before[-1].value if before else None
            if isinstance(value, float) and before[-1].at == last and abs(value - insured) > EPS:
                return f"gives {before[-1].text} as the policy's sum insured; it is {insured:g}"
            sentence = reading.sentence_of[clause]
            others = [q.value for q in reading.quantities if reading.sentence_of[q.clause] == sentence
                      and isinstance(q.value, float) and q is not (before[-1] if before else None)]
            if isinstance(value, float) and before[-1].at == last and c.paid and abs(value - c.paid) > EPS and (
                    AFFIRMED in reading.in_sentence("approved", clause)) and not any(
                    abs(o - c.paid) <= EPS for o in others):
                return f"says {before[-1].text}, the sum insured, was paid; {c.paid:g} was paid"
        if EXHAUSTS.intersection(words) and "not" not in words and c.paid and abs(c.paid - insured) > EPS and not any(
                q.clause == clause for q in reading.quantities):
            return f"says the payment uses up the sum insured; {c.paid:g} was paid of {insured:g}"
    return None


def _in_excess_of(words: tuple[str, ...]) -> bool:
    """"in excess of my limit": a comparison, not the policy's excess."""
    return any(w == "excess" and words[k - 1:k] == ("in",) and words[k + 1:k + 2] == ("of",)
               for k, w in enumerate(words))
