"""Money a text computes: "£4,450 less your £250 excess", "£24,000 plus the £500 excess",
"twice the assessed amount". What a text says it paid is the result, so the result is judged.

``computed(reading, named)`` returns the amounts the text states, each worked out, and the
positions of the amounts used up as operands (the "£250" of "less your £250 excess" is a figure
referred to, not one paid). ``named`` gives the figures of the world that a text may name by a
word instead of an amount ("less your excess": ``{"excess": 250.0}``).

The grammar, on purpose small: an amount followed within two words by *less, minus, plus*, or
*after deducting / net of*, then within four words by an amount or a named figure; a multiplier
(*twice, double, triple, half, three times…*) before an amount or before a named figure ("double
the assessed amount"); a share taken off or added ("£4,200 less 10%") and a factor after the
amount ("£4,200 x 0.9", "£4,200 / 2", "divided by 2"). One operation per amount; no chains, no
brackets.
"""

from __future__ import annotations

from pytest_agenteval.text.clauses import AFFIRMED
from pytest_agenteval.text.reading import Quantity, Reading

SUBTRACT = frozenset({"less", "minus", "deducting", "net"})
ADD = frozenset({"plus"})
OPERATORS = SUBTRACT | ADD
ACTS = frozenset({"payment", "paid", "pay", "approval", "approved", "approve", "approve_claim", "issue_payment"})
MULTIPLIERS = {"twice": 2.0, "double": 2.0, "doubled": 2.0, "triple": 3.0, "treble": 3.0, "tripled": 3.0,
               "half": 0.5, "halved": 0.5, "quadruple": 4.0}
# A multiplier applies to a named figure only straight before it: "double the assessed amount",
# not "we double-checked the assessed amount".
OF_THE = frozenset({"the", "your", "our", "its", "their", "what", "that", "this", "of"})
FIGURE_NOUNS = frozenset({"approved", "assessed", "claimed", "agreed", "original", "full", "amount", "sum", "figure",
                          "total", "value", "claim"})
