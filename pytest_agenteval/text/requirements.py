"""What a task requires a text to say: ``{"says": ["invoice", "photos"]}``.

Each entry is a meaning class of the environment's lexicon (or a list of them: any one will
do), mentioned and not negated ("No
need to send the invoice" does not say ``invoice``), or ``topic:ok`` / ``topic:problem``: the
text states that state of the topic and not the opposite ("KYC is verified" does not say
``kyc:problem``). Plain words of the class count: "repair bill and pictures" says ``invoice``
and ``photos`` when the lexicon has them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_agenteval.text.clauses import NEGATED
from pytest_agenteval.text.reader import Reader
from pytest_agenteval.text.reading import Reading

SAYS = "says"
STATES = ("ok", "problem")


Meaning = str | Sequence[str]  # one meaning, or alternatives (a list, or a tuple where it must hash)


def says_of(value: Any) -> list[Meaning] | None:
    """The meanings a requirement ``{"says": [...]}`` asks for, else None."""
    if isinstance(value, dict) and set(value) == {SAYS} and isinstance(value[SAYS], list):
        return [m if isinstance(m, list) else str(m) for m in value[SAYS]]
    return None


def _says(reading: Reading, meaning: str) -> bool:
    topic, _, state = meaning.partition(":")
    if not state:
        return reading.mentions_meaning(topic) or any(
            _missing(reading, m) for m in reading.mentions if m.meaning == topic)
    said = reading.status(topic)
    return state in said and STATES[1 - STATES.index(state)] not in said


def _missing(reading: Reading, m: Any) -> bool:
    """A thing said to be missing is named: "the exception has no expiry on file - please confirm
    it" says ``expiry``; one said not to be needed is not ("no invoice is needed")."""
    return m.polarity == NEGATED and (m.clause in reading.missing or bool(ABSENT.intersection(
        reading.before(m.clause, m.at, 2)))) and NOT_NEEDED.isdisjoint(reading.words[m.clause])


ABSENT = frozenset({"no", "without", "missing", "lacks", "lacking"})
NOT_NEEDED = frozenset({"need", "needed", "needs", "required", "require", "requires", "necessary"})


def unmet(reading: Reading, meanings: list[Meaning]) -> list[Meaning]:
    """The required meanings the reading does not say (empty: all said)."""
    return [m for m in meanings if not any(_says(reading, alt) for alt in ([m] if isinstance(m, str) else m))]


def says_ok(reader: Reader, meanings: list[Meaning], text: Any) -> bool:
    return isinstance(text, str) and not unmet(reader.read(text), meanings)


def unknown(reader: Reader, meanings: list[Meaning]) -> list[str]:
    """Entries that name no class of the lexicon (or a state other than ok/problem)."""
    classes = reader.lexicon.classes
    bad = []
    for meaning in meanings:
        for alt in [meaning] if isinstance(meaning, str) else meaning:
            topic, colon, state = alt.partition(":")
            if topic not in classes or (colon and state not in STATES):
                bad.append(alt)
    return bad


def example(meanings: list[Meaning]) -> str:
    """A text the reference agent writes for a requirement: the meaning names themselves
    ("invoice photos", "kyc problem"), so name each class after one of its own words."""
    first = [m if isinstance(m, str) else m[0] for m in meanings]
    return " ".join(m.replace(":", " ").replace("_", " ") for m in first) + "."
