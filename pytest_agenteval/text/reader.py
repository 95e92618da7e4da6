"""The reader: a text's tokens, clause by clause, into a ``Reading`` (what it asserts).

One pass over each clause: negation cues, hedges, conditions and presuppositions set the
polarity of each meaning the lexicon finds (its longest term first); ids, amounts, rates and
dates become quantities. The grammar, for users: docs/text.md; its limits: ``reading``.
"""

from __future__ import annotations

from pytest_agenteval.text.calm import calm
from pytest_agenteval.text.clauses import (
    AFFIRMED,
    HYPOTHETICAL,
    LOCAL_HEDGES,
    NEGATED,
    OURS,
    REFERRING,
    USUALLY,
    WRITINGS,
    house_rule,
    policy_terms,
)
from pytest_agenteval.text.clauses import answers as answers_to
from pytest_agenteval.text.clauses import clauses as clauses_of
from pytest_agenteval.text.clauses import hedges as hedges_of
from pytest_agenteval.text.cues import (
    BACK_REACH,
    LIMIT_KINDS,
    PAID_AFTER,
    TITLES,
    attributive,
    denied_extra,
    elided,
    headline,
    past_once,
    polar_questions,
    postposed,
    required_by_denial,
    sought,
)
from pytest_agenteval.text.differences import resolved
from pytest_agenteval.text.lexicon import (
    ABSENCE,
    ARRIVING,
    ASSERTED_BEFORE,
    AUXILIARIES,
    CAPABILITY,
    CONDITIONS,
    DETERMINERS,
    DOCUMENTS,
    NEGATIONS,
    NONE_WORDS,
    NOT_YET,
    PRESUPPOSED,
    PSEUDO_NEGATIONS,
    RECEIPTS,
    REFERENCE_PAIRS,
    REFERENCED_BY,
    REFERENCES,
    REVERSALS,
    Lexicon,
    money_before,
)
from pytest_agenteval.text.mail import shown
from pytest_agenteval.text.prepass import prepared
from pytest_agenteval.text.reading import (
    DECIDED,
    DEDUCTED,
    DIRECTIONS,
    FIGURE_OF,
    MORE,
    NAMED_BY_NUMBER,
    NOT_BY_STEM,
    NUMBERED_PARTIES,
    OTHERS,
    REQUIRED,
    SEEMING,
    SOURCES,
    Mention,
    Quantity,
    Reading,
    absence_verb,
)
from pytest_agenteval.text.spelling import misspelt
from pytest_agenteval.text.together import asked_for, flip, generic, nothing_paid, read_together
from pytest_agenteval.text.tokens import Token, tokenize
from pytest_agenteval.text.undecided import measured, purpose

Tail = tuple[tuple[str, bool], ...]  # a term's words after its first: (word or stem, is a stem)
Terms = tuple[list[str], list[tuple[int, Tail, str]], frozenset[str] | None]  # Reader._terms


def _fits(tail: Tail, words: list[str], at: int) -> bool:
    """The words from ``at`` on match ``tail`` (``word_matches``, with each stem cut once)."""
    for pattern, stem in tail:
        word = words[at]
        if not (word.startswith(pattern) if stem else word == pattern):
            return False
        at += 1
    return True