TIMES = {"two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "ten": 10.0}
# "three times £4,200", "two lots of £2,100", "2 payments of £2,100": the multiple is stated
# ("two instalments of £2,100" is two payments, judged as such: not a sum)
LOTS = frozenset({"times", "lots", "amounts", "sums", "x"})
FACTORS = frozenset(MULTIPLIERS) | frozenset(TIMES)
# Before a multiple, what makes it a comparison rather than an amount: "more than three times",
# "nearly double", "about twice", "close to three times" (68th audit).
ROUGHLY = frozenset({"than", "nearly", "almost", "over", "about", "around", "roughly", "approximately", "some", "to",
                     "under", "circa", "approx"})


# Words that end what a multiple applies to: the figure after them is another item's.
_JOINS = frozenset({"and", "or", "then", "but", "so"})


def computed(reading: Reading, named: dict[str, float]) -> tuple[list[Quantity], set[tuple[int, int]]]:
    """The money the text states, worked out, and the (clause, position) of each operand used up."""
    money = [q for q in reading.quantities if q.kind == "money" and isinstance(q.value, float)]
    used: set[tuple[int, int]] = set()
    out: list[Quantity] = []
    for q in money:
        if (q.clause, q.at) in used:
            continue
        words = list(reading.words[q.clause])
        op = next((k for k in range(q.at + 1, min(q.at + 3, len(words))) if words[k] in OPERATORS), None)
        if op is not None and words[op + 1:op + 2] == ["than"]:
            op = None  # "less than the £5,000 limit" compares
        if op is not None and ACTS.intersection(words[op + 1:op + 3]):
            op = None  # "approve_claim 12,500 + payment 12,500": two acts listed, each with its figure
        # ("less a 10% deduction", "net of 10%": an article or "of" may come first)
        share = next((o for o in reading.quantities if op is not None and o.kind == "rate" and o.clause == q.clause
                      and op < o.at <= op + 2 and all(w in ("a", "an", "of", "the") for w in words[op + 1:o.at])
                      and isinstance(o.value, float)), None)
        if share is not None and op is not None:  # "£4,200 less 10%": a share of it taken off (red team 24)
            sign = -1.0 if words[op] in SUBTRACT else 1.0
            used.add((share.clause, share.at))
            out.append(q._replace(value=amount(q) * (1 + sign * float(share.value) / 100),  # type: ignore[arg-type]
                                  text=f"{q.text} {words[op]} {share.text}"))
            continue
        if (factor := _postfix(reading, q, words)) is not None:  # "£4,200 x 0.9", "£4,200 divided by 2"
            out.append(q._replace(value=amount(q) * factor, text=f"{q.text} times {factor:g}"))
            continue
        if op is not None:  # (a negated amount is worked out too: its result is what is denied)
            sign = -1.0 if words[op] in SUBTRACT else 1.0
            operand = next((o for o in money if o.clause == q.clause and op < o.at <= op + 4), None)
            value = amount(operand) if operand is not None else _named(words[op + 1:op + 5], named)
            if value is not None:
                if operand is not None:
                    used.add((operand.clause, operand.at))
                out.append(q._replace(value=amount(q) + sign * value, text=f"{q.text} {words[op]} {value:g}"))
                continue
        out.append(q)
    for clause, said_words in enumerate(reading.words):
        if FACTORS.isdisjoint(said_words):
            continue  # most clauses: no multiplier to look at
        words = list(said_words)
        for k, word in enumerate(words):
            factor = MULTIPLIERS.get(word) or (TIMES.get(word) if words[k + 1:k + 2] and words[k + 1] in LOTS else None)
            if factor is None or words[k - 1:k] and words[k - 1] in ROUGHLY:
                continue  # "more than double my £10,000 limit": a comparison, no amount stated
            after = words[k + 1:k + 6]
            # "twice £4,200", "twice the approved amount of £4,200": the words between name the figure
            base = next((o for o in out if o.clause == clause and k < o.at <= k + 4 or o.clause == clause and (
                k < o.at <= k + 7 and all(w in OF_THE or w in FIGURE_NOUNS for w in words[k + 1:o.at]))), None)
            if base is not None:
                out[out.index(base)] = base._replace(value=factor * amount(base), text=f"{word} {base.text}")
            elif after[:1] and after[0] in OF_THE and (value := _named(after, named)) is not None:
                said = {m.polarity for m in reading.mentions if m.clause == clause}
                polarity = AFFIRMED if AFFIRMED in said or not said else min(said, key=abs)
                out.append(Quantity("money", factor * value, polarity, clause, False, f"{word} the {value:g}", k))
    for q in reading.quantities:  # "1.25 times my £10,000 limit": a figure as a multiple
        if q.kind == "number" and isinstance(q.value, float) and reading.after(q.clause, q.at) in LOTS and not (
                ROUGHLY.intersection(reading.before(q.clause, q.at)[-1:])):  # ("more than three times my limit")
            base = next((o for o in out if o.clause == q.clause and q.at + 1 < o.at <= q.at + 5 and _JOINS.isdisjoint(
                reading.words[q.clause][q.at + 2:o.at])), None)  # (not "waited two times, approved and paid £875,000")
            if base is not None:
                out[out.index(base)] = base._replace(value=q.value * amount(base), text=f"{q.text} times {base.text}")
    return out, used


def _postfix(reading: Reading, q: Quantity, words: list[str]) -> float | None:
    """The factor an operator after an amount applies: "times 0.9", "x 90%" (the prepass writes
    "×" and "*" as *times*), "divided by 2" ("/ 2", "÷ 2")."""
    after = words[q.at + 1:q.at + 3]
    if after[:1] in (["times"], ["x"]):
        at = q.at + 2
    elif after == ["multiplied", "by"]:
        at, after = q.at + 3, ["times"]
    elif after == ["divided", "by"]:
        at = q.at + 3
    else:
        return None
    operand = next((o for o in reading.quantities if o.clause == q.clause and o.at == at and o.kind in (
        "number", "rate") and isinstance(o.value, float) and o.value), None)
    if operand is None:
        return None
    value = float(operand.value) / (100 if operand.kind == "rate" else 1)  # type: ignore[arg-type]
    return value if after[0] != "divided" else 1 / value


def amount(q: Quantity) -> float:
    """A money quantity's value (``Quantity.value`` is a date for dates)."""
    return q.value if isinstance(q.value, float) else 0.0


def _named(words: list[str], named: dict[str, float]) -> float | None:
    return next((named[w] for w in words if w in named), None)
