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
    (" - ") before it. A negation before that is another clause's ("No worries, we paid it twice")."""
    dash = said.rfind(" - ", 0, at)
    return max(max(said.rfind(ch, 0, at) for ch in CLAUSE_ENDS) + 1, dash + 3 if dash >= 0 else 0)


_JOINS = (" and ", " but ", " so ", " then ", " as ", " while ")


def words_before(said: str, at: int, n: int = 3) -> str:
    """The last ``n`` words before ``at`` in its clause, after any "and", "but", "so" joining it
    to another: where a negation of what follows stands ("we have not paid it twice"), not one of
    another phrase ("No issues and we paid it twice", "No fuss - we paid it twice"; red team 51)."""
    lead = said[clause_start(said, at):at]
    low = lead.lower()
    cut = max((k + len(j) - 1 for j in _JOINS if (k := low.rfind(j)) >= 0), default=-1)
    return " ".join((lead[cut + 1:] if cut >= 0 else lead).split()[-n:])
