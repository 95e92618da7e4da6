"""References back to a pair, resolved before a text is read: "Of SNR-02 and SNR-03, only the
former is in today" names SNR-02; "two accounts, ACC-1 (loan) and ACC-2 (current). I'll book it
to the latter" names ACC-2 (86th audit). The pair is the last two ids joined by "and", "or" or a
comma before the reference; with no such pair, or two figures paired nearer, the words are left
as they are."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

_ID = r"[A-Z]{2,4}-\d+"
# Two ids joined, perhaps each with a short aside: "SNR-01 and SNR-03", "ACC-1 (loan) and ACC-2", "HOC-1 and SNR-02".
# ("SNR-01 (motor senior, 50,000 approval limit) and SNR-02", "ACC-1 (loan) plus ACC-2", two ids
# listed one a line: red team 68)
_PAIR = lazy(rf"\b(?P<first>{_ID})\b(?:\s*\([^()\n]{{0,60}}\))?(?:\s*(?:,\s*|\s+)(?:and|or|&|nor|plus|,)\s+"
             rf"(?:also\s+)?|[^\S\n]*\n[^\S\n]*(?:[-*\u2022]|\d+[.)])[^\S\n]+)(?P<second>{_ID})\b")
# A nearer pair, of figures: "assessed 30,000, approved 24,000: the former was cut" (red team 68).
_FIGURES = lazy(r"\d[\d,.]*\s*[km]?\b[^.;:\n]{0,30}?(?:,|\band\b|\bor\b)[^.;:\n]{0,30}?\d")
# (not "the latter part of the review": a noun after it is what it qualifies; red team 68)
_BACK = lazy(r"\bthe\s+(former|latter)(?=['\u2019]s\b|\b)(?!\s+(?:part|half|stage|case|option|period|point|"
             r"date|step|group|category|type|kind|scenario|days?|weeks?|months?|years?)\b)", re.IGNORECASE)


def resolved_back(text: str) -> str:
    """``text`` with "the former" and "the latter" replaced by the id they point back to."""
    pairs = [(m.end(), m.group("first"), m.group("second")) for m in _PAIR.finditer(text)]
    if not pairs:
        return text

    def named(m: re.Match[str]) -> str:
        before = [p for p in pairs if p[0] <= m.start()]
        if not before or _FIGURES.search(text, before[-1][0], m.start()):
            return m.group(0)
        _, first, second = before[-1]
        return first if m.group(1).lower() == "former" else second
    return _BACK.sub(named, text)
