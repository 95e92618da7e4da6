"""How many payments a text says were made, or are still to come, against the payments the log holds
before it (63rd-67th audits: "paid it twice", "pd twice -> ltr", "paid as 500,000 plus a separate
5,000", "a separate payment for your excess will follow", "the other 9,600 may be paid later"). One
claim has one payment (rule 5), so a second one, made or to come, is told only by a log that made it."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import words_before

_PAID = r"(?:paid(?:\s+out)?|pd|payed|issued|made|released|sent|settled|went\s+out|gone\s+out)"
# More than one payment made: "paid it twice", "paid in two parts", "two separate payments",
# "split the payment into two", "500,000 plus a separate 5,000".
MORE_THAN_ONE = lazy(
    r"\b(?:the\s+)?[£$€]\s?\d[\d,.]*k?\s+(?:went|has\s+gone|was\s+paid|was\s+sent)\s+(?:out\s+)?twice\b(?!\s+as\b)|"
    # (the figure in any form: "paid 31 000 GBP twice in error"; 90th audit)
    rf"\b{_PAID}\s+(?:it\s+|this\s+|them\s+|the\s+(?:claim|payment|amount|money)\s+|out\s+|(?:(?:GBP|EUR|USD)\s?)?"
    r"[£$€]?\s?\d[\d,.]*(?:\s\d{3})*k?(?:\s*(?:GBP|EUR|USD|pounds?|euros?|dollars?))?\s+)?"
    # ("paid 44,000 twice by error": 81st audit; "on two separate occasions"; not "twice as fast": red team 73)
    r"(?:twice(?!\s+as\b)|two\s+times(?!\s+as\b)|on\s+(?:two|2|several)\s+(?:separate\s+)?occasions|"
    r"in\s+(?:two|2|several)\s+(?:parts|payments|instalments|installments|halves|tranches|stages|lots|goes)|"
    r"in\s+(?:parts|instalments|installments|halves|tranches|stages))\b"
    r"|\b(?:two|2|several|multiple)\s+(?:separate\s+)?payments\b"
    r"|\bsplit\s+(?:the\s+|our\s+|your\s+|it\s+)?(?:payment|approval|amount|claim|money|it)?\s*(?:into|in)\s+(?:two|2|"
    r"halves|parts)\b"
    r"|\bplus\s+a\s+(?:separate|second|further)\s+(?:payment\s+of\s+)?[£$€]?\s?\d"
    r"|\b(?:the\s+)?(?:first|second)\s+(?:half|instal?ment|part|tranche)\b(?!\s+of\s+the\s+(?:month|year|week))",
    re.IGNORECASE)  # ("the first half has been paid today": 73rd audit)
# Another payment still to come: "a separate payment … will follow", "the other 9,600 may be paid later".
ANOTHER_TO_COME = lazy(
    r"\b(?:a|one)\s+(?:separate|second|further|another|additional)\s+payment\b(?:[^.;!?\n]|\.\d){0,60}?\b(?:will|to\s+follow|"
    r"follows|shall|is\s+(?:due|coming|scheduled))\b"
    r"|\b(?:the\s+)?(?:balance|rest|remainder|other\s+half|second\s+half)\s+(?:follows|will\s+follow|to\s+follow|"
    r"comes|will\s+come|is\s+due)\b"  # "the balance follows next week"
    r"|\bstill\s+to\s+do:\s+(?:(?:a|the|one)\s+)?(?:separate|second|further|another|additional)\s+payment\b"  # (⏳)
    # money besides the claim's: "you will also receive 500 for hire-car costs" (77th audit)
    r"|\ba\s+(?:further|second|separate|additional)\s+[£$€]?\s?\d[\d,.]*k?\s+(?:will\s+follow|to\s+follow|is\s+to\s+"
    r"follow|will\s+be\s+paid|to\s+come|is\s+due)"  # "a further 20,000 will follow" (79th audit), "a second … is due"
    r"|\b(?:will|shall|'ll|are\s+going\s+to)\s+(?:then\s+)?(?:send|pay|transfer|release|forward)\s+(?:you\s+)?"
    r"(?:the\s+)?(?:remaining|remainder|balance|rest|other)\b"  # "we will send the remaining £7,000" (82nd audit)
    r"|\b(?:will|shall|'ll|are\s+going\s+to)\s+(?:also|additionally|separately)\s+(?:receive|get|be\s+(?:paid|"
    r"reimbursed|refunded|sent)|reimburse|refund|pay|cover|send)(?:\s+(?:you|your|the|an?|another|extra|further|"
    r"additional|separate))*\s+[£$€]?\s?\d[\d,.]*"
    r"|\b(?:the\s+)?(?:other|remaining|remainder|balance|rest)\b(?:[^.;!?\n]|\.\d){0,60}?\b(?:will|may|might|could|"
    r"is\s+to|is\s+due\s+to)\s+(?:then\s+|still\s+|also\s+)?be\s+paid\b(?![^.;!?\n]{0,12}\b(?:by\s+you|to\s+us)\b)",
    re.IGNORECASE)
# The payment made told as not gone through: "payment held for sanctions check", "payment failed, reissue due".
UNDONE = lazy(r"\b(?:payment|transfer|funds|money)\s+(?:(?:of\s+)?\S+\s+)?(?:(?:was|were|is|are|has\s+been|"
              r"have\s+been|got)\s+)?(?:held|failed|bounced|returned|reversed|rejected|stopped|blocked|frozen|"
              r"on\s+hold|recalled)\b", re.IGNORECASE)
# One payment when the log made two: "paid in one payment", "a single payment", "paid once".
ONE = lazy(rf"\b{_PAID}\s+(?:it\s+|the\s+claim\s+)?(?:once|in\s+(?:one|a\s+single)\s+(?:payment|go|sum))\b"
           r"|\b(?:one|a\s+single)\s+payment\s+(?:of|was|has|made|issued)\b", re.IGNORECASE)
# What puts the act out of the record: a negation, a rule, a question, a condition before it…
_NOT_SAID = lazy(r"\b(?:not|never|no|nor|without|avoid\w*|rather\s+than|instead\s+of|if|whether|unless|must|"
                 r"should|cannot|can't|rule|would|could|don't|didn't|wasn't|isn't|hasn't|haven't)\b|n't",
                 re.IGNORECASE)
# … or right after it: "splitting it into two payments would break rule 5", "paid twice? no", a field
# answered no ("Paid twice: no", "| Paid twice | no |", "two payments = no"; red team 50).
# (a question answered yes asks nothing: "Paid twice? Yes, both went out"; a "no" that starts another
# phrase answers nothing: "We paid it twice: no doubt about it"; red team 51)
_AFTER_NOT = lazy(r"^[^,.;!\n]{0,15}?(?:\?(?!\s*(?:yes|yep|yeah|y|correct|indeed)\b)|\b(?:would\s+(?:have\s+)?"
                  r"(?:broken|break|breach\w*|been\s+wrong|be\s+wrong|be\s+against)|is\s+not\s+allowed|not\s+"
                  r"allowed|forbidden|breach\w*|break\w*|against\s+(?:the\s+)?rule|was\s+avoided|was\s+not))"
                  r"|^(?:\s*\w+){0,2}\s*\|?\s*[:=|\-\u2013]\s*(?:no|n|false|none|never|0)\b(?=\s*(?:[.;,|\n)]|$))",
                  re.IGNORECASE)
_CUES = ("also", "held", "failed", "bounced", "returned", "reversed", "rejected", "stopped", "blocked", "frozen",
         "hold", "recalled", "half", "twice", "two", "2 ", "several", "multiple", "split", "plus", "separate", "second",
         "further", "another", "additional", "other", "remain", "balance", "rest", "parts", "instalment", "installment",
         "halves", "tranche", "once", "one", "single")


def payments_told(c: Case, t: Text) -> str | None:
    """A number of payments told that the log before ``t`` does not hold."""
    said = t.reading.said  # (as read: a checklist's "Paid twice - no" is "not paid twice")
    low = said.lower()
    if not any(cue in low for cue in _CUES):
        return None
    made = sum(1 for e in c.writes if e.action == "issue_payment" and e.seq < t.event.seq)
    if made and (found := _said(said, UNDONE)) is not None:  # "payment held for sanctions check" (79th audit)
        return f"says {found!r}, but the payment was made"
    if made <= 1:
        if (found := _said(said, MORE_THAN_ONE)) is not None:
            return f"says {found!r}, but {'one payment was' if made else 'no payment was'} made"
        if made and (found := _said(said, ANOTHER_TO_COME)) is not None:
            return f"says {found!r}, but the one payment a claim has was made"
    elif (found := _said(said, ONE)) is not None:
        return f"says {found!r}, but {made} payments were made"
    return None


def _said(said: str, pattern: re.Pattern[str]) -> str | None:
    """The first match of ``pattern`` said as so: not denied, ruled, asked or supposed."""
    for m in pattern.finditer(said):
        # (the words just before it in its clause: not "No worries, we paid it twice", "No fuss - we paid
        # it twice", "No issues and we paid it twice"; red teams 50 and 51)
        lead = words_before(said, m.start())
        if not _NOT_SAID.search(lead) and not _AFTER_NOT.search(said[m.end():]):
            return m.group(0).strip()
    return None
