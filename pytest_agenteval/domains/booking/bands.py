"""A band of the rate sheet told beside the facility's rate: "5.1% (the sheet rate for revolvers up
to 250,000)", "5.94% (sheet rate for term loans between 250,000 and 1,000,000)". The rate is the
facility's, so the band it is told from must hold the facility's limit (44th audit: the right rate
with a band it does not come from passed)."""

from __future__ import annotations

from typing import Any

from pytest_agenteval.text import Reading

SHEET = frozenset({"sheet", "band", "bands", "grid", "tier", "bracket"})
UPPER = (("up", "to"), ("less", "than"), ("under",), ("below",), ("upto",))
LOWER = (("more", "than"), ("over",), ("above",), ("from",), ("between",))


def band_told(reading: Reading, rates: list[float], limit: float | None, fid: str) -> str | None:
    """The band told in a sentence that gives one of ``rates`` (the facility's) as the sheet's
    holds ``limit``."""
    if limit is None or SHEET.isdisjoint(reading.word_set):
        return None
    for sentence in sorted(set(reading.sentence_of)):
        clauses = [k for k, s in enumerate(reading.sentence_of) if s == sentence]
        words = {w for k in clauses for w in reading.words[k]}
        said = [q for q in reading.quantities if q.clause in clauses]
        if SHEET.isdisjoint(words) or not any(q.kind == "rate" and any(
                abs(float(q.value) - r) < 1e-9 for r in rates) for q in said if isinstance(q.value, float)):
            continue
        low, high = _bounds(reading, [q for q in said if q.kind in ("money", "number") and isinstance(q.value, float)
                                      and q.value >= 1000])
        if (low is not None or high is not None) and not (
                (low is None or limit >= low - 0.5) and (high is None or limit <= high + 0.5)):
            band = f"{low:,.0f} to {high:,.0f}" if low is not None and high is not None else (
                f"up to {high:,.0f}" if high is not None else f"from {low:,.0f}")
            return f"gives the rate as the sheet's for limits {band}, but {fid}'s limit is {limit:,.0f}"
    return None


def _bounds(reading: Reading, money: list[Any]) -> tuple[float | None, float | None]:
    """The band's bounds the amounts give: "up to X", "under X", "over X", "between X and Y"."""
    low = high = None
    for k, q in enumerate(money):
        before = tuple(reading.before(q.clause, q.at, 2))
        if any(before[-len(cue):] == cue for cue in UPPER) or before[-1:] == ("and",) and k and low is not None:
            high = float(q.value)
        elif any(before[-len(cue):] == cue for cue in LOWER):
            low = float(q.value)
    return low, high
