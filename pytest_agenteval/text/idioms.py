"""Idioms that say something other than their words, rewritten into what they say before a text
is read (``prepass.prepared`` calls ``idioms``; audits 58-62): "till" is "until", "straight away"
is no absence, "5.94% off the rate sheet" is from it, "we check the policy is in force" tells a
process, "not booked and left pending" denies only the booking, "owing to SNR-10's absence" says
SNR-10 is absent, "(limit 10k)" after an act is a limit's figure, "does not cover 140,000" is a
limit too low for it, a reported question's answer after a colon or dash is said."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.answers import answered
from pytest_agenteval.text.coreference import resolved_back


def idioms(text: str, words: set[str]) -> str:
    """``text`` with each idiom rewritten; ``words`` are its lowercase words (a cheap test first)."""
    if "left" in words or "kept" in words:  # "not booked and left pending": the denial stops at "and" (61st audit)
        text = _NOT_AND_LEFT.sub(r"\1, and \2", text)
    if "limit" in words and "(" in text:  # "approved by me (limit 10k)": the limit's figure, read in its own clause
        text = _BRACKETED_LIMIT.sub(r"(\1 of \2)", text)
    if "absence" in words:  # "owing to SNR-10's absence": SNR-10 is absent (62nd audit)
        text = _OWING_TO_ABSENCE.sub(r"as \1 is absent", text)
    if not words.isdisjoint(("penny", "cent", "dime", "pound")):  # "not a penny was paid": nothing (red team 68)
        text = _NOT_A_PENNY.sub("nothing", text)
    if "insured" in words:  # "paid to the insured under POL-1": the policyholder, not the sum insured (red team 68)
        text = _THE_INSURED.sub("the policyholder", text)
    if "-" in text and _PHONE.search(text):  # "call 1-800-555-0142": a phone number, no amount (93rd audit)
        text = _PHONE.sub("our phone line", text)
    if "position" in words:  # "not in a position to pay": unable, no absence (81st audit)
        text = _NO_POSITION.sub("unable to", text)
    if "away" in words:  # "returned it straight away": at once, not absent (60th audit)
        text = _AT_ONCE.sub("immediately", text)
    if "till" in words or "til" in words:  # "it stays pending till KYC is done": a condition, as "until" (58th audit)
        text = _TILL.sub("until", text)
    if "off" in words and "%" in text:  # "rate 5.94% off the rate sheet": taken from it, not off it (58th audit)
        text = _RATE_OFF.sub(r"\1 from the ", text)
    if ("asked" in words or "wondered" in words or "know" in words) and not words.isdisjoint(("whether", "if")):
        text = _ASKED_THEN.sub(r"\1. ", text)  # "You asked whether … - it was, so …": the answer is said (78th audit)
    if "si" in words:  # "(active, motor, 50k SI)": the sum insured (79th audit)
        text = _SI.sub(r"\1 sum insured", text)
    if "lim" in words:  # "my 10k lim": a limit
        text = _LIM.sub("limit", text)
    if "only" in words and "after" in words:  # "paid it, and only after that sent the letter": then
        text = ONLY_AFTER_THAT.sub(" then ", text)
    if "before" in words and "note" in words:  # "before this note, approval ltr sent": already, no order of acts
        text = BEFORE_THIS_NOTE.sub("already ", text)
    if "out" in words:  # "SNR-10 out, went to deputy SNR-11": absent
        text = _ID_OUT.sub(r"\1 absent", text)
    if "cover" in words:  # "SNR-10 50,000 (does not cover 140,000)": a limit too low, not a decline (77th audit)
        text = _NOT_COVER_FIGURE.sub(r"\1is too low for ", text)
    if "former" in words or "latter" in words:  # "only the former is in today": the id it points back to
        text = resolved_back(text)
    if "picture" in words:  # "a fuller picture of how your claim was handled": an account, not a photo (85th audit)
        text = _CHANGE_PICTURE.sub(r"\1 the outcome", _WHOLE_PICTURE.sub(r"\1 account", text))
    if "?" in text or not words.isdisjoint(_LEANING):  # a short answer, a reported question's answer
        text = answered(text, words)
    if not words.isdisjoint(_TURN_WORDS):  # turns of phrase that say their opposite or nothing (red team 64)
        text = turns(text, words)
    if "auto" in words:  # "the auto-pay flag still off": a setting's name, no payment (red team 70)
        text = _AUTO_PAY.sub("autopay", text)
    if "not" in words and "," in text:  # "the sheet does not, at 7.5m, list a rate": the denial reaches the verb
        text = _NOT_ASIDE.sub(r", \2, \1 not ", text)
    if not words.isdisjoint(_NOTICED):  # "I see SNR-10 can approve up to 50,000": SNR-10 can (red team 68)
        text = _NOTICED_THAT.sub("", text)
    if not words.isdisjoint(("myself", "alone", "own")) and _NOT_ALONE.search(text):
        text = _NOT_ALONE.sub("I had no authority to decide it alone", text)  # who may decide, not a decline
    if not words.isdisjoint(_CHECKING):  # "we check the policy is in force at the date of loss": how, not that
        text = _CHECKED_THAT.sub(r"\1 whether ", text)
    return text


# "I could not have approved it myself", "I was unable to sign this one off on my own": who may
# decide, not the claim declined (its mirror, on a claim within the handler's limit, is
# ``own_authority``'s).
_NOT_ALONE = lazy(r"\b(?:I|we)\s+(?:could\s+not|couldn't|cannot|can't|can\s+not|(?:was|am|were|are)(?:\s+not|n't)\s+"
                  r"(?:able|allowed|permitted|entitled|authori[sz]ed)\s+to|(?:was|am|were|are)\s+unable\s+to)\s+"
                  r"(?:have\s+)?(?:approved?|decided?|authori[sz]ed?|sign(?:ed)?(?:\s+(?:it|this(?:\s+one)?|the\s+claim))?"
                  r"\s+off)(?:\s+(?:it|this(?:\s+one|\s+claim)?|the\s+claim))?"  # (a figure stays: it is judged)
                  r"\s+(?:myself|on\s+my\s+own|alone|by\s+myself|within\s+my\s+(?:own\s+)?(?:limit|authority))\b",
                  re.IGNORECASE)
_AUTO_PAY = lazy(r"\bauto[-\s]?pay(?:ment)?s?\b", re.IGNORECASE)
# (red team 68: "The rate sheet does not, at 7.5m, list a rate for SME revolvers")
_NOT_ASIDE = lazy(r"\s+(does|do|did|is|are|was|were|has|have|had|can|could|will|would)\s+not\s*,\s+"
                  r"((?:[^,;.]|\.(?=\d)){1,40}?)\s*,\s+", re.IGNORECASE)
_NOTICED = frozenset({"see", "note", "notice", "gather"})
_NOTICED_THAT = lazy(r"\bI\s+(?:can\s+)?(?:see|note|notice|gather)\s+(?:that\s+)?(?=[A-Z]{2,5}-\d+\b)")


# A check told in the present, what it looks at its object: "we check the policy is in force, then
# the cover" describes the process, not this policy (58th audit); "I checked the policy is…" tells.
_CHECKING = frozenset({"check", "checks", "checking", "verify", "verifies", "verifying"})
_CHECKED_THAT = lazy(r"\b(check|checks|checking|verify|verifies|verifying)\s+(?:that\s+)?(?=(?:the|your|its|"
                     r"their|a|an|each)\s+\w+(?:\s+\w+)?\s+(?:is|are|has|have|was|were)\b)", re.IGNORECASE)
_BRACKETED_LIMIT = lazy(r"\((limit|authority)\s+([£$€]?\d[\d,.]*[km]?)\)", re.IGNORECASE)  # (62nd audit)
_OWING_TO_ABSENCE = lazy(r"\b(?:owing|due)\s+to\s+([A-Z]{2,4}-\d+)['\u2019]s\s+absence\b", re.IGNORECASE)
_NOT_AND_LEFT = lazy(r"\b(not\s+(?:yet\s+)?\w+ed)\s+and\s+(left|kept)\b", re.IGNORECASE)
# (a figure's: "50,000 (does not cover 140,000)"; "SNR-04's limit does not cover 31,000" is read as it stands)
_NOT_COVER_FIGURE = lazy(r"(?<=\d)(\s*[km]?\s*(?:limit\s*)?\(?\s*)(?:does|do|did|would|will|can|could)"
                         r"(?:\s+not|n't|not)\s+cover\s+(?=(?:the\s+|a\s+|this\s+|all\s+of\s+the\s+)?[£$€]?\s?\d)",
                         re.IGNORECASE)
# A question reported, then its answer after a colon or a dash: the answer is a sentence of its own.
_ASKED_THEN = lazy(r"(\b(?:asked|wondered|wanted\s+to\s+know)\s+(?:us\s+|me\s+)?(?:whether|if)\b[^.?!;:\n"
                   r"\u2013\u2014]{3,160}?)\s*(?::|\s[-\u2013\u2014]\s)\s*", re.IGNORECASE)
_SI = lazy(r"(\d[\d,.]*\s?[km]?)\s+SI\b")
_LIM = lazy(r"(?<=\d[km] )lim\b|(?<=my )lim\b|(?<=your )lim\b", re.IGNORECASE)
ONLY_AFTER_THAT = lazy(r",?\s+(?:and\s+)?only\s+(?:after\s+that|then|afterwards)\s+", re.IGNORECASE)
BEFORE_THIS_NOTE = lazy(r"\bbefore\s+(?:this|the|my)\s+note,?\s+", re.IGNORECASE)
_ID_OUT = lazy(r"(?<!\bruled\s)(?<!\brule\s)(?<!\bleft\s)(?<!\bcounted\s)"  # ("ruled SNR-12 out": red team 65)
               r"\b([A-Z]{2,4}-\d+)\s+(?:is\s+|was\s+)?out\b(?=\s*[,;.)]|\s+(?:today|sick|on\s+leave))")
_WHOLE_PICTURE = lazy(r"\b(full|fuller|clear|clearer|whole|big|bigger|better|complete|accurate|overall|true)"
                      r"\s+picture\b(?=\s+of\s+(?:how|what|why|where|when|everything|events|the\s+(?:process|"
                      r"situation|handling|position|timeline|events?|steps?)\b))", re.IGNORECASE)
# "anything new that might change the picture": the outcome, not a photo (90th audit)
_CHANGE_PICTURE = lazy(r"\b(chang\w*|alter\w*|affect\w*)\s+(?:the|this|that)\s+picture\b", re.IGNORECASE)
_NOT_A_PENNY = lazy(r"\bnot\s+(?:a\s+|one\s+)?(?:single\s+)?(?:penny|cent|dime|red\s+cent|pound)\b(?!\s+(?:of|coin))",
                    re.IGNORECASE)
_THE_INSURED = lazy(r"\bthe\s+insured\b(?!\s+(?:sum|amount|value|limit|figure|party's))", re.IGNORECASE)
_PHONE = lazy(r"(?<![\w£$€.,])(?:\+?\d{1,3}[-\s])?\(?\d{3}\)?[-\s]\d{3}[-\s]\d{4}\b")
_NO_POSITION = lazy(r"\b(?:not\s+in\s+a|in\s+no)\s+position\s+to\b", re.IGNORECASE)
_AT_ONCE = lazy(r"\b(?:straight|right)\s+away\b", re.IGNORECASE)
_TILL = lazy(r"(?<![\w'])(?:till|'?til)\b(?!\s+(?:slip|roll|receipt|drawer)s?\b)", re.IGNORECASE)
_RATE_OFF = lazy(r"(\d%)\s+off\s+the\s+(?=(?:rate\s+)?(?:sheet|grid|card)\b(?!\s+rate))", re.IGNORECASE)


# Turns of phrase a person reads as plain statements (red team 64), each rewritten into what it
# says: "it would be wrong to say X" denies X; "if you're wondering, X" asserts X; "anything but
# X", "hardly X", "far from X" deny X; "I couldn't be happier to confirm" is glad, no denial;
# "decided against declining" and "declined to reject" deny the act after them; "can hardly
# refuse it" and "won't say no to" foretell a yes. Sarcasm and irony are not read.
_LEANING = frozenset({"would", "might", "will", "could", "paid", "sent", "transferred"})
_TURN_WORDS = frozenset({"wrong", "lying", "wish", "wondering", "curious", "heard", "anything", "hardly", "scarcely",
                         "far", "happier", "pleased", "delighted", "glad", "hesitation", "please", "against",
                         "declined", "refuse", "no", "if", "as", "not", "would", "than", "over", "under", "above",
                         "below", "full", "without", "instead", "expect", "anticipate", "subject", "expected",
                         "anticipated", "likely"})
_THAT = r"\s+(?:that\s+)?"
_BASE = {"declin": "decline", "approv": "approve", "refus": "refuse", "settl": "settle"}
_TURNS = [(lazy(p, re.IGNORECASE), r) for p, r in (
    (r"\bit\s+(?:would\s+be|is|'s)\s+(?:wrong|incorrect|untrue|false|a\s+lie|misleading)\s+to\s+(?:say|claim|suggest)"
     + _THAT, "it is not the case that "),
    (r"\bI(?:'d|\s+would)\s+be\s+lying\s+if\s+I\s+(?:said|told\s+you)" + _THAT, "it is not the case that "),
    (r"\bit(?:'s|\s+is)\s+not\s+as\s+(?:if|though)\s+", "it is not the case that "),
    # (not "I wish I could tell you in person that…": glad news, a wish about how it is told; red team 65)
    (r"\bI\s+wish\s+I\s+could\s+(?:say|tell\s+you|confirm|report)" + _THAT +
     r"(?!in\s+person|personally|face|directly|myself|over|by\s+phone)", "it is not the case that "),
    (r"\b(?:if|in\s+case)\s+you(?:'re|\s+are|\s+were|'ve\s+been|\s+have\s+been)\s+(?:wondering|curious|asking)"
     r"(?:\s+about\s+(?:it|that|this))?\s*[,:\u2013\u2014-]\s*", ""),
    (r"\bif\s+you\s+(?:haven't|have\s+not|hadn't|had\s+not)\s+(?:already\s+)?(?:heard|been\s+told)(?:\s+yet|\s+already)?"
     r"\s*[,:\u2013\u2014-]\s*", ""),
    (r"\bif\s+(?:you\s+must\s+know|it\s+helps|you\s+(?:want|wish|would\s+like|'d\s+like)\s+to\s+know)\s*[,:\u2013\u2014-]"
     r"\s*", ""),
    (r"\bno\s+(decision|call)\s+(was|is|were)\s+(?=mine\b|my\s+own\b|for\s+me\b|in\s+my\s+hands\b)",
     r"the \1 \2 not "),  # "no decision was mine to make": whose it was, not whether (85th audit)
    (r"\bwould\s+(?:normally\s+|usually\s+|otherwise\s+|then\s+)?(?=(?:mean|require|involve|call\s+for|"
     r"have\s+meant|have\s+required|have\s+involved)\b)", "might "),  # "which would mean escalating" (86th audit)
    (r"\b(?:higher|more|larger|bigger|greater)\s+than\s+(?:is\s+|was\s+)?(?:needed|necessary|required)\b",
     "sufficient"),  # "their limits are higher than needed": enough, no amount above a limit (86th audit)
    # "the reviewer's approval of your full £16,000 claim": the whole claim approved (86th audit; not "did not agree
    # to payment of…")
    (r"(?<!\bnot\s)(?<!n't\s)(?<!\bto\s)\b(approv\w*|payment|paid|settle\w*)\s+(of\s+|for\s+)?(?:your|the)\s+full\s+"
     r"((?:[£$€]\s?)?\d[\d,.]*\s?[km]?\s+)?claim\b", r"\1 \2your \3claim in full"),
    (r"\banything\s+but\b", "not"),
    (r"\bno\s+part\s+of\b", "none of"),  # "no part of it is still open": nothing is (89th audit), not a share
    # "but for X, this would have gone to Y": had it not been for X (89th audit); not "but for now"
    (r"\bbut\s+for\b(?!\s+(?:now|the\s+record|the\s+moment|this\s+claim)\b)(?=[^.;!?]*\bwould\b)", "if not for"),
    # "instead" opening its clause says what was done in place of it: "Instead it went to SNR-05" (89th audit)
    (r"(^|[.;:!?]\s*|\b(?:but|and|so)\s+)(instead)\s+(?!of\b)(?=\w)", r"\1\2, "),
    # a decision foretold: "we expect SNR-05 to finalise your claim" is "SNR-05 will finalise…" (88th audit)
    (r"\b(?:we|I)\s+(?:expect|anticipate)\s+((?:[A-Z]{2,5}-\d+|the\s+reviewer|our\s+reviewer|them|him|her)\s+)to\s+"
     r"(decide|finalise|finalize|make\s+a\s+decision|reach\s+a\s+decision)\b", r"\1will \2"),
    # an approval expected, or subject only to papers: "Expect approval at 41,000 subject to photos",
    # "approved subject to paperwork" foretell a yes (92nd audit)
    (r"\b(?:expect|anticipate)\s+(?:an?\s+)?approval\b", "we will approve"),
    (r"\bapproval\s+((?:at|of|for)\s+[£$€]?\s?\d[\d,.]*k?\s+)?(?:is\s+)?(?:expected|anticipated|likely)\b(?!\s+to\b)",
     r"we will approve \1"),
    (r"\b(approved?|approval)((?:\s+(?:at|of|for)\s+[£$€]?\s?\d[\d,.]*k?)?)\s+subject\s+to\s+(?:the\s+|your\s+)?"
     r"(photos|pictures|paperwork|documents|invoice|receipts?)\b", r"\1\2 once we get the \3"),
    # a manner ends at its comma: "approval received without any wait, approved, paid" (89th audit)
    (r"\b(without\s+(?:any\s+|a\s+|the\s+|much\s+|further\s+)?(?:wait|waiting|delay|delays|hold-up|hitch|fuss|"
     r"problems?|issues?|trouble|difficulty)),(?=\s+(?:\w+(?:ed|en)|paid|sent|done|made|told)\b)", r"\1;"),
    (r"\b(?:hardly|scarcely)\s+(?=(?:pending|verified|approved|declined|complete|completed|active|booked|paid|"
     r"outstanding|in\s+force|valid|done|open|closed)\b)", "not "),
    (r"\bfar\s+from\s+it\b", "no"),
    (r"\bfar\s+from\s+(?:being\s+)?(?=\w+ed\b|pending\b|verified\b)", "not "),
    (r"\b(?:I\s+)?(?:couldn't|could\s+not|can't|cannot)\s+be\s+(?:happier|more\s+(?:pleased|delighted|glad|happy))\b",
     "I am very happy"),
    (r"\bno\s+one\s+could\s+be\s+more\s+(?:pleased|delighted|happy|glad)\s+than\s+(?:me|I(?:\s+am)?)\b",
     "I am very happy"),
    (r"\bI\s+(?:can't|cannot|can\s+not)\s+(?:tell\s+you|say|express)\s+how\s+(?:pleased|happy|glad|delighted)\s+I\s+am\b",
     "I am very happy"),
    (r"\bnothing\s+would\s+(?:please|delight)\s+(?:me|us)\s+more\s+than\b", "I am very happy"),
    (r"\b(?:have|had|feel|felt)\s+no\s+hesitation\s+in\b", "am happy"),
    (r"\b(?:decided|chose|opted|ruled)\s+against\s+(declin|reject|refus|deny|approv|pay|accept|settl)(?:ing|ying)\b",
     lambda m: f"decided not to {_BASE.get(m.group(1).lower(), m.group(1))}"),
    (r"\b(?:declined|refused)\s+to\s+(reject|refuse|deny|decline|turn\s+(?:it\s+)?down)\b", r"chose not to \1"),
    (r"\bsaw\s+no\s+(?:reason|need|grounds)\s+to\s+(reject|refuse|deny|decline|turn\s+(?:it\s+)?down)\b",
     r"did not \1"),
    # (of the claim: not "we can hardly refuse to look at new evidence", "won't say no to extra photos")
    (r"\b(?:can|could)\s+(?:hardly|scarcely)\s+(?:refuse|decline|reject|say\s+no\s+to|turn\s+down)\s+(?=(?:it|this|"
     r"this\s+one|the\s+claim|your\s+claim|CLM-\d+)\b(?!\s+to\b))", "will surely approve "),
    (r"\b(?:won't|will\s+not|wouldn't|would\s+not)\s+say\s+no\s+to\s+(?=(?:it|this|this\s+one|the\s+claim|your\s+"
     r"claim|CLM-\d+)\b)", "will surely approve "),
    # what a figure is not, after what it is: "£20,000 … - that is your sum insured, not the payment" (84th)
    # (after a figure's name only: "we have approved your claim, not the payment" denies the payment; red team 65)
    (r"\b(insured|excess|premium)(?:\s+figure)?,?\s+not\s+(?:the|a|your|our)\s+(?:payment|payout|amount\s+"
     r"(?:paid|approved)|settlement)\b(?=\s*[.;,)]|$)", r"\1"),
)]


# A second denial joined by "and" opens its own clause, so the two are not counted as one undone
# (85th audit: "So I did not run find_reviewers and did not escalate" read as escalated).
_AND_NOT = lazy(r"(?<=\w)\s+and\s+(?=(?:did|does|do|have|has|had|was|were|is|are|will|would|could|can)"
                r"(?:\s+not|n't)\b|not\s+(?:yet\s+)?\w+(?:ed|en)\b)", re.IGNORECASE)  # ("not booked and not
# priced": 87th audit)


# An amendment told by what was left out (84th audit): "Not paid in full - paid the full amended
# figure" pays a part; "amended to 12,800 … 3,200 not approved" tells the cut, not a decline.
_NOT_IN_FULL = lazy(r"\bnot\s+(paid|approved|settled|covered)\s+in\s+full\b", re.IGNORECASE)
_CUT_FIGURE = lazy(r"([£$€]?\d[\d,.]*\s?[km]?)\s+(?:was\s+|is\s+|has\s+been\s+)?not\s+(?:approved|covered)\b"
                   r"(?!\s+(?:yet|so\s+far|until|pending|at\s+this|because|as|since|due))", re.IGNORECASE)


def turns(text: str, words: set[str]) -> str:
    """``text`` with each turn of phrase of ``_TURNS`` rewritten."""
    for pattern, plain in _TURNS:
        text = pattern.sub(plain, text)
    if "not" in words or "t" in words:  # "did not run X and did not escalate": two denials, not one undone
        text = _AND_NOT.sub("; and ", text)
    if "not" in words and not words.isdisjoint(("amended", "amend", "partial", "partly", "reduced")):
        text = _NOT_IN_FULL.sub(r"\1 in part", text)
        text = _CUT_FIGURE.sub(r"a reduction of \1", text)
    return text
