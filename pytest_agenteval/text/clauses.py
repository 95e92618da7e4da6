"""A text's sentences and clauses, and what frames each clause: the second pass of reading
(after ``tokens``, before ``reading`` finds meanings). Where a clause ends (punctuation, *but*,
*because*, "and we…", "and no…"; brackets of one or two words read through), which clauses are
questions answered by the next sentence ("Was it approved? Sadly, no."), and which hedges a
clause holds ("if", "whether", "usually", "we aim to pay claims…")."""

from __future__ import annotations

from pytest_agenteval.text.lexicon import (
    ADDRESSED,
    AIMS,
    ANSWER_FILLERS,
    ANSWER_SUBJECTS,
    ANSWER_WORDS,
    AUXILIARIES,
    BREAKS,
    DOUBTS,
    EMOTIVE,
    FRESH_NEGATIONS,
    HEDGES,
    NEGATIONS,
    NO,
    NOT_YET,
    PAST,
    QUESTION_WORDS,
    READER_VERBS,
    RESTARTS,
    SUBJECTS,
    YES,
)
from pytest_agenteval.text.tokens import Token

AFFIRMED, NEGATED, HYPOTHETICAL = 1, -1, 0
# Hedges that reach only their own clause, not the rest of its sentence.
LOCAL_HEDGES = frozenset({"before", "general", "reportedly", "bound", "asked"})
# Verbs that ask an embedded question: "confirm when", "advise whether", "check if".
ASKING_VERBS = frozenset({"confirm", "advise", "check", "know", "tell", "ask", "asking", "clarify", "see", "wondering",
                          "wonder", "verify", "establish", "explain", "out", "say", "understand", "learn", "ascertain",
                          "determine", "let"})  # ("find out when", "say whether", "understand when": red team 73)
READER_HEDGES = frozenset({"may", "might", "if", "perhaps", "possibly"})
# "… and FAC-5119 stays pending": an id then a verb after "and" starts a new clause.
ID_VERBS = frozenset({"stays", "remains", "stay", "remain", "is", "was", "has", "will", "can", "cannot", "are",
                      "continues", "continue", "sits", "still", "needs", "had", "were", "won't", "isn't"})


SENTENCE_ENDS = frozenset({".", "!", "?", ";"})
LOOKS_AHEAD = BREAKS | {"and", "or", "plus"}  # the words whose next word decides whether a clause ends
TRANSPARENT = frozenset({"(", ")"})


def clauses(tokens: list[Token]) -> list[tuple[int, list[Token], bool, str]]:
    """(sentence number, tokens, opened by a colon or dash, the word that opened it: "but", "so"…
    or "") of each clause; brackets are transparent."""
    clauses: list[tuple[int, list[Token], bool, str]] = [(0, [], False, "")]
    sentence = 0
    for i, t in enumerate(tokens):
        nxt = tokens[i + 1].text if t.text in LOOKS_AHEAD and i + 1 < len(tokens) else ""  # read only after these
        if t.kind == "punct" and t.text in TRANSPARENT:
            if not _short_aside(tokens, i, back=t.text == ")"):
                clauses.append((sentence, [], False, ""))  # "(deputy for SNR-10, who is on leave)": an aside
            else:
                clauses[-1][1].append(t)  # a short aside stays in its clause, outside its negations
            continue
        if t.kind == "punct" and t.text == "," and _listed(tokens, i):
            continue  # "approve, amend or decline": one list, one clause
        if t.kind == "punct" and t.text in JOINERS and (not i or tokens[i - 1].text in SENTENCE_ENDS):
            continue  # a bullet ("\n- KYC: verified"): a line of its own, joined to nothing before it
        if t.kind == "punct":
            if t.text == "?":
                clauses[-1][1].append(t)  # kept: a question is hypothetical
            # (a line break right after a full stop or question mark ends no second sentence)
            # (nor does a full stop after a bracket's close start an empty one: "(deputy of absent
            # SNR-10). 24,000." ends a sentence; 56th audit)
            sentence += t.text in SENTENCE_ENDS and (any(x.text not in TRANSPARENT for x in clauses[-1][1]) or (
                i > 0 and tokens[i - 1].text == ")"))
            clauses.append((sentence, [], t.text in JOINERS, ""))
        elif t.kind == "word" and ((t.text in BREAKS and (t.text != "also" or nxt in RESTARTS) and not (
                t.text == "as" and not _because(tokens, i)) and not (
                t.text == "since" and i > 0 and tokens[i - 1].text in AUXILIARIES) and not (  # "it has since lapsed"
                t.text == "while" and i > 0 and tokens[i - 1].text == "only"))  # "only while it is in force"
                                   or (t.text in ("and", "or", "plus") and (nxt in RESTARTS or nxt in FRESH_NEGATIONS))
                                   or (t.text == "and" and _id_subject(tokens, i + 1))):
            clauses.append((sentence, [], False, t.text))
        else:
            clauses[-1][1].append(t)
    return [c for c in clauses if any(t.text not in TRANSPARENT for t in c[1])]


