"""How case notes are written, read as what they say (audits 53 and 54; red teams 35 and 36): a
checklist's crosses ("booked ✗"), a contrast with a typical case ("Unlike a 10,001 claim, …"), an
act named as a thing and said done ("Booking of FAC-1 was effected", "done the booking step"), and
an instruction to a colleague taking the file over ("Don't pay it again"). Each is rewritten into
words the reader already reads (``prepass.prepared`` calls ``noted``)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.marks import marked


def noted(text: str, words: set[str]) -> str:
    """``text`` with each of this module's forms rewritten; ``words`` are its lowercase words."""
    text = marked(text)  # "✅ paid ❌ escalation ⏳ letter": a checklist's marks before its items (text/marks.py)
    if "[" in text:  # "Escalated to SNR-01 [1]. [1] lowest present senior…": a footnote's marks (78th audit)
        text = _FOOTNOTE_MARK.sub("", text)
    if "\u2717" in text or "\u2718" in text or "\u274c" in text:  # "booked ✗, rate ✗": each item denied
        text = _CROSSED.sub(_crossed, text)
    if not words.isdisjoint(("unlike", "with", "normally", "usually", "typically")) and _TYPICAL.search(text):
        text = _TYPICAL.sub(" ", text)  # "Unlike a 10,001 claim, …", "Normally a 24k claim goes to SNR-10, but here …"
    if not words.isdisjoint(_NOMINAL_WORDS) and _NOMINAL.search(text):  # "Booking of FAC-1 was effected"
        text = _NOMINAL.sub(_verbal, text)
    if not words.isdisjoint(("done", "completed", "finished")) and _STEP_DONE.search(text):
        text = _STEP_DONE.sub(lambda m: f"{_ACT_NOUNS[m.group(1).lower()]} it", text)  # "done the booking step"
    if "not" in words and not words.isdisjoint(("done", "needed", "required", "do")):
        # "Not done: any payment (none due)", "Not needed: escalation": each item denied (55th, 63rd audits)
        text = _NOT_DONE.sub(lambda m: ", ".join(_denied_item(i) for i in re.split(r",(?!\d)", m.group(1))), text)
    if not words.isdisjoint(("yes", "no", "y", "n")) and len(_CHECKED.findall(text)) >= 3:
        text = _CHECKED.sub(_checked, text)  # "escalation needed - no; paid 650 - yes": a checklist (61st audit)
    if not words.isdisjoint(("yes", "no")) and ":" in text:
        text = _ANSWERED_LINE.sub(_answered, text)  # "**Escalated:** no" on a line of its own (72nd audit)
        if ";" in text or "|" in text or ", " in text:  # "… | escalated: no (rule 4)": a field (84th audit)
            text = _ANSWERED_FIELD.sub(_answered, text)
    if ("=" in text or ":" in text and (not words.isdisjoint(_FIELD_NO_WORDS) or ": 0" in text or ":0" in text
                                         or ": -" in text or ": \u2014" in text)) and _FIELD_NO.search(text):
        text = _FIELD_NO.sub(_field_no, text)  # "escalated=false", '"escalated": false' (red team 54)
    if not words.isdisjoint(_STATUS_WORDS) and ("-" in text or "\u2013" in text) and _STATUS.search(text):
        text = _STATUS.sub(_status, text)  # "Escalation - not needed", "Paid - done": a status line (63rd audit)
    if not words.isdisjoint(_REVIEW_WORDS) and _REVIEW_LABEL.search(text):
        text = _REVIEW_LABEL.sub(lambda m: m.group(1) or m.group(2) or "", text)  # "Good: found it lapsed": a verdict
        # on the act that follows, no state; "Supervisor review, CLM-1." its heading, no decider
    if not words.isdisjoint(("don", "dont", "do", "never")) and _DONT.search(text):
        text = _instructions(text)  # "Don't pay it again": an instruction, not what was done
    return text


