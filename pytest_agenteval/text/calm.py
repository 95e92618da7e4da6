"""A text made safe to read before any pattern reads it: a flood of the same few characters, of
blanks, of digits or of letters is cut to a few, so no run a pattern scans is long and reading
stays linear in the text's length whatever an agent writes (red team 49: "1,1,1,…" of 2,000
characters took seconds in one pattern, 8,000 blanks fifteen in the tokenizer). What a person
writes is left as it is: no word, figure or layout of theirs is that long."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

REPEATS = 8  # a unit of one to four characters kept at most this many times in a row
BLANKS = 8  # blanks (not line breaks) in a row (an indented list keeps its indent)
FIGURE = 40  # digits, commas and points in a row (the longest figure a person writes is ~20)
WORD = 60  # letters in a row

_REPEATED = lazy(rf"(.{{1,4}}?)\1{{{REPEATS},}}", re.DOTALL)
_BLANKS = lazy(rf"[^\S\n]{{{BLANKS + 1},}}")
_FIGURES = lazy(rf"[\d,.]{{{FIGURE + 1},}}")
_LETTERS = lazy(rf"[^\W\d_]{{{WORD + 1},}}")


def calm(text: str) -> str:
    """``text`` with each flood cut: a repeated unit to ``REPEATS`` times, blanks to ``BLANKS``,
    and a run of digits or of letters broken by a space every ``FIGURE`` or ``WORD`` characters."""
    if len(text) < 2 * WORD and "  " not in text:
        return text  # (most texts: short, nothing to cut)
    text = _REPEATED.sub(lambda m: m.group(1) * REPEATS, text)
    text = _BLANKS.sub(lambda m: m.group(0)[:BLANKS], text)
    text = _FIGURES.sub(lambda m: _broken(m.group(0), FIGURE), text)
    return _LETTERS.sub(lambda m: _broken(m.group(0), WORD), text)


def _broken(run: str, every: int) -> str:
    return " ".join(run[k:k + every] for k in range(0, len(run), every))
