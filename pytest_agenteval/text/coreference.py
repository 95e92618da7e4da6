"""References back to a pair, resolved before a text is read: "Of SNR-02 and SNR-03, only the
former is in today" names SNR-02; "two accounts, ACC-1 (loan) and ACC-2 (current). I'll book it
to the latter" names ACC-2 (86th audit). The pair is the last two ids of one kind joined by
"and", "or" or a comma before the reference; with no such pair the words are left as they are."""

from __future__ import annotations

import re

_ID = r"[A-Z]{2,4}-\d+"
# Two ids of one kind joined, perhaps each with a short aside: "SNR-01 and SNR-03", "ACC-1 (loan) and ACC-2".
_PAIR = re.compile(r"\b(?P<first>(?P<kind>[A-Z]{2,4})-\d+)\b(?:\s*\([^()\n]{0,30}\))?\s*(?:,\s*|\s+)(?:and|or|&|"
                   r"nor|,)\s+(?:also\s+)?(?P<second>(?P=kind)-\d+)\b")
_BACK = re.compile(r"\bthe\s+(former|latter)(?=['\u2019]s\b|\b)", re.IGNORECASE)


def resolved_back(text: str) -> str:
    """``text`` with "the former" and "the latter" replaced by the id they point back to."""
    pairs = [(m.end(), m.group("first"), m.group("second")) for m in _PAIR.finditer(text)]
    if not pairs:
        return text

    def named(m: re.Match[str]) -> str:
        before = [p for p in pairs if p[0] <= m.start()]
        if not before:
            return m.group(0)
        _, first, second = before[-1]
        return first if m.group(1).lower() == "former" else second
    return _BACK.sub(named, text)
