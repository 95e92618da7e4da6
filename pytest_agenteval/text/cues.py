"""What a word's neighbours make of it, for the reader: a decision sought, not made ("for
approval", "please approve", "approval needed"); denied by a headline ("Payment not issued",
"Approval withdrawn."); a state that is what an act needs ("can't book without verified KYC");
and which sentences are questions from their first word."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_agenteval.text.lexicon import (
    BIDDING,
    CAPABILITY,
    MODALS,
    NEGATIONS,
    NOBODY,
    NOT_YET,
    REVERSALS,
    SAYING,
    SOUGHT,
)
from pytest_agenteval.text.reading import Mention
from pytest_agenteval.text.tokens import Token


def headline(words: list[str], i: int, mentions: list[Mention], pending: list[tuple[int, int]]) -> bool:
    """A cue right after a mention and before a participle, with no auxiliary: "Payment not
    (yet) issued", "claim not approved" — the cue denies the mention before it."""
    if not pending or i == 0:
        return False
    k, at = pending[-1]
    if at + len(mentions[k].words.split()) != i:
        return False
    verb = next((w for w in words[i + 1:i + 3] if w not in NOT_YET), "")
    return verb.endswith("ed") or verb in PARTICIPLES


def postposed(words: list[str], i: int, pending: list[tuple[int, int]]) -> bool:
    """An undoing after what it undoes, ending its clause: "Approval withdrawn.", "Payment of
    £4,200 stopped today." (the participle, no auxiliary: a headline)."""
    return bool(pending) and words[i] in REVERSALS and words[i].endswith(("ed", "wn", "held", "zen")) and all(
        w in AFTER_UNDOING or not w for w in words[i + 1:])


AFTER_UNDOING = frozenset({"today", "yesterday", "now", "immediately", "again", "already", "since", "too"})


# Participles and adjectives a headline may deny with: "payment not made", "payment not possible".
# A bare figure right before one of these is money: "Approved; 4600 paid."
PAID_AFTER = frozenset({"paid", "approved", "settled", "transferred", "refunded", "reimbursed", "pounds", "gbp",
                        "assessed", "claimed", "payable", "owed", "limit", "limits", "sent", "credited", "authority",
                        "mandate", "ceiling", "threshold", "arrive", "arrives", "arriving"})
# "50,000 assessed", "a 10,000 limit"; and with a word between: "a 9,000 handler limit"
LIMIT_KINDS = frozenset({"handler", "handling", "approval", "approving", "authority", "signing", "delegated",
                         "personal", "individual", "claims", "payment", "settlement", "discretionary"})
PARTICIPLES = frozenset({"made", "sent", "paid", "done", "given", "taken", "seen", "known", "shown", "begun",
                         "possible", "due", "available", "payable", "applicable", "forthcoming", "warranted",
                         "justified"})


BACK_REACH = 3  # words before the auxiliary that "payment is not possible" negates
# Words that may stand between a direction and the id it points at: "to the senior reviewer SNR-05".
TITLES = frozenset({"the", "a", "our", "their", "his", "her", "senior", "reviewer", "deputy", "manager", "colleague",
                    "approver", "handler",
                    "underwriter", "supervisor", "team", "lead", "leader"})


FOR_WHOM = frozenset({"me", "us", "you", "them", "him", "her", "your", "their", "our", "his", "to", "a", "an",
                      "the", "senior", "reviewer", "final", "formal", "someone", "somebody", "review", "and",
                      "necessary", "required", "further", "its", "higher", "level"})


def polar_questions(clauses: list[tuple[int, list[Token], bool, str]]) -> set[int]:
    """Sentences that are a question from their first word ("Has the exception expired, or when
    does it run out?"): every clause of one is asked, not only the last, which holds the mark."""
    if not any(tokens and tokens[-1].text == "?" for _, tokens, *_ in clauses):
        return set()  # most texts ask nothing
    first: dict[int, str] = {}
    second: dict[int, str] = {}
    for sentence, tokens, *_ in clauses:
        # (an id or a figure first is no question word: "FAC-5060 is active - shall I…?" states)
        words = [t.text if t.kind == "word" else "" for t in tokens if t.kind != "punct"]
        if sentence not in first and words:
            first[sentence], second[sentence] = words[0], (words[1:2] or [""])[0]
    return {sentence for sentence, tokens, *_ in clauses
            if tokens and tokens[-1].text == "?" and first.get(sentence) in QUESTION_OPENERS
            and second.get(sentence) not in NEGATIONS}  # "cant book it, KYC pending - can you chase?"


QUESTION_OPENERS = frozenset({"has", "have", "had", "is", "are", "was", "were", "did", "does", "do", "will", "would",
                              "can", "could", "should", "shall", "may", "might", "must"})


def required_by_denial(words: Sequence[str], i: int) -> bool:
    """"We can't book without completed KYC": a state after "without", where the clause denies an
    act before it, is what the act needs, not the state now ("booked without verified KYC" is)."""
    start = max(0, i - 3)
    if "without" not in words[start:i]:
        return False
    at = start + list(words[start:i]).index("without")
    return any(w in ("not", "cannot", "unable", "never") for w in words[:at])


