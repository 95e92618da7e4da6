"""Where a sentence starts and ends in a text as written: the span a pattern's match is judged in."""

from __future__ import annotations

ENDS = ".;!?\n"


def sentence_end(said: str, at: int) -> int:
    """Where the sentence that ``at`` is in ends (the index of its stop, or the text's end)."""
    return min((e for e in (said.find(ch, at) for ch in ENDS) if e >= 0), default=len(said))


def sentence_start(said: str, at: int) -> int:
    """Where the sentence that ``at`` is in starts (just after the stop before it, or 0)."""
    return max(said.rfind(ch, 0, at) for ch in ENDS) + 1


CLAUSE_ENDS = ENDS + ",:(\u2014\u2013"


def clause_start(said: str, at: int) -> int:
    """Where the clause that ``at`` is in starts: after the stop, comma, colon, bracket or dash
    before it. A negation before that is another clause's ("No worries, we paid it twice")."""
    return max(said.rfind(ch, 0, at) for ch in CLAUSE_ENDS) + 1
