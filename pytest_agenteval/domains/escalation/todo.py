"""What a note says is still to do, against the log: "Still to do: issue the payment" after the
payment was made, "I haven't sent the decline letter yet" after it went (53rd audit: a handover
note for a colleague). Only acts done before the text count: one done after it was still to do."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text

# "Still to do: …", "yet to …", "Next step: …" and what follows, up to the end of its sentence.
STILL = re.compile(r"\b(?:still\s+to\s+do|to\s+do|todo|to-do|yet\s+to(?:\s+be)?|still\s+to(?:\s+be)?|next\s+steps?)\b"
                   r"\s*[:\-\u2013]?\s*(?P<what>(?:[^.;!?\n]|\.(?=\d)){0,80})", re.IGNORECASE)
# "I haven't sent it yet", "we have not issued the payment"
NOT_YET = re.compile(r"\b(?:i|we)\s+(?:haven't|have\s+not|havent|didn't|did\s+not)\s+(?:yet\s+)?(?P<what>(?:sent|"
                     r"issued|written|raised|escalated|notified|told|asked|requested|paid|made)\b[^.;:,!?\n]{0,40})",
                     re.IGNORECASE)
# Each act, by what the item names (the order matters: "ask the claimant for the invoice" is a request).
ACTS = (
    ("request_info", re.compile(r"\b(?:ask|asking|request|requesting)\w*\b(?![^,]*\b(?:again|chase|remind))",
                                re.IGNORECASE)),
    ("issue_payment", re.compile(r"\b(?:issu\w*|mak\w*|send\w*|sent|releas\w*|rais\w*|process\w*)\s+(?:the\s+|a\s+|"
                                 r"your\s+|its\s+)?payment\b|\bpa(?:y|id)\s+(?:it|the\s+claim|the\s+claimant|holder\b|"
                                 r"[£$€]?\d)|^(?:the\s+)?payment\b", re.IGNORECASE)),
    ("escalate", re.compile(r"^(?:the\s+)?escalat\w*|\bescalat(?:e|ed|ing)\s+(?:it|the\s+claim|to)\b",
                            re.IGNORECASE)),
    ("notify_claimant", re.compile(r"\bletter\b|\b(?:notify|notified|tell|told|inform|informed|write\s+to|written\s+"
                                   r"to)\b\s+(?:the\s+)?(?:claimant|holder|policyholder|customer|them|him|her)",
                                   re.IGNORECASE)),
)
NOTHING = re.compile(r"^(?:nothing|none|no\b|n/a)", re.IGNORECASE)
REPORTED = re.compile(r"^(?:we|i)\s+(?:have|'ve|has|had)\b|^(?:we|i)'ve\b|\b(?:has|have)\s+been\b|\balready\b",
                      re.IGNORECASE)
LETTER_KINDS = ("approval", "decline")


def still_to_do(c: Case, t: Text) -> str | None:
    """An act said to be still to do, or not done yet, that the log holds done before this text."""
    if t.event.action not in ("add_note", "escalate", "decline_claim", "notify_claimant"):
        return None
    said = t.body  # (as written: the reader's own "yet to" after a label is no item)
    for m in (*STILL.finditer(said), *NOT_YET.finditer(said)):
        what = m.group("what").strip()
        if NOTHING.match(what) or REPORTED.search(what):
            continue  # "Still to do: nothing", "Next steps: we have issued payment PAY-E001"
        act = next((a for a, pattern in ACTS if pattern.search(what)), None)
        if act is None:
            continue
        done = [e for e in c.writes if e.action == act and e.seq < t.event.seq and _same(act, what, e.arguments)]
        if done:
            return f"says {m.group(0).strip()!r} is still to do, but it was done at step {done[0].step}"
    return None


def _same(act: str, what: str, arguments: dict[str, object]) -> bool:
    """A letter said still to do is a decision's letter, of the kind named if one is."""
    if act != "notify_claimant":
        return True
    kind = arguments.get("kind")
    named = [k for k in LETTER_KINDS if k in what.lower()]
    return kind in named if named else kind in LETTER_KINDS
