"""What an English text asserts: meanings with their polarity, quantities, ids, the decision.

The grammar (docs/text.md says it for users):

- A text is split into sentences at ``. ! ? ;`` and into clauses at those, ``:``, commas,
  dashes, at ``but``,
  ``however``, ``although``… and at ``and``/``or`` followed by a new subject or auxiliary.
- A negation cue (``not``, ``no``, ``never``, ``cannot``, ``without``, ``n't``…) negates every
  meaning after it in its clause; two cues cancel (``cannot proceed without the invoice``). A
  cue right after an auxiliary also negates the subject before it (``payment is not due``).
- A hedge (``if``, ``whether``, ``once``, ``until``, ``may``…) makes its clause and the rest of
  its sentence hypothetical: mentioned, but asserted neither way; so does a question mark for
  its clause. ``not yet`` says pending.
- Phrases win over their words (``not covered`` is one decline, not a negated cover).

Limits: no pronouns resolved (``please send it``), no sarcasm, no reported speech (``you
said it was approved``), English only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from pytest_agenteval.text.lexicon import (
    AUXILIARIES,
    BREAKS,
    HEDGES,
    NEGATIONS,
    NOT_YET,
    PSEUDO_NEGATIONS,
    REFERENCES,
    RESTARTS,
    Lexicon,
    word_matches,
)
from pytest_agenteval.text.tokens import Token, tokenize

AFFIRMED, NEGATED, HYPOTHETICAL = 1, -1, 0
DECISIONS = ("approved", "amended", "declined", "pending", "info", "mixed")


@dataclass(frozen=True, slots=True)
class Mention:
    meaning: str
    polarity: int  # AFFIRMED, NEGATED or HYPOTHETICAL
    clause: int
    words: str


@dataclass(frozen=True, slots=True)
class Quantity:
    kind: str  # "money", "rate", "date" or "number"
    value: float | date
    polarity: int
    clause: int
    reference: bool  # a figure referred to ("assessed at 80,000"), not one decided or stated as the fact
    text: str


@dataclass(frozen=True)
class Reading:
    text: str
    mentions: tuple[Mention, ...]
    quantities: tuple[Quantity, ...]
    ids: tuple[tuple[str, int], ...]  # (id as written, clause)
    hypothetical_clauses: frozenset[int]

    def polarities(self, meaning: str, clause: int | None = None) -> set[int]:
        return {m.polarity for m in self.mentions if m.meaning == meaning and (clause is None or m.clause == clause)}

    def affirms(self, meaning: str) -> bool:
        return AFFIRMED in self.polarities(meaning)

    def denies(self, meaning: str) -> bool:
        return NEGATED in self.polarities(meaning)

    def mentions_meaning(self, meaning: str) -> bool:
        """Mentioned without being negated (a hedged "if you send the invoice" still mentions it)."""
        return bool(self.polarities(meaning) - {NEGATED})

    def named(self) -> list[str]:
        return list(dict.fromkeys(i for i, _ in self.ids))

    def amounts(self) -> list[Quantity]:
        """Money the text states as a fact (not negated, not hypothetical)."""
        return [q for q in self.quantities if q.kind == "money" and q.polarity == AFFIRMED]

    def decision(self) -> str | None:
        """The decision the text announces: one of DECISIONS, or None when it announces none.

        Per clause: a decline, or an approval negated ("not approved", "cannot pay"), declines;
        an approval affirmed approves. Both in one text is ``mixed`` (a partial approval at
        best). Then amended, info (something is asked for) and pending, in that order.
        """
        approve = decline = False
        for m in self.mentions:
            if m.polarity == AFFIRMED and m.meaning == "approved":
                approve = True
            elif (m.polarity == AFFIRMED and m.meaning == "declined") or (
                    m.polarity == NEGATED and m.meaning == "approved"):
                decline = True
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

    def status(self, topic: str) -> set[str]:
        """What the text says of ``topic``'s state, clause by clause: "ok", "problem" or both.

        "KYC is verified" says ok; "KYC pending", "KYC is not verified", "no KYC on file" say
        problem; "no KYC issue" says ok. A bare mention says nothing.
        """
        out: set[str] = set()
        for clause in {m.clause for m in self.mentions if m.meaning == topic and m.polarity != HYPOTHETICAL}:
            said = set()
            for state, other in (("ok", "problem"), ("problem", "ok")):
                for p in self.polarities(state, clause):
                    said.add(state if p == AFFIRMED else other if p == NEGATED else "")
            said.discard("")
            if not said and NEGATED in self.polarities(topic, clause) and not self.polarities("ok", clause) | \
                    self.polarities("problem", clause):
                said.add("problem")  # "no rate on the sheet": the thing is missing
            out |= said
        return out


SENTENCE_ENDS = frozenset({".", "!", "?", ";"})


def _clauses(tokens: list[Token]) -> list[tuple[int, list[Token]]]:
    """(sentence number, tokens) of each clause; brackets are transparent."""
    clauses: list[tuple[int, list[Token]]] = [(0, [])]
    sentence = 0
    for i, t in enumerate(tokens):
        nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
        if t.kind == "punct" and t.text in "()":
            continue
        if t.kind == "punct":
            if t.text == "?":
                clauses[-1][1].append(t)  # kept: a question is hypothetical
            sentence += t.text in SENTENCE_ENDS
            clauses.append((sentence, []))
        elif t.kind == "word" and (t.text in BREAKS or (t.text in ("and", "or") and nxt in RESTARTS)):
            clauses.append((sentence, []))
        else:
            clauses[-1][1].append(t)
    return [(n, c) for n, c in clauses if c]


class Reader:
    """Reads texts with one lexicon; readings are cached (texts repeat across episodes)."""

    CACHE = 8192

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self._exact: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self._stems: list[tuple[tuple[str, ...], str]] = []
        for words, meaning in lexicon.terms():
            if words[0].endswith("*"):
                self._stems.append((words, meaning))
            else:
                self._exact.setdefault(words[0], []).append((words, meaning))
        self._cache: dict[str, Reading] = {}

    def read(self, text: str) -> Reading:
        found = self._cache.get(text)
        if found is None:
            if len(self._cache) >= self.CACHE:
                self._cache.clear()
            found = self._cache[text] = self._read(text)
        return found

    def _match(self, words: list[str], i: int) -> tuple[int, list[str]]:
        """The longest term starting at word ``i``: its length and every class it belongs to."""
        best = 0
        meanings: list[str] = []
        for term, meaning in (*self._exact.get(words[i], ()), *self._stems):
            n = len(term)
            if n < best or i + n > len(words):
                continue
            if not all(word_matches(p, w) for p, w in zip(term, words[i:i + n], strict=True)):  # same length: checked
                continue
            if n > best:
                best, meanings = n, []
            meanings.append(meaning)
        return best, meanings

    def _read(self, text: str) -> Reading:
        mentions: list[Mention] = []
        quantities: list[Quantity] = []
        ids: list[tuple[str, int]] = []
        hypothetical: set[int] = set()
        hedged_sentence = -1  # a hedge reaches to the end of its sentence: "if approved, we will pay"
        for c, (sentence, clause) in enumerate(_clauses(tokenize(text))):
            words = [t.text if t.kind == "word" else "" for t in clause]
            hedged = any(w in HEDGES for w in words) or clause[-1].text == "?" or hedged_sentence == sentence
            if any(w in HEDGES for w in words):
                hedged_sentence = sentence
            not_yet = any(w in NOT_YET for w in words)
            if hedged:
                hypothetical.add(c)
            negations = 0  # cues seen so far in this clause
            pending: list[int] = []  # indexes into mentions/quantities not yet past an auxiliary+cue
            i = 0
            while i < len(clause):
                token, word = clause[i], words[i]
                if word in NEGATIONS and (word, words[i + 1] if i + 1 < len(words) else "") not in PSEUDO_NEGATIONS:
                    n, meanings = self._match(words, i)
                    if not meanings:  # a cue, unless it starts a phrase ("not covered")
                        negations += 1
                        if i > 0 and words[i - 1] in AUXILIARIES:  # "payment is not possible"
                            for k in pending:
                                mentions[k] = _flip(mentions[k])
                        pending = []
                        i += 1
                        continue
                polarity = HYPOTHETICAL if hedged else (NEGATED if negations % 2 else AFFIRMED)
                if polarity == NEGATED and not_yet:
                    polarity = HYPOTHETICAL
                if token.kind == "id":
                    ids.append((token.text, c))
                elif token.kind in ("money", "rate", "date", "number") and token.value is not None:
                    before = set(words[max(0, i - 3):i])
                    quantities.append(Quantity(token.kind, token.value, polarity, c, bool(before & REFERENCES),
                                               token.text))
                elif word:
                    n, meanings = self._match(words, i)
                    if meanings:
                        phrase = " ".join(words[i:i + n])
                        for meaning in dict.fromkeys(meanings):
                            pending.append(len(mentions))
                            mentions.append(Mention(meaning, polarity, c, phrase))
                        if polarity == HYPOTHETICAL and not_yet and negations % 2:
                            mentions.append(Mention("pending", AFFIRMED, c, phrase))
                        i += n
                        continue
                i += 1
        return Reading(text, tuple(mentions), tuple(quantities), tuple(ids), frozenset(hypothetical))


def _flip(m: Mention) -> Mention:
    if m.polarity == HYPOTHETICAL:
        return m
    return Mention(m.meaning, -m.polarity, m.clause, m.words)


_READERS: dict[int, tuple[Lexicon, Reader]] = {}


def reader_for(lexicon: Lexicon) -> Reader:
    """One reader per lexicon object, so its cache is shared by every environment using it."""
    found = _READERS.get(id(lexicon))
    if found is None or found[0] is not lexicon:
        found = _READERS[id(lexicon)] = (lexicon, Reader(lexicon))
    return found[1]
