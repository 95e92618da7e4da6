"""An act told as already done that the log does not hold before the text (59th and 64th audits:
"sent the claimant an information request", "have already requested the repair invoice",
"escalation note already on file", "the claimant has already been told"). ``told`` and
``requests_told.asked_claimant`` read the plainer forms; these are the ones a summary uses."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import sentence_start

_WHO = r"(?:(?:the\s+)?(?:claimant|holder|policyholder|customer|insured)(?:\s+\d+)?|them|him|her|you)"
# A request to the claimant said made, by us (not the reviewer's: "SNR-04 requested the invoice").
REQUESTED = lazy(
    rf"\b(?:sent|issued|raised|made|emailed|posted)\s+(?:{_WHO}\s+)?(?:an?\s+|the\s+|our\s+)?(?:(?:information|info|"
    r"document|documents)\s+request\b|request\s+for\s+(?:the\s+|their\s+)?(?:repair\s+)?(?:invoice|photos|pictures|"
    r"documents|information|receipts?)\b)"
    r"|\b(?:have\s+|had\s+|'ve\s+)?(?:already\s+|also\s+)?requested\s+(?:the\s+|a\s+|their\s+|his\s+|her\s+|your\s+)?"
    r"(?:repair\s+)?(?:invoice|photos|pictures|documents|information|receipts?|details)\b", re.IGNORECASE)
# A note said on file: "escalation note already on file", "decision note filed".
NOTED = lazy(r"\b(?P<kind>escalation|decision|decline|info)\s+note\s+(?:is\s+|was\s+|has\s+been\s+)?"
             r"(?:already\s+)?(?:on\s+file|filed|added|written|recorded|in\s+place|done)\b", re.IGNORECASE)
# The claimant said told already: only a letter before the text counts ("already").
ALREADY_TOLD = lazy(rf"\b{_WHO}\s+(?:(?:has|had|was|were|is)\s+)?already\s+(?:been\s+)?(?:told|informed|notified|"
                    rf"advised|written\s+to)\b|\balready\s+(?:told|informed|notified|advised|wrote\s+to|"
                    rf"written\s+to)\s+{_WHO}", re.IGNORECASE)
_NOT_DONE = lazy(r"\b(?:not|never|no|will|shall|to\s+be|once|if|whether|yet|should|need|needs|must|until|"
                 r"would|could|before|going\s+to|about\s+to|plan\s+to)\b|n't|['\u2019]ll\b",  # ("I'll put an
                 re.IGNORECASE)  # escalation note on file straight after this": 87th audit)
_OTHERS = lazy(r"\b(?:SNR|HOC)-\d+|\b(?:reviewer|senior|head\s+of\s+claims|manager)\b", re.IGNORECASE)
_CUES = ("request", "note", "already")


def _by_reviewer(lead: str) -> bool:
    """The reviewer is who requested it: named last before the verb as its subject ("SNR-04
    returned it and requested…"), not as the object of an escalation ("escalated to SNR-01 and
    sent the claimant a request") nor before "I"/"we"."""
    named = list(_OTHERS.finditer(lead))
    if not named:
        return False
    last = named[-1]
    return not re.search(r"\b(?:to|with|for|from|by)\s+(?:the\s+)?$", lead[:last.start()], re.IGNORECASE) and not (
        re.search(r"\b(?:i|we)\b", lead[last.end():], re.IGNORECASE))


def told_done(c: Case, t: Text) -> str | None:
    """A request, a note or a letter told as done that the log holds no sign of before ``t``."""
    said = t.reply
    low = said.lower()
    if not any(cue in low for cue in _CUES):
        return None
    before = [e for e in c.writes if e.seq < t.event.seq]
    if t.event.action != "request_info" and not any(e.action == "request_info" for e in before):
        for m in REQUESTED.finditer(said):
            lead = said[sentence_start(said, m.start()):m.start()]
            if not _NOT_DONE.search(lead[-30:]) and not _by_reviewer(lead):
                return f"says {m.group(0).strip()!r}, but no request went to the claimant before this"
    for m in NOTED.finditer(said):
        kind = m.group("kind").lower()
        noted = [e for e in c.writes
                 if e.action == "add_note" and e.seq <= t.event.seq and e.arguments.get("kind") == kind]
        if not noted and not _NOT_DONE.search(said[sentence_start(said, m.start()):m.start()][-30:]):
            return f"says {m.group(0).strip()!r}, but no {kind} note was filed by then"
    if t.event.action != "notify_claimant" and not any(e.action == "notify_claimant" for e in before):
        for m in ALREADY_TOLD.finditer(said):
            if not _NOT_DONE.search(said[sentence_start(said, m.start()):m.start()][-30:]):
                return f"says {m.group(0).strip()!r}, but no letter went to the claimant before this"
    return None