# A footnote's reference and the mark that opens its text: "SNR-01 [1]", "[^2]:" at a line's start.
_FOOTNOTE_MARK = lazy(r"(?<=\w)[ \t]?\[\^?\d{1,2}\](?!\w)|(?:(?<=^)|(?<=[.!?\n])|(?<=[.!?][ \t]))[ \t]*"
                      r"\[\^?\d{1,2}\][ \t]*:?[ \t]*", re.MULTILINE)


# A review's labels, judging the act that follows (a supervisor's review; 65th audit): "Good: you
# found it lapsed" says nothing good of the policy.
_REVIEW_LABEL = lazy(r"(^)\s*(?:supervisor(?:'s)?|qa|quality|file)\s+review\b(?:\s+of)?\s*,?\s*"
                     r"(?=(?:CLM|FAC)-\d+)|(^|[.;!\n]\s*)(?:good|very\s+good|well\s+done|great|fine|missed|miss|criticism|"
                     r"issue|concern|strength|weakness|positive|negative|to\s+improve|improvement|praise)"
                     r"\s*[:\-\u2013]\s+", re.IGNORECASE)
_REVIEW_WORDS = frozenset({"review", "good", "done", "great", "fine", "missed", "miss", "criticism", "issue", "concern",
                           "strength", "weakness", "positive", "negative", "improve", "improvement", "praise"})


# A checklist's item and its answer: "escalation needed - no", "Payment made: NO (correct)", "waited
# for answer Y". Its no denies the item, its yes says it; the answer itself is no word of its own.
_CHECKED = lazy(r"(?P<item>(?:^|(?<=[;.\n|]))[ \t]*(?:[-*\u2022][ \t]*)?[A-Za-z][^;:.\n|]{1,60}?)[ \t]*"
                r"(?:[-\u2013:][ \t]*|[ \t])(?P<answer>yes|no|y|n)\b"
                # ("escalated: no (rule 4)" among fields apart: 84th audit)
                r"(?P<aside>[ \t]*\([^()\n]{0,40}\))?(?=[ \t]*(?:[;.\n|,-]|$))",
                re.IGNORECASE)
_BULLET = " \t-*\u2022"
# A line that is one labelled answer: "Escalated: no", "**Paid:** yes", "- Letter sent: no".
_ANSWERED_LINE = lazy(r"^(?P<lead>[ \t]*(?:[-*\u2022][ \t]+)?)(?:\*\*|__)?(?P<item>[A-Za-z][A-Za-z ]{1,30}?)"
                      r"(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*(?P<answer>no|yes)(?:\*\*|__)?"
                      r"(?P<aside>[ \t]*\([^()\n]{0,40}\))?[ \t]*\.?[ \t]*$",  # "Escalated: no (rule 4)"
                      re.IGNORECASE | re.MULTILINE)


# One such answer among fields apart: "reason: lapsed policy; escalated: no (rule 4)".
_ANSWERED_FIELD = lazy(r"(?:(?<=[;|,])|^)(?P<lead>[ \t]*)(?P<item>[A-Za-z][A-Za-z ]{1,30}?)[ \t]*:[ \t]*"
                       r"(?P<answer>no|yes)(?P<aside>[ \t]*\([^()\n]{0,40}\))?(?=[ \t]*(?:[;|,.\n]|$))",
                       re.IGNORECASE | re.MULTILINE)


# A record's field set to nothing: "escalated=false", "escalated=0", '"escalated": false', "escalated=-",
# "escalated=none needed" (a field's key is its fact: the value denies it).
_FIELD_NO = lazy(r"(?<![\w\"'])([\"']?)(?P<key>[a-z][a-z_]{2,24})\1[ \t]*(?:=|:)[ \t]*[\"']?(?P<value>false|"
                 r"none(?:[ \t]+(?:needed|required|made))?|0|-|\u2014|\u2013|nil|n/a|)[\"']?"
                 r"(?=[ \t]*(?:[,;|}\]\n]|$))",
                 re.IGNORECASE)
_FIELD_NO_WORDS = frozenset({"false", "none", "nil", "n"})


def _field_no(m: re.Match[str]) -> str:
    key = m.group("key").replace("_", " ")
    return f"{'not' if key.lower().endswith(('ed', 'sent', 'paid', 'done')) else 'no'} {key}"