def _id_subject(tokens: list[Token], at: int) -> bool:
    """An id, or a noun and an id, then its verb: "…and FAC-5119 remains pending", "…and facility
    FAC-5119 is pending" start a clause of their own."""
    if at + 1 < len(tokens) and tokens[at].kind == "word" and tokens[at + 1].kind == "id":
        at += 1
    return at + 1 < len(tokens) and tokens[at].kind == "id" and tokens[at + 1].text in ID_VERBS


def _because(tokens: list[Token], at: int) -> bool:
    """The "as" at ``at`` means "because": a subject follows, and an auxiliary within four words
    ("as your policy was not in force"; not "as the assessed amount", "as per", "such as")."""
    after = [t.text for t in tokens[at + 1:at + 6] if t.kind == "word"]
    if at + 1 < len(tokens) and tokens[at + 1].kind in ("money", "number", "id"):  # "as 90,000 is above…"
        return bool(after) and after[0] in AUXILIARIES
    near = tokens[at + 1:at + 4]
    if len(near) == 3 and all(t.kind == "word" for t in near) and near[0].text not in AS_SUBJECTS and (
            near[2].text in AUXILIARIES and near[1].text not in AUXILIARIES):
        return True  # a terse note's subject: "not applied as assessed figure is what we settle" (audit 52)
    if after[:1] and after[0] in SUBJECT_AND_AUXILIARY:
        return True  # "as there's no pricing exception" (85th audit)
    return bool(after) and after[0] in AS_SUBJECTS and not AUXILIARIES.isdisjoint(after[1:5])


AS_SUBJECTS = frozenset({"your", "you", "it", "we", "they", "the", "this", "our", "their", "he", "she", "there"})
SUBJECT_AND_AUXILIARY = frozenset({"there's", "it's", "we've", "we're", "we'll", "they're", "they've", "you're",
                                   "you've", "i'm", "i've", "that's", "he's", "she's", "it'll", "there're"})


def _listed(tokens: list[Token], at: int) -> bool:
    """The comma at ``at`` separates single words of a list closed by and/or: "approve, amend or decline"."""
    if not 0 < at < len(tokens) - 2:
        return False
    before, item, after = tokens[at - 1], tokens[at + 1], tokens[at + 2]
    return before.kind == item.kind == "word" and after.text in (",", "and", "or") and (
        item.text not in _NOT_AN_ITEM) and before.text not in ("once", "twice")  # "paid once, approval and…"


_NOT_AN_ITEM = RESTARTS | FRESH_NEGATIONS | BREAKS


def _short_aside(tokens: list[Token], at: int, *, back: bool = False) -> bool:
    """The bracket at ``at`` holds two tokens at most ("not (yet) approved", "paid (in full)"): read
    through it; a longer aside is a clause of its own."""
    step, close = (-1, "(") if back else (1, ")")
    for n, k in enumerate(range(at + step, at + step * 4, step)):
        if not 0 <= k < len(tokens):
            return True
        if tokens[k].text == close:
            return n <= 2
    return False


# After "provided", a preposition: a thing provided, not a condition ("provided by", "provided under").
NOT_A_CONDITION = frozenset({"by", "under", "in", "for", "to", "with", "at", "on", "from", "through", "via"})


