"""What a task requires a text to say: ``{"says": ["invoice", "photos"]}``.

Each entry is a meaning class of the environment's lexicon, mentioned and not negated ("No
need to send the invoice" does not say ``invoice``), or ``topic:ok`` / ``topic:problem``: the
text states that state of the topic and not the opposite ("KYC is verified" does not say
``kyc:problem``). Plain words of the class count: "repair bill and pictures" says ``invoice``
and ``photos`` when the lexicon has them.
"""

from __future__ import annotations

from typing import Any

from pytest_agenteval.text.reading import Reader, Reading

SAYS = "says"
STATES = ("ok", "problem")


def says_of(value: Any) -> list[str] | None:
    """The meanings a requirement ``{"says": [...]}`` asks for, else None."""
    if isinstance(value, dict) and set(value) == {SAYS} and isinstance(value[SAYS], list):
        return [str(m) for m in value[SAYS]]
    return None


def unmet(reading: Reading, meanings: list[str]) -> list[str]:
    """The required meanings the reading does not say (empty: all said)."""
    missing = []
    for meaning in meanings:
        topic, _, state = meaning.partition(":")
        if state:
            said = reading.status(topic)
            other = STATES[1 - STATES.index(state)]
            if state not in said or other in said:
                missing.append(meaning)
        elif not reading.mentions_meaning(topic):
            missing.append(meaning)
    return missing


def says_ok(reader: Reader, meanings: list[str], text: Any) -> bool:
    return isinstance(text, str) and not unmet(reader.read(text), meanings)


def unknown(reader: Reader, meanings: list[str]) -> list[str]:
    """Entries that name no class of the lexicon (or a state other than ok/problem)."""
    classes = reader.lexicon.classes
    bad = []
    for meaning in meanings:
        topic, colon, state = meaning.partition(":")
        if topic not in classes or (colon and state not in STATES):
            bad.append(meaning)
    return bad


def example(meanings: list[str]) -> str:
    """A text the reference agent writes for a requirement: the meaning names themselves
    ("invoice photos", "kyc problem"), so name each class after one of its own words."""
    return " ".join(m.replace(":", " ").replace("_", " ") for m in meanings) + "."
