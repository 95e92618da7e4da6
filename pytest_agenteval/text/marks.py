"""A checklist whose items open with a mark, read as the marks say (70th audit): "✅ paid" and
"[x] paid" tell the item done, "❌ escalation" and "[ ] letter" not done (yet), "⏳ approval letter"
still to do. A line that opens with a mark is such a list; a mark after an item ("booked ❌") is
``notes``' to read. Each item becomes a sentence of words the reader reads."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

_DONE = r"\u2705|\u2714|\u2713|\u2611|\[\s*[xX\u2713\u2714]\s*\]"
# (a cross, an empty box, a no-entry sign: red team 54)
_NOT = r"\u274c|\u2717|\u2718|\u2716|\u2715|\u2610|\u274e|\u2b1c|\U0001f6ab|\u26d4|\[\s\]"
_WAITING = r"\u23f3|\u231b|\u23f0"
MARK = lazy(rf"(?:(?P<done>{_DONE})|(?P<not>{_NOT})|(?P<waiting>{_WAITING}))\ufe0f?[ \t]*")
# (a list may open a line or follow a sentence: "Approved. ✅ Paid once ❌ Paid twice")
OPENS = lazy(rf"(?:^|(?<=[.!?])[ \t])[ \t]*(?:[-*\u2022][ \t]*)?(?:{_DONE}|{_NOT}|{_WAITING})", re.MULTILINE)
_NEGATIVE = lazy(r"\b(?:no|not|nothing|none|never|nil|n/a)\b|n't", re.IGNORECASE)
_REPEAT = lazy(r"\b(?:twice|again|second|another|duplicate|double|split)\b", re.IGNORECASE)
_DONE_FIRST = lazy(r"\w+(?:ed|en)\b|(?:sent|paid|done|made|set)\b", re.IGNORECASE)
_BRACKETS = lazy(r"\([^()]*\)|\[[^\[\]]*\]")
CUES = ("\u2705", "\u2714", "\u2713", "\u2611", "[", "\u274c", "\u2717", "\u2718", "\u2716", "\u2715", "\u2610",
        "\u274e", "\u2b1c", "\U0001f6ab", "\u26d4", "\u23f3", "\u231b", "\u23f0")
# An item asked and answered by a mark: "Escalated? ✓" says it, "Paid twice? ✗" denies it (red team 54).
_ANSWERED = lazy(rf"(?P<item>[A-Za-z][^?.!\n]{{0,60}}?)\s*\?\s*(?:(?P<yes>{_DONE})|(?P<no>{_NOT}))\ufe0f?")


def marked(text: str) -> str:
    """``text`` with each line that opens with a mark read item by item."""
    if not any(cue in text for cue in CUES):
        return text
    if "?" in text:
        text = _ANSWERED.sub(lambda m: f"{m.group('item')}." if m.group("yes") else f"not {m.group('item')}.", text)
    if not OPENS.search(text):
        return text
    return "\n".join(_marked_line(line) for line in text.split("\n"))


def _marked_line(line: str) -> str:
    """A line with its list (from the first mark that opens one) read item by item."""
    opens = OPENS.search(line)
    if opens is None:
        return line
    return line[:opens.start()] + (" " if opens.start() else "") + _items(line[opens.start():].lstrip())


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
            again = _REPEAT.search(item)  # "❌ Paid twice": not twice, not "not yet paid" (red team 51)
            out.append(". not " if again else ". not yet " if done else ". no ")  # "[ ] booked", "[ ] letter"
        elif m.group("waiting") and not _DONE_FIRST.match(item.lstrip()):
            out.append(". still to do: ")  # "⏳ approval letter" (not "⏳ Escalated to SNR-04; waiting…": done)
        else:
            out.append(". ")
        at = m.end()
    out.append(line[at:])
    return "".join(out).lstrip(". ").rstrip() + ("." if not line.rstrip().endswith((".", "?", "!")) else "")