JOINERS = frozenset({":", "-", "\u2013", "\u2014", "--"})


POLAR = AUXILIARIES - {"be", "been"}


def answers(clauses: list[tuple[int, list[Token], bool, str]]) -> dict[int, tuple[int, bool]]:
    """Polar questions answered in the next sentence: clause -> (the answer's polarity, "not yet").

    "Was your claim approved? Sadly, no." and "Has it been approved? It has not." answer no; "…? Yes."
    yes; "…? Not yet." says pending. A question with a hedge or negation of its own, a question
    word ("when…?"), or an answer sentence that says more than yes or no ("No, it was amended")
    is left as it was: a question is hypothetical, and the answer is read on its own."""
    out: dict[int, tuple[int, bool]] = {}
    if not any(clause[-1].text == "?" or any(t.text == "whether" for t in clause) for _, clause, *_ in clauses):
        return out  # most texts ask nothing and report no question
    for c, (sentence, clause, *_) in enumerate(clauses):
        words = [t.text for t in clause if t.kind == "word"]
        if clause[-1].text != "?":
            # "You asked whether your claim would be paid. I'm sorry, it won't.": a question reported
            # at the end of its sentence, answered by the next as a question is.
            last = c + 1 == len(clauses) or clauses[c + 1][0] != sentence
            if not last or "whether" not in words or any(
                    w in HEDGES and w != "whether" or w in NEGATIONS for w in words):
                continue
        elif not words or words[0] in QUESTION_WORDS or not (words[0] in POLAR or len(words) <= 3) or any(
                w in HEDGES or w in NEGATIONS for w in words):
            continue
        for later, answer, *_ in clauses[c + 1:]:
            said = [t.text for t in answer if t.kind == "word"]
            if later != sentence + 1 or len(said) != len(answer) - (answer[-1].kind == "punct"):
                break  # the next sentence only, and only words (an amount or an id says more)
            if all(w in ANSWER_FILLERS for w in said):
                continue  # "Sadly, no.": the filler is a clause of its own
            core = [w for w in said if w not in ANSWER_FILLERS]
            if set(said) <= ANSWER_WORDS and core:
                # The whole answer is bare ("No, not yet."): "No, it was amended to £24,000" says more.
                rest = [t for s, other, *_ in clauses[c + 1:] if s == later for t in other]
                yet = any(t.text in NOT_YET for t in rest)
                # (a yes may say more: "Will you pay? Yes, £33,000 next week"; a "not yet" may say it
                # waits: "Is it live? Not yet - it is still pending")
                if core[0] not in YES and any((t.kind != "word" or t.text not in ANSWER_WORDS) and not (
                        yet and t.kind in ("word", "punct") and t.text in WAITING_WORDS) for t in rest):
                    break
                if core[0] in YES:
                    out[c] = (AFFIRMED, False)
                elif core[0] in NO:
                    out[c] = (NEGATED, yet)
                elif core[0] in AUXILIARIES or core[0] in ANSWER_SUBJECTS and core[1:2] and core[1] in AUXILIARIES:
                    out[c] = (NEGATED if "not" in core else AFFIRMED, yet)
            break
    return out


WAITING_WORDS = frozenset({"pending", "waiting", "outstanding", "open", "on", "hold", "-", "\u2013", "\u2014", ","})
DETERMINERS = frozenset({"the", "your", "our", "a", "this", "that", "its", "their"})
TIME_NOUNS = frozenset({"date", "day", "time", "loss", "incident", "accident", "event", "start", "end", "renewal",
                        "inception", "expiry", "claim", "damage"})
GENERAL_MODALS = frozenset({"can", "often", "sometimes", "always", "tend", "tends"})
GENERIC_THINGS = frozenset({"claim", "decision", "review", "payment", "escalation"})
# A rule of the house, in the present, of a bare plural: "Claims above £10,000 go to a senior
# reviewer", "Facilities over £5m need credit approval" (not "Claims were paid today").
GENERIC_PLURALS = frozenset({"claims", "costs", "facilities", "handlers", "customers", "policies", "requests",
                             "amounts", "loans", "overdrafts", "anything"})  # "anything larger goes to…"
