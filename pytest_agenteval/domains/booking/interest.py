"""Interest a text works out for the customer: "a year's interest on the full £600,000 at 5.1%
would be about £30,600", "every £100,000 drawn for a year costs about £5,100", "about £3,040 a
year on the full £50,000". Simple interest: principal x rate x months / 12, at the rate the text
states (else the one that applies), for the period it names (a year when it names none); "about"
allows 2%. A figure that matches no principal of its sentence is a wrong sum, told as a fact.
"""

from __future__ import annotations

from typing import Any

from pytest_agenteval.grading import Text
from pytest_agenteval.text import Reading, amount

PERIODS = {"month": 1, "months": 1, "monthly": 1, "year": 12, "years": 12, "annum": 12, "annual": 12,
           "annually": 12, "yearly": 12}
_ONE_MONTH = (("a",), ("one",), ("per",), ("each",))
SLACK = 0.02  # "about £30,600": rounding, not another sum


def interest(h: Any, fid: str, t: Text) -> str | None:
    reading = t.reading
    if "interest" not in reading.word_set and reading.word_set.isdisjoint(PERIODS):
        return None
    stated = [q.value for q in reading.quantities
              if q.kind == "rate" and isinstance(q.value, float) and not q.derived and q.value > 0]
    rate = stated[0] if stated else h.applicable_rate(fid)[0]
    if not rate:
        return None
    for sentence in sorted(set(reading.sentence_of)):
        clauses = [c for c, s in enumerate(reading.sentence_of) if s == sentence]
        words = [w for c in clauses for w in reading.words[c] if w]
        # (a bare figure too, in a sentence about interest: "interest on the full 120,000 limit is about
        # 7,068 a month"; 81st audit)
        money = sorted((q for q in reading.quantities if q.clause in clauses and isinstance(q.value, float) and (
            q.kind == "money" and q.value > 0 or q.kind == "number" and q.value >= 100 and "interest" in words
            and reading.after(q.clause, q.at) not in PERIODS)),
            key=lambda q: amount(q))
        months = _months(reading, clauses)
        if _fully_drawn(words) and isinstance(limit := h.start(fid, "limit_amount"), (int, float)) and money and (
                "interest" in words):
            # "fully drawn, about £30,600 a year (plus a £250 fee)": one of its other sums is the interest
            # on the whole limit (red team 73)
            owed_all = float(limit) * rate / 100 * months / 12
            charged_any = [q for q in money if abs(amount(q) - float(limit)) > SLACK * float(limit)]
            if charged_any and not any(abs(amount(q) - owed_all) <= SLACK * owed_all for q in charged_any):
                return (f"states {charged_any[-1].text} as interest on the full {limit:,.0f} at {rate:g}% for {months} "
                        f"month{'s' if months != 1 else ''}; that is about {owed_all:,.0f}")
            continue
        if len(money) < 2:
            continue
        charged, principals = money[0], money[1:]  # the interest is the smallest sum of its sentence
        after = reading.words[charged.clause][charged.at + 1:charged.at + 4]
        if "interest" not in words and not PERIODS.keys() & set(after):
            continue
        owed = [amount(p) * rate / 100 * months / 12 for p in principals]
        if not any(abs(amount(charged) - e) <= SLACK * e for e in owed):
            return (f"states {charged.text} as interest on {principals[-1].text} at {rate:g}% for {months} "
                    f"month{'s' if months != 1 else ''}; that is about {owed[-1]:,.0f}")
    return None


def _fully_drawn(words: list[str]) -> bool:
    """The sum is on the whole limit: "fully drawn", "drawn in full", "if you draw it all" (90th
    audit), "at full utilisation", "if you max it out", "if the whole limit is used" (red team 73)."""
    return any(w == "fully" and words[k + 1:k + 2] in (["drawn"], ["utilised"], ["utilized"], ["used"]) or (
        w in ("drawn", "draw", "use", "used") and words[k + 1:k + 3] in (["in", "full"], ["it", "all"], ["the", "lot"]))
        or w == "full" and words[k + 1:k + 2] in (["utilisation"], ["utilization"], ["drawdown"], ["usage"]) or (
            w in ("max", "maxed", "maxing") and words[k + 1:k + 3] in (["it", "out"], ["out"])) or (
            w == "every" and words[k + 1:k + 2] in (["penny"], ["pound"])) or (  # "draw down every penny"
            w == "the" and words[k + 1:k + 2] == ["hilt"]) or (
            w in ("whole", "entire", "full") and words[k + 1:k + 2] == ["limit"] and (set(words[k + 2:k + 5]) & {
                "used", "drawn", "utilised", "utilized", "is", "were"} or words[k - 1:k] in (["on"], ["the"]))) or (
            w == "every" and words[k + 1:k + 3] == ["last", "penny"])
        for k, w in enumerate(words))


def _months(reading: Reading, clauses: list[int]) -> int:
    """The period a sentence names: "for 3 months", "2 years", "a month", "a full year" (12 if none)."""
    for q in reading.quantities:
        if q.clause in clauses and q.kind == "number" and isinstance(q.value, float) and q.value.is_integer():
            unit = reading.after(q.clause, q.at)
            if unit in PERIODS:
                return int(q.value) * PERIODS[unit]
    for c in clauses:
        for k, word in enumerate(reading.words[c]):
            # (the words are a tuple: a list never matched, so "a month" was read as a year)
            if word in ("month", "monthly") and tuple(reading.words[c][k - 1:k]) in _ONE_MONTH or word == "monthly":
                return 1
    return 12
