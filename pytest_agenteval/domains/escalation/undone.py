"""An act told as not done, never done or still awaited that the log holds done before the text,
in the forms a summary or a chaser uses: "update letter not yet sent", "decline note not filed",
"escalation note never filed", "no letters sent", "claimant not told yet", "I will send the
information request tomorrow", "still waiting for the reviewer's decision" (58th and 59th
audits). ``todo`` reads lists and "I haven't…"; these are what it did not."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy

_KIND = r"(?:(?P<kind>update|approval|decline|decision|escalation|info(?:rmation)?)\s+)?"
# (not to someone else: "no payment was made to the garage")
_DONE_VERB = (r"(?:sent|filed|issued|added|made|written|posted|raised|recorded|entered|gone\s+out|gone)\b"
              r"(?!\s+(?:to|by)\s+(?:the\s+|a\s+|any\s+)?(?:garage|repairer|broker|third|other|contractor|supplier))")
UNDONE = lazy(
    rf"\b{_KIND}(?P<what>letters?|notes?|payments?|(?:information\s+)?requests?)\b(?:\s+to\s+(?:the\s+)?(?:claimant|holder)"
    rf"(?:\s+\d+)?)?(?:\s*[\u2014\u2013:]\s*|\s+-\s+|\s+)(?:is\s+|was\s+|has\s+|have\s+|had\s+)?(?:still\s+)?(?:not|never)\s+(?:yet\s+)?(?:been\s+)?"
    rf"{_DONE_VERB}\b"
    rf"|\bno\s+{_KIND.replace('kind', 'kind2')}(?P<what2>letters?|notes?|payments?|(?:info(?:rmation)?\s+)?"
    rf"requests?)\s+(?:(?:was|were|has|have)\s+"
    rf"(?:yet\s+)?(?:been\s+)?)?{_DONE_VERB}\b"
    # a checklist's item denied ("not info request sent", "not approval letter": its "N"; 61st audit)
    rf"|\bnot\s+{_KIND.replace('kind', 'kind3')}(?P<what3>letters?|notes?|payments?|(?:info(?:rmation)?\s+)?requests?)"
    rf"(?:\s+(?:was\s+)?{_DONE_VERB})?(?=\s*(?:[;|.,\n-]|$))"
    # told missing from the file: "Decline note still missing", "approval letter missing" (68th audit)
    rf"|\b{_KIND.replace('kind', 'kind4')}(?P<what4>letter|note|payment)s?\s+(?:is\s+|was\s+|are\s+)?(?:still\s+)?"
    r"(?:missing|absent|not\s+on\s+(?:the\s+)?file)\b"
    r"|\b(?P<told>claimant|holder|policyholder|customer)(?:\s+\d+)?\s+(?:has\s+|was\s+|is\s+)?not\s+(?:yet\s+)?(?:been\s+)?"
    r"(?:told|informed|notified|contacted|written\s+to)\b(?=\s*(?:yet\b|[.,;:!?)]|$|(?:of|about)\s+the\s+(?:decision|"
    r"outcome|approval|decline)))"  # (not "not told about the excess": what a letter left out)
    # "Nothing asked of the claimant yet" (69th audit)
    r"|\bnothing\s+(?:yet\s+)?(?:has\s+been\s+|was\s+|is\s+)?(?P<request2>asked|requested)\s+(?:of|from)\s+(?:the\s+)?"
    r"(?:claimant|holder|policyholder)"
    r"|\b(?:i|we)\s+will\s+(?:now\s+|then\s+|also\s+)?(?:send|issue)\s+(?:the\s+|an?\s+)?(?P<request>information\s+request|"
    r"request\s+for\s+(?:the\s+)?(?:information|documents|invoice))",
    re.IGNORECASE)
# Still waiting for an answer the handler has read: "still wait for reviewer decision" (58th audit)
AWAITING = lazy(r"\b(?:still\s+)?(?:wait|waiting|awaiting|await)\s+(?:for\s+)?(?:the\s+)?(?:senior\s+)?"
                r"(?:reviewer['\u2019]?s?\s+|senior['\u2019]?s?\s+|SNR-\d+['\u2019]?s?\s+|HOC-\d+['\u2019]?s?\s+)?"
                r"(?:decision|answer|reply|response|review)\b", re.IGNORECASE)
_ASKED = lazy(r"[^.;!\n?]{0,200}\?")  # the sentence it is in is a question
_CUES = ("not", "never", "no ", "nothing", "will send", "will issue", "wait", "missing", "absent")
_ANOTHER = lazy(r"\b(?:again|another|further|second|new|follow[\s-]?up|reminder|once\s+more)\b", re.IGNORECASE)
_SUPPOSED = lazy(r"\b(?:if|whether|should|unless|would|could|until|before)\b", re.IGNORECASE)
DECIDED = ("approved", "amended", "declined")
_ACTS = {"letter": "notify_claimant", "note": "add_note", "payment": "issue_payment", "request": "request_info"}


def undone_said(c: Case, t: Text) -> str | None:
    """The first act told not done (or a decision still awaited) that was done before ``t``."""
    said = t.reading.said  # (as read: a checklist's "letter N" is "not letter")
    low = said.lower()
    if not any(cue in low for cue in _CUES):
        return None
    known = next((str(d.arguments.get("status")) for d in c.answers if d.arguments.get("status") in DECIDED and any(
        d.seq < s < t.event.seq for s in c.looked)), None)  # a decision the handler had read
    if known is not None and (waited := AWAITING.search(said)) and not _SUPPOSED.search(
            said, _clause_start(said, waited.start()), waited.start()) and (
            "still" in waited.group(0).lower() or re.search(r"\b(?:we|i)\s+(?:are|am)\s*$|\bstill\b",
                                                            said[max(0, waited.start() - 12):waited.start()])):
        return f"says {waited.group(0)!r}, but the reviewer's answer ({known}) was read before this"
    for m in UNDONE.finditer(said):
        start = _clause_start(said, m.start())
        if _ANOTHER.search(said, max(start, m.start() - 25), m.end()) or _SUPPOSED.search(said, start, m.start()) or (
                _ASKED.match(said, m.end())):
            continue  # "no further letter was sent", "if the decline note was not filed…", "… missing? No"
        act, kind = _act(m)
        done = [e for e in c.writes if e.action == act and e.seq < t.event.seq and (
            kind is None or e.arguments.get("kind") == kind)]
        if done:
            return f"says {m.group(0).strip()!r}, but it was done at step {done[0].step}"
    return None


def _act(m: re.Match[str]) -> tuple[str, str | None]:
    if m.group("told"):
        return "notify_claimant", None
    if m.group("request") or m.group("request2"):
        return "request_info", None
    what = (m.group("what") or m.group("what2") or m.group("what3") or m.group("what4")).lower()
    kind = (m.group("kind") or m.group("kind2") or m.group("kind3") or m.group("kind4") or "").lower() or None
    act = next(a for word, a in _ACTS.items() if word in what)
    if kind in ("information", "info") and act != "add_note":
        kind = None
    if kind == "information":
        kind = "info"
    if act == "notify_claimant" and kind == "decision":
        kind = None  # (a decision letter: approval or decline)
    return act, kind if act in ("notify_claimant", "add_note") else None


def _clause_start(said: str, at: int) -> int:
    return max(said.rfind(ch, 0, at) for ch in ".;,!?\n") + 1
