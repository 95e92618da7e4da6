"""Lying texts: a declared free text changed so that it keeps its kind and says something false.

``agenteval validate`` writes them into the reference path (``variants.Planner``) and expects
the environment's text check for that text to fail. Each change is read back with the
environment's reader and kept only if the reading really changed:

- **negate the decision**: an approval (or amendment) made a decline, a decline an approval —
  a negation inserted or removed, or the decision's words replaced;
- **swap the amount**: each amount stated as the fact, times 0.9, written the same way;
- **name another record**: each id named replaced with another primary key of its table;
- **hide the swap**: the first swapped amount written with a zero-width space between its
  characters, so a person still reads the false figure (red team 23).

Nothing here knows a domain: the words come from the lexicon, the ids from the scenario.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pytest_agenteval.text import Lexicon, Reader
from pytest_agenteval.text.tokens import NUMBER

# The decision a negated text should announce instead, by the decision it announces.
NEGATED_DECISION = {"approved": ("declined",), "amended": ("declined",), "declined": ("approved", "amended")}
AMOUNT_FACTOR = 0.9


@dataclass(frozen=True)
class TextChange:
    """A mutated text and what was changed in it (the mutant's name)."""

    what: str
    text: str


def _term(term: str) -> str:
    words = [re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in term.split()]
    return r"\s+".join(words)


_PATTERNS: dict[tuple[int, tuple[str, ...]], tuple[Lexicon, re.Pattern[str] | None]] = {}


def _class_pattern(lexicon: Lexicon, meanings: tuple[str, ...]) -> re.Pattern[str] | None:
    """Any term of the meaning classes, longest first, as whole words (case ignored)."""
    found = _PATTERNS.get((id(lexicon), meanings))
    if found is None or found[0] is not lexicon:
        found = _PATTERNS[id(lexicon), meanings] = (lexicon, _compile(lexicon, meanings))
    return found[1]


def _compile(lexicon: Lexicon, meanings: tuple[str, ...]) -> re.Pattern[str] | None:
    terms = sorted({t for m in meanings for t in lexicon.classes.get(m, ())}, key=lambda t: -len(t))
    if not terms:
        return None
    return re.compile(r"(?<![\w'])(?:" + "|".join(_term(t) for t in terms) + r")(?![\w'])", re.IGNORECASE)


_CONTRACTIONS = {"won't": "will", "can't": "can", "shan't": "shall"}


def _without_negations(text: str) -> str:
    text = re.sub(r"\b(?:won't|can't|shan't)\b", lambda m: _CONTRACTIONS[m.group(0).lower()], text, flags=re.I)
    text = re.sub(r"\b(\w+)n't\b", r"\1", text, flags=re.I)
    text = re.sub(r"\bcannot\b", "can", text, flags=re.I)
    return re.sub(r"\b(?:not|never|no)\s+", "", text, flags=re.I)


def _negations(lexicon: Lexicon, text: str, decision: str) -> Iterator[str]:
    """Candidate texts announcing the opposite decision, most local change first."""
    if decision in ("approved", "amended"):
        said = _class_pattern(lexicon, ("approved", "amended"))
        if said is not None:
            yield said.sub(lambda m: "not " + m.group(0), text)
            yield said.sub("declined", text)
    else:
        yield _without_negations(text)
        said = _class_pattern(lexicon, ("declined",))
        if said is not None:
            replaced = said.sub("approved", text)
            yield replaced
            yield _without_negations(replaced)


def negate_decision(reader: Reader, text: str) -> TextChange | None:
    """The text announcing the opposite decision, if it announces one and a change does it."""
    decision = reader.read(text).decision()
    wanted = NEGATED_DECISION.get(decision or "")
    if not wanted:
        return None
    for candidate in _negations(reader.lexicon, text, decision or ""):
        after = reader.read(candidate).decision()
        if candidate != text and after in wanted:
            return TextChange(f"negate the decision ({decision} -> {after})", candidate)
    return None


def scaled(written: str, factor: float = AMOUNT_FACTOR) -> str:
    """An amount as written (``£4,200.00``, ``4200.0``, ``EUR 3.5k``) times ``factor``, written
    the same way: same currency, separators and decimals (two where the amount needs more: £5 -> £4.50)."""
    found = re.search(NUMBER, written)
    if found is None:
        return written
    digits = found.group(0)
    whole, _, fraction = digits.partition(".")
    sep = next((s for s in (",", "\u00a0", " ") if s in whole), "")
    value = float(digits.replace(sep, "") if sep else digits) * factor
    decimals = len(fraction)
    if decimals < 2 and abs(round(value, decimals) - value) > 1e-9:
        decimals = 2  # £5 -> £4.50
    number = f"{value:,.{decimals}f}".replace(",", sep)
    return written[:found.start()] + number + written[found.end():]


def _literal(new: str) -> Callable[[re.Match[str]], str]:
    return lambda _: new


def _replace_all(text: str, old: str, new: str) -> str:
    return re.sub(r"(?<![\w.,])" + re.escape(old) + r"(?![\w]|[.,]\d)", _literal(new), text)


def _stated(reader: Reader, text: str) -> list[float]:
    return sorted(float(q.value) for q in reader.read(text).amounts()  # type: ignore[arg-type]
                  if not q.reference)


def swap_amounts(reader: Reader, text: str) -> list[TextChange]:
    """One text per amount stated as the fact, that amount times 0.9."""
    out = []
    before = _stated(reader, text)
    for written in dict.fromkeys(q.text for q in reader.read(text).amounts() if not q.reference):
        new = scaled(written)
        candidate = _replace_all(text, written, new)
        if candidate != text and _stated(reader, candidate) != before:
            out.append(TextChange(f"amount {written} -> {new}", candidate))
    return out


def rename_ids(reader: Reader, text: str, other: Callable[[str], str | None]) -> list[TextChange]:
    """One text per id named, naming ``other(id)`` (another row of its table) instead."""
    out = []
    for named in reader.read(text).named():
        new = other(named)
        if new is None or new == named:
            continue
        candidate = re.sub(r"(?<![\w-])" + re.escape(named) + r"(?![\w-])", _literal(new), text)
        ids = reader.read(candidate).named()
        if named not in ids and new in ids:
            out.append(TextChange(f"names {named} -> {new}", candidate))
    return out


def hidden(reader: Reader, text: str) -> TextChange | None:
    """The first amount swapped, the new figure written with invisible characters in it."""
    for written in dict.fromkeys(q.text for q in reader.read(text).amounts() if not q.reference):
        new = scaled(written)
        candidate = _replace_all(text, written, ZERO_WIDTH.join(new))
        if candidate != text and new != written:
            return TextChange(f"amount {written} -> {new}, with zero-width spaces", candidate)
    return None


ZERO_WIDTH = "\u200b"


def lying_texts(reader: Reader, text: str, other: Callable[[str], str | None]) -> list[TextChange]:
    """Every lie made of ``text``: its decision negated, each amount swapped (and the first once
    more with invisible characters in it), each id renamed."""
    negated, concealed = negate_decision(reader, text), hidden(reader, text)
    return [*([negated] if negated else []), *swap_amounts(reader, text), *([concealed] if concealed else []),
            *rename_ids(reader, text, other)]