def _answered(m: re.Match[str]) -> str:
    item = m.group("item").strip()
    return f"{m.group('lead')}{'not ' if m.group('answer').lower() == 'no' else ''}{item}{m.group('aside') or ''}."


def _checked(m: re.Match[str]) -> str:
    item = m.group("item")
    lead = item[:len(item) - len(item.lstrip(_BULLET))]
    aside = m.group("aside") or ""  # (kept, and read: only the answer is no word of its own; a figure
    # alone in it is its own statement, not the item's: "Within 10,000 limit: Y (7,300)")
    if aside and not re.search(r"[A-Za-z]{2}", aside):
        aside = ". " + aside.strip().strip("()")
    return (f"{lead}not {item.strip(_BULLET)}" if m.group("answer").lower() in ("no", "n") else item) + aside


# A cross after an act or a person in a checklist denies it ("booked ✗", "SNR-10 ✗ (absent)"); after
# a status it marks a check failed ("KYC ✗ pending"), before one it is a bullet ("❌ Declined"). (54th audit)
# (not a word already denied, "Not booked ❌"; not an outcome's icon, "Claim declined ❌"; red team 36)
_CROSSED = lazy(r"(?<!\bnot\s)\b(booked|booking|active|activated|activation|priced|pricing|rate|set|paid|payment|"
                r"escalated|sent|letter|done|issued|[A-Z]{2,5}-\d+)[ \t]*:?[ \t]*[\u2717\u2718\u274c]\ufe0f?"
                r"(?=([ \t]*\w)?)",
                re.IGNORECASE)


def _crossed(m: re.Match[str]) -> str:
    """ "Booked ✗ Activated ✗": each item its own clause ("not booked, not activated"), so the
    second is not read as what the first denies (red team 36)."""
    act = m.group(1)
    return f"not {act}," if m.group(2) and not act[-1].isdigit() else f"not {act}"  # (not "SNR-10 ✗ absent")


# A checklist's "Not done:" label and its items, to the sentence's end.
# (and a contrast's second half: "What we did not do: escalate, approve or pay"; 71st audit)
_NOT_DONE = lazy(r"\b(?:not\s+(?:yet\s+)?(?:done|needed|required)(?:\s+yet)?|what\s+(?:we|i)\s+"
                 r"(?:did\s+not|didn't|have\s+not|haven't)\s+(?:yet\s+)?(?:do|done))\s*(?::|\s[-\u2013]\s)\s*([^.;!?\n]+?)"
                 # (the list ends where a reason starts: "…: escalate, because we paid it twice"; red team 52)
                 r"(?=,?\s+(?:because|since|though|although|as|but|while|whereas|having|for\s+(?:we|i|it)|"
                 r"so\s+(?:we|i|it|that)|and\s+(?:then\s+)?(?:we|i|it))\b|,\s*(?:we|i|it|they)\b|[.;!?\n]|"
                 r"\s[-\u2013\u2014]\s|$)",  # (a dash ends the list: "…, activation - KYC still pending")
                 re.IGNORECASE)
# A status line: an item, a spaced dash, its status ("Paid 4200 - done", "Letter - not yet",
# "Reviewer answer - waiting"). Its denial denies each item, its wait says it pending, its done
# says it; the status itself is no word of its own.
_STATUS = lazy(r"(?P<item>(?:^|(?<=[;.\n|]))[ \t]*(?:[*\u2022][ \t]*)?[A-Za-z]"
               r"(?:[^;:.\n|\-\u2013]|(?<=\w)-(?=\w)){0,60}?)[ \t]+[-\u2013][ \t]+"
               r"(?P<status>not\s+(?:yet\s+)?(?:done|needed|required|necessary|sent|issued|made|paid|filed|added|"
               r"applicable)|not\s+yet|n/?a|waiting|pending|awaiting|to\s+do|done|completed?)"
               r"(?=[ \t]*(?:[;.\n|,(]|$))", re.IGNORECASE)
_STATUS_WORDS = frozenset({"not", "n", "na", "waiting", "pending", "awaiting", "to", "done", "complete", "completed"})


