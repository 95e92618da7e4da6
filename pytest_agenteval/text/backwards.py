"""The order a text tells its acts in, part by part: a story told backwards, latest first
("Latest: letter sent. Before that, paid. Before that, approved.": 63rd audit), where each
"before that" opens an earlier part; and a timeline, each entry opened by a clock time or a step
number ("09:32 approved 140000. 09:33 paid.", "step 8 paid. step 9 approved.": 64th audit); and a
chain of arrows ("esc SNR-07 -> appr -> pd -> ltr": 67th audit).
Each part's acts were done before those of the part told as later. Domains read each part's acts
(``pytest_agenteval/domains/escalation/order.py``, ``pytest_agenteval/domains/booking/actors.py``)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

# "Before that, …", "… and before that the payment…", "Before this note: …", "Prior to that, …"
_EARLIER = lazy(r"(?:(?<=^)|(?<=[.;!?\n])|,?\s+and)\s*(?:just\s+|right\s+|shortly\s+|immediately\s+|even\s+)?"
                r"(?:before|prior\s+to|earlier\s+than)\s+(?:that|this(?:\s+(?:note|one|letter|message))?|then)"
                r"\b\s*[,:\-\u2013]?", re.IGNORECASE)


def told_backwards(said: str) -> list[tuple[int, int]]:
    """The parts of ``said``, latest first, as (start, end) spans, when it tells a story backwards
    ("before that" opening at least one part); else no part."""
    cuts = list(_EARLIER.finditer(said))
    if not cuts:
        return []
    spans, at = [], 0
    for cut in cuts:
        spans.append((at, cut.start()))
        at = cut.end()
    return [*spans, (at, len(said))]


# An entry of a timeline: a clock time or a step number opening a line or a sentence.
_ENTRY = lazy(r"(?:(?<=^)|(?<=[.;\n])|(?<=\.\s)|(?<=;\s))\s*(?:(?P<h>\d{1,2})[:.](?P<m>\d{2})\b|"
              r"step\s+(?P<step>\d+)(?:\s*[-\u2013]\s*\d+)?\b\s*:?)", re.IGNORECASE)


def timeline(said: str) -> list[tuple[int, int]]:
    """The entries of ``said``, latest first, as (start, end) spans, when it is a timeline (three
    entries or more, their times or step numbers rising); else none."""
    found = list(_ENTRY.finditer(said))
    if len(found) < 3:
        return _numbered(said)
    keys = [int(m.group("step")) if m.group("step") else int(m.group("h")) * 60 + int(m.group("m")) for m in found]
    if any(b < a for a, b in zip(keys, keys[1:], strict=False)):
        return []  # (not told in rising order: no timeline this reads)
    spans = [(m.end(), found[k + 1].start() if k + 1 < len(found) else len(said)) for k, m in enumerate(found)]
    return spans[::-1]


# A numbered list said to be in order ("### Actions taken (in order)", "Timeline:"; 83rd audit): a
# numbered list alone may be a checklist, so only one told as a sequence is read as one.
_IN_ORDER = lazy(r"\b(?:in\s+(?:that\s+|this\s+)?(?:order|sequence)|chronolog\w*|timeline|sequence\s+of\s+"
                 r"(?:events|steps|actions))\b", re.IGNORECASE)
_ITEM = lazy(r"^[ \t]*(?P<n>\d{1,2})[.)][ \t]+", re.MULTILINE)


def _numbered(said: str) -> list[tuple[int, int]]:
    """The items of a numbered list of three or more, latest first, told as a sequence."""
    found = list(_ITEM.finditer(said))
    if len(found) < 3 or [int(m.group("n")) for m in found] != list(range(1, len(found) + 1)) or not (
            _IN_ORDER.search(said, 0, found[0].start())):
        return []
    spans = [(m.end(), found[k + 1].start() if k + 1 < len(found) else len(said)) for k, m in enumerate(found)]
    return spans[::-1]


_ARROW = lazy(r"\s*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c\u27a1])\ufe0f?\s*")


def arrows(said: str) -> list[tuple[int, int]]:
    """The steps of a chain of arrows ("22k assessed -> SNR-01 -> amended 17.6k -> appr -> pd"),
    latest first, when a sentence holds three arrows or more (67th audit); else none."""
    for start, end in _sentences(said):
        cuts = list(_ARROW.finditer(said, start, end))
        if len(cuts) >= 3:
            at, spans = start, []
            for cut in cuts:
                spans.append((at, cut.start()))
                at = cut.end()
            return [*spans, (at, end)][::-1]
    return []


def _sentences(said: str) -> list[tuple[int, int]]:
    found, at = [], 0
    for m in re.finditer(r"[.;!?\n](?=\s|$)", said):
        found.append((at, m.start()))
        at = m.end()
    return [*found, (at, len(said))]


# An arrow from one id to another: "routing SNR-10 -> deputy SNR-11" is one route; "FAC-5081 ->
# ACC-01997" a record to another kind's, "to" it (84th audit).
_ID_ARROW = lazy(r"\b([A-Z]{2,5}-\d+)[ \t]*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c])[ \t]*"
                 r"((?:(?:the|their|its|his|her)\s+)?deputy\s+[A-Z]{2,5}-\d+|[A-Z]{2,5}-\d+)\b")


def routed(text: str) -> str:
    """``text`` with each arrow between two ids read as words."""
    def read(m: re.Match[str]) -> str:
        same = m.group(1).split("-")[0] == m.group(2).split()[-1].split("-")[0]
        return f"{m.group(1)}{', then' if same else ''} to {m.group(2)}"
    return _ID_ARROW.sub(read, text)
