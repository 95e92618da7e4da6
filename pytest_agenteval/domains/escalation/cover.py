"""The policy's own figures, told in passing: "the excess on your policy is 100", "an excess of
£500", "SI 900k", "sum_insured: 250000". A clause (or a label and its value) about the excess or
the sum insured that gives one figure and names no other gives that figure of the policy, and it
must be the policy's; so must a figure the next clause calls it ("10,000, which is the full sum
insured", "20,000, the full sum insured"), and an amount paid that "exhausts" it."""

from __future__ import annotations

from pytest_agenteval.domains.escalation.case import EPS, Case
from pytest_agenteval.domains.escalation.corrections import retracted
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.text import NEGATED, Reading

CAPPED = frozenset({"limited", "capped", "maximum", "max"})
# What else a figure in the clause could be: then the clause is not about the policy's figure alone.
OTHER_FIGURES = frozenset({"assessed", "claimed", "approved", "paid", "payment", "limit", "authority", "amount",
                           "settlement", "total", "above", "over", "below", "within", "exceeds", "less",
                           "minus", "plus", "after", "deducted", "deducting", "net"})


def cover(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Each figure given as the policy's excess or sum insured is the policy's."""
    policy = ctx.row("policy", c.claim.get("policy_id")) or {}
    for clause, words in enumerate(reading.words):
        label = reading.words[clause - 1] if clause and reading.joined[clause] else ()
        said = {*words, *label}
        if "excess" in said and not _in_excess_of(words):
            what, field = "excess", "excess"
        elif "insured" in said or "si" in said or "cover" in said and said & CAPPED:
            what, field = "sum insured", "sum_insured"  # "Cover under policy POL-1 is limited to £500,000"
        else:
            continue
        if "excess" in said and field != "excess" or OTHER_FIGURES.intersection(said):
            continue  # both, or a figure of another kind beside it: not the policy's figure alone
        figures = [q for q in reading.quantities if q.clause == clause and q.kind in ("money", "number")
                   and isinstance(q.value, float) and not q.derived]
        if len(figures) != 1 or policy.get(field) is None:
            continue
        value, truth = figures[0].value, float(policy[field])
        if isinstance(value, float) and abs(value - truth) > EPS and not retracted(reading, figures[0]):
            return f"gives {figures[0].text} as the policy's {what}; it is {truth:g}"
    return _equated(c, reading, float(policy.get("sum_insured") or 0))


# A clause that only names the sum insured, to say what the figure before it is: "…, which is
# the full sum insured (under your policy)", "…, the full sum insured".
EQUATING = frozenset({"which", "that", "is", "was", "ie", "i", "e", "being", "the", "your", "full", "whole", "entire",
                      "total", "maximum", "max", "policy", "sum", "insured", "under", "on", "of", "amount", "s"})
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
        if EXHAUSTS.intersection(words) and "not" not in words and c.paid and abs(c.paid - insured) > EPS and not any(
                q.clause == clause for q in reading.quantities):
            return f"says the payment uses up the sum insured; {c.paid:g} was paid of {insured:g}"
    return None


def _in_excess_of(words: tuple[str, ...]) -> bool:
    """"in excess of my limit": a comparison, not the policy's excess."""
    return any(w == "excess" and words[k - 1:k] == ("in",) and words[k + 1:k + 2] == ("of",)
               for k, w in enumerate(words))
