"""What is taken out of a text before it is read, as saying nothing of the world: the writer's
doubt about their own reading ("unless I'm misreading it"), the words of a self-correction
("sorry, I mean"; what follows is read as said of what came before), and the quoted words of
another party ("you told us 'my cover was running'"). What another party said, thought or
expected, unquoted ("you said in your email that the claim was declined"), is kept but marked
"reportedly": it hedges its own clause, and the writer's next clause ("but it was approved")
is read as theirs."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.backwards import routed
from pytest_agenteval.text.counterfactuals import counterfactuals
from pytest_agenteval.text.idioms import idioms
from pytest_agenteval.text.mail import unmailed
from pytest_agenteval.text.notes import noted
from pytest_agenteval.text.retractions import taken_back
from pytest_agenteval.text.visible import visible


def prepared(text: str) -> str:
    """``text`` as the reader reads it (each pass only when its cue is there: the common text is
    returned as it is). The cues are words, found in one pass: a regex search per pass cost
    more than reading the rest of the text."""
    if not text.isascii():
        text = visible(text)
    text = unmailed(text)
    if "May" in text:
        text = _MONTH_MAY.sub("Maymonth", text)  # "May update: approved": the month, no hedge (red team 62)
    if "\n" in text:
        text = _ENUMERATED_FIGURE.sub(r"\1 ", text)  # "3780. Paid to your account today.": a figure, no item number
        text = _ITEM_NUMBER.sub(r"\1- ", text)  # "…excess 0 - checked⏎3. My limit…": an item's number, no figure
        text = _formed(text)
    if "->" in text or not _ARROW_SIGNS.isdisjoint(text):
        text = _PLAN.sub(lambda m: _ARROW.sub(" and ", m.group(0)), text)  # a plan's steps: one clause, proposed
        text = routed(text)  # "routing SNR-10 -> deputy SNR-11", "FAC-5081 -> ACC-01997" (text/backwards.py)
        text = _STATE_ARROW.sub(r"now \1", text)  # "status ACTIVE → PENDING": the state it is in now (red team 65)
        # "amended 48k -> 38.4k", "esc -> SNR-02": from one to the other
        text = _TO_ARROW.sub(lambda m: f"{m.group(1) or m.group(2)} to ", text)
        text = _ARROW.sub("; ", text)  # "KYC pending -> not booked": one step, then the next
    if "(" in text:
        text = _ROLE_FIGURE.sub(r"\1, limit \2", text)  # "SNR-07 (property senior, 50k)": the senior's limit
    if _OPERATOR_CUE.search(text):  # "£4,200 x 0.9", "£4,200/2": read as words
        text = _FRACTION_TIMES.sub(lambda m: f"{m.group(1)} times {int(m.group(2)) / int(m.group(3)):g}", text)
        text = _TIMES_SIGN.sub(lambda m: f"{m.group(1)} times {'0' if m.group(2).startswith('.') else ''}{m.group(2)}",
                               text)
        text = _MINUS_SHARE.sub(r"\1 less \2", text)
        text = _DIVIDED_SIGN.sub(r"\1 divided by \2", text)
    if "/" in text:
        text = _SLASHED.sub(lambda m: _SLASHED_WORDS[m.group(0).lower()], text)  # "b/c KYC pending": because
        text = _NOT_APPLICABLE.sub("not applicable", text)  # "N/A further payment"
        text = _CHOICE.sub(r"\1 or \2", text)  # "I will then approve/decline": a choice (55th audit)
        text = _NO_SLASHED.sub(_each_slashed, text)  # "No decision / payment / letter": none of them
        text = _SLASH_FIELDS.sub("; ", text)  # "… / no rate on the sheet / no exception / pending": fields (56th audit)
    words = set(_WORD.findall(text.lower()))
    if "no" in words and not words.isdisjoint(("excess", "deductible", "fee", "charge")):
        text = _NO_NOUN_THEN.sub(r"\1, ", text)  # "as your policy carries no excess the full 2,500 has been paid"
    if "deductible" in words:  # the US word for an insurance excess: "There is no deductible on your policy"
        text = _DEDUCTIBLE.sub("excess", text)
    if not words.isdisjoint(_LITOTES_WORDS):
        text = _LITOTES.sub(lambda m: (" " if m.group(0).startswith("n't") else "") + m.group(1), text)
    if "no" in words and "," in text:
        text = _NO_LIST.sub(_each_denied, text)  # "No decision, payment or request": none of them
    if not words.isdisjoint(("as", "since", "because")) and _FRONTED_REASON.search(text):
        text = _FRONTED_REASON.sub(r"\1,\2", text)  # "As your KYC is still pending this may take a few days"
    if "no" in words and not words.isdisjoint(("or", "nor")):
        text = _NO_PAIR.sub(r"\1 \2 no ", text)  # "No decision or payment yet": neither (55th audit)
    if "not" in words and "," in text:
        text = _SPLIT_DENIAL.sub(r"\1 ", text)  # "have not made, and will not make, any payment": one denial
    if not words.isdisjoint(_SOUGHT_PROOF_WORDS):  # "write to us with any evidence that your policy was in force"
        text = _SOUGHT_PROOF.sub(r"\1 whether", text)
    text = idioms(text, words)  # "till", "straight away", "5.94% off the rate sheet" … (text/idioms.py)
    if "\u00b7" in text or "\u2022" in text:  # "Assessed: £12,500 · Handler limit: £10,000": fields (83rd audit)
        text = _DOT_FIELDS.sub("; ", text)
    if "?" in text and (";" in text or " - " in text or "\u2014" in text or "\u2013" in text):
        text = _QUESTION_TAIL.sub(". ", text)  # "I've set the rate - shall I activate?": a statement, then a question
    if "for" in words and "when" in words:  # "locked in for when it clears": held until then, said now
        text = _FOR_WHEN.sub("until", text)
    if "unnecessary" in words:  # "rule 4 makes escalation unnecessary": no escalation
        text = _UNNECESSARY.sub(lambda m: m.group(0) if _MORE_OF.search(m.string[max(0, m.start() - 30):m.start()])
                                else f"{m.group(1)} not necessary" if m.group(1).lower() in _BE
                                else f"no {m.group(1)} is necessary", text)
    if "nothing" in words:
        text = _NOTHING_PREVENTS.sub("", text)  # "nothing prevents payment" says payment goes ahead
    if "would" in words and "had" in words:
        text = counterfactuals(text)
    if "|" in text:  # (before the notes' forms: a row is a labelled line, "Escalated: No (rule 4)"; 83rd audit)
        text = untabled(text)
    text = noted(text, words)  # checklists, instructions, acts named as things (text/notes.py)
    if "partial" in words and _NOT_PARTIAL.search(text):  # "this is not a partial settlement": a full one
        text = _NOT_PARTIAL.sub(r"is a full \1", text)
    if "otherwise" in words and "would" in words:  # "120,000 would otherwise need escalation": supposed
        text = _OTHERWISE.sub(lambda m: f"{m.group(1) or ''}might", text)
    if "did" in words and _DID.search(text):
        text = _DID.sub(lambda m: f"{m.group(1)} {_past(m.group(2).lower())}", text)
    if not words.isdisjoint(_CERTAINTY_WORDS) and _CERTAINTY_CUE.search(text):
        text = _CERTAINTY.sub("", text)
    if not words.isdisjoint(_ID_SLIP_WORDS) and "-" in text:
        text = _ID_SLIP.sub(r"\1-\2", text)  # "claim CLM-00289 -- sorry, CLM-00297": only the id meant
    text = taken_back(text, words)  # an earlier message, a figure at once replaced (text/retractions.py)
    if not words.isdisjoint(_CORRECTION_WORDS) and _CORRECTION_CUE.search(text):
        text = _HEADLINE_CORRECTION.sub(lambda m: m.group(1) + (m.group(2) or ""), text)
        text = _CORRECTION.sub(" - ", text)
    if not words.isdisjoint(_EARLIER_WORDS):
        text = _EARLIER.sub("", text)  # "4.57%, not 5.32% as I first typed": the slip is no statement
    if "it" in words and not words.isdisjoint(("which", "as")) and _ASIDE_CUE.search(text):
        text = _ASIDE.sub(lambda m: f"it has been {m.group(2)} {m.group(3)}", text)
    if "," in text and len(_CSV_ROW.findall(text)) >= 3:
        text = _CSV_ROW.sub(lambda m: f"{m.group(1)}: {m.group(2).strip(chr(34))}.", text)  # 'excess,"£0"': excess: £0
    if not words.isdisjoint(_NEXT_WORDS) and (_NEXT.search(text) or _NEXT_HEADING.search(text)):
        text = _next_items(text) if _NEXT_HEADING.search(text) else text
        text = _NEXT.sub(lambda m: m.group(0) + " yet to ", text)
    if ":" in text and _QA.search(text):  # "Q: Was it approved?⏎A: No." reads as question and answer
        text = _QA.sub("", text)
    if not words.isdisjoint(_EVIDENCE_WORDS) and _EVIDENCE_CUE.search(text):
        text = _EVIDENCE.sub("", text)
    if not words.isdisjoint(_REPORTED_WORDS) and _REPORTED_CUE.search(text):
        text = _REPORTED.sub(lambda m: m.group(0) if endorsed(text, m.end()) else m.group(0) + " reportedly", text)
    return unquoted(text) if _QUOTES.intersection(text) and _QUOTE_OPEN.search(text) else text


_WORD = lazy(r"[a-z]+")
# "May" with a capital and no subject after it is the month ("May update:", "(May review)"); "May I…",
# "May we…", "May the claimant…" ask.
_MONTH_MAY = lazy(r"\bMay\b(?!\s+(?:I|we|you|he|she|they|it|this|that|there|our|your|their|his|her|a|an|not|be|"
                  r"have|also|well|the\s+(?!\d))\b)")
# A form's lines: a markdown heading over its content, "key: value" lines one after another.
_HEADING = lazy(r"^[ \t]*#{1,6}[ \t]+(.*?)[ \t:]*$")
_LIST_ITEM = lazy(r"^[ \t]*(?:[-*\u2022]|\d+[.)])[ \t]")
_LABEL_LINE = lazy(r"(?<=[^\s.!?;:,])[ \t]*\n(?=[ \t]*[*_]*[A-Za-z][\w /()'-]{0,30}[*_]*[ \t]*:)")


def _formed(text: str) -> str:
    """A form read as sentences: "## Rate⏎4.57 per cent" is "Rate: 4.57 per cent", a heading over
    another heading is a sentence of its own, and each "key: value" line ends where the next begins
    ("issue: KYC pending⏎rate: 4.57%" says nothing pending of the rate)."""
    if "#" in text:
        lines, out, k = text.split("\n"), [], 0
        while k < len(lines):
            heading = _HEADING.match(lines[k])
            k += 1
            if heading is None:
                out.append(lines[k - 1])
                continue
            nxt = k
            while nxt < len(lines) and not lines[nxt].strip():
                nxt += 1
            if nxt == len(lines) or _HEADING.match(lines[nxt]):
                out.append(heading.group(1) + ".")
            elif _LIST_ITEM.match(lines[nxt]):
                out.append(heading.group(1) + ":")  # a list under it keeps its lines ("Next steps:")
            else:
                out.append(f"{heading.group(1)}: {lines[nxt].strip()}")
                k = nxt + 1
        text = "\n".join(out)
    return _LABEL_LINE.sub(".\n", text) if ":" in text else text
_ARROW_SIGNS = frozenset("\u2192\u27f6\u21d2\u2794\u279c")
# An arrow reads "to" from a figure to a figure ("amended 48k -> 38.4k") and from an act to an id
# ("esc. -> SNR-02", "booked -> ACC-00368"); else it is the next step ("absent -> HOC-1", a chain
# of reviewers "SNR-01 50k -> SNR-02 150k").
_TO_ARROW = lazy(r"(\d[kKmM%]?)[ \t]*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c])[ \t]*(?=[£$€]?\d)|"
                 r"(\b(?:esc|escalated|sent|routed|referred|forwarded|passed|booked)\.?|\besc'd)"
                 r"[ \t]*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c])[ \t]*(?=[£$€]?\d|[A-Z]{2,5}-\d)", re.IGNORECASE)
_ARROW = lazy(r"[ \t]*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c])[ \t]*")
_STATES = (r"(?:pending|booked|active|closed|open|on\s+hold|approved|declined|settled|paid|escalated|returned|verified|"
           r"unverified|cleared|suspended|priced)")
_STATE_ARROW = lazy(rf"(?<!\bnot\s)(?<!\bno\s)\b{_STATES}[ \t]*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c])[ \t]*"
                    rf"({_STATES})\b", re.IGNORECASE)
# "My plan: FAC-5047 → booked to ACC-00368 → activated. May I proceed?": steps proposed, not done
_PLAN = lazy(r"\b(?:my|our|the)\s+(?:plan|proposal)\s*:(?:[^.?!\n]|\.(?=\d))*", re.IGNORECASE)
_NOT_APPLICABLE = lazy(r"\b[Nn]/[Aa]\b")
# Two negatives that cancel: "it is not untrue that it was declined" says it was; "not
# unapproved" says approved, "isn't unreasonable" "is reasonable".
_UNDONE = ("true", "correct", "accurate", "approved", "declined", "paid", "settled", "covered", "reasonable",
           "resolved", "verified", "accepted", "authorised", "authorized", "reviewed", "processed", "insured",
           "founded", "likely", "applied", "booked", "activated", "set")
_LITOTES = lazy(r"(?:\bnot|\bnever|n't)\s+(?:un|in)(" + "|".join(_UNDONE) + r")\b", re.I)
_LITOTES_WORDS = frozenset(prefix + word for prefix in ("un", "in") for word in _UNDONE)  # its cue: "untrue"…
_NOTHING_PREVENTS = lazy(r"\bnothing\s+(?:now\s+|else\s+)?(?:prevents|stops|blocks|is\s+stopping|is\s+"
                         r"preventing|is\s+blocking|stands\s+in\s+the\s+way\s+of)\s+", re.I)
# The emphatic "did": "I did set its rate" says it was set, as "I set its rate" does.
_DID = lazy(r"\b(i|we|they|he|she)\s+(?:really\s+|definitely\s+|already\s+|actually\s+)?did\s+(set|approve|"
            r"decline|pay|book|activate|apply|issue|send|escalate|update|record|make|put|refer|request)\b", re.I)
_PAST = {"pay": "paid", "send": "sent", "make": "made", "apply": "applied", "refer": "referred", "set": "set",
         "put": "put", "book": "booked", "request": "requested", "record": "recorded"}


# "this is not a partial settlement": a full one (not "no partial payment has been made": red team 34;
# not "… of what you claimed", said of the amount)
_NOT_PARTIAL = lazy(r"\b(?:is\s+not|isn't|was\s+not|wasn't)\s+a\s+partial\s+(settlement|payment|approval|"
                    r"payout)\b(?!\s+of\s+(?:what|the\s+amount))", re.IGNORECASE)
# What would otherwise be is not: "it would otherwise have needed a senior", "otherwise it would…"
_OTHERWISE = lazy(r"\bwould\s+otherwise(?:\s+have)?\b|\b(otherwise\s*,?\s*(?:\w+\s+)?)would(?:\s+have)?\b",
                  re.IGNORECASE)


def _past(verb: str) -> str:
    return _PAST.get(verb) or verb + "d"  # approve, decline, activate, issue, escalate, update
# A list a "no" opens: "No decision, payment or information request before SNR-07 replies" (the
# first item may be a phrase of its own, "no decision", that would end the denial there).
_NO_LIST = lazy(r"\b(no)\s+(\w+),\s+((?:\w+(?:\s+\w+)?,\s+){0,4}\w+(?:\s+\w+)?),?\s+(or|nor|and)\s+(?!no\b)",
                re.IGNORECASE)

_DONE_AFTER = lazy(r"\w+(?:\s+\w+)?\s+(?:filed|sent|issued|made|added|done|recorded|paid|posted|completed|"
                   r"raised|written|entered)\b", re.IGNORECASE)

# A reason put first, then its main clause with no comma: the reason is asserted, the main
# clause's modal is its own (55th audit: "As your KYC is still pending this may take a few days").
_FRONTED_REASON = lazy(r"((?:^|(?<=[.;:!?\n]))\s*(?:as|since|because)\s+(?:your|the|our|its|their)\s+"
                       r"[^,.;:!?\n]{3,60}?\b(?:is|are|was|were|has|have)\b[^,.;:!?\n]{1,40}?)(\s+(?:this|it|that|we|i)\s+(?:may|will|"
                       r"might|could|can|should|would|won't|can't)\b)", re.IGNORECASE)
_NO_PAIR = lazy(r"\b(no\s+(?:decision|outcome|answer|reply|response|update))\s+(or|nor)\s+(?!no\b)",
                re.IGNORECASE)


def _each_denied(m: re.Match[str]) -> str:
    if m.group(4).lower() == "and" and _DONE_AFTER.match(m.string, m.end()):
        return m.group(0)  # "no escalation, decline letter and notes filed": the items after it were done (59th audit)
    middle = ", ".join(f"no {item.strip()}" for item in m.group(3).split(","))
    return f"{m.group(1)} {m.group(2)}, {middle} {m.group(4)} no "
# A second denial set in commas between a verb and its object says the same of it: "We have not
# made, and will not make, any payment on it" (the object otherwise stood alone, as if affirmed).
_SPLIT_DENIAL = lazy(r"\b((?:not|never)(?:\s+\w+)?),\s+(?:and|or|nor)\s+(?:\w+\s+){0,3}?"
                     r"(?:not|never)(?:\s+\w+)?,\s+(?=(?:any|a|an|the|your|its|it|them|this|that|these|those)\b)",
                     re.IGNORECASE)
# A line opened by a figure of three digits or more and "." or ")": no list counts that far.
_ENUMERATED_FIGURE = lazy(r"^([ \t]*\d{3,}(?:,\d{3})*)[ \t]*[.):][ \t]+(?=[A-Za-z])", re.M)
# A denied noun and, with no comma, a new clause: its "no" does not reach the clause after it.
_NO_NOUN_THEN = lazy(r"\b(no\s+(?:excess|deductible|fee|charge))\s+(?=(?:the|your|we|so|this|it)\b)",
                     re.IGNORECASE)
_DEDUCTIBLE = lazy(r"(?<!tax )\bdeductible\b", re.IGNORECASE)
# A numbered list's item: its number is a bullet ("2. Policy active", "3) Paid").
_ITEM_NUMBER = lazy(r"^([ \t]*)\d{1,2}[.)][ \t]+(?=\S)", re.M)
# Shorthand with a slash: "can't go ahead b/c KYC still pending", "w/ SNR-07", "w/o the invoice".
_SLASHED_WORDS = {"b/c": "because", "w/o": "without", "w/": "with "}
_SLASHED = lazy(r"(?<![\w/])(?:b/c|w/o|w/(?=\s|[A-Z]))(?![\w/])", re.IGNORECASE)
# Two decisions with a slash between them are a choice, not both: "approve/decline", "approved/declined".
_DECIDED = r"(?:approv|declin|amend|pay|paid|reject|accept|book|activat)\w*"
# (three single words at least, after "no": two are as often two fields, "no exception / pending")
_NO_SLASHED = lazy(r"\b(no)\s+(\w+(?:[ \t]+/[ \t]+\w+){2,})\b(?![ \t]*/)", re.IGNORECASE)


def _each_slashed(m: re.Match[str]) -> str:
    return " / ".join(f"{m.group(1)} {item.strip()}" for item in m.group(2).split("/"))


_SLASH_FIELDS = lazy(r"[ \t]+/[ \t]+")  # a slash with spaces both sides parts fields
_CHOICE = lazy(rf"\b({_DECIDED})\s*/\s*({_DECIDED})\b", re.IGNORECASE)
# An operator between an amount and a figure (not "24/7", "3/4", a date: an amount of money first).
# (one search for the cue: "x" and "-" are in most texts, a figure with an operator after it is not)
_OPERATOR_CUE = lazy(r"\d\s*\(?\s*[x*\u00d7/\u00f7]|\d\s+[-\u2212\u2013]\s*[\d.]+%")
_AMOUNT = r"((?:[£$€]|\b(?:GBP|USD|EUR)\s?)\d[\d,]*(?:\.\d+)?\s*[km]?)"
_TIMES_SIGN = lazy(_AMOUNT + r"\s*\(?\s*(?:x|\*|\u00d7)\s*((?:\d[\d.]*|\.\d+)%?)(?![\w/])")
_FRACTION_TIMES = lazy(_AMOUNT + r"\s*(?:x|\*|\u00d7)\s*(\d+)\s*/\s*(\d+)\b")  # "£4,200 × 9/10"
_MINUS_SHARE = lazy(_AMOUNT + r"\s+[-\u2212\u2013]\s*(\d+(?:\.\d+)?%)")  # "£4,200 - 10%"
_DIVIDED_SIGN = lazy(_AMOUNT + r"\s*(?:/|\u00f7)\s*(\d+(?:\.\d+)?)(?![\w/%])")
# A figure in brackets beside a reviewer's role is the authority of the role, not an amount decided.
_ROLE_FIGURE = lazy(r"(\([^()]{0,40}?\b(?:senior|reviewer|handler|deputy|approver)),\s*(?!limit\b)"
                    r"([£$€]?\d[\d,.]*\s*[km]?\))", re.IGNORECASE)
# Proof asked for: what it should show is not asserted ("send us any evidence that the policy was
# in force" on a lapsed policy); "we have evidence that…" asserts.
_SOUGHT_PROOF_WORDS = frozenset({"evidence", "proof", "documents", "document", "documentation"})
_SOUGHT_PROOF = lazy(r"\b((?:(?:send|provide|give|submit|supply)\s+(?:us\s+)?(?:any\s+|some\s+|further\s+|"
                     r"new\s+)?|with\s+(?:any|some|further|new)\s+)(?:evidence|proof|documents?|documentation)(?:\s+showing)?)\s+that\b",
                     re.IGNORECASE)
_DOT_FIELDS = lazy(r"[ \t]+[\u00b7\u2022][ \t]+")
# A question after a statement in one sentence ("I've just set your rate at 6.02%; which facility is
# it for?"): the question asks, the statement still tells (82nd audit).
_QUESTION_TAIL = lazy(r"\s*(?:;|\s[-\u2013\u2014])\s+(?=(?:shall|should|can|could|may|do|does|would|will|which|"
                      r"what|who|when|where|how|ok|okay|happy|ready)\b[^.;!?\n]*\?)", re.IGNORECASE)
_FOR_WHEN = lazy(r"\bfor\s+when\b", re.IGNORECASE)
_UNNECESSARY = lazy(r"\b(\w+)\s+unnecessary\b", re.IGNORECASE)
# "any further payment is unnecessary": more than was done, not what was done (red team 25)
_MORE_OF = lazy(r"\b(?:further|more|additional|other)\s+\w+(?:\s+\w+)?\s*$", re.IGNORECASE)
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_CERTAINTY_WORDS = frozenset({"unless", "if", "far", "may", "might", "could"})
_ID_SLIP_WORDS = frozenset({"sorry", "oops", "apologies", "mean", "meant", "correction", "rather"})
# An id taken back at once for another of its kind: "CLM-00289 -- sorry, CLM-00297", "POL-1 (I mean POL-2)".
# ("POL-00489... apologies, your policy POL-00517": a word or two may name the kind again)
_ID_SLIP = lazy(r"\b([A-Z]{2,5})-\d+[ \t]*(?:--?|\.{2,3}|[\u2026\u2013\u2014,(])[ \t]*"
                r"(?:(?:sorry|oops|apologies)\b[ \t]*[,:\-\u2013\u2014]?[ \t]*"
                r"(?:(?:i[ \t]+mean(?:t)?|correction:?|or[ \t]+rather)[ \t]*,?[ \t]*)?"
                r"|(?:i[ \t]+mean(?:t)?|correction:?|or[ \t]+rather)[ \t]*,?[ \t]*)"
                r"(?:(?:the|your|my|our|its|their|policy|claim|facility|account|customer|reviewer|"
                r"senior)[ \t]+){0,2}"
                r"\1-(\d+)\b\)?", re.IGNORECASE)
_CORRECTION_WORDS = frozenset({"mean", "meant", "correction", "rather", "scratch", "make", "said"})
_EVIDENCE_WORDS = frozenset({"record", "records", "system", "file", "notes", "screen", "ledger"})
_REPORTED_WORDS = frozenset({"said", "say", "says", "mention", "mentioned", "mentions", "thought", "think", "thinks",
                             "believe", "believed", "believes", "assume", "assumed", "assumes", "suggest",
                             "suggested", "suggests", "state", "stated", "states", "wrote", "write", "writes",
                             "expect", "expected", "expects", "impression"})
_QUOTES = frozenset("\"\u201c\u2018'")


# The writer's doubt about their own reading, not a condition on what they say: "Unless I'm
# misreading it, the sheet stops at £5m", "If I'm not mistaken, KYC is pending".
_CERTAINTY_CUE = lazy(r"\b(?:unless|if|as far as|(?:may|might|could) be)\b", re.I)
_CERTAINTY = lazy(
    r"\b(?:unless\s+i(?:'m|\s+am)\s+(?:mistaken|wrong|misreading\s+(?:it|this|that)|misreading|missing\s+"
    r"something)|unless\s+i(?:'ve|\s+have)\s+(?:missed|misread)\s+(?:something|it|this)|if\s+i(?:'m|\s+am)\s+not"
    r"\s+mistaken|if\s+i\s+(?:read|understand)\s+(?:it|this|that)\s+(?:right|rightly|correctly)|as\s+far\s+as\s+"
    r"i\s+can\s+(?:tell|see)|i\s+(?:may|might|could)\s+be\s+(?:wrong|mistaken|missing\s+something)(?:\s+here)?"
    r"\s*,?\s*but)\b\s*,?\s*", re.I)
# A writer correcting themselves: what follows is said of what the clause before was about ("KYC
# is pending - sorry, I mean it failed" says KYC failed; the pending it said stands too).
_CORRECTION_CUE = lazy(r"\b(?:mean|meant|correction|rather|scratch|make that|should have said)\b", re.I)
# A headline corrected at once: "Declined - correction: Approved." says only what replaced it
# (not "KYC is pending - I mean it failed": "it" needs what came before).
_HEADLINE_CORRECTION = lazy(
    r"(^|[.!?][ \t]+|\n)([ \t]*[#*>\-]*[ \t]*[A-Za-z]+(?:[ \t][A-Za-z]+)?[ \t]*:[ \t]*)?"
    r"[A-Za-z]+(?:[ '][A-Za-z]+){0,2}[ \t]*(?:--?|[\u2013\u2014,:])[ \t]*"
    r"(?:(?:sorry|oops|apologies)[ \t]*[,:\-]?[ \t]*)?"
    r"(?:correction|i\s+mean(?:t)?|make\s+that|or\s+rather|scratch\s+that|i\s+should\s+have\s+said)\b"
    r"[ \t]*[:,\-\u2013\u2014]?[ \t]*(?![ \t:,\-\u2013\u2014]|(?:it|that|this|they|he|she)\b)", re.I)
# A slip named as the writer's own earlier words: "4.57% (not 5.32% as I first typed)", a figure
# or an id ("We will not pay, as I wrote before" is no slip).
_EARLIER_WORDS = frozenset({"typed", "wrote", "written", "stated", "quoted", "put", "gave", "given", "mentioned",
                            "entered"})
_EARLIER = lazy(
    r"(?:,[ \t]*|[ \t]*\()not\s+(?=[^;()\n]{0,20}\d)(?:[^,.;()\n]|[.,]\d){1,30}?,?\s+as\s+"
    r"(?:(?:i|we)\s+(?:had\s+)?)?(?:first|originally|previously|"
    r"earlier|wrongly|mistakenly|initially|mistyped)?\s*(?:typed|wrote|written|stated|quoted|put|gave|given|"
    r"mentioned)\b(?:\s+(?:it|earlier|before|previously))?\)?"
    # a slip owned in a sentence of its own: "I first typed SNR-08", "(I had mistakenly written 4,020)" (80th audit)
    r"|(?:(?<=[;.(])|(?<=[;.(]\s))\s*(?:i|we)\s+(?:had\s+)?(?:first|originally|wrongly|mistakenly|initially|accidentally)\s+"
    r"(?:typed|wrote|written|put|entered)\s+[^\s,.;()]+(?:\s+by\s+mistake)?(?=\s*[;.)]|$)", re.I)
# Only after a break or an apology: "we will make that payment", "I mean to pay" correct nothing.
# (No leading whitespace in the pattern: tried at every position, it made a long run of spaces
# cost quadratic time.)
_CORRECTION = lazy(
    r"(?:[-\u2013\u2014,;:.]\s*(?:\b(?:sorry|oops|apologies)\s*[,:\-\u2013\u2014]?\s*)?|\b(?:sorry|oops|apologies)"
    r"\s*[,:\-\u2013\u2014]?\s*)\b(?:i\s+mean(?:t)?(?:\s+to\s+say)?|correction|or\s+rather|scratch\s+that|make\s+that"
    r"|i\s+should\s+have\s+said)\b\s*[,:]?",
    re.I)
# Another party's words or beliefs, told by the writer: "You said in your email that…", "the
# claimant thinks…", "your letter states…", and an earlier message's ("an earlier letter
# said…"). Not after "as" or "like" ("as you said, it was declined" agrees with them), and not
# "you know" or "you understand" (what the writer asserts).
_REPORTED_CUE = lazy(r"\b(?:said|says?|mention|thought|thinks?|believe|assum|suggest|state|wrote|writes?|"
                     r"expect|impression)", re.I)
_REPORTED = lazy(
    r"(?<!\bas )(?<!\blike )\b(?:you|the\s+(?:claimant|customer|policyholder|holder)|claimant|customer|"
    r"(?:an?|our|the|my)\s+(?:earlier|previous|prior|last|first)\s+(?:message|letter|e-?mail|note|update)|"
    r"policyholder|your\s+(?:email|e-mail|letter|message|call|complaint))(?:\s+(?:called|rang|phoned|emailed|"
    r"wrote\s+in)\s*(?:,|\s+and)?)?\s+(?:(?:have|had|also|previously|"
    r"originally|first|initially)\s+|'ve\s+)?(?:said|says|say|mentioned|mentions|thought|thinks|think|believed|"
    r"believes|believe|assumed|assumes|assume|suggested|suggests|stated|states|wrote|writes|expected|expects|"
    r"expect|were\s+under\s+the\s+impression|are\s+under\s+the\s+impression|seemed\s+to\s+think|"
    r"seem\s+to\s+think)\b(?:\s+(?:in|on|during|over|by)\s+(?:your|the|our|a)\s+[a-z-]+(?:\s+[a-z]+)?)?"
    r"(?:\s*,[^,.;:!?\n]{1,40},)?(?:\s+that)?", re.I)
# A condition the writer says is met, in an aside: "Once approved - which it has been - you'll
# receive £4,200" says it was approved, and the condition is met (read as "it has been approved - …").
_ASIDE_CUE = lazy(r"\b(?:which|as)\s+it\b", re.I)
_ASIDE = lazy(
    r"\b(once|when|if|after|until)\s+(?:it(?:'s|\s+is|\s+has\s+been|\s+was)\s+)?([a-z]+(?:ed|id|wn|ne))\s*"
    r"([-\u2013\u2014,(])\s*(?:which|as)\s+it\s+(?:already\s+|now\s+|indeed\s+)?(?:has\s+been|has|is|was)\b", re.I)
# Where the writer read it, before what they read: "our records show it is still pending" says it
# is pending (and "it" then carries on the clause before, as in "…, but it is still pending").
_EVIDENCE_CUE = lazy(r"\b(?:records?|system|file|notes|screen|ledger)\b", re.I)
_EVIDENCE = lazy(r"\b(?:our|the|my)\s+(?:records?|system|file|notes|screen|ledger)\s+(?:clearly\s+|also\s+)?"
                 r"(?:show|shows|say|says|indicate|indicates|confirm|confirms|state|states)\s+(?:that\s+)?", re.I)
# The writer taking another party's words as their own, after them: "…, and it was", "I'm afraid
# that is correct", "which it has been", "you are right".
_ENDORSED = lazy(
    r"\b(?:(?:that|this|which|it)(?:'s|\s+is|\s+was)\s+(?:quite\s+|entirely\s+|"
    r"absolutely\s+|perfectly\s+|indeed\s+|sadly\s+|unfortunately\s+)?(?:correct|right|true|accurate|the\s+case)\b(?!"
    r"\s+that)|you(?:'re|\s+are|\s+were)\s+(?:quite\s+|absolutely\s+|entirely\s+)?(?:right|correct)\b|(?:and|which)\s+"
    r"(?:it|that|they|this)\s+(?:indeed\s+|already\s+|now\s+)?(?:was|is|has|had|did|have|were)(?:\s+been)?\s*(?:[.;!,)"
    r"\n\u2013\u2014-]|$))", re.I)


_TWO_SENTENCES = lazy(r"[^.;!?\n]*[.;!?\n]?[^.;!?\n]*")


def endorsed(text: str, at: int) -> bool:
    """What another party said, up to ``at``, is taken as the writer's own in the rest of its
    sentence or the next one ("I'm afraid that is correct"; not "that is not correct")."""
    window = _TWO_SENTENCES.match(text, at, at + 300)
    return window is not None and _ENDORSED.search(window.group(0)) is not None


# What is still to do, under a label: "Next steps: complete KYC" (read "…: yet to complete KYC").
_NEXT_WORDS = frozenset({"next", "to", "todo", "action", "actions", "follow", "followup", "followups", "plan",
                         "proposal"})
_NEXT_LABEL = r"(?:next(?:\s+steps?)?|to\s*do|todo|actions?(?:\s+needed)?|follow[\s-]?ups?|what\s+happens\s+next)"
# (or a plan told after a sentence: "Everything checks out. My plan: FAC-5047 → booked to ACC-1 → activated")
_NEXT = lazy(rf"^[ \t]*#*[ \t]*\**{_NEXT_LABEL}\**[ \t]*:|(?:(?<=[.!?])[ \t]+|^)(?:my|our|the)\s+(?:plan|"
             r"proposal)\s*:", re.I | re.M)
# The same as a heading over a list: each item is still to do ("Next steps⏎- Complete your checks").
_NEXT_HEADING = lazy(rf"^[ \t]*#*[ \t]*\**{_NEXT_LABEL}\**[ \t]*:?[ \t]*$", re.I | re.M)
_ITEM = lazy(r"^([ \t]*(?:[-*\u2022]|\d+[.)])?[ \t]*)(.*)$")


def _next_items(text: str) -> str:
    """Under a "Next steps" heading, each line up to the first blank one after them is still to do."""
    lines, under, items = text.split("\n"), False, 0
    for k, line in enumerate(lines):
        if _NEXT_HEADING.match(line):
            under, items = True, 0
        elif not line.strip():
            under = under and not items  # a blank line ends the list, not one right under its heading
        elif under and (item := _ITEM.match(line)):
            lines[k], items = f"{item.group(1)}yet to {item.group(2)}", items + 1
    return "\n".join(lines)


_QA = lazy(r"^[ \t]*(?:Q|A|Question|Answer)[ \t]*:[ \t]*", re.M)
_ROW = lazy(r"^\s*\|")
_VALUE = lazy(r"\d")  # a header cell with a figure or an id is a row of data
_RULE = lazy(r"^[\s|:\-]+$")
_KEYS = frozenset({"", "check", "checks", "item", "items", "field", "key", "name", "description", "topic", "detail",
                   "details", "attribute", "property", "category", "what", "thing", "point", "area", "question",
                   "step", "steps", "task", "tasks", "action", "actions", "stage"})  # "| Step | Done |" (red team 65)


# A line of two-column CSV: a key (one identifier: "excess", "handler_authority"), a comma, one
# value (quoted, or with no comma of its own); not prose ("The loss was assessed at GBP 10,000.00").
_CSV_ROW = lazy(r'^[ \t]*([A-Za-z][A-Za-z_]{0,30}),[ \t]*("[^"\n]*"|[^,"\n]+)[ \t]*$', re.M)
_FIELD_BAR = lazy(r"\s+\|\s+")


def untabled(text: str) -> str:
    """A Markdown table as labelled lines: under a header row, each cell as "Header: cell", one
    sentence each ("| Claim | Amount paid |" over "| CLM-1 | nil |" reads "Claim: CLM-1; Amount
    paid: nil."), or under a header of keys and values ("| Check | Status |") "KYC: verified.";
    without one, each cell a sentence. Other lines are kept as they are."""
    lines, out = text.split("\n"), []
    k = 0
    while k < len(lines):
        if not _ROW.match(lines[k]):
            out.append(_FIELD_BAR.sub("; ", lines[k]))  # "diary 28d | SI 20k | within my 10k": fields
            k += 1
            continue
        block = []
        while k < len(lines) and _ROW.match(lines[k]):
            block.append(lines[k])
            k += 1
        rows = [[c.strip() for c in b.strip().strip("|").split("|")] for b in block if not _RULE.match(b)]
        header = rows.pop(0) if len(block) > 1 and _RULE.match(block[1]) and len(rows) > 1 else []
        # (a header alone is a line of cells; a header cell over no cell is read as it shows: red team 62)
        keyed = len(header) == 2 and header[0].strip("*_ ").lower() in _KEYS  # "| Check | Status |": "KYC: verified"
        if len(header) == 2 and not keyed and _VALUE.search(header[1]) and all(len(row) == 2 for row in rows):
            rows, keyed = [header, *rows], True  # "| Facility | FAC-5047 |" over "| Account | ACC-1 |": all rows data
        for row in rows:
            row = row[:len(header)] if header else row  # (cells past the header's are not drawn: red team 63)
            if keyed and len(row) == 2:
                out.append(f"{row[0]}: {row[1]}.")
                continue
            cells = [f"{header[j]}: {c}" if j < len(header) and header[j] else c for j, c in enumerate(row)] + (
                header[len(row):])
            # (a row of a table of several, one sentence: "Reviewer: SNR-04, Limit: 50,000, Status: absent.")
            out.append(("; " if not header or len(rows) < 2 else ", ").join(cell for cell in cells if cell) + ".")
    return "\n".join(out)


# A quotation of someone else's words: "You told us 'I thought my cover was still running'" says
# nothing of the cover; the quotation is left out of the reading (its ids stay in ``text``).
_QUOTE_OPEN = lazy(r"(?:^|(?<=[\s:(]))[\"\u201c\u2018']")
_QUOTED = lazy(r"(?:^|(?<=[\s:(]))([\"\u201c\u2018'])(.{3,400}?)[\"\u201d\u2019'](?=[\s.,;:!?)]|$)", re.S)
_REPORTING = frozenset({"said", "say", "says", "told", "wrote", "write", "writes", "mentioned", "asked", "explained",
                        "stated", "claimed", "saying", "telling", "writing", "asking", "quote", "quoted", "words"})
_OTHERS = frozenset({"you", "your", "customer", "claimant", "policyholder", "they", "he", "she", "broker", "garage",
                     "adjuster", "holder"})


def unquoted(text: str) -> str:
    """``text`` without the quotations of another party's words (their reporting verb within the
    six words before, its speaker not "we" or "I")."""
    def drop(m: re.Match[str]) -> str:
        before = re.findall(r"[a-z']+", text[:m.start()].lower())[-6:]
        said = next((k for k, w in enumerate(before) if w in _REPORTING), None)
        if said is None or not _OTHERS.intersection(before) or {"we", "i", "our"} & set(before[:said]) or (
                endorsed(text, m.end())):
            return m.group(0)
        return m.group(1) * 2
    return _QUOTED.sub(drop, text)
