"""Two of the handler's acts told in the wrong order: "I sent the letter, then paid" when the log
holds the payment first, "paid after the letter went out", "escalated after writing to the holder"
(56th audit: an order of acts told wrongly). Only acts the log holds done before the text, each by
its first step; an order between an act and one not done is other checks' concern."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text

_HOLDER = r"(?:the\s+)?(?:holder|claimant|policyholder|customer|insured)(?:\s+\d+)?"
ACTS = {  # past forms and gerunds: what was done, not what is to come
    "escalate": r"escalat(?:ed|ing)|referr(?:ed|ing)\s+(?:it|the\s+claim)\s+to",
    "issue_payment": (r"paid|paying|(?:issued|made|released|issuing|making|releasing)\s+(?:the\s+|a\s+)?payment|"
                      r"payment\s+(?:\S+\s+)?(?:was\s+|had\s+been\s+)?(?:issued|made|released|went\s+out)"),
    "notify_claimant": (rf"(?:sent|sending|wrote|writing|posted|posting|emailed|emailing)\s+(?:the\s+|an?\s+|our\s+)?"
                        rf"(?:\w+\s+)?letter|(?:wrote|writing)\s+to\s+{_HOLDER}|(?:notified|notifying|informed|informing|"
                        rf"told|telling)\s+{_HOLDER}|(?:the\s+)?(?:\w+\s+)?letter\s+(?:was\s+|had\s+been\s+)?(?:sent|went\s+out)"),
}
_ANY = "|".join(f"(?P<{act}>{pattern})" for act, pattern in ACTS.items())
_ACT = re.compile(rf"\b(?:{_ANY})\b", re.IGNORECASE)
# What joins two acts in one sentence, and whether the first told is the first done.
# (the first act's object may come between: "paid PAY-E001 after…", "escalated to SNR-11 before…")
_OBJECT = (r"^[\s,]*(?:(?:to\s+|of\s+)?(?:[A-Z]{2,4}-[A-Z]?\d+|[£$€]?\d[\d,.]*[km]?|it|them|the\s+claim|"
           r"the\s+(?:holder|claimant)(?:\s+\d+)?|holder\s+\d+|\([^)]{0,30}\))[\s,]*)*")
_THEN = re.compile(_OBJECT + r"(?:and\s+)?(?:then|before|afterwards?\s*,?|and\s+after\s+that|,\s*after\s+which)\b",
                   re.IGNORECASE)
_AFTER = re.compile(_OBJECT + r"(?:only\s+)?(?:after|once(?!\s+(?:and|or|only|more|again)\b|\s*[,.;)]|\s*$)|since)\b",
                    re.IGNORECASE)  # ("paid once and notified the holder": once, one time)
_OPENS_AFTER = re.compile(r"\b(?:after|once)\s*$", re.IGNORECASE)  # "After paying, I wrote…": the first told, first
_DENIED = re.compile(r"\b(?:not|never|no|will|shall|would|if|whether|to\s+be)\b|n't", re.IGNORECASE)


def told_out_of_order(c: Case, t: Text) -> str | None:
    """Two acts of the log told in one sentence in the order they were not done."""
    said = t.body
    if not any(w in said.lower() for w in ("then", "before", "after", "once", "since")):
        return None
    first: dict[str, int] = {}
    for e in c.writes:
        if e.seq < t.event.seq and e.action in ACTS:
            first.setdefault(e.action, e.step)
    if len(first) < 2:
        return None
    acts = [(m, next(k for k, v in m.groupdict().items() if v)) for m in _ACT.finditer(said)]
    for (a, act_a), (b, act_b) in zip(acts, acts[1:], strict=False):
        between = said[a.end():b.start()]
        if act_a == act_b or act_a not in first or act_b not in first or re.search(r"[.;!?\n]", between):
            continue
        start = max(said.rfind(ch, 0, a.start()) for ch in ".;!?\n") + 1
        if _DENIED.search(said, start, b.end()):
            continue  # "we will not pay before…", "if you were told before…"
        if _THEN.match(between) or _OPENS_AFTER.search(said, start, a.start()):
            earlier, later = act_a, act_b
        elif _AFTER.match(between):
            earlier, later = act_b, act_a
        else:
            continue
        if first[earlier] > first[later]:
            return (f"says {said[a.start():b.end()]!r}, but step {first[later]} ({later}) came before step "
                    f"{first[earlier]} ({earlier})")
    return None
