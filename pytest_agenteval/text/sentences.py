"""Where a sentence starts and ends in a text as written: the span a pattern's match is judged in."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

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


# A line broken inside a sentence (a mail's hard wrap; a Markdown soft break, shown as a space): the
# line before ends in a word or figure, the next starts with a small letter ("the £12,500⏎should be
# issued", "We wrote to Holder 89⏎three times": red team 70); not a field after a field
# ("Assessed: 45,000⏎limit: 10,000"), nor a row ("reference,CLM-00001⏎decision,approved").
_HARD_WRAP = lazy(r"(?<=[A-Za-z0-9%)])[ \t]*\n[ \t]*(?=[a-z])")
_FIELD = lazy(r"[a-z][\w ]{0,30}:")
_ROW = lazy(r"[a-z_]\w*[,=|\t]")  # a table's row, a key=value line: "reference,CLM-1", "excess=0"


def unwrapped(text: str) -> str:
    """``text`` with lines broken inside a sentence joined as a reader reads them."""
    if "\n" not in text:
        return text

    def joined(m: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        kept = _ROW.match(text, m.end()) or _FIELD.match(text, m.end()) and ":" in line
        return m.group(0) if kept else " "
    return _HARD_WRAP.sub(joined, text)