class Reader:
    """Reads texts with one lexicon; readings are cached (texts repeat across episodes)."""

    CACHE = 8192

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon  # (its terms below by their first word: exact words, stems "approv*" by the stem)
        self._exact: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self._stems: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for words, meaning in lexicon.terms():
            first = words[0]
            index = self._stems if first.endswith("*") else self._exact
            index.setdefault(first.rstrip("*"), []).append((words, meaning))
        self._first: dict[str, list[tuple[tuple[str, ...], str]]] = {}  # per word: the terms it can start
        self._split: dict[str, Terms] = {}  # the same, for _match
        self._cache: dict[str, Reading] = {}
        self._spelt: dict[str, str] = {}  # per word: the word it is read as (``_meant``)
        self._prefixes = frozenset(lexicon.ids)

    def read(self, text: str) -> Reading:
        found = self._cache.get(text)
        if found is None:
            if len(self._cache) >= self.CACHE:
                self._cache.clear()
            # what a person sees (red team 54: every check reads it), with no flood (red team 49)
            found = self._cache[text] = self._read(calm(shown(text)))
        return found

    def _starting(self, word: str) -> list[tuple[tuple[str, ...], str]]:
        found = self._first.get(word)
        if found is None:
            found = list(self._exact.get(word, ()))
            for k in range(1, len(word) + 1 if word not in NOT_BY_STEM else 0):
                found += self._stems.get(word[:k], ())
            if len(self._first) < self.CACHE:
                self._first[word] = found
        return found

    def _meant(self, word: str) -> str:
        """The word ``word`` is read as: itself, or the decision, state or limit word it misspells
        when it starts no term ("aprooved", "pendng", "limt"), so every check sees the right word."""
        found = self._spelt.get(word)
        if found is None:
            found = misspelt(word) if word and not self._starting(word) else None
            found = found or word
            if len(self._spelt) < self.CACHE:
                self._spelt[word] = found
        return found

    def _numbered(self, token: Token) -> Token:
        """An id with the digits the environment gives it: "SNR-7" (or "SNR #7") is SNR-07."""
        prefix, _, number = token.text.partition("-")
        digits = self.lexicon.ids.get(prefix)
        if not digits or len(number) == digits or not number.isdigit() or len(number.lstrip("0")) > digits:
            return token
        return token._replace(text=f"{prefix}-{int(number):0{digits}d}")

    def _terms(self, word: str) -> Terms:
        """The terms ``word`` starts, split once for ``_match``: the classes of its one-word terms
        (which all match it), its longer terms (length, the patterns after the first, class), and
        the words that may follow it in one of those (None when a stem may)."""
        found = self._split.get(word)
        if found is None:
            terms = self._starting(word)
            longer = [(len(term), tuple((p[:-1], True) if p.endswith("*") else (p, False) for p in term[1:]), meaning)
                      for term, meaning in terms if len(term) > 1]
            second = [tail[0] for _, tail, _ in longer]
            seconds = None if any(stem for _, stem in second) else frozenset(w for w, _ in second)
            found = ([meaning for term, meaning in terms if len(term) == 1], longer, seconds)
            if len(self._split) < self.CACHE:
                self._split[word] = found
        return found

    def _extra_at(self, words: list[str], i: int) -> int:
        """The length of an extra (a class some lexicons have: a courtesy car, interest) at word ``i``."""
        n, meanings = self._match(words, i)
        return n if "extra" in meanings else 0

    def _match(self, words: list[str], i: int) -> tuple[int, list[str]]:
        """The longest term starting at word ``i``: its length and every class it belongs to."""
        singles, longer, seconds = self._terms(words[i])
        best = 0
        meanings: list[str] = []  # (``list[str]()`` made a generic alias per call)
        left = len(words) - i
        if longer and left > 1 and (seconds is None or words[i + 1] in seconds):  # most words: none can go on
            for n, tail, meaning in longer:
                if n < best or n > left or not _fits(tail, words, i + 1):
                    continue
                if n > best:
                    best, meanings = n, []
                meanings.append(meaning)
        if not best and singles:
            return 1, list(singles)
        return best, meanings

    def _read(self, text: str) -> Reading:
        mentions: list[Mention] = []
        quantities: list[Quantity] = []
        ids: list[tuple[str, int]] = []
        id_at: list[tuple[str, int, int]] = []
        hedged_sentence = -1  # a hedge reaches to the end of its sentence: "if approved, we will pay"
        hedged_by: set[str] = set()  # the hedges that reach it
        conditioned = -1  # a sentence opened by a condition ("Subject to…, we will pay")
        first = self._first  # the terms each word starts, known for most words already
        spelt, meant = self._spelt, self._meant
        read_text = prepared(text)
        clauses = clauses_of(tokenize(read_text, self._prefixes))
        answers = answers_to(clauses)
        asked = polar_questions(clauses)
        missing: set[int] = set()
        directed: set[str] = set()
        negated: set[int] = set()  # clauses with a negation cue
        clause_words: list[tuple[str, ...]] = []
        reported = False  # in a field that reports earlier letters, up to the next field
        said_in: dict[int, set[str]] = {}  # each sentence's words
        for sentence, clause, *_ in clauses:
            said_in.setdefault(sentence, set()).update(t.text for t in clause if t.kind == "word")
        for c, (sentence, clause, _, opener) in enumerate(clauses):
            words = [(spelt.get(t.text) or meant(t.text)) if t.kind == "word" else "" for t in clause]
            clause_words.append(tuple(words))
            present = set(words)
            hedges = hedges_of(words, present)
            if words[:2] == ["only", "while"]:
                hedges.add("while")  # "…, but only while it is in force": a condition, not the state now
            if policy_terms(words, present, said_in[sentence]) or house_rule(words):
                hedges.add("general")
            label = clause_words[c - 1] if c and clauses[c][2] else ()
            if not WRITINGS.isdisjoint(label) and not OURS.isdisjoint(label) and REFERRING.isdisjoint(label):
                reported = True  # "earlier_letters: 2 Mar ack; 6 Mar under review": then, not now
            elif label or c + 1 < len(clauses) and clauses[c + 1][2] or present & CORRECTED:
                reported = False  # the next field; or what is so now ("Correction to my earlier note: I
                # wrote 12,800. The correct amount is 16,000": the correction is asserted)
            if reported:
                hedges.add("reportedly")
            answer = answers.get(c)  # "Was it approved? No.": the question is asserted as answered
            if answer is not None:
                hedges.discard("whether")  # "You asked whether it would be paid. It won't."
            if "aim" in hedges and any(t.kind in ("id", "money") for t in clause):
                hedges.discard("aim")  # "we aim to pay £4,200 by Friday" promises this claim's money
            # "We cannot approve unless you send…": a denial before the condition says the decision
            # waits on it; anything else in the clause stays hypothetical, as after any hedge.
            h_at = min((words.index(w) for w in hedges if w in words), default=len(words))  # (the first decides:
            cond_at = h_at if h_at < len(words) and words[h_at] in ASSERTED_BEFORE else len(words)  # "…until… when")
            waits = cond_at < len(words) and words[cond_at] in CONDITIONS and not past_once(words[cond_at:])
            if words[0] in CONDITIONS and (words[0] != "once" or "once" in hedges) or words[:2] in (
                    ["only", "if"], ["only", "when"], ["only", "once"]):
                # "Subject to your bank details, we will pay": the decision waits (not "once SNR-07
                # approved, you paid": told as past, no condition; 65th audit)
                conditioned = sentence
            # "when the due diligence will be complete": a state to come is not the state now
            coming = "when" in hedges and "will" in present
            # "Without the invoice, we cannot pay": a condition, not a negation.
            hedge = bool(hedges) or words[0] == "without"
            question = (clause[-1].text == "?" or sentence in asked) and answer is None
            hedged_before = hedged_sentence == sentence and not (
                opener == "but" and hedged_by <= USUALLY) or question  # "would normally…, but is away"
            hedged = hedge or hedged_before
            if hedge and hedges - LOCAL_HEDGES and "asked" not in hedges:  # ("before…", "confirm when…": itself only)
                hedged_sentence, hedged_by = sentence, hedges
            not_yet = not present.isdisjoint(NOT_YET) or bool(answer and answer[1])
            first_mention = len(mentions)
            negations = 1 if answer and answer[0] == NEGATED else 0  # cues seen so far in this clause
            if negations and words[:2] in (["is", "there"], ["are", "there"], ["do", "we"], ["does", "it"]):
                missing.add(c)  # "Is there a rate for this limit? No.": the rate is missing
            pending: list[tuple[int, int]] = []  # (mention index, its word position) since the last cue
            presupposed_until = -1  # "the decline of your claim" under a hedge: asserted to here
            reversed_at = -9  # "reversed our approval": the next three words are undone
            shielded = range(0)  # decision words a cue does not deny: "no further payment", "no excess to pay"
            outside = 0  # the negations before a short aside: "not (yet) approved", "not verified (status pending)"
            i = 0
            size = len(clause)  # (the clause's tokens are not changed while it is read)
            while i < size:
                token, word = clause[i], words[i]
                if token.kind == "punct":
                    negations, outside = (0, negations) if token.text == "(" else (outside, 0)
                    i += 1
                    continue
                if token.kind == "word" and i > presupposed_until and word not in NEGATIONS and (
                        word not in PRESUPPOSED and not (first.get(word) if word in first else self._starting(word))):
                    i += 1  # most words: no cue, no meaning, nothing presupposed; nothing below applies
                    continue
                ahead = words[i + 1:i + 3]
                # "we have not received the invoice" (but "you will not receive a payment" denies it)
                receipt = word in NEGATIONS and bool(
                    RECEIPTS & set(ahead) - {"receive"} or "receive" in ahead and words[i - 1:i] in (
                        ["did"], ["do"], ["does"])) and not OTHERS.intersection(words[max(0, i - 3):i])
                if word in NEGATIONS and receipt:
                    negated.add(c)  # "we have not received the invoice": the receipt is negated
                if word in NEGATIONS and (extra := denied_extra(words, i, self._extra_at)):
                    at, n = extra  # "your policy does not include a courtesy car": only the extra is denied
                    mentions.append(Mention("extra", NEGATED, c, " ".join(words[at:at + n]), at))
                    i = at + n
                    negations += words[i:i + 1] in (["or"], ["nor"])  # "…a hire car or pay your claim": both denied
                    continue
                if word in NEGATIONS and pending and mentions[pending[-1][0]].meaning == "extra" and (
                        words[i - 1:i] and words[i - 1] in AUXILIARIES and i - pending[-1][1] <= 4):
                    k = pending[-1][0]  # "a hire car is not part of this settlement": the extra is denied
                    mentions[k] = mentions[k]._replace(polarity=NEGATED)
                    pending = []
                    i += 3 if words[i + 1:i + 3] == ["part", "of"] else 1  # (no "part" of a decision)
                    continue
                if word == "none" and elided(ahead, i == 0 and c > 0 and clauses[c][2]):
                    missing.add(c)  # "none on the policy": an elided noun missing, not the policy
                    i += 1
                    continue
                if word == "nor":  # "neither approved nor declined": what follows is denied, nothing before undone
                    negations += 1 - negations % 2
                    pending = []
                    i += 1
                    continue
                if word in NEGATIONS and (word, ahead[0] if ahead else "") not in PSEUDO_NEGATIONS and not receipt:
                    n, meanings = self._match(words, i)
                    if not meanings and ahead[:1] and ahead[0] in MORE:
                        shielded = range(i + 1, i + 4)  # "no further payment is due": no more than was paid
                    elif not meanings and word in ABSENCE and ahead[1:] == ["to"] and not any(
                            meaning in DECIDED for _, meaning in self._starting(ahead[0])):
                        shielded = range(i + 3, i + 4)  # "no excess to pay": the excess is what is missing
                    if not meanings:  # a cue, unless it starts a phrase ("not covered")
                        if word in REVERSALS:  # undoes what comes right after it
                            reversed_at = i
                        else:
                            negations += 1
                            reversed_at = -9
                            # "could not find a rate"; not "(declined on cover,) not on policy status"
                            contrast = i == 0 and ahead[:1] == ["on"] and not clauses[c][2]
                            missing.update((c,) if word in ABSENCE or word in ("not", "unable", "cannot") and (
                                absence_verb(ahead)) and not contrast else ())
                            if word in ABSENCE and ahead and not any(
                                    meaning in DECIDED for _, meaning in self._starting(ahead[0])) or (
                                    ahead[:1] and ahead[0] in DEDUCTED):  # "not deducted from the approval"
                                # "no excess has been deducted from this payment": the payment is not denied
                                source = next((k for k in range(i + 2, len(words)) if words[k] in SOURCES), None)
                                shielded = range(source, len(words)) if source is not None else shielded
                        # "cannot go live without verified KYC": "without" denies what follows it only
                        # ("your policy has no excess": the excess denied, not the policy)
                        after_auxiliary = word != "without" and not (word == "no" and words[i - 1:i] in (
                            ["has"], ["have"], ["had"])) and (i > 0 and words[i - 1] in AUXILIARIES or headline(
                                words, i, mentions, pending) or postposed(words, i, pending))
                        if after_auxiliary:  # "payment is not possible", "the payment has been cancelled"
                            # an undoing reaches the clause's start: "payment on your claim has been withheld"
                            reach = 0 if word in REVERSALS else i - 1 - BACK_REACH
                            for k, at in pending:
                                if at >= reach and not_yet and mentions[k].meaning in DECIDED and (
                                        mentions[k].polarity == AFFIRMED):
                                    # "your payment has not yet been made": pending, not refused
                                    mentions[k] = mentions[k]._replace(polarity=HYPOTHETICAL)
                                    mentions.append(Mention("pending", AFFIRMED, c, mentions[k].words, at))
                                elif at >= reach and not generic(words, at, mentions[k].words):
                                    mentions[k] = flip(mentions[k])
                        if after_auxiliary or word not in REVERSALS:
                            pending = []
                        i += 1
                        continue
                polarity = HYPOTHETICAL if hedged else (NEGATED if negations % 2 and not attributive(words, i) else (
                    AFFIRMED))  # ("not needed for a lapsed policy")
                if i - reversed_at <= 3 and polarity != HYPOTHETICAL:
                    polarity = -polarity
                if i < cond_at < len(words) and not hedged_before:
                    polarity = NEGATED if negations % 2 else AFFIRMED  # read below as waiting on the condition
                if polarity == HYPOTHETICAL and not negations and not question and "reportedly" not in hedges and (
                        i <= presupposed_until or word in PRESUPPOSED and i > 0 and words[i - 1] in DETERMINERS
                        and not DOCUMENTS.intersection(words[i + 1:i + 2])):
                    polarity = AFFIRMED
                    presupposed_until = max(presupposed_until, i + 3)
                if token.kind == "id":
                    token = self._numbered(token)  # "SNR-7" is SNR-07
                    ids.append((token.text, c))
                    id_at.append((token.text, c, i))
                    # an id names what its prefix means: "POL-00009 has lapsed" speaks of a policy
                    for meaning in self._terms(token.text.split("-", 1)[0].lower())[0] or ():
                        mentions.append(Mention(meaning, polarity, c, token.text, i))
                    k = i - 1
                    while k >= 0 and i - k <= 3 and words[k] in TITLES:
                        k -= 1
                    label = clause_words[c - 1] if k < 0 and c > 0 and clauses[c][2] else ()
                    if (k >= 0 and words[k] in DIRECTIONS or label[-1:] and label[-1] in DIRECTIONS) and (
                            words[i + 1:i + 2] != ["s"]) and "reportedly" not in hedges and not (
                            k > 0 and words[k - 1] in ("not", "never", "than", "instead")):  # ("and not to SNR-04")
                        # ("sent to SNR-10's deputy": to the deputy, not SNR-10; "my earlier note said I
                        # would send it to SNR-04": where it was said to go, not where it went)
                        directed.add(token.text)  # "escalated to (the senior) SNR-05", "per SNR-05", "to: SNR-05"
                elif token.kind in ("money", "rate", "date", "number") and token.value is not None:
                    # a figure under a label is the label's: "assessed: 135000"
                    label = clause_words[c - 1] if i < 2 and c > 0 and clauses[c][2] else ()
                    before = tuple([*label, *words[:i]][-2:])
                    wider = tuple([*label, *words[:i]][-3:])  # "the assessed amount of £30,000"
                    reference = bool(set(before) & REFERENCES) or before in REFERENCE_PAIRS or (
                        len(wider) == 3 and wider[0] in REFERENCES and wider[1:] in FIGURE_OF) or bool(
                        REFERENCED_BY.intersection(ahead[:1])) or (  # "80% of the £30,000": the base of a share
                        "of" in words[max(0, i - 3):i] and any(t.kind == "rate" for t in clause[max(0, i - 3):i]))
                    kind = token.kind
                    if kind == "number" and isinstance(token.value, float) and token.value >= 100 and (
                            not (before[-1:] and before[-1] in NAMED_BY_NUMBER)) and (  # "Holder 335 claimed…": a name
                            money_before([*label, *words[:i]], year=1900 <= token.value <= 2100)
                            or ahead[:1] and ahead[0] in PAID_AFTER and not 1900 <= token.value <= 2100
                            or ahead[1:2] == ["limit"] and ahead[0] in LIMIT_KINDS):
                        kind = "money"  # "pay 4200", "approved at 4200", "4600 paid" (not "2026 paid")
                    if kind == "number" and i and words[i - 1] in NUMBERED_PARTIES and token.text.isdigit():
                        i += 1
                        continue  # "Holder 594": a name
                    quantities.append(Quantity(kind, token.value, polarity, c, reference, token.text, i))
                elif word in CAPABILITY and ahead[:1] == ["to"]:
                    pass  # "authorised to approve": a power, not an approval
                elif word and self._starting(word):
                    n, meanings = self._match(words, i)
                    if meanings:
                        phrase = " ".join(words[i:i + n])
                        for meaning in dict.fromkeys(meanings):
                            pending.append((len(mentions), i))
                            if meaning in DECIDED and i in shielded:
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))
                            elif meaning in DECIDED and polarity != HYPOTHETICAL and sought(
                                    words, i, modal=answer is None):
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))  # "for approval"
                                if waits and i < cond_at:  # "it can be approved subject to…": it waits
                                    mentions.append(Mention("conditional", AFFIRMED, c, phrase, i))
                            elif meaning == "ok" and polarity == AFFIRMED and words[i - 1:i] == ["to"] and (
                                    word.startswith(("finish", "complet")) and not word.endswith("ed")):
                                # "we still need to complete your KYC", "KYC team to complete checks": an
                                # act still to do, so not done
                                mentions.append(Mention(meaning, NEGATED, c, phrase, i))
                            elif meaning in ("ok", "problem") and polarity != HYPOTHETICAL and (
                                    REQUIRED.intersection(words[max(0, i - 3):i])
                                    or words[i - 2:i] == ["to", "be"] and not SEEMING.intersection(words[i - 3:i - 2])
                                    or required_by_denial(words, i)):
                                # "KYC must be verified before booking": a requirement, not the state
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))
                            elif polarity == NEGATED and not_yet and meaning in DECIDED:
                                # "not yet approved" is pending, not declined ("not yet verified" stays negated)
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))
                                mentions.append(Mention("pending", AFFIRMED, c, phrase, i))
                            elif polarity != HYPOTHETICAL and i < cond_at < len(words) and meaning in DECIDED and waits:
                                # "we cannot pay until…", "payment will only be released once…"
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))
                                mentions.append(Mention("conditional", AFFIRMED, c, phrase, i))
                            elif polarity == HYPOTHETICAL and meaning in DECIDED and conditioned == sentence:
                                mentions.append(Mention(meaning, HYPOTHETICAL, c, phrase, i))
                                if not (words[0] in CONDITIONS and ARRIVING.intersection(words)):
                                    # ("once the 28,000 we have paid reaches your account": the
                                    # money's arrival, no condition on the decision; 63rd audit)
                                    mentions.append(Mention("conditional", AFFIRMED, c, phrase, i))
                            elif polarity == HYPOTHETICAL and meaning == "ok" and (
                                    waits and cond_at < i < len(words) or coming):
                                # "until KYC is complete": the condition is not met now
                                mentions.append(Mention(meaning, NEGATED, c, phrase, i))
                            else:
                                mentions.append(Mention(meaning, polarity, c, phrase, i))
                        if word.startswith("fail") and words[i + n:i + n + 1] == ["to"]:
                            negations += 1  # "failed to complete": what follows did not happen
                        i += n
                        continue
                i += 1
            read_together(mentions, first_mention, present, words)
            measured(mentions, first_mention, clause, words)
            purpose(mentions, first_mention, words)
            if answer and answer[0] == NEGATED and not present.isdisjoint(("decision", "decided", "outcome")):
                mentions.append(Mention("pending", AFFIRMED, c, "no decision"))  # "Has it been decided? Not yet."
            if words[0] in CONDITIONS and len(words) > 1 and c > 0 and clauses[c - 1][0] == sentence:
                # "approved, subject to…" (not "paid it, once.": how often; 64th audit)
                for m in mentions[:first_mention]:
                    if m.clause == c - 1 and m.meaning in DECIDED and m.polarity == AFFIRMED:
                        mentions.append(Mention("conditional", AFFIRMED, c - 1, m.words))
                        break
            if negations:
                negated.add(c)
            if c > 0 and clauses[c][2] and clauses[c - 1][0] == sentence and present <= NONE_WORDS and present & {
                    "none", "no", "nil", "nothing", "zero", "n", "null", "not"}:  # "Payment: none", "Payment: N/A"
                heading = [k for k in range(len(mentions)) if mentions[k].clause == c - 1]
                last = max((mentions[k].at for k in heading), default=-1)  # the heading's own word
                for k in heading:
                    if mentions[k].at == last and mentions[k].polarity == AFFIRMED:
                        mentions[k] = mentions[k]._replace(polarity=NEGATED)
        sentence_of = tuple(n for n, *_ in clauses)
        # "Your claim hasn't been approved: it is waiting for a senior reviewer": not yet, in one sentence.
        waiting = {sentence_of[m.clause] for m in mentions if m.meaning == "pending" and m.polarity == AFFIRMED}
        for k, m in enumerate(list(mentions)):
            if m.polarity == NEGATED and m.meaning in DECIDED and sentence_of[m.clause] in waiting:
                mentions[k] = m._replace(polarity=HYPOTHETICAL)
        quantities = resolved(quantities, clause_words, sentence_of)  # "£8,000 above my £10,000 limit"
        nothing_paid(mentions, quantities, [j for _, _, j, _ in clauses])
        return Reading(text, tuple(mentions), tuple(quantities), tuple(ids), sentence_of,
                       tuple(j for _, _, j, _ in clauses), frozenset(missing),
                       asked_for(mentions, sentence_of, negated), frozenset(directed), tuple(clause_words),
                       tuple(id_at), read_text)


CORRECTED = frozenset({"correct", "corrected", "actual", "actually", "right", "now"})


_READERS: dict[int, tuple[Lexicon, Reader]] = {}


def reader_for(lexicon: Lexicon) -> Reader:
    """One reader per lexicon object, so its cache is shared by every environment using it."""
    found = _READERS.get(id(lexicon))
    if found is None or found[0] is not lexicon:
        found = _READERS[id(lexicon)] = (lexicon, Reader(lexicon))
    return found[1]
