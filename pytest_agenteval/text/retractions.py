"""What a writer takes back at once, read as not said (``prepass.prepared`` calls ``taken_back``):
an earlier message named as taken back ("Please ignore our previous message saying your claim was
pending; the correct position is…": 67th audit), and a figure replaced at once by another ("the
approved amount is 24,000, and sorry, I mean 30,000", "Nine thousand approved, sorry, ninety
thousand": 64th audit)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy


def taken_back(text: str, words: set[str]) -> str:
    """``text`` without what it takes back; ``words`` are its lowercase words."""
    if not words.isdisjoint(("ignore", "disregard")) and _IGNORED.search(text):
        text = _IGNORED.sub("", text)
    if not words.isdisjoint(_FIGURE_SLIP_WORDS) and _FIGURE_CORRECTED.search(text):
        text = _FIGURE_CORRECTED.sub(lambda m: f"{m.group('kept')} " if m.group("kept") else "", text)
    return text


# An earlier message taken back, with what it said: "Please ignore our previous message saying your
# claim was pending; the correct position is…" says only what follows (67th audit).
_IGNORED = lazy(r"\b(?:please\s+)?(?:ignore|disregard)\s+(?:our|the|my|any|that|this)\s+(?:previous|earlier|last|"
                r"prior|original|first|preceding|automated)\s+(?:[\w-]+\s+)?(?:message|letter|e-?mail|request|"
                r"query|queries|note|update|notice|text|sms)\b[^.;!?\n]*[.;!]?\s*", re.IGNORECASE)
# A figure taken back at once for another: "the approved amount is 24,000, and sorry, I mean
# 30,000", "Forty-one thousand, sorry, fourteen thousand" (a figure in words: "sorry" is the cue).
_FIGURE = r"(?:[£$€]\s?\d[\d,.]*|(?<![\d,.])\d[\d,.]*\s*(?:k|%)?)"  # (a figure from its first digit: red team 49)
_WORDS_FIGURE = r"(?:[a-z]+[\s-]){0,3}(?:hundred|thousand|million)"
_FIGURE_SLIP_WORDS = frozenset({"sorry", "oops", "apologies", "mean", "meant", "rather", "correction", "make"})
_FIGURE_CORRECTED = lazy(
    rf"(?:{_FIGURE}|\b{_WORDS_FIGURE})(?P<kept>\s+(?:approved|paid|assessed|amended|claimed|declined))?"
    rf"\s*[,;\-\u2013\u2014]?\s*(?:and\s+)?(?:(?:sorry|oops|apologies)\b\s*[,:\-\u2013\u2014]?\s*"
    rf"(?:i\s+mean(?:t)?\s*,?\s*|make\s+that\s+|or\s+rather\s+)?|(?:i\s+mean(?:t)?|make\s+that|or\s+rather|correction)\b"
    rf"\s*[,:]?\s*)(?=[£$€]?\s?\d|{_WORDS_FIGURE}\b)", re.I)