TOLD_AS_DONE = frozenset({"was", "were", "had", "has", "have", "did", "been"})
# What an earlier letter said is reported, not said again: "our letter of 6 March said it was under review".
REPORTED = frozenset({"said", "stated", "explained", "mentioned", "told", "noted", "advised", "indicated"})
WRITINGS = frozenset({"letter", "letters", "email", "emails", "message", "messages", "update", "note", "notes"})
OURS = frozenset({"our", "my", "earlier", "previous", "last", "first"})  # (not "your letter said…": theirs)
# What usually happens, given as the foil of what did: "SNR-08 would normally take this, but is
# away" (after "but", the clause is asserted).
USUALLY = frozenset({"normally", "usually", "ordinarily", "typically", "generally", "otherwise"})
# A heading that only refers to a letter: "Following our letter about CLM-1: the claim is…" is now.
# (and a correction of one: "Correction to my letter of this morning: we have paid £20,000"; 84th audit)
REFERRING = frozenset({"following", "further", "regarding", "re", "about", "after", "since", "correction",
                       "corrections", "correcting", "corrected", "clarification", "clarifying", "addendum",
                       "erratum", "amendment", "amending"})
# A clause citing the policy's wording tells its terms, of no claim in particular (unless it
# names "your" claim: "under clause 4 your claim is declined").
POLICY_TERMS = frozenset({"wording", "clause", "section", "schedule", "cl"})
_NOT_A_SUBJECT = DETERMINERS | ADDRESSED  # a clause's first word that is not its bare-plural subject


def policy_terms(words: list[str], present: set[str], sentence: set[str]) -> bool:
    """A clause of a sentence citing the policy's wording, of a bare plural ("Under section 4 of
    the policy wording, reasonable costs are covered at 90%"): the policy's terms, not this claim."""
    if sentence.isdisjoint(POLICY_TERMS):  # most sentences cite no wording
        return False
    subject = words[1] if words[:1] and words[0] not in _NOT_A_SUBJECT and len(words) > 1 else ""
    return ADDRESSED.isdisjoint(present) and "claim" not in present and (
        bool(words) and words[0] in GENERIC_PLURALS or subject in GENERIC_PLURALS)


def house_rule(words: list[str]) -> bool:
    """A clause telling a rule, its subject the rules ("Booking rules don't allow booking a facility
    for a customer whose KYC isn't verified"): what the rules say in general, not this case."""
    if words[:1] and words[0] in KINDS_OF_THING and words[1:2] and words[1] in ("are", "must", "need", "go", "get"):
        return True  # "Revolvers are booked to a loan account": what is done with every one of a kind
    if RULES.isdisjoint(words):  # most clauses name no rules
        return False
    return any(w in RULES and words[k + 1:k + 2] and (words[k + 1] in RULE_VERBS or words[k + 1] in ("do", "does") and (
        words[k + 2:k + 4] and set(words[k + 2:k + 4]) & RULE_VERBS)) for k, w in enumerate(words))


KINDS_OF_THING = frozenset({"revolvers", "overdrafts", "loans", "facilities", "claims", "policies", "payments"})
RULES = frozenset({"rules", "rule", "rulebook", "guidelines", "procedure", "procedures", "regulations"})
RULE_VERBS = frozenset({"allow", "allows", "require", "requires", "say", "says", "state", "states", "prohibit",
                        "prohibits", "forbid", "forbids", "permit", "permits", "mean", "means", "need", "needs"})


# After "paid once": how often, not when ("paid once under PAY-E001", "paid once by me"; 68th audit).
def _done_before(words: list[str], k: int) -> bool:
    """A past verb before ``k``, perhaps with its object between: "paid once", "paid it once", "paid
    £875,000 once" (86th audit)."""
    skip = k > 1 and words[k - 1] in ("it", "them", "this", "that", "him", "her", "") and (
        words[k + 1:k + 2] in ([], ["and"], ["in"], ["only"], ["to"], ["with"]))  # (not "paid it once SNR-07 approves")
    j = k - 2 if skip else k - 1
    return words[j] == "paid" or words[j].endswith("ed")