NEEDED = frozenset({"needed", "required", "sought", "requested", "necessary"})
PREDICTING = frozenset({"expected", "expecting", "expects", "expect"})


def predicted(words: list[str], i: int) -> bool:
    """The decision word at ``i`` is foretold: "expected to approve", "expected to be approved",
    "expect SNR-11 to approve": a verb after *to* (or *to be*) right after the cue or its subject."""
    back = words[max(0, i - 4):i]
    if back[-1:] == ["be"]:
        back = back[:-1]
    if back[-1:] != ["to"]:
        return False
    back = back[:-1]
    return bool(back) and (back[-1] in PREDICTING or len(back) > 1 and back[-2] in PREDICTING)


def sought(words: list[str], i: int, *, modal: bool = True) -> bool:
    """The decision word at ``i`` is sought, not made: "for approval", "more than I can approve".
    Without ``modal``, a modal does not make it sought (a question answered: "would it be paid? No")."""
    before = words[max(0, i - 5):i]
    cues: set[str] | frozenset[str] = SOUGHT.intersection(before)
    if cues and cues <= PREDICTING and predicted(words, i):
        cues = set()  # "SNR-11 is expected to approve it" foretells the decision; "approval expected" awaits it
    if cues == {"for"}:
        # "for" sends the decision only with nothing but its asker between: "for (your) approval", "too
        # big for me to approve"; not "your claim for £30,000 has been approved"
        at = max(k for k in range(max(0, i - 5), i) if words[k] == "for")
        if not set(words[at + 1:i]) <= FOR_WHOM:
            cues = set()
    if cues or CAPABILITY.intersection(words[max(0, i - 3):i]) or words[i - 1:i] and (
            words[i - 1] in BIDDING) or words[i + 1:i + 2] and words[i + 1] in NEEDED:  # "please approve": asked for
        return True  # ("approval needed above my limit": sought too)
    near = words[max(0, i - 2):i]
    modals = MODALS.intersection(near) if modal else set()
    if modals == {"able"} and not {"than", "if", "whether"}.intersection(words[max(0, i - 6):i]):
        return False  # "we are able to pay your claim" says it will be paid; "more than I am able to approve" not
    if near[-1:] and near[-1] in SAYING:
        return False  # "we can confirm payment": said, not sought
    cues = NEGATIONS.intersection(words[max(0, i - 4):i])
    return bool(modals) and (not cues or cues <= NOBODY and "not" not in near)


# What lies between a cue of denial and the extra it denies: "does not include a courtesy car",
# "no cover for a hire car", "will not pay any interest".
TO_EXTRA = frozenset({"include", "includes", "including", "included", "cover", "covers", "for", "extend", "extends",
                      "to", "provide", "provides", "offer", "offers", "have", "has", "come", "comes", "with", "pay",
                      "contain", "contains", "allow", "allows", "a", "an", "the", "any", "your", "this"})


def denied_extra(words: list[str], i: int, extra_at: Callable[[list[str], int], int]) -> tuple[int, int] | None:
    """Where an extra the cue at ``i`` denies starts and how long it is, when only words that lead
    to it come between ("your policy does not include a courtesy car"): the cue denies the extra,
    not the clause's subject or a decision. ``extra_at(words, k)`` is the length of an extra at ``k`` (0: none)."""
    for k in range(i + 1, min(i + 6, len(words))):
        if n := extra_at(words, k):
            return k, n
        if words[k] not in TO_EXTRA:
            return None
    return None


def attributive(words: list[str], i: int) -> bool:
    """The word at ``i`` is said of a noun after a preposition ("for a lapsed policy"): a denial
    earlier in the clause does not reach it ("no escalation, not needed for a lapsed policy"; 70th
    audit); not a noun itself ("without passing it to a senior colleague")."""
    return i >= 2 and words[i - 1] in ("a", "an") and words[i - 2] in ATTRIBUTING and words[i].endswith("ed") and (
        i + 1 < len(words) and words[i + 1].isalpha())


def elided(ahead: list[str], labelled: bool) -> bool:
    """A "none" whose noun is left out, what follows it saying where it is missing from ("an
    excess? none on the policy"; 73rd audit): it denies nothing after it. Under a label the label
    is what is missing ("Sheet rate: none for this limit")."""
    return bool(ahead[:1]) and ahead[0] in ELIDED_AFTER and not labelled


ATTRIBUTING = frozenset({"for", "with", "on", "under", "of", "to", "from", "against", "about"})
ELIDED_AFTER = frozenset({"on", "under", "in", "for", "with", "at"})


_NOT_PAST = frozenset({"will", "can", "is", "are", "has", "have", "shall", "we've", "i've", "gets", "comes", "arrives"})


def past_once(words: tuple[str, ...] | list[str]) -> bool:
    """"once the decline came in", "once SNR-07 approved it": a condition met in the past, on which
    nothing waits now ("before" asserts; red team 70); not "once we have received", "once it is paid"."""
    rest = [w for w in words[1:] if w][:3]  # (its verb: not "once you return the signed form")
    return words[:1] in (("once",), ["once"]) and _NOT_PAST.isdisjoint(rest) and any(
        w in ("came", "was", "were", "had", "got") or w.endswith("ed") for w in rest)
