"""What a record's fields say ("waits=3", "paid: no", "reviewer=none", "escalated=yes",
"notified: yes"), against the log before the text (69th audit: key=value lines told waits that
were never made, a payment not made that was, no reviewer on an escalated claim). A field names
its fact by its key, so it is read as a field, not as prose; a value no field here knows (a
decision, an amount, an id) is left to the other checks."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.domains.escalation.waits import COUNT_WORDS
from pytest_agenteval.grading import GradeContext, Text
from pytest_agenteval.patterns import lazy

FIELD = lazy(r"(?:^|(?<=[\s,;|(\[{]))#?(?P<key>[A-Za-z][A-Za-z_ -]{0,24}?)\s*(?:[=:]|\s[-\u2013]\s)[ \t]*"
             r"(?P<value>(?:[^,;|\n)\]}=:.]|\.(?=\d)){1,30})")  # (a point ends it, not a decimal one;
# the value is on the key's line: "Checks:" over a numbered list is a heading, 83rd audit)
_KEYS = {"waits": "waits", "wait": "waits", "waited": "waits", "wait count": "waits", "waits made": "waits",
         "checks": "checks", "checked": "checks", "check count": "checks",
         "paid": "paid", "payment": "paid", "payments": "paid", "pd": "paid", "payment made": "paid",
         "payments made": "paid", "number of payments": "paid", "payment count": "paid", "payments count": "paid",
         "payment issued": "paid",
         "escalated": "escalated", "escalation": "escalated",
         "reviewer": "reviewer", "escalated to": "reviewer", "senior": "reviewer",
         "notified": "notified", "letter": "notified", "letter sent": "notified", "claimant notified": "notified",
         "claimant told": "notified", "told": "notified"}
YES = frozenset({"yes", "y", "true", "done", "sent", "made", "issued", "paid", "complete", "completed", "1x", "✓",
                 "✅"})
NO = frozenset({"no", "n", "none", "false", "0", "nil", "not yet", "pending", "not sent", "not made", "not issued",
                "not paid", "outstanding", "-", "n/a", "na", "nothing", "❌"})
_COUNTED = lazy(r"^\d+\s+(?:in\s+total|total|altogether|so\s+far|payments?|of\s+\d+)\b")  # "Paid: 2 in total"
_TIMES = lazy(r"\b(?:once|twice|thrice|\w+\s+times|\d+\s*x)\b")
_UNITS = frozenset({"day", "days", "hour", "hours", "week", "weeks", "month", "months", "minutes", "%", "k", "pounds",
                    "gbp", "dollars", "usd", "eur", "euros", "percent"})
_KEY_CUES = ("wait", "check", "paid", "pd", "payment", "escalat", "reviewer", "senior", "notified", "letter", "told")
# "n_payments=2", "num_payments", "no_of_payments", "total_payments": a count of what follows (red team 54)
_COUNT_LEADS = frozenset({"n", "num", "nr", "no", "total", "count", "of"})
_FILLER = frozenset({"claim", "the", "status", "was", "is", "has", "been", "a"})
def fields_told(ctx: GradeContext, c: Case, t: Text) -> str | None:
    """The first field whose value the log before ``t`` contradicts."""
    said = t.reply
    if "=" not in said and ":" not in said and " - " not in said and "\u2013" not in said or not any(
            key in said.lower() for key in _KEY_CUES):
        return None
    before = [e for e in c.writes if e.seq < t.event.seq]
    for m in FIELD.finditer(said):
        key_text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", m.group("key"))  # "nPayments": camel case
        words = [w for w in key_text.lower().replace("_", " ").replace("-", " ").split() if w not in _FILLER]
        lead = 0
        while lead < len(words) - 1 and words[lead] in _COUNT_LEADS:
            lead += 1
        key = _KEYS.get(" ".join(words[lead:]))  # "Claim paid: no" is "paid"; "Split into two payments: no" none
        words = ["number", "of", *words[lead:]] if lead else words  # a count of what follows
        value = " ".join(m.group("value").lower().split())
        if key is None or not value:
            continue
        if said[m.end():m.end() + 1] in (":", ",", ".") and said[m.end() + 1:m.end() + 2].isdigit():
            continue  # "Checked: 14:05", "Paid: 17,600": a time, an amount (red team 51)
        count = _count(value)
        if key == "paid" and count is not None and value not in NO and (count < 10 and (
                "payments" in words or "count" in words or "number" in words or _COUNTED.search(value)) or (
                _TIMES.search(value))):
            key = "payments"  # "Payments: 2", "Paid: twice" (not "paid=24000", an amount)
        if key in ("waits", "checks", "payments"):
            told = count
            action = {"waits": "wait", "checks": "check_escalation", "payments": "issue_payment"}[key]
            made = sum(1 for e in ctx.succeeded(action) if e.seq < t.event.seq)
            if told is not None and told != made:
                return f"gives {m.group(0).strip()!r}, but {made} {key[:-1]}{'s' if made != 1 else ''} came before it"
            continue
        act = {"paid": "issue_payment", "escalated": "escalate", "notified": "notify_claimant",
               "reviewer": "escalate"}[key]
        done = any(e.action == act for e in before) or t.event.action == act  # (a letter's "notified: yes")
        if key == "reviewer":
            if value in NO and done:
                return f"gives {m.group(0).strip()!r}, but the claim was escalated before it"
            continue
        if value in YES and not done or value in NO and done:
            return f"gives {m.group(0).strip()!r}, but {'no' if not done else 'a'} {_NAMES[key]} came before it"
    return None


def _count(value: str) -> int | None:
    """A field's count: "3", "three (3)", "2 times", "twice", "none"."""
    first = re.sub(r"\s*\(.*$", "", value).split()
    word = first[0] if first else ""
    word = word[:-1] if word[-1:] == "x" and word[:-1].isdigit() else word  # "2x"
    if first[1:2] and first[1] in _UNITS:
        return None  # "Waits: 2 days", "Paid: 2,500 pounds": no count (not "Payments: 2 in total")
    return int(word) if word.isdigit() else COUNT_WORDS.get(word)


_NAMES = {"paid": "payment", "escalated": "escalation", "notified": "letter to the claimant"}
