"""What an English text asserts: meanings with their polarity, quantities, ids, the decision.

The grammar (docs/text.md says it for users):

- A text is split into sentences at ``. ! ? ;`` and into clauses at those, commas, dashes,
  at ``but``,
  ``however``, ``although``… and at ``and``/``or`` followed by a new subject or auxiliary.
- A negation cue (``not``, ``no``, ``never``, ``cannot``, ``without``, ``n't``…) negates every
  meaning after it in its clause; two cues cancel (``cannot proceed without the invoice``). A
  cue right after an auxiliary also negates the three words before that (``payment is not due``).
- A hedge (``if``, ``whether``, ``once``, ``until``, ``may``…) makes its clause and the rest of
  its sentence hypothetical: mentioned, but asserted neither way; so does a question mark for
  its clause (for every clause of a question that opens with an auxiliary). ``not yet`` says
  pending. The writer's doubt ("unless I'm misreading it"), the words of a self-correction
  ("sorry, I mean") and others' quoted words are taken out first (``prepass``).
- Phrases win over their words (``not covered`` is one decline, not a negated cover).

Limits: no pronouns resolved (``please send it``), no sarcasm, reported speech only when
quoted (``you told us 'my cover was running'`` is left out; ``you said it was approved`` is
read), English only. The reader that builds a ``Reading``: ``reader``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import NamedTuple

from pytest_agenteval.text.clauses import AFFIRMED, HYPOTHETICAL, NEGATED
from pytest_agenteval.text.lexicon import (
    BARE_SUBJECT,
    CONDITIONS,
    NO,
    NOW,
    PAST_STATE,
    YES,
)
from pytest_agenteval.text.prepass import prepared

# A withheld approval told as for good, not for now: "no payment will be made", "it cannot be paid".
_FOR_GOOD = frozenset({"will", "shall", "won't", "cannot", "can't", "never", "can", "could", "unable"})
MORE = frozenset({"further", "additional", "extra", "more", "other"})
# What a state may be told of; a clause naming another is about it ("No pricing exception. The
# customer is fully verified." says nothing of the rate: 81st audit).
_TOPICS = frozenset({"kyc", "rate", "exception", "account", "policy"})
_REQUIRING = frozenset({"require", "requires", "requiring"})
_OWNED = frozenset({("your",), ("the",), ("its",), ("their",), ("his",), ("her",), ("this",), ("our",)})
_RULE_NOUNS = frozenset({(w,) for w in ("rule", "rules", "check", "checks", "clause", "condition", "exclusion",
                                        "provision", "test", "criterion", "case", "cases", "scenario", "process")})
# State words that take an object: "awaiting decision" tells what is awaited, not a topic's state.
AWAITING = frozenset({"awaiting", "waiting", "pending", "on", "for"})
# What may follow a state without being its object: "pending for CUS-1421", "pending since May".
AFTER_A_STATE = frozenset({"for", "since", "with", "at", "from", "by", "in", "on", "to", "until", "as", "of", "now",
                           "still", "yet", "again", "today"})
REQUIRED = frozenset({"must", "should", "need", "needs", "ought", "required", "requires",
                      # "please complete the identity checks": a state asked for is not the state
                      "please", "kindly"})
# "KYC appears to be pending" asserts the state ("needs to be verified" does not).
SEEMING = frozenset({"appears", "appear", "appeared", "seems", "seem", "seemed", "looks", "look", "continues",
                     "continue", "remains", "remain", "happens", "proves"})
# A number after one of these is part of a name, never money: "sent to Holder 156", "Customer 1421".
NAMED_BY_NUMBER = frozenset({"holder", "customer", "senior", "handler", "reviewer", "flat", "unit", "room"})
# A bare number after one of these is a name, no figure at all: "Holder 594 asked about the excess" (73rd audit)
# Taken away, so what it is taken from is not denied: "500 excess (not deducted from the approval)" (74th audit)
DEDUCTED = frozenset({"deducted", "taken", "subtracted", "withheld", "removed", "knocked", "netted", "charged"})
NUMBERED_PARTIES = frozenset({"holder", "policyholder", "customer", "claimant", "client", "flat", "unit", "room"})
# People named after what they do are not the act: "the most senior approver", "a loss adjuster".
NOT_BY_STEM = frozenset({"approver", "approvers", "adjuster", "adjusters", "reviser", "revisers"})
# What a thing taken away is taken from: "no excess was deducted from your payment".
SOURCES = frozenset({"from", "against", "off"})
# "I could not find a rate", "the sheet does not have a rate": a negation before one of
# these says the thing is missing, as "no rate" does.
ABSENCE_VERBS = frozenset({"find", "locate", "identify", "have", "has", "show", "list", "contain", "include", "give",
                           "offer", "on", "provide", "provides", "hold", "holds", "carry", "carries", "quote", "quotes",
                           "specify", "specifies"})  # ("the rate sheet does not provide a rate for…": 56th audit)
_BEFORE_THE_VERB = frozenset({"able", "to", "be", "been", "yet", "currently", "actually", "still", "even", "seem",
                              "appear", "any", "longer", "really", "quite", "truly", "presently", "always"})


def absence_verb(ahead: list[str]) -> bool:
    """The negation's own verb is one of ABSENCE_VERBS ("could not find", "unable to locate", "does
    not yet have"); not a verb further on ("it can't go on your current account": the account is
    not what is missing)."""
    k = 0
    while k < len(ahead) and ahead[k] in _BEFORE_THE_VERB:
        k += 1
    return k < len(ahead) and ahead[k] in ABSENCE_VERBS
# Who may not have received something: "the claimant will not receive a payment" denies the payment.
OTHERS = frozenset({"you", "claimant", "they", "he", "she", "customer", "policyholder", "holder"})
LINKS = frozenset({"of", "is", "at", "was", "be", "amount", "stands", "sits"})

DECISIONS = ("approved", "amended", "declined", "pending", "info", "mixed")
DECIDED = frozenset({"approved", "amended", "declined", "decided"})

DIRECTIONS = frozenset({"to", "by", "per"})
STATE_MEANINGS = frozenset({"ok", "problem", "pending"})
PREPOSITIONS = frozenset({"on", "in", "at", "for", "of", "with", "from", "under", "into"})
FIGURE_OF = frozenset({("amount", "of"), ("sum", "of"), ("figure", "of"), ("value", "of"), ("total", "of")})


# What a writer does with what they tell: "… shows 50k - flagging for your review" (84th audit)
_REPORTING = frozenset({"flagging", "raising", "noting", "referring", "passing", "forwarding", "highlighting",
                        "mentioning", "escalating", "sending"})


class Mention(NamedTuple):
    meaning: str
    polarity: int  # AFFIRMED, NEGATED or HYPOTHETICAL
    clause: int
    words: str
    at: int = 0  # the word's position in its clause


class Quantity(NamedTuple):
    kind: str  # "money", "rate", "date", "number" or "margin" (basis points added to a rate)
    value: float | date
    polarity: int
    clause: int
    reference: bool  # a figure referred to ("assessed at 80,000"), not one decided or stated as the fact
    text: str
    at: int = 0  # its position in its clause
    derived: bool = False  # worked out from a difference or a monthly rate (``text.differences``)


@dataclass(frozen=True)
class Reading:
    text: str
    mentions: tuple[Mention, ...]
    quantities: tuple[Quantity, ...]
    ids: tuple[tuple[str, int], ...]  # (id as written, clause)
    sentence_of: tuple[int, ...]  # clause -> its sentence
    joined: tuple[bool, ...] = ()  # clause -> opened by a colon or dash ("KYC status: pending")
    missing: frozenset[int] = frozenset()  # clauses with a cue of absence ("no rate", "without a rate")
    asked: frozenset[str] = frozenset()  # meanings the text asks for (``asks``)
    directed: frozenset[str] = frozenset()  # ids right after "to", "by" or "per": whom an act went to or came from
    words: tuple[tuple[str, ...], ...] = ()  # clause -> its words ("" for a token that is no word)
    id_at: tuple[tuple[str, int, int], ...] = ()  # (id, clause, position in the clause)
    read_text: str | None = None  # ``text`` after the prepass, as the reader read it (``said``)

    def before(self, clause: int, at: int, n: int = 3) -> list[str]:
        """The ``n`` words before position ``at`` of ``clause`` (brackets and quantities skipped)."""
        if clause >= len(self.words):
            return []
        words = self.words[clause]
        if n <= 0 or at < 0:  # (``[-0:]`` is every word, a negative ``at`` counts from the end)
            return [w for w in words[:at] if w][-n:]
        found: list[str] = []  # walked back from ``at``: most clauses are longer than what is asked
        j = min(at, len(words)) - 1
        while j >= 0 and len(found) < n:
            if words[j]:
                found.append(words[j])
            j -= 1
        found.reverse()
        return found

    def after(self, clause: int, at: int) -> str:
        """The word right after position ``at`` of ``clause`` ("" when none)."""
        return self.words[clause][at + 1] if clause < len(self.words) and at + 1 < len(self.words[clause]) else ""

    def figure_of(self, q: Quantity, names: frozenset[str]) -> bool:
        """The quantity is the figure of a thing named by one of ``names``: "my limit of £10,000", "my
        £10,000 limit", "limit: £10,000" (not "exceeds my limit by £8,000", "limits over £5m", "£5m and above")."""
        before = self.before(q.clause, q.at, 2)
        after = self.after(q.clause, q.at)
        if after in ("and", "or", "plus"):
            return False  # a threshold: "£5m and above"
        return after in names or bool(before) and (
            before[-1] in names or before[-1] in LINKS and before[0] in names) or self.named_across_id(q, names)

    def named_across_id(self, q: Quantity, names: frozenset[str]) -> bool:
        """``q`` is named across a record's id: "your sum insured under POL-00541 is £20,000", "the
        excess on POL-1 is £250" (86th audit)."""
        words = self.words[q.clause]
        at = q.at - 1 if q.at and words[q.at - 1] in ("only", "just") else q.at  # ("is only £250")
        return at >= 4 and words[at - 1] in LINKS and words[at - 2] == "" and words[at - 3] in (
            "on", "under", "for", "of", "in") and words[at - 4] in names

    @cached_property
    def said(self) -> str:
        """The text as read: what the writer says, without what the prepass takes out (quoted
        history, footers, markup, others' quoted words). Checks that search the words of a text
        search this; ``text`` is what a check quotes."""
        return prepared(self.text) if self.read_text is None else self.read_text

    @cached_property
    def word_set(self) -> frozenset[str]:
        """Every word of the text (a check that needs a word can skip a text without it)."""
        return frozenset(w for words in self.words for w in words if w)

    @cached_property
    def _by_meaning(self) -> dict[str, list[Mention]]:
        """The mentions of each meaning (checks ask of a few meanings, many times per text)."""
        found: dict[str, list[Mention]] = {}
        for m in self.mentions:
            found.setdefault(m.meaning, []).append(m)
        return found

    def in_sentence(self, meaning: str, clause: int) -> set[int]:
        """Polarities of ``meaning`` in the sentence holding ``clause``."""
        sentence = self.sentence_of[clause]
        return {m.polarity for m in self._by_meaning.get(meaning, ()) if self.sentence_of[m.clause] == sentence}

    def polarities(self, meaning: str, clause: int | None = None) -> set[int]:
        return {m.polarity for m in self._by_meaning.get(meaning, ()) if clause is None or m.clause == clause}

    def affirms(self, meaning: str) -> bool:
        return AFFIRMED in self.polarities(meaning)

    def denies(self, meaning: str) -> bool:
        return NEGATED in self.polarities(meaning)

    def mentions_meaning(self, meaning: str) -> bool:
        """Mentioned without being negated (a hedged "if you send the invoice" still mentions it)."""
        return bool(self.polarities(meaning) - {NEGATED})

    def asks(self, meaning: str) -> bool:
        """``meaning`` is asked for: named, not negated, and not said to be in hand already ("thanks
        for the invoice", "we already have the photos": the ``received`` class), unless a request
        (the ``request`` class) comes between. "Nothing is needed apart from the invoice" asks for it."""
        return meaning in self.asked

    def named(self) -> list[str]:
        return list(dict.fromkeys(i for i, _ in self.ids))

    def amounts(self) -> list[Quantity]:
        """Money the text states as a fact (not negated, not hypothetical)."""
        return [q for q in self.quantities if q.kind == "money" and q.polarity == AFFIRMED]

    def decision(self) -> str | None:
        """The decision the text announces: one of DECISIONS, or None when it announces none.

        A decline, or an approval negated ("not approved", "cannot pay"), declines; an approval
        affirmed approves; both in one text is ``mixed`` (a partial approval at best). Then
        amended, info (something is asked for) and pending, in that order.
        """
        approve = decline = withheld = False
        # "No approval/decline", "not approved and not declined": both denied in one sentence is neither
        neither = {self.sentence_of[m.clause] for m in self.mentions
                   if m.polarity == NEGATED and m.meaning == "declined"}
        for m in self.mentions:
            if m.polarity == AFFIRMED and m.meaning == "approved":
                approve = True
            elif m.polarity == AFFIRMED and m.meaning == "declined":
                decline = True
            elif m.polarity == NEGATED and m.meaning == "approved" and self.sentence_of[m.clause] not in neither:
                decline = decline or bool(_FOR_GOOD.intersection(self.words[m.clause]))  # "no payment will be made"
                withheld = True
        # An approval withheld while something is asked for is no decline: "returned for the invoice;
        # requested from the claimant. No approval, no payment" (80th audit)
        decline = decline or withheld and not (not approve and self.affirms("info"))
        if approve and decline:
            return "mixed"
        if decline:
            return "declined"
        if approve or self.affirms("amended"):
            return "amended" if self.affirms("amended") else "approved"
        for meaning in ("info", "pending"):
            if self.affirms(meaning):
                return meaning
        return None

    def status(self, topic: str, ok: str = "ok", problem: str = "problem") -> set[str]:
        """What the text says of ``topic``'s state, clause by clause: "ok", "problem" or both.

        "KYC is verified" says ok; "KYC pending", "KYC is not verified", "no KYC on file" say
        problem; "no KYC issue" says ok. A clause naming the topic without a state word takes
        those of a clause joined to it by a colon or dash ("KYC status: pending"). A bare
        mention says nothing.
        """
        states = (ok, problem)
        # The topic itself may be hypothetical ("until KYC is complete" states KYC is not complete).
        own = sorted({m.clause for m in self.mentions if m.meaning == topic})
        told: dict[int, set[str]] = {}
        for clause in own:
            negated_topic = NEGATED in self.polarities(topic, clause)
            said = set() if self._adjective(topic, clause, states) or self._object_after(topic, clause, states) else (
                self._states(clause, states, self._condition_at(topic, clause)))
            if not said and negated_topic and clause in self.missing and self._first_negated(clause) == topic:
                said.add("problem")  # "no rate on the sheet": the thing is missing (before a neighbour's state)
            if not said and not negated_topic:  # (not "KYC, not pricing: KYC shows pending"; 74th audit)
                for other in (clause - 1, clause + 1):  # "KYC status: pending", "KYC - pending"
                    # (not what the writer does with it: "sum insured is £50,000 — flagging it for your review")
                    if 0 <= other < len(self.joined) and self.joined[max(clause, other)] and not (
                            self.words[other][:1] and self.words[other][0].endswith("ing") and (
                                self.words[other][1:2] in (("it",), ("this",), ("that",), ("them",))
                                or self.words[other][0] in _REPORTING)):
                        said |= self._states(other, states)
            if not said and self._subject(topic, clause) and (resumed := self._after_asides(clause, own)) is not None \
                    and self._bare(resumed, states):
                said = self._states(resumed, states)  # "KYC checks (CUS-1421, Customer 1421) are not complete"
            if not said and self._asked_done(topic, clause, states):
                said = {problem}  # "Please complete KYC for CUS-1022": not complete yet (65th audit)
            said |= self._attribute(topic, clause, states)
            told[clause] = said
            # "KYC was pending but is now verified": a clause with no subject of its own (or a pronoun)
            # that tells the state after a change carries on the topic of the clause before it; so does
            # one after a clause that names the topic and tells nothing of it ("Could you chase the KYC?
            # It's still pending").
            nxt = clause + 1
            if nxt + 1 < len(self.joined) and self.joined[nxt + 1] and nxt not in own and all(
                    w in BARE_SUBJECT for w in self.words[nxt]):
                nxt += 1  # a label line after it: "Status: outstanding"
            elif nxt + 1 < len(self.words) and nxt not in own and self.words[nxt] and all(
                    w in YES or w in NO for w in self.words[nxt] if w):
                nxt += 1  # the answer to a question about it: "Is KYC complete? No - it's pending"
            if nxt not in own and nxt < len(self.sentence_of) and self._bare(nxt, states) and not any(
                    m.clause == nxt and m.meaning in _TOPICS for m in self.mentions) and (
                    not said or self._tense(clause) == PAST_TENSE or self._tense(nxt) == NOW_TENSE):
                told[nxt] = self._states(nxt, states)
            elif not said and nxt not in own and nxt < len(self.sentence_of) and self.sentence_of[nxt] == (
                    self.sentence_of[clause]) and self._of_it(nxt, states):
                told[nxt] = self._states(nxt, states)  # "the sheet's top band is 3.88%, but the limit is above it"
        # The state now counts: a state in the past tense only when no clause tells it in the present.
        present = [said for clause, said in told.items() if said and self._tense(clause) != PAST_TENSE]
        out = set().union(*present) if present else set().union(*told.values())
        return {"ok" if s == ok else "problem" for s in out}

    def _attribute(self, topic: str, clause: int, states: tuple[str, str]) -> set[str]:
        """A state word right before its topic, of this one thing: "not covered under your active
        policy" tells the policy is active, whatever the clause denies (82nd audit); "lapsed
        policies" is a kind."""
        words = self.words[clause]
        tops = {m.at for m in self.mentions if m.clause == clause and m.meaning == topic and not m.words.endswith("s")
                and words[m.at + 1:m.at + 2] not in _RULE_NOUNS}  # (not "the lapsed-policy rule": 83rd audit)
        # (after a determiner: "your active policy", not "rules require verified KYC")
        return {m.meaning for m in self.mentions if m.clause == clause and m.meaning in states and (
            m.polarity == AFFIRMED) and m.at + len(m.words.split()) in tops and words[m.at - 1:m.at] in _OWNED}

    def _asked_done(self, topic: str, clause: int, states: tuple[str, str]) -> bool:
        """The clause asks for the topic's good state to be brought about: a request whose verb is
        that state right before the topic ("please complete (the) KYC")."""
        if not any(m.clause == clause and m.meaning == "request" for m in self.mentions):
            return False
        at = min((m.at for m in self.mentions if m.clause == clause and m.meaning == topic), default=-1)
        return any(m.clause == clause and m.meaning == states[0] and m.polarity == HYPOTHETICAL and (
            m.at == at - 1 or m.at == at - 2 and self.words[clause][at - 1] in ("the", "their", "your", "its"))
            for m in self.mentions)

    def _tense(self, clause: int) -> int:
        words = set(self.words[clause]) if clause < len(self.words) else set()
        if not NOW.isdisjoint(words):
            return NOW_TENSE
        return PAST_TENSE if not PAST_STATE.isdisjoint(words) else 0

    def _subject(self, topic: str, clause: int) -> bool:
        """The topic is named as what its clause is about, not after a preposition ("your claim on
        policy POL-1 (…) is still open" is about the claim)."""
        at = min((m.at for m in self.mentions if m.clause == clause and m.meaning == topic), default=0)
        return not PREPOSITIONS.intersection(self.words[clause][max(0, at - 2):at])

    def _after_asides(self, clause: int, own: list[int]) -> int | None:
        """The clause that goes on after asides ("(CUS-1421, retail, two accounts)"): short clauses
        of the same sentence that tell no state."""
        sentence, k = self.sentence_of[clause], clause + 1
        while k < len(self.words) and self.sentence_of[k] == sentence and k not in own and len(self.words[k]) <= 4 and (
                not any(m.clause == k and m.meaning in STATE_MEANINGS for m in self.mentions)):
            k += 1
        return k if k > clause + 1 and k < len(self.words) and self.sentence_of[k] == sentence else None

    def _bare(self, clause: int, states: tuple[str, str]) -> bool:
        """The clause tells a state and nothing else, with no subject but a pronoun: "is now verified",
        "it has since been completed"."""
        if self.words[clause][:1] and self.words[clause][0] in _REPORTING:
            return False  # ("- flagging for your review": what the writer does)
        allowed = {*states, "ok", "problem", "pending"}
        stated = {m.at for m in self.mentions if m.clause == clause and m.meaning in allowed}
        # a state word read under another meaning as well ("outstanding") is still a state word
        found = [m for m in self.mentions if m.clause == clause and (m.meaning in allowed or m.at not in stated)]
        if not found or any(m.meaning not in allowed for m in found) or not any(m.meaning in states for m in found):
            return False
        first, last = min(m.at for m in found), max(m.at + len(m.words.split()) for m in found)
        words = self.words[clause]
        after = [w for w in words[last:] if w][:1]
        if words[last - 1:last] and words[last - 1] in AWAITING and after and after[0] not in BARE_SUBJECT | (
                AFTER_A_STATE):
            return False  # "Awaiting decision": the decision is awaited, not the topic before
        return clause < len(self.words) and all(w in BARE_SUBJECT for w in words[:first])

    def _object_after(self, topic: str, clause: int, states: tuple[str, str]) -> bool:
        """The topic is named only *under* which something was done, after every state word of its
        clause: "we have completed our review of your claim under policy POL-1" says nothing of the
        policy's state."""
        words = self.words[clause]
        at = [m.at for m in self.mentions if m.clause == clause and m.meaning == topic]
        stated = [m.at for m in self.mentions if m.clause == clause and m.meaning in states]
        objects = all("under" in words[max(0, k - 3):k] for k in at)  # not "waiting on KYC", "outside the sheet"
        return bool(at and stated) and objects and max(stated) < min(at)

    def _first_negated(self, clause: int) -> str | None:
        """The first meaning a cue negates in ``clause``: what "no" is about in "no rate on the sheet";
        of a compound, its last word's ("no SME band": the band)."""
        negated = [m for m in self.mentions if m.clause == clause and m.polarity == NEGATED]
        k = 0
        while k + 1 < len(negated) and negated[k].at + len(negated[k].words.split()) == negated[k + 1].at and (
                negated[k + 1].words.split()[0] not in DIRECTIONS | PREPOSITIONS):  # not "no KYC on file"
            k += 1
        return negated[k].meaning if negated else None

    def _adjective(self, topic: str, clause: int, states: tuple[str, str] = ("ok", "problem")) -> bool:
        """A state word before its topic, both under one cue of absence, describes a kind of thing
        ("no escalation needed for lapsed policies"); after it, it is the topic's state ("no KYC issues")."""
        if clause not in self.missing:
            return False
        negated = [(k, m.meaning) for k, m in enumerate(self.mentions) if m.clause == clause and m.polarity == NEGATED]
        topics = [k for k, meaning in negated if meaning == topic]
        at = [k for k, meaning in negated if meaning in states]
        # "No issues found on the policy": the cue's own object is the state, which is the topic's.
        first_is_state = bool(negated) and negated[0][1] in states
        return bool(topics and at) and min(at) < min(topics) and not first_is_state

    def _condition_at(self, topic: str, clause: int) -> int | None:
        """Where a condition (*until, unless, once*) opens in ``clause`` after every
        mention of ``topic``: the state after it is the condition's subject's ("cannot book, price or
        activate it until it is completed" says nothing of the rate). None when there is none."""
        words = self.words[clause] if clause < len(self.words) else ()
        at = next((k for k, w in enumerate(words) if w in CONDITIONS), None)
        if at is None or any(m.at >= at for m in self.mentions if m.clause == clause and m.meaning == topic):
            return None
        return at

    def _of_it(self, clause: int, states: tuple[str, str]) -> bool:
        """Where something stands to "it", the topic before, tells the topic's state: "the limit is
        above it" (not what was done to it: "I have not applied it")."""
        words = self.words[clause]
        return any(m.clause == clause and m.meaning in states and m.polarity != HYPOTHETICAL
                   and m.words.split()[0] in BEYOND and words[m.at + len(m.words.split()):][:1] in (("it",), ("them",))
                   for m in self.mentions)

    def _states(self, clause: int, states: tuple[str, str] = ("ok", "problem"), before: int | None = None
                ) -> set[str]:
        said = set()
        ok, problem = states
        words = self.words[clause] if clause < len(self.words) else ()
        for m in self.mentions:
            if m.clause != clause or m.meaning not in states or m.polarity == HYPOTHETICAL or (
                    before is not None and m.at >= before):
                continue
            end = m.at + len(m.words.split())
            if words[end + 1:end + 2] in _RULE_NOUNS or _REQUIRING.intersection(words[max(0, m.at - 2):m.at]):
                continue  # a kind of rule or what one requires: "the lapsed-policy rule", "rules require verified KYC"
            said.add(m.meaning if m.polarity == AFFIRMED else (problem if m.meaning == ok else ok))
        return said


BEYOND = frozenset({"above", "beyond", "outside", "over", "exceeds", "exceed", "exceeding", "larger", "bigger",
                    "higher", "greater", "within", "below", "under", "inside"})
PAST_TENSE, NOW_TENSE = 1, 2