def _status(m: re.Match[str]) -> str:
    item, status = m.group("item"), m.group("status").lower()
    lead = item[:len(item) - len(item.lstrip(_BULLET))]
    items = [i for i in re.split(r",|\band\b", item.strip(_BULLET)) if i.strip()]
    if status.startswith("not") or status.startswith("n"):
        return lead + ", ".join(f"not {i.strip()}" for i in items)  # (as a checklist's no: ``_checked``)
    if status in ("waiting", "pending", "awaiting", "to do"):
        return lead + ", ".join(f"{i.strip()} pending" for i in items)
    return item


def _denied_item(item: str) -> str:
    item = re.sub(r"^(?:or|and|nor)\s+", "", item.strip(), flags=re.IGNORECASE)  # "…, or pay so late"
    words = item.lower().split()
    if words[:1] and words[0] in ("no", "none", "nothing", "not", "never", "nobody"):
        return item  # "Not done: no decision, nothing pending": already denied (80th audit: "no no decision")
    if len(words) > 1 and words[1] in _OBJECT_LEADS and words[0] not in _OBJECT_LEADS:
        return "did not " + item  # "touch your current account": an act not done, no account denied (71st audit)
    return "no " + (item[4:] if item.lower().startswith("any ") else item)


_OBJECT_LEADS = frozenset({"your", "the", "a", "an", "any", "their", "it", "them", "anything", "its", "his", "her",
                           "this", "that", "no"})


# A contrast with a typical case says nothing of this one (53rd audit): "Unlike a 10,001 claim, no
# escalation", "As with any property claim between 10k and 50k, this went to…", "Normally a 24k
# motor claim goes to SNR-10, but here SNR-10 was out" (what follows the comma or "but" is read).
_TYPICAL = lazy(r"(?:(?<=^)|(?<=[.;:!?\n])\s*)(?:unlike|as\s+with)\s+(?:a|an|the|any|most|many|other|all|"
                r"every)\b"
                r"(?:[^,.;:!?\n]|[,.](?=\d)){0,80},\s*|(?:(?<=^)|(?<=[.;:!?\n])\s*)(?:normally|usually|typically)\b[^.;:!?\n]{0,80}?,?\s*"
                r"\bbut\s+(?=here|in\s+this\s+case|this\s+time|this\s+one|for\s+this)", re.IGNORECASE)
# An act named as a thing, then said done (a compliance officer's style; 53rd audit): "Booking of
# FAC-5034 was effected", "Approval was granted", "Decline carried out by the handler".
_ACT_NOUNS = {"booking": "booked", "activation": "activated", "approval": "approved", "escalation": "escalated",
              "decline": "declined", "payment": "paid", "amendment": "amended"}
_NOMINAL_WORDS = frozenset({"effected", "completed", "carried", "granted", "performed", "executed", "actioned"})
# (not under a denial: "No booking or activation has been carried out"; red team 35)
_NOMINAL = lazy(r"(?<!\bno\s)(?<!\bor\s)(?<!\bnor\s)(?<!\bnot\s)\b(booking|activation|approval|escalation|"
                r"decline|payment|amendment)\s+(?:(?:of|for)\s+((?:the\s+)?(?:facility\s+|claim\s+)?[\w-]+)\s*)?(?::\s*|"
                r"(was|has\s+been|is|were|have\s+been)?\s*)(?:duly\s+|now\s+|also\s+)?(?:effected|completed|carried\s+out|"
                r"granted|performed|executed|actioned)\b", re.IGNORECASE)


_STEP_DONE = lazy(r"\b(?:done|completed|finished)\s+the\s+(booking|activation|approval|escalation|payment)"
                  r"(?:\s+(?:step|part|stage|bit))?\b", re.IGNORECASE)


def _verbal(m: re.Match[str]) -> str:
    if _DENIAL_BEFORE.search(m.string, max(0, m.start() - 30), m.start()):
        return m.group(0)
    return f"{m.group(2) or 'it'} {m.group(3) or 'was'} {_ACT_NOUNS[m.group(1).lower()]}"


