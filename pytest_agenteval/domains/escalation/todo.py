"""What a note says is still to do, against the log: "Still to do: issue the payment" after the
payment was made, "I haven't sent the decline letter yet" after it went (53rd audit: a handover
note for a colleague). Only acts done before the text count: one done after it was still to do.

An item is read by its leading verb phrase ("Next step: confirm the claimant received the letter"
is no letter to send), in the present ("the next step was to issue the payment" is history), and
not when it is ticked off ("[x] payment issued") or said done ("we have issued…"; red team 35)."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import marked, sentence_end, sentence_start

# A label or a phrase that says what follows is still to do, and the item after it.
STILL = lazy(r"(?:(?<![\w\s])|^|(?<=[.;:!?\n(\-*\u2022]))\s*(?:still\s+)?(?:to\s+do|todo|to-do|next\s+steps?|"
             r"outstanding|remaining|pending)(?:\s+(?:on|for)\s+(?:CLM-\d+|the\s+claim|this\s+claim|this\s+one|it))?"
             r"\s*[:\-\u2013]\s*(?P<what>(?:[^.!?\n]|\.(?=\d)){0,100})"
             r"|\b(?:still\s+to\s+do|yet\s+to(?:\s+be)?|still\s+to(?:\s+be)?|still\s+needs?\s+to(?:\s+be)?|"
             r"(?:i|we)\s+still\s+(?:need|have)\s+to|"
             # a handover's "You'll need to send the approval letter" (70th audit)
             r"you(?:'ll|\s+will)?\s+(?:still\s+|also\s+)?(?:need|have)\s+to)\b\s*[:\-\u2013]?\s*(?P<later>(?:[^.;!?\n]|\.(?=\d)){0,80})"
             r"|\b(?P<noun>(?:the\s+)?(?:\w+\s+)?(?:letter|payment|note))\s+(?:is\s+|was\s+|has\s+)?(?:still\s+)?(?:(?:to\s+"
             r"(?:be\s+)?|not\s+(?:yet\s+)?(?:been\s+)?)(?P<verb>go\s+out|send|sent|issue|issued|raise|raised|make|made|release|"
             r"released|post|posted|add|added|write|written)\b|"
             r"(?P<waiting>outstanding|pending)\b)"
             # the item first, then its label: "Write - to do", "Payment: outstanding" (56th audit)
             r"|(?:^|(?<=[.;:!?\n]))\s*(?!(?:note|notes|status|update|summary|info|remark|comment|memo|re)\b)"
             r"(?P<first>[A-Za-z]+(?:\s+[A-Za-z]+)?)\s*[-\u2013:]\s*(?:still\s+)?(?:to\s+do|"
             # (not a label before one: "Reminder: still to do: …"; red team 51)
             r"todo|outstanding)\b(?!\s*[:\-\u2013]\s*\w)", re.IGNORECASE)
# "I haven't sent it yet", "we have not issued the payment", "Letter not sent yet"
NOT_YET = lazy(r"\b(?:i|we)\s+(?:haven't|have\s+not|havent|didn't|did\s+not)\s+(?:yet\s+)?(?P<what>"
               # the holder not told: "I didn't write to the holder" (89th audit)
               r"(?:write|written|wrote|tell|told|inform|informed|notify|notified|contact|contacted)\s+(?:to\s+)?"
               # (nothing after it but its end: not "told the claimant the reviewer's name", "… by phone")
               r"(?:the\s+)?(?:holder|claimant|policyholder)(?:\s+\d+)?\b(?=\s*(?:[.;!?)]|$|,\s*(?:but|and|so)\b|\s+(?:yet|at\s+all|"
               r"so\s+far|either)\b))|(?:sent|"
               r"issued|paid|escalated|requested|asked)\b(?:\s+you\b)?(?:\s+(?:the\s+(?:claimant|holder)(?:\s+(?:for\s+\w+|an?\s+"
               r"(?:information\s+)?request(?:\s+for\s+information)?))?|it|the\s+\w+(?:\s+letter)?|a\s+\w+(?:\s+letter)?|"
               r"the\s+payment|any\s+payment))?)", re.IGNORECASE)  # ("not yet asked the claimant for …": 75th)
# Each act, by the item's leading verb phrase (a request first: "ask the claimant for the invoice").
ACTS = (
    ("request_info", lazy(r"^(?:to\s+)?(?:ask|request)\w*\b(?![^,]*\b(?:again|chase|remind))|"
                          r"^sent\s+the\s+(?:claimant|holder)\s+an?\s+(?:information\s+)?request",
                          re.IGNORECASE)),
    ("issue_payment", lazy(r"^(?:pay|payment)$|"
                           r"^(?:to\s+)?(?:(?:issue|make|send|release|raise|process|transfer)\w*\s+(?:the\s+|"
                           r"a\s+|your\s+|its\s+)?(?:payment|funds|money|[£$€]?\d)|arrange\w*\s+(?:the\s+)?payment|"
                           r"pay(?:\s+out)?\s+(?:it|the\s+claim(?:ant)?|holder|them|him|her|the\s+policyholder|out|"
                           r"(?:the\s+)?[£$€]?\d)|settle\s+(?:it|the\s+claim)|(?:the\s+)?payment\b(?!\s+(?:reconciliation|"
                           r"confirmation|breakdown|reference|details|receipt|advice|summary|slip|notification|query|"
                           r"check|clearance))|paid\b|issued\b)", re.IGNORECASE)),
    ("escalate", lazy(r"^(?:to\s+)?(?:(?:the\s+)?escalat\w*|refer\w*\s+(?:it\s+)?to|send\w*\s+(?:it\s+)?to\s+"
                      r"(?:a\s+|the\s+)?(?:senior|reviewer|SNR-))", re.IGNORECASE)),
    ("add_note", lazy(r"^(?:to\s+)?(?:add|write|wrote|written|file)\w*\s+(?:the\s+|a\s+|an\s+)?(?:\w+\s+)?note\b",
                      re.IGNORECASE)),
    ("notify_claimant", lazy(r"^(?:write|letter)$|"
                             r"^(?:to\s+)?(?:(?:send|sent|write|wrote|written|issue|post|email)\w*\s+(?:the\s+|"
                             r"a\s+|an\s+|our\s+)?(?:\w+\s+)?letter|(?:the\s+|an?\s+)?(?:\w+\s+)?letter\b|(?:notify|tell|inform|let|"
                             r"write\s+to|email)\w*\s+(?:the\s+)?(?:claimant|holder|policyholder|customer|them|him|"
                             r"her)\b(?!\s+(?:the|their|our|your|about)\s+(?!decision|outcome|news|result)))",
                             re.IGNORECASE)),
)
NOTHING = lazy(r"^(?:nothing|none|no\b|n/a|-$)", re.IGNORECASE)
# What an item may open with before its act: "we have to issue…", "nothing else except the letter"
OPENING = lazy(r"^(?:(?:we|i)(?:\s+still)?(?:\s+|(?='))(?:have|need|must|'ve\s+still\s+got|'ve\s+got|have\s+"
               r"still\s+got)\s+to\s+|(?:we|i)\s+must\s+|(?:it\s+)?(?:must|needs?\s+to)\s+(?:still\s+)?be\s+|"
               r"nothing\s+(?:else\s+)?(?:except|but|apart\s+from|other\s+than)\s+|(?:but|except|other\s+than|"
               r"apart\s+from)\s+|(?:(?:please|also|then|first|promptly|just|now|still|finally|next)\s+)+)",
               re.IGNORECASE)
# An item said done or ticked off: "we have issued…", "[x] payment issued", "payment issued ✓"
DONE = lazy(r"^(?:we|i)(?:\s+have|'ve|\s+had)\s+(?:already\s+)?\w*(?:ed|en|sent|paid|made|done)\b|\[\s*x\s*\]|"
            r"^(?:the\s+)?(?:\w+\s+)?(?:payment|letter|note|request)\s+(?:issued|sent|made|added|paid|posted|"
            r"done)\b|"
            r"\b(?:has|have)\s+been\s+\w*(?:ed|en|sent|paid|made)\b|\u2713|\u2714|\u2705|(?<!not\s)(?<!yet\s)\bdone\b|"
            r"\balready\s+(?:been\s+)?\w*(?:ed|en|sent|paid|made)\b",
            re.IGNORECASE)
HISTORY = lazy(r"\b(?:nothing|no(?:thing)?\s+more|nothing\s+else)\s+(?:left\s+)?(?:still\s+)?$|"
               r"\b(?:was|were)\s*$",
               re.IGNORECASE)
# What STILL or NOT_YET cannot match without (lower case).
CUES = ("need to", "have to", "to do", "todo", "to-do", "next step", "outstanding", "remaining", "pending", "yet to",
        "still", "haven't", "have not", "havent", "didn't", "did not", "not yet", "not sent", "not issued", "not added",
        "not made", "not written", "not posted", "not released", "not raised", "not been", "to be ")
LETTER_KINDS = ("approval", "decline")
NOTE_KINDS = ("escalation", "decision", "decline", "info")


def still_to_do(c: Case, t: Text) -> str | None:
    """An act said to be still to do, or not done yet, that the log holds done before this text."""
    if t.event.action not in ("add_note", "escalate", "decline_claim", "notify_claimant"):
        return None
    said = marked(t.reply)  # (as written, a checklist's marks read: "⏳ approval letter" is still to do; the
    # reader's own "yet to" after a label is no item)
    low = said.lower()
    if (to_come := _told_to_come(c, t, said, low)) is not None:
        return to_come
    if not any(cue in low for cue in CUES):
        return None  # (most texts say nothing is still to do: the patterns are the costly part)
    for m, denied in (*((m, False) for m in STILL.finditer(said)), *((m, True) for m in NOT_YET.finditer(said))):
        if HISTORY.search(said[max(0, m.start() - 30):m.start()]) and not BUT.match(_item(m)) or (
                denied and not YET.search(said, m.start(), m.end() + 20) and not _TOLD.match(_item(m))):
            continue  # "nothing left to do: …", "the next step was to…"; "we have not paid it twice"
        if m.groupdict().get("later") and _HANDED_OVER.search(m.group(0)) and (_SUPPOSING.search(
                said, sentence_start(said, m.start()), m.start()) or _AGAIN.search(said, m.end(), sentence_end(
                said, m.end())) or said[sentence_end(said, m.end()):sentence_end(said, m.end()) + 1] == "?"):
            continue  # "If the claimant calls, you'll need to send the letter again", "Do you need to…?"
        for item in PARTS.split(_item(m)):  # "no reply needed, send the approval letter": each item
            item = _TO_YOU.sub(r"\1 ", OPENING.sub("", item.strip()))  # "sent you a decision letter" (90th audit)
            item = _TOLD.sub("write to ", item)  # "didn't write to / tell / inform the holder": a letter
            if not item or NOTHING.match(item) or DONE.search(item) or denied and _AGAIN.search(item):
                continue  # "Still to do: nothing", "Next steps: we have issued PAY-E001", "not sent a second letter"
            act = next((a for a, pattern in ACTS if pattern.search(item)), None)
            done = [e for e in c.writes if e.action == act and e.seq < t.event.seq and _same(act, item, e.arguments)]
            if done:
                return f"says {m.group(0).strip()!r} is still to do, but it was done at step {done[0].step}"
    return None


_TOLD = lazy(r"^(?:write|written|wrote|tell|told|inform|informed|notify|notified|contact|contacted)\s+(?:to\s+)?"
             r"(?=(?:the\s+)?(?:holder|claimant|policyholder))", re.IGNORECASE)
_TO_YOU = lazy(r"^(sent|issued|send|issue)\s+you\s+", re.IGNORECASE)  # ("we've yet to send you a letter": red team 73)
_HANDED_OVER = lazy(r"\byou\b", re.IGNORECASE)
_SUPPOSING = lazy(r"\b(?:if|when|whenever|should|in\s+case|unless)\b", re.IGNORECASE)
_AGAIN = lazy(r"\b(?:again|another|second|new|fresh|reminder|copy)\b", re.IGNORECASE)
BUT = lazy(r"\s*(?:but|except|other\s+than|apart\s+from)\b", re.IGNORECASE)  # "nothing still to do but pay it"
PARTS = lazy(r",(?!\d)|;|\s[-\u2013\u2014]\s|\b(?:but|so|then|and\s+then)\b", re.IGNORECASE)
YET = lazy(r"\byet\b", re.IGNORECASE)


def _item(m: re.Match[str]) -> str:
    """What the match says is still to do: the item after a label or phrase, or "send letter" of
    "letter still to send"."""
    found = m.groupdict()
    if found.get("first"):
        return found["first"]
    if found.get("noun"):
        verb = found.get("verb") or "send"
        return f"{'send' if verb.startswith('go') else verb} {found['noun']}"  # ("payment still to go out": 65th)
    return (found.get("what") or found.get("later") or "").strip()


def _same(act: str, what: str, arguments: dict[str, object]) -> bool:
    """A letter said still to do is a decision's letter, of the kind named if one is; a note, of the
    kind named if one is."""
    if act == "add_note":
        named_note = [k for k in NOTE_KINDS if k in what.lower()]
        return not named_note or arguments.get("kind") in named_note
    if act != "notify_claimant":
        return True
    kind = arguments.get("kind")
    named = [k for k in LETTER_KINDS if k in what.lower()]
    return kind in named if named else kind in LETTER_KINDS


# A letter or a note told as still to come, in the future or as not yet done, by anyone (55th
# audit: "Approval letter to go out tomorrow", "Holder 168 will be sent the decline letter",
# "the reviewer will send the approval letter", "I have not yet written to Holder 20", "decline
# note still to do", "Decline letter to holder still outstanding"). Not another one ("we will write
# again once…", "a follow-up letter"), nor one under a condition or in a question.
_HOLDER = r"(?:the\s+)?(?:holder|claimant|policyholder|customer|insured)(?:\s+\d+)?"
TO_COME = lazy(
    r"\b(?P<letter>(?:(?:approval|decline|decision|declinature|outcome|claimant)\s+)?(?:letter|notification))\b"
    r"[^.;!?\n]{0,40}?\b(?:to\s+go\s+out|"
    r"will\s+(?:then\s+|now\s+)?(?:go\s+out|follow|be\s+(?:sent|posted|issued|emailed|mailed))|is\s+going\s+out|goes\s+out|"
    r"(?:is\s+)?on\s+its\s+way|in\s+the\s+coming\s+days|"
    r"(?:is\s+)?still\s+(?:outstanding|pending|to\s+(?:go|send|be\s+sent|do))|to\s+follow|"
    r"to\s+be\s+(?:sent|issued|posted|emailed|mailed))\b"  # ("Letter to be issued tomorrow": 78th audit)
    rf"|\b(?P<told>{_HOLDER}|they|he|she)\s+will\s+(?:then\s+|now\s+|also\s+)?be\s+(?:sent\s+(?:the|a|an|their|his|her|"
    r"our)\b|notified|informed|written\s+to|told|emailed)\b"
    r"|(?:\bwill|'ll)\s+(?:then\s+|now\s+|also\s+)?(?:send|post|issue|email|mail|get|receive)\s+(?P<sends>(?:the\s+|an?\s+|our\s+|their\s+|your\s+)?"
    r"(?:(?:approval|decline|decision|outcome)\s+)?letter)\b"
    rf"|\b(?:i|we|you)\s+(?:have\s+not|haven't|did\s+not|didn't)\s+(?P<unwritten>(?:yet\s+)?(?:written|wrote)\s+to|yet\s+"
    # ("I have not told the claimant the reviewer's name": what a letter left out, unless "yet")
    rf"(?:notified|informed|told|contacted|emailed))\s+{_HOLDER}"
    # a request for information told as to come once it went ("I'll send the information request
    # to Holder 302 tomorrow": 87th audit)
    # (and "Will send the info request…", "I am going to send…", "Info request goes to Holder 302
    # tomorrow": red team 70)
    r"|(?:\b(?:i|we)(?:'ll|\s+will|\s+shall)|\b(?:i\s+am|i'm|we\s+are|we're)\s+going\s+to|(?:^|(?<=[.;:!?\n]\s)|"
    r"(?<=[.;:!?\n]))will)\s+(?:then\s+|now\s+|also\s+)?(?P<request>(?:send|issue|raise)\s+(?:the\s+|an?\s+)?"
    rf"(?:information\s+|info\s+)?request|ask\s+{_HOLDER}\s+for)\b"
    rf"|\b(?P<going>(?:information|info)\s+request)(?:\s+to\s+{_HOLDER})?\s*[:\-\u2013]?\s*(?:goes|is\s+going|will\s+go|"
    r"going|to\s+go)(?:\s+out)?\b"
    r"|\b(?P<note>(?:(?:decline|decision|escalation|info)\s+)?note)\s+(?:is\s+)?(?:still\s+)?(?:to\s+do|to\s+(?:be\s+)?"
    r"(?:added|filed|written)|outstanding|not\s+yet\s+(?:on\s+file|added|filed|written|done|in))\b", re.IGNORECASE)
_KIND = r"(?:approval|decline|decision|declinature|outcome)"
_LETTER_NAMED = lazy(rf"\b(?:letter|paperwork)\s+(?:of|confirming|about|with)\s+(?:the\s+|your\s+|our\s+)?"
                     rf"(?P<k1>{_KIND})\b|\b(?:our\s+|the\s+)?(?P<k4>{_KIND})\s+in\s+writing\b"
                     rf"|\b(?:formal\s+)?(?P<k2>{_KIND})\s+(?:notice|notification)\b"
                     rf"|\b(?P<write>write\s+to\s+you)\s+(?:formally\s+)?(?:with|about)\s+(?:the\s+|our\s+|your\s+)?"
                     rf"(?P<k3>{_KIND})\b", re.IGNORECASE)
_TO_COME_CUES = ("letter", "will be", "not yet", "haven't", "have not", "did not", "didn't", "note", "notification",
                 "its way", "coming days", "request", "ll ask", "will ask", "shall ask")
_ANOTHER = lazy(r"\b(?:again|another|further|second|new|follow[\s-]?up|confirmation|reminder|update|"
                r"once\s+more)\b", re.IGNORECASE)
_SUPPOSED = lazy(r"\b(?:if|whether|should|unless|would|could)\b[^.;!?\n]*$", re.IGNORECASE)


def _told_to_come(c: Case, t: Text, said: str, low: str) -> str | None:
    if any(w in low for w in ("notice", "notification", "letter of", "letter confirming", "formally", "write to you",
                              "paperwork", "in writing")):
        said = _LETTER_NAMED.sub(lambda m: f"{'send the ' if m.group('write') else ''}"
                                           f"{next(g for g in m.group('k1', 'k2', 'k3', 'k4') if g)} letter", said)
        low = said.lower()  # "your letter of decline", "formal decline notice" (red team 54)
    if not any(cue in low for cue in _TO_COME_CUES) or t.event.action == "notify_claimant" and not any(
            f"{kind} letter" in low for kind in LETTER_KINDS):
        return None  # (a letter is judged only of a decision's letter it names: the pattern is costly)
    for m in TO_COME.finditer(said):
        end = sentence_end(said, m.end())
        if _ANOTHER.search(said, max(0, m.start() - 25), m.end()) or _SUPPOSED.search(
                said, max(0, m.start() - 60), m.start()) or said[end:end + 1] == "?":
            continue
        if (m.group("request") or m.group("going")) and _AGAIN.search(said, m.end(), end):
            continue  # "I'll ask Holder 302 for the photos again"
        asked = m.group("request") or m.group("going")
        act = "add_note" if m.group("note") else "request_info" if asked else "notify_claimant"
        what = m.group("note") or m.group("letter") or m.group("sends") or asked or "letter"
        if t.event.action == "notify_claimant" and not any(k in what.lower() for k in LETTER_KINDS):
            continue  # (a letter's "we will write to you again" is its own business; "we'll send your decline
            # letter shortly" after it went is not: 73rd audit)
        done = [e for e in c.writes if e.action == act and e.seq < t.event.seq and _same(act, what, e.arguments)]
        if done:
            return f"says {m.group(0).strip()!r}, but it was done at step {done[0].step}"
    return None