HOW_OFTEN_AFTER = frozenset({"", "and", "or", "by", "in", "under", "via", "through", "with", "to", "on", "at", "for",
                             "using"})


AWAITING = frozenset({"will", "shall", "wait", "waiting", "await", "awaiting", "must", "need", "needs", "until"})


_VERBISH = frozenset({"is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can", "may"})


def hedges(words: list[str], present: set[str]) -> set[str]:
    """The clause's hedge words. "should" hedges only opening a condition ("Should you need…");
    "your claim should be approved" predicts, and a prediction is asserted. "when" before a
    subject and a past verb tells a past fact ("when we approved your claim, we paid")."""
    found = present & HEDGES
    if "should" in found and words[0] != "should":
        found.discard("should")
    if words[:1] and words[0] in ("had", "were") and words[1:2] and words[1] in SUBJECTS | {"there"}:
        found.add("if")  # "Had it exceeded my limit, it would have gone to a senior": a supposition (68th audit)
    if present & {"would", "could", "might"} and any(w in ("would", "could", "might") and words[k + 1:k + 2] == [
            "have"] and words[k + 2:k + 3] and (words[k + 2] in PAST or words[k + 2].endswith(("ed", "en", "one")))
            for k, w in enumerate(words)):
        found.add("counterfactual")  # "it would have gone to a senior colleague": what did not happen
    for k, w in enumerate(words) if found & READER_HEDGES else ():
        nxt = words[k + 1:k + 3]
        if w in ("may", "might") and nxt[:1] and nxt[0] in READER_VERBS and (
                nxt[0] not in ("be", "have", "feel") or nxt[1:] and nxt[1] in EMOTIVE):
            found.discard(w)  # "as you may know", "you may be disappointed to hear"
        elif w == "if" and any(e in EMOTIVE and words[j + 1:j + 2] and words[j + 1] in ("that", "with", "about", "to")
                               for j, e in enumerate(words[k + 1:k + 5], k + 1)):
            found.discard(w)  # "if you are unhappy that we declined your claim": the decline is a fact
        elif w in ("perhaps", "possibly") and nxt[:1] and nxt[0].endswith("ly"):
            found.discard(w)  # "perhaps unsurprisingly, …"
    if "considered" in present and any(w == "considered" and k and words[k - 1] in SUBJECTS and words[k + 1:k + 2] != [
            "by"] for k, w in enumerate(words)):
        found.add("considered")  # "I considered referring it to a senior, but…": weighed, not done (75th audit)
    for k, w in enumerate(words) if found & {"may", "might", "could"} else ():
        if w in found and k >= 2 and words[k - 1] in SUBJECTS and words[k - 2] in ("what", "than", "whatever"):
            found.discard(w)  # "17,000 above what I may approve": a bound, hedging only its own clause
            found.add("bound")  # (74th audit: "…, and the policy is lapsed" was read as hedged)
    if "subject" in found and not any(w == "subject" and words[k + 1:k + 2] == ["to"] for k, w in enumerate(words)):
        found.discard("subject")  # "Subject: claim approved" is a heading
    if "provided" in found and all(words[k + 1:k + 2] and words[k + 1] in NOT_A_CONDITION
                                   for k, w in enumerate(words) if w == "provided"):
        found.discard("provided")  # "the cover provided by your policy" is no "provided that"
    if "once" in found and all(words[k + 1:k + 2] in ([], ["only"], ["again"], ["more"], ["a"], ["per"]) or (
            words[k + 1:k + 2] and (words[k + 1] in HOW_OFTEN_AFTER or words[k + 1].endswith("ly") and (
                words[k + 1] not in SUBJECTS)) and k and _done_before(words, k))
                               for k, w in enumerate(words) if w == "once"):  # ("paid once accordingly": 76th audit)
        found.discard("once")  # "Paid once.", "paid once (PAY-1)", "paid once in full", "once a month": how often
    if "whether" in found and any(w == "whether" and words[k + 1:k + 3] == ["or", "not"] for k, w in enumerate(words)):
        found.discard("whether")  # "whether or not you agree, your claim has been declined"
    for past in ("when", "once", "before") if found & {"when", "once", "before"} else ():
        at = words.index(past) if past in found else -1
        told = False
        for noun in (at + 1, at + 2, at + 3, at + 4):  # "when this happened", "once the head of claims had approved"
            if any(w in _VERBISH for w in words[at + 1:noun + 1]):
                break  # ("once your excess is settled": "is" is no noun; 77th audit)
            verb = words[noun + 1:noun + 3]
            verb = verb[1:] if verb[:1] and verb[0] in ("have", "has", "had") else verb[:1]
            told = told or any(w in PAST or w.endswith("ed") for w in verb) and (
                noun == at + 1 or words[at + 1] in DETERMINERS)
        simple_past = words[at + 2:at + 3] and (words[at + 2] in PAST or words[at + 2].endswith("ed"))
        if at >= 0 and words[at + 1:at + 2] and (words[at + 1] in SUBJECTS and told or words[at + 1] == "" and (
                simple_past)):  # ("" an id: "once SNR-07 approved, you paid" tells what happened, "once SNR-07
            # has signed off, we will pay" what is to come; 65th audit)
            found.discard(past)
        elif at >= 0 and past == "before" and words[at + 1:at + 2] and words[at + 1] in DETERMINERS and (
                words[at + 2:at + 3] and words[at + 2] in TIME_NOUNS):
            found.discard(past)  # "it had lapsed before the date of loss": when, not whether
    if "before" in found and any(w == "before" and words[k + 1:k + 2] and words[k + 1].endswith("ing")
                                 for k, w in enumerate(words)) and not present & AWAITING:
        found.discard("before")  # "before booking I checked the record": when, not whether
        # (but "I will wait for the answer before deciding or paying": nothing of it is done yet)
    if not AIMS.isdisjoint(present) and ADDRESSED.isdisjoint(present) and any(
            w in AIMS and words[k + 1:k + 2] == ["to"] for k, w in enumerate(words)):
        found.add("aim")  # "we aim to pay claims within 5 days of a decision": a rule, not this case
    if present & GENERAL_MODALS and ADDRESSED.isdisjoint(present) and ("claims" in present or any(
            w == "a" and words[k + 1:k + 2] and words[k + 1] in GENERIC_THINGS for k, w in enumerate(words))):
        found.add("general")  # "waiting on a claim can be stressful": said of claims in general
    if words and words[0] in GENERIC_PLURALS and ADDRESSED.isdisjoint(present) and TOLD_AS_DONE.isdisjoint(
            present) and not any(w.endswith("ed") and w not in ("exceed", "need", "proceed") for w in words[1:]):
        found.add("general")  # "Claims above £10,000 go to a senior reviewer": the house's rule
    if present & POLICY_TERMS and ADDRESSED.isdisjoint(present) and "claim" not in present:
        found.add("general")  # "The policy wording (clause 7.2) provides cover for 80% of reasonable costs"
    if present & REPORTED and present & WRITINGS and any(
            w in WRITINGS and words[k - 1:k] and words[k - 1] in OURS for k, w in enumerate(words)):
        found.add("reportedly")  # "our letter of 6 March said it was under review": then, not now
    if not DOUBTS.isdisjoint(present) and any(w in DOUBTS and words[k - 1:k] == ["not"] for k, w in enumerate(words)):
        found.add("not sure")  # "not sure how long the exception lasts"
    # "please confirm when its exception expires - the facility is still pending" (90th audit)
    asked = {w for k, w in enumerate(words) if w in found & {"when", "whether", "if"} and k and (words[k - 1] in (
        ASKING_VERBS) or words[k - 1] == "reportedly" and words[k - 2:k - 1] and words[k - 2] in ASKING_VERBS)}
    opens = min((words.index(w) for w in asked), default=0)  # (a hedge inside the question is the question's)
    if asked and not {h for h in found - LOCAL_HEDGES - asked if h not in words or words.index(h) < opens}:
        found.add("asked")  # a question about its own clause only, reaching no clause after it
    return found
