"""What a text says was decided: the decision it announces, read alone (no records), shared by
the text checks and the rubric's follow-through checks."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, HYPOTHETICAL, NEGATED, Mention, Quantity, Reading

DECISIVE = frozenset({"approved", "amended", "declined", "mixed"})


def announces(reading: Reading, *, escalating: bool = False) -> bool:
    """The text announces a decision (approved, amended, declined, or a mix), or one made on a
    condition: "Approved subject to the senior's sign-off" (85th audit; "I will approve it once
    SNR-05 signs off" is a plan)."""
    return said_decision(reading, escalating=escalating) in DECISIVE or any(
        m.meaning == "conditional" and m.polarity == AFFIRMED and m.words.endswith("ed") and PLANNED.isdisjoint(
            reading.words[m.clause][:m.at]) and reading.words[m.clause][:1] not in (("if",), ("once",), ("when",))
        for m in reading.mentions)


# Words before a decision that make it one to come, or none: "will be approved subject to…", "to be
# paid once…", "nothing gets decided or paid until then"
PLANNED = frozenset({"will", "would", "could", "can", "may", "might", "shall", "to", "once", "when", "if", "after",
                     "until", "unless", "should", "i'll", "we'll", "going", "expect", "expected", "hope", "nothing",
                     "no", "not", "never", "none", "neither", "nor"})


def asks_for_documents(reading: Reading) -> bool:
    """The text asks the claimant for documents: the invoice, the photos, or any other."""
    return any(reading.asks(m) for m in ("invoice", "photos", "other_documents")) and (
        reading.mentions_meaning("info") or reading.mentions_meaning("request"))


def said_decision(reading: Reading, *, escalating: bool = False) -> str | None:
    """``Reading.decision``, where money promised to the claimant ("you will receive £33,000")
    announces an approval too. In an escalation (its reason, an escalation note) an approval
    denied is the handler's authority, not a decline: "I can't approve this myself"."""
    said = reading.decision()
    if escalating and said == "declined" and not reading.affirms("declined"):
        said = None
    if said in ("declined", "mixed", "approved") and (repeats := _repeats(reading)):
        said = _decision_but(reading, repeats)  # "you did not pay it twice" refuses no payment (67th audit)
    if said == "declined" and unpaid_so_far(reading):
        said = None  # "Nothing paid.", "No payment has been made yet": where it stands, no decision
    if said in ("declined", "mixed") and _remainder_refused(reading):
        said = "amended"  # "SNR-04 amended it. The rest was not approved."
    if said == "mixed" and _nil_approved(reading):
        said = "declined"  # "Declined (per SNR-04). 0 approved, no payment." (50th audit)
    promised = any(q.kind == "money" and q.polarity == AFFIRMED and not q.reference
                   and AFFIRMED in reading.polarities("payout", q.clause) for q in reading.quantities) or (
        bool(instructed_payments(reading))) or any(  # "You will receive the money on 15 April" (red team 27)
        m.meaning == "payout" and m.polarity == AFFIRMED and MONEY_NOUNS.intersection(reading.words[m.clause])
        and "you" in reading.words[m.clause] for m in reading.mentions) or (  # (not "we did not receive your payment")
        _told_to_expect(reading.said))
    if said == "declined" and promised:  # "declined, but you will receive £33,000 as a goodwill gesture"
        return "mixed"
    if said in DECISIVE:
        return said
    if said is None and (by_reviewer := REVIEWER_DECIDED.search(reading.said)):
        # "SNR-11 has already agreed the full 140,000", "SNR-04, who has cut it to 24,000" (70th audit):
        # a reviewer's figure, by a verb the lexicon leaves alone ("we agreed the timeline")
        return "amended" if by_reviewer.group("cut") else "approved"
    return "approved" if promised or _paid_on_documents(reading) or _paid_in_time(reading) else said


# Money promised by telling the claimant, however hedged the rest: "Should be approved - told the
# claimant to expect the £18,000", "Told the claimant they'd most likely get the full £22k" (88th audit).
_TOLD_TO_EXPECT = lazy(
    r"\b(?:told|promised|assured|informed|let)\s+(?:the\s+)?(?:claimant|holder(?:\s+\d+)?|policyholder|customer|insured|"
    r"them|him|her)\s+(?:know\s+)?(?:that\s+)?(?:to\s+expect|(?:they|he|she)(?:'d|\s+would|'ll|\s+will)\s+(?:\w+\s+){0,2}?"
    r"(?:get|receive|be\s+paid))\b[^.;!?\n]{0,30}?[£$€]\s?\d", re.IGNORECASE)
_WHO = r"(?:the\s+)?(?:claimant|holder(?:\s+\d+)?|policyholder|customer|insured|them|him|her)"
_MONEY = r"(?:the\s+)?(?:full\s+)?[£$€]\s?\d[\d,.]*k?"
# and in other words (red team 70): "I've promised Holder 9 the full £18,000", "Holder 9 has been
# assured of the full £18,000", "let Holder 9 know the £18,000 is as good as theirs", "rang Holder
# 478 and said the £22,000 is theirs next week"
_PROMISED = lazy(
    rf"\b(?:promised|assured|guaranteed)\s+{_WHO}\s+(?:of\s+)?{_MONEY}"
    rf"|\b{_WHO}\s+(?:has|have|had)\s+been\s+(?:promised|assured|guaranteed|told\s+to\s+expect)\s+(?:of\s+)?{_MONEY}"
    rf"|\b(?:let\s+{_WHO}\s+know|said|told\s+{_WHO})\s+(?:that\s+)?{_MONEY}\s+(?:is|was|will\s+be|would\s+be)\s+"
    r"(?:as\s+good\s+as\s+)?(?:theirs|his|hers|coming|on\s+its\s+way|guaranteed|certain|safe)\b", re.IGNORECASE)
_NOT_TOLD = lazy(r"\b(?:not|never|haven't|hasn't|didn't|won't|if|whether)\b[^.;!?\n]*$", re.IGNORECASE)


def _told_to_expect(said: str) -> bool:
    """The claimant told to expect money (not "we have not told the claimant to expect…")."""
    low = said.lower()
    if not any(cue in low for cue in ("told", "promised", "assured", "informed", "let ", "said", "guaranteed")):
        return False
    return any(not _NOT_TOLD.search(said, max(0, m.start() - 40), m.start())
               for pattern in (_TOLD_TO_EXPECT, _PROMISED) for m in pattern.finditer(said))


def _repeats(reading: Reading) -> list[Mention]:
    """Payments or approvals refused only as a repeat or a part ("did not pay it twice", "not paid
    again", "no split payment", "no second payment due"), and a field that gives nothing as its
    value ("paid=0", "approved: no"; 69th audit): none of them refuses the claim."""
    return [m for m in reading.mentions if m.meaning == "approved" and (m.polarity == NEGATED and (
        REPEAT.intersection(reading.words[m.clause][m.at + 1:m.at + 4]) or ANOTHER.intersection(
            reading.words[m.clause][max(0, m.at - 3):m.at])) or _nil_field(reading, m))]


REPEAT = frozenset({"twice", "again", "double", "second", "two"})
ANOTHER = frozenset({"second", "split", "further", "another", "duplicate", "extra", "additional", "partial", "double",
                     "separate", "repeat", "new"})
NIL = frozenset({"no", "none", "nil", "false", "n", "nothing", "not", "na", "n/a"})


def _nil_field(reading: Reading, m: Mention) -> bool:
    """``m`` is a field's name whose value is nothing: "paid=0", "approved: no"."""
    k = m.clause + 1
    if reading.words[m.clause][m.at + 1:] or k >= len(reading.words) or not reading.joined[k]:
        return False
    value = [w for w in reading.words[k] if w]
    return any(q.clause == k and q.value == 0 for q in reading.quantities) and not value or (
        bool(value) and set(value) <= NIL)


def _decision_but(reading: Reading, left_out: list[Mention]) -> str | None:
    """``Reading.decision`` with the mentions ``left_out`` left out of its refusals."""
    approve = any(m.meaning == "approved" and m.polarity == AFFIRMED and m not in left_out for m in reading.mentions)
    decline = any(m not in left_out and (m.meaning == "declined" and m.polarity == AFFIRMED or m.meaning == "approved"
                                         and m.polarity == NEGATED) for m in reading.mentions)
    if approve and decline:
        return "mixed"
    if decline:
        return "declined"
    return "amended" if reading.affirms("amended") else "approved" if approve else None


REVIEWER_DECIDED = lazy(
    r"\b(?:SNR-\d+|HOC-\d+|the\s+(?:senior\s+)?reviewer|the\s+head\s+of\s+claims)(?:,?\s+who)?\s+(?:has\s+|had\s+)?"
    r"(?:already\s+)?(?:(?P<agreed>agreed|ok'?d|okayed)\s+(?:to\s+)?(?:the\s+(?:full\s+)?|it\s+at\s+)?"
    r"|(?P<cut>cut|trimmed|brought|knocked|scaled)\s+(?:it|the\s+claim|the\s+amount)?\s*(?:down|back)?\s*to\s+)"
    r"[£$€]?\d", re.IGNORECASE)


def _nil_approved(reading: Reading) -> bool:
    """Every approval the text affirms is of nothing: "0 approved", "approved: £0", "nil paid"."""
    approvals = [m for m in reading.mentions if m.meaning == "approved" and m.polarity == AFFIRMED]
    return bool(approvals) and all(any(  # the nought beside the approval ("0 approved"), not "with 0 deductions"
        q.clause == m.clause and q.value == 0 and abs(q.at - m.at) <= 2 for q in reading.quantities) or (
        "nil" in reading.words[m.clause][max(0, m.at - 2):m.at + 3]) for m in approvals)


def unpaid_so_far(reading: Reading) -> bool:
    """Every refusal the text holds is of a payment made so far ("Nothing paid", "no payment has
    been made"), not of one to come ("no payment will be made", "we cannot pay")."""
    left_out = _repeats(reading)  # ("No split payment": no refusal of the payment made)
    refusals = [m for m in reading.mentions if (m.meaning == "declined" and m.polarity == AFFIRMED
                or m.meaning == "approved" and m.polarity == NEGATED) and m not in left_out]
    return bool(refusals) and all(
        m.meaning == "approved" and (m.words.startswith(("paid", "payment")) or NOTHING.intersection(
            reading.words[m.clause][:2])) and not FUTURE.intersection(reading.words[m.clause]) for m in refusals)


# "no amount has been approved or paid" (on a claim returned for information): nothing so far
NOTHING = frozenset({"nothing", "amount", "money", "sum"})


FUTURE = frozenset({"will", "can", "cannot", "could", "would", "shall", "able", "going", "won", "unable", "be"})


MONEY_NOUNS = frozenset({"money", "funds", "payment", "settlement", "payout"})


def _remainder_refused(reading: Reading) -> bool:
    """Every refusal is of the remainder ("the rest was not approved"), beside an amendment or a
    part approved: a claim approved in part, not declined."""
    sentence_of = reading.sentence_of
    refusals = [m for m in reading.mentions if m.meaning == "declined" and m.polarity == AFFIRMED
                or m.meaning == "approved" and m.polarity == NEGATED]
    remainders = {sentence_of[m.clause] for m in reading.mentions if m.meaning == "remainder"}
    part = reading.affirms("amended") or any(m.meaning == "approved" and m.polarity == AFFIRMED
                                             for m in reading.mentions)
    return bool(refusals) and part and all(sentence_of[m.clause] in remainders for m in refusals)


def _paid_on_documents(reading: Reading) -> bool:
    """Money promised once documents arrive ("once we receive the invoice and photos, we will pay
    £27,000") is promised: the condition is the claimant's, not a decision ("if approved, …")."""
    for q in reading.quantities:
        if q.kind != "money" or q.polarity != HYPOTHETICAL or q.reference:
            continue
        sentence = reading.sentence_of[q.clause]
        said = [m for m in reading.mentions if reading.sentence_of[m.clause] == sentence]
        # the documents may be named in the sentence before: "Please send the invoice; once we have them…"
        documents = any(m.meaning in ("invoice", "photos", "other_documents") and reading.sentence_of[m.clause] in (
            sentence, sentence - 1) for m in reading.mentions)
        paying = any(m.meaning == "approved" and m.words.startswith(PAYING) for m in said)
        deciding = any(m.meaning in ("declined", "amended", "decided") or m.meaning == "approved"
                       and not m.words.startswith(PAYING) for m in said)
        if documents and paying and not deciding:
            return True
    return False


PAYING = ("pay", "paid", "settle", "transfer", "release", "reimburs", "funds", "cheque")


def _paid_in_time(reading: Reading) -> bool:
    """Money promised for when something will have happened ("we expect to pay you £12,500
    once the review completes next week") is promised: the time is a condition on the payment
    only when the sentence names a decision or a doubt ("if the reviewer agrees", "may pay")."""
    for q in reading.quantities:
        if q.kind != "money" or q.polarity == NEGATED or q.reference:
            continue
        sentence = reading.sentence_of[q.clause]
        words = {w for k, ws in enumerate(reading.words) if reading.sentence_of[k] == sentence for w in ws}
        said = [m for m in reading.mentions if reading.sentence_of[m.clause] == sentence]
        paying = any(m.meaning == "approved" and m.words.startswith(PAYING) for m in said)
        deciding = any(m.meaning in ("declined", "amended", "decided") or m.meaning == "approved"
                       and not m.words.startswith(PAYING) for m in said)
        if paying and not deciding and words & WHEN and not words & (DECIDING_WORDS | DOUBTING_WORDS):
            return True
        # "it will be approved for £12,500 once the paperwork is done": an approval forecast for a
        # time, with no one's decision or doubt named, is announced
        approving = any(m.meaning == "approved" and m.polarity != NEGATED for m in said)
        if approving and "will" in words and words & WHEN and not words & (
                (DECIDING_WORDS - {"approve", "approves", "approval"}) | DOUBTING_WORDS):
            return True
    return False


WHEN = frozenset({"once", "when", "after", "following", "soon"})
DECIDING_WORDS = frozenset({"decide", "decides", "decided", "decision", "outcome", "agree", "agrees", "agreed",
                            "approve", "approves", "approval", "result", "verdict", "favour", "favor", "sign", "signs",
                            "signed", "accept", "accepts", "accepted"})
DOUBTING_WORDS = frozenset({"if", "unless", "should", "provided", "providing", "subject", "may", "might", "could",
                            "whether", "possibly", "perhaps", "depends", "depending", "dependent"})


# A payment ordered, in a note to colleagues: "Please pay £33,000 to the claimant" decides it
# (where "please approve" asks a reviewer for a decision).
ORDERING = ("please", "kindly", "pls")
PAY_VERBS = ("pay", "settle", "release", "transfer", "issue", "send")


def instructed_payments(reading: Reading) -> list[Quantity]:
    """Money a clause orders paid: "please pay £X", "kindly release the £X payment"."""
    out = []
    for q in reading.quantities:
        if q.kind != "money" or q.polarity == NEGATED or q.reference:
            continue
        words = [w for w in reading.words[q.clause][:q.at] if w]
        ordered = next((k for k, w in enumerate(words) if w in ORDERING), None)
        if ordered is not None and any(w.startswith(PAY_VERBS) for w in words[ordered + 1:ordered + 4]):
            out.append(q)
    return out
