"""A checklist whose items open with a mark, read as the marks say (70th audit): "✅ paid" and
"[x] paid" tell the item done, "❌ escalation" and "[ ] letter" not done (yet), "⏳ approval letter"
still to do. A line that opens with a mark is such a list; a mark after an item ("booked ❌") is
``notes``' to read. Each item becomes a sentence of words the reader reads."""

from __future__ import annotations

import re

_DONE = r"\u2705|\u2714|\u2611|\[\s*[xX\u2713\u2714]\s*\]"
_NOT = r"\u274c|\u2717|\u2718|\u2610|\u274e|\[\s\]"
_WAITING = r"\u23f3|\u231b|\u23f0"
MARK = re.compile(rf"(?:(?P<done>{_DONE})|(?P<not>{_NOT})|(?P<waiting>{_WAITING}))\ufe0f?[ \t]*")
OPENS = re.compile(rf"^[ \t]*(?:[-*\u2022][ \t]*)?(?:{_DONE}|{_NOT}|{_WAITING})", re.MULTILINE)
_NEGATIVE = re.compile(r"\b(?:no|not|nothing|none|never|nil|n/a)\b|n't", re.IGNORECASE)
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
CUES = ("\u2705", "\u2714", "\u2611", "[", "\u274c", "\u2717", "\u2718", "\u2610", "\u274e", "\u23f3", "\u231b",
        "\u23f0")


def marked(text: str) -> str:
    """``text`` with each line that opens with a mark read item by item."""
    if not any(cue in text for cue in CUES) or not OPENS.search(text):
        return text
    return "\n".join(_items(line) if OPENS.match(line) else line for line in text.split("\n"))


def _items(line: str) -> str:
    out, at = [], 0
    marks = list(MARK.finditer(line))
    for k, m in enumerate(marks):
        out.append(line[at:m.start()].rstrip(" \t,;|/"))
        item = line[m.end():marks[k + 1].start() if k + 1 < len(marks) else len(line)]
        if m.group("not") and not _NEGATIVE.search(_BRACKETS.sub(" ", item)):
            # ("❌ no escalation", "❌ KYC not yet complete", "[ ] escalation - not required": denied already;
            # not "❌ escalation (not needed)", whose bracket says why)
            first = (item.split() or [""])[0].lower()
            done = first.endswith(("ed", "en")) or first in ("paid", "sent", "done", "set", "made", "active")
            out.append(". not yet " if done else ". no ")  # "[ ] booked": not yet booked; "[ ] letter": no letter
        elif m.group("waiting"):
            out.append(". still to do: ")  # "⏳ approval letter"
        else:
            out.append(". ")
        at = m.end()
    out.append(line[at:])
    return "".join(out).lstrip(". ").rstrip() + ("." if not line.rstrip().endswith((".", "?", "!")) else "")
