"""A story told backwards, latest first: "Latest: letter sent. Before that, paid. Before that,
approved." (63rd audit). Each "before that" opens an earlier part: what a part tells was done
before what the part ahead of it tells. Domains read each part's acts
(``pytest_agenteval/domains/escalation/order.py``, ``pytest_agenteval/domains/booking/actors.py``)."""

from __future__ import annotations

import re

# "Before that, …", "… and before that the payment…", "Before this note: …", "Prior to that, …"
_EARLIER = re.compile(r"(?:(?<=^)|(?<=[.;!?\n])|,?\s+and)\s*(?:just\s+|right\s+|shortly\s+|immediately\s+|even\s+)?"
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