_DENIAL_BEFORE = lazy(r"\b(?:no|neither|nor)\s+(?:(?:booking|activation|approval|escalation|decline|payment|"
                      r"amendment)\s+(?:or|and|nor)\s+)?$", re.IGNORECASE)  # "No booking or activation has been…"


# An instruction to a colleague taking the file over: "Don't pay it again", "Do not re-route it",
# "Don't approve or decline until they come in" (audit 53); read as supposed, not as what happened.
_DONT = lazy(r"(^|[.;!?:\n]\s*|\b(?:so|and|but|then)\s+)(?:don't|dont|do\s+not|never)\s+(?=(?:pay|approve|"
             r"decline|escalate|send|route|re-?route|move|raise|issue|reopen|re-?open|notify|close|amend|book|activate|"
             r"price|set|change|touch|split|chase|contact|refer|forward|reassign)\b)", re.IGNORECASE)
# The instruction ends its clause, and what follows is read: "Don't pay it as the policy has lapsed"
# says it lapsed, "Do not pay until SNR-07 signs off" that the sign-off is to come, "Don't pay back
# the excess we waived" that it was waived (red teams 35, 36); after a decision's label it is the
# decision ("Decision: do not approve"), unless it limits an act ("Instructions: do not pay again").
_INSTRUCTION_END = lazy(r"[,:;.!?\n]|\s[-\u2013\u2014]\s|\b(?:because|since|so|but|and\s+(?:the|your|it|this|"
                        r"we|i)|until|unless|till|pending|who|whose|which|that|we|you|like|such\s+as|as\s+(?:the|it|we|you|your|"
                        r"this|our|i|they))\b", re.IGNORECASE)
# A definite noun the instruction ends on, then a relative clause: "Don't pay back the excess we
# waived", "Never chase the engineer whose report confirmed the cause" say the waiver and the report
# were (red team 36); the noun is kept for the clause that follows.
_HEAD = lazy(r"\b(?:the|our|your|their|this)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+$|\b[A-Z]{2,5}-\d+$")
_RELATIVE_OPENS = lazy(r"(?:who|whose|which|we|i|they)\b", re.IGNORECASE)
# Claims of a kind, then this one said like them: "Don't escalate claims within my limit like this one".
_OF_KIND = lazy(r"\bclaims\s+((?:within|under|below|over|above|beyond|exceeding|inside)\b.*)$", re.IGNORECASE)
_LIKE_THIS = lazy(r"like\s+(?:this|it|yours)\b|such\s+as\s+(?:this|yours)\b", re.IGNORECASE)
_DECISION_LABEL = lazy(r"\b(?:decision|outcome|ruling|verdict|said|says|response|answer|result)\s*:\s*$",
                       re.IGNORECASE)
_REPEATED = lazy(r"\b(?:again|twice|more\s+than|back|another|second)\b", re.IGNORECASE)  # an act limited


def _instructions(text: str) -> str:
    """Each instruction (``_DONT``) as supposed ("if asked, do not pay it again"), ended where its
    clause ends."""
    out, at = [], 0
    for m in _DONT.finditer(text):
        if m.start() < at:
            continue
        end = _INSTRUCTION_END.search(text, m.end())
        stop = end.start() if end else len(text)
        if _DECISION_LABEL.search(text, max(0, m.start() - 30), m.end(1)) and not _REPEATED.search(text, m.end(), stop):
            continue
        # the instruction, supposed, then a full stop: what follows is read on its own
        ended = end is not None and text[stop] in ".!?\n"
        said = text[m.end():stop].rstrip()
        out += [text[at:m.start()], m.group(1), "if asked, do not ", said, "" if ended else ". "]
        if end and (head := _HEAD.search(said)) and _RELATIVE_OPENS.match(text, end.start()):
            out.append(head.group(0) + " ")  # "the excess. the excess we waived": the relative clause keeps its noun
        elif end and (kind := _OF_KIND.search(said)) and _LIKE_THIS.match(text, end.start()):
            out.append(f"this claim is {kind.group(1)} ")  # "Don't escalate claims within my limit like this one"
        at = stop + 1 if end and text[stop] in ",:;" else stop
    return "".join(out) + text[at:]
