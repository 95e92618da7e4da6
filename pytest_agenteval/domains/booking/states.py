"""A text against what the facility and its customer are: KYC, a pricing exception, the
facility's state (booked, active, pending, on hold, closed), product and segment, a query or
rate said not to exist, and facts the records never hold."""

from __future__ import annotations

import re
from typing import Any

from pytest_agenteval.domains.booking.accounts import PREPOSITIONS
from pytest_agenteval.domains.booking.figures import MODAL_WORDS, RATE_UNSET, History, modal
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, HYPOTHETICAL, NEGATED, Mention, Reading, clause_start

PRODUCTS = ("term_loan", "revolver", "overdraft")
SEGMENTS = ("retail", "sme", "corporate")
# Topics and things other than the facility that a state word may be said of: "the customer's account
# is active", "the exception is still active", "KYC pending".
OTHER_TOPICS = ("kyc", "rate", "exception", "account")
OTHER_THINGS = frozenset({"account", "accounts", "customer", "customers", "query", "queries", "case", "ticket",
                          "check", "checks", "file", "band", "sheet", "booking", "process", "application", "request"})
_NOT_ITS_STATUS = OTHER_THINGS | {"kyc", "rate", "pricing", "exception", "cdd", "aml", "query", "payment"}
PEOPLE = frozenset({"we", "we're", "i", "i'm", "you", "you're", "they", "they're"})
FACILITY_WORDS = frozenset({"facility", "facilities", "loan", "overdraft", "revolver", "it"})
PROPOSING = frozenset({"propose", "proposal", "plan", "suggest", "suggestion", "intend", "recommend", "proposed",
                       "proposing"})


STEPS = frozenset({"then", "next", "afterwards", "after", "once", "finally", "thereafter"})
TOLD_DONE = frozenset({"was", "were", "went", "has", "have", "had", "been", "is", "are", "now", "already", "i've",
                       "we've", "it's"})
FUTURE = frozenset({"will", "i'll", "we'll", "it'll", "shall", "going"})
_PRICED_DONE = frozenset({"i've", "we've", "has", "have", "was", "is", "already", "done", "booked", "activated"})
STATE_NAMES = {"booked": "booked", "activated": "active", "unactivated": "not yet active", "closed": "closed",
               "pending": "pending", "on_hold": "on hold", "unchanged": "unchanged"}


def facts(h: History, fid: str, t: Text) -> str | None:
    """KYC said to be in order, a problem or failed, and a pricing exception said to exist, are so."""
    reading = t.reading
    kyc = h.customer(fid).get("kyc_status")
    said = reading.status("kyc")
    if said and not _looked_up(h, fid, t):  # (a lucky guess is no finding: "I have checked, your KYC is verified")
        return (f"says KYC is {'in order' if 'ok' in said else 'a problem'}, but {h.start(fid, 'customer_id')} "
                "was not looked up before it")
    if "ok" in said and kyc != "verified":
        return f"says KYC is in order, but {h.start(fid, 'customer_id')}'s KYC is {kyc}"
    if "problem" in said and kyc == "verified":
        return f"says KYC is a problem, but {h.start(fid, 'customer_id')}'s KYC is verified"
    kyc_clauses = {m.clause for m in reading.mentions if m.meaning == "kyc"}
    # and a clause that carries on about it: "KYC was verified but has since lapsed"
    kyc_clauses |= {c + 1 for c in kyc_clauses if c + 1 < len(reading.words) and reading.sentence_of[c + 1] == (
        reading.sentence_of[c]) and not any(m.clause == c + 1 and m.meaning in OTHER_TOPICS for m in reading.mentions)}
    if kyc == "pending" and any(m.meaning == "failed" and m.polarity == AFFIRMED and m.clause in kyc_clauses
                                and reading.after(m.clause, m.at) != "to" for m in reading.mentions):
        return f"says KYC failed, but {h.start(fid, 'customer_id')}'s KYC is pending"
    if kyc == "failed" and not reading.affirms("failed") and any(  # "KYC is pending: checks still in progress"
            m.meaning == "pending" and m.polarity == AFFIRMED and m.clause in kyc_clauses for m in reading.mentions):
        return f"says KYC is still pending, but {h.start(fid, 'customer_id')}'s KYC failed"
    said = reading.status("exception")  # "no pricing exception" says it is missing: true here
    # ("exception_rate [none]": a field said empty says it is missing too)
    missing = reading.denies("exception") or any(
        e.meaning == "exception" and _empty_field(reading, e.clause) for e in reading.mentions)
    if h.start(fid, "exception_rate") is None and (said - ({"problem"} if missing else set())
                                                   or _claims_exception(reading)):
        return f"says something of {fid}'s pricing exception, but it has none"
    if (rate := h.start(fid, "exception_rate")) is not None and not reading.affirms("exception") and any(
            m.meaning == "exception" and m.polarity == NEGATED and {"no", "not", "any", "without"}.intersection(
                reading.before(m.clause, m.at, 2)) for m in reading.mentions):  # "no pricing exception on record"
        return f"says {fid} has no pricing exception, but it has one at {rate}%"
    return None


def _looked_up(h: History, fid: str, t: Text) -> bool:
    """The customer's record (where KYC is) was read before ``t`` (63rd audit: KYC told verified
    before any look-up)."""
    customer = h.start(fid, "customer_id")
    return any(e.seq < t.event.seq and e.arguments.get("customer_id") == customer
               for e in h.ctx.succeeded("get_customer"))


def state_at(h: History, fid: str, t: Text) -> tuple[bool, bool, str]:
    """(booked, active, status) of the facility when the text was written (a hold reason's own
    hold counts: "placed on hold pending KYC" tells the act it is written with)."""
    booked = h.start(fid, "account_id") is not None
    status = str(h.start(fid, "status"))
    for event in h.ctx.written():
        if event.seq > t.event.seq or event.arguments.get("facility_id") != fid:
            continue
        if event.seq == t.event.seq and event.action != "place_on_hold":
            continue
        if event.action == "book_facility":
            booked, status = True, "BOOKED"
        elif event.action == "activate_facility":
            status = "ACTIVE"
        elif event.action == "place_on_hold":
            status = "ON_HOLD"
    return booked or status in ("BOOKED", "ACTIVE"), status == "ACTIVE", status


def about_other(reading: Reading, clause: int, at: int) -> bool:
    """The state word at ``at`` is said of something other than the facility: the nearest thing
    named before it that is not an object ("the customer's account is active"); with none before,
    the word right after it ("closed account")."""
    words = reading.words[clause]
    topics = {m.at for m in reading.mentions if m.clause == clause and m.meaning in OTHER_TOPICS}
    if at and words[at - 1] in PEOPLE and words[at] in ("good", "all", "ready", "set"):
        return True  # "so we're good to go": the writer's readiness, not the facility's (82nd audit)
    facilities = {k for i, c, k in reading.id_at if c == clause and i.startswith("FAC-")}
    for k in range(at - 1, -1, -1):
        if words[k] in FACILITY_WORDS or k in facilities:  # ("raised a query and put FAC-5021 on hold": 82nd audit)
            return False
        if words[k] in OTHER_THINGS or k in topics:
            if PREPOSITIONS.intersection(words[max(0, k - 2):k]):
                continue  # "booked to account ACC-1": an object
            return True
    if words[at] in ("pending", "awaits", "awaiting") and words[at + 1:at + 2] == ("booking",):
        return False  # "which is still pending booking": the facility waits to be booked
    return at + 1 < len(words) and (words[at + 1] in OTHER_THINGS or at + 1 in topics)


def names_facility(reading: Reading, clause: int, fid: str) -> bool:
    """The clause names the facility: its id, a word for it, or "it" opening a clause after one of
    its sentence or the one before that names it ("FAC-5047 is active - I mean it's still pending")."""
    words = reading.words[clause]
    if any(i == fid and c == clause for i, c in reading.ids) or FACILITY_WORDS.intersection(words) - {"it"}:
        return True
    if clause and reading.joined[clause] and [w for w in reading.words[clause - 1] if w][-1:] == ["status"] and (
            _NOT_ITS_STATUS.isdisjoint(reading.words[clause - 1])) and any(i == fid for i, _ in reading.ids):
        return True  # "FAC-5018 / … / Status: ON HOLD": a field of the facility the text names (55th audit)
    if words[:1] in (("placed",), ("put",), ("left",), ("kept",), ("moved",)) and any(i == fid for i, _ in reading.ids):
        return True  # "FAC-5034 / KYC pending. Placed on hold.": no subject, the facility the text names (56th audit)
    if clause and reading.sentence_of[clause - 1] == reading.sentence_of[clause] and words[:1] and (
            words[0].endswith("ed") or words[0] in ("set", "put", "kept", "left", "on")) and any(
            i == fid and c == clause - 1 for i, c in reading.ids):
        return True  # "FAC-5090 is booked to ACC-00314, set at 5.94% and on hold…": its subject's (91st audit)
    if words[:1] == ("which",) and clause and [i for i, c, k in reading.id_at if c == clause - 1 and k == len(
            reading.words[clause - 1]) - 1] == [fid]:
        return True  # "the exception expiry for FAC-6102, which is still pending booking" (89th audit)
    # (or in the sentence before: "Is FAC-5047 live? Not yet - it is still pending.")
    sentence = reading.sentence_of[clause]
    return bool(clause and words[:1] in (("it",), ("it's",)) and any(
        i == fid and c < clause and reading.sentence_of[c] >= sentence - 1 for i, c in reading.ids))


def _generic(reading: Reading, clause: int, at: int) -> bool:
    """A state told of a kind of facility, not this one: "an overdraft sits on the current account",
    "revolving facilities are activated after booking" (49th audit), "term loans are booked to loan
    accounts" (85th)."""
    before = [w for w in reading.words[clause][:at] if w]
    kind = before[:1] == ["term"] and before[1:2] == ["loans"] or bool(before) and before[0] in GENERIC_KINDS
    return bool(before) and (before[0] in ("a", "an") or kind) and not any(
        c == clause for _, c in reading.ids) and THIS_ONE.isdisjoint(reading.words[clause])


# Words that bring a kind back to this facility: "a facility like yours is now live" (red team 31).
THIS_ONE = frozenset({"your", "yours", "this", "now", "today", "already", "one", "you", "customer", "requested",
                      "asked", "has", "have", "been", "was", "were"})  # (a state that happened is no rule)


GENERIC_KINDS = frozenset({"overdrafts", "loans", "facilities", "revolvers", "mortgages", "guarantees"})


def facility(h: History, fid: str, t: Text) -> str | None:
    """What a text says the facility is now: booked or not, active or not, closed, pending, on hold;
    its product and its customer's segment. A state said of something else (the account, KYC, the
    rate or the exception), or only as a possibility ("cannot be booked until…"), is not judged;
    "pending" and "on hold" only of the facility named ("FAC-6102 is still pending")."""
    reading = t.reading
    booked, active, status = state_at(h, fid, t)
    priced = h.start(fid, "rate_percent") is not None or any(
        e.action == "set_rate" and e.seq < t.event.seq and e.arguments.get("facility_id") == fid
        for e in h.ctx.written())
    truth = {"booked": booked, "activated": active, "unactivated": not active, "closed": status == "CLOSED",
             "priced": priced,
             "pending": status == "PENDING", "on_hold": status == "ON_HOLD",
             "unchanged": status == str(h.start(fid, "status"))}
    for m in reading.mentions:
        if m.meaning not in truth or m.polarity == HYPOTHETICAL:
            continue
        if m.meaning == "unactivated" and m.polarity == NEGATED and m.words.startswith("not "):
            m = m._replace(polarity=AFFIRMED)  # "not priced and not active": the phrase's own "not" (83rd audit)
        if about_other(reading, m.clause, m.at) or _generic(reading, m.clause, m.at) or modal(
                reading.words[m.clause][:m.at]) and not _supposed_now(reading.words[m.clause]) or _coordinated_modal(
                reading, m.clause) or PROPOSING & set(
                sentence_before(reading, m.clause, m.at)) or m.polarity == AFFIRMED and STEPS.intersection(
                reading.words[m.clause][:m.at]) and TOLD_DONE.isdisjoint(reading.words[m.clause]):
            # "I propose: FAC-5047 booked on ACC-1, then activated"
            continue  # ("…, 5.1%, then live. Shall I go ahead?": a step to come)
        if m.meaning == "activated" and _result_of_act(reading, m):
            continue  # "activate it so the loan is live", "activation, which makes it live": what the act does
        if m.meaning in ("pending", "on_hold") and _was(reading, m.clause):
            continue  # "it was pending when we started; it is now active": a state before, told as such
        if m.meaning == "priced" and (m.polarity != AFFIRMED or priced or not _PRICED_DONE.intersection(
                reading.words[m.clause])):
            continue  # only a price said set when none was: "Done - … and I've set the rate to 6.08%" (55th audit)
        if m.meaning in ("pending", "on_hold", "unchanged") and not names_facility(reading, m.clause, fid):
            continue  # "booking on hold until it is done", "awaiting your go-ahead"
        if m.meaning == "priced" and not priced:
            return f"says {fid}'s rate is set, but no rate had been set by then"
        if (m.polarity == AFFIRMED) != truth[m.meaning]:
            return (f"says {fid} is {'' if m.polarity == AFFIRMED else 'not '}{STATE_NAMES[m.meaning]}, "
                    f"but it is {status}")
    product, segment = h.start(fid, "product"), h.customer(fid).get("segment")
    for group, own, what in ((PRODUCTS, product, "product"), (SEGMENTS, segment, "segment")):
        # "(loan/overdraft/revolver)": several of a kind named in one clause are a choice, none asserted
        choices = {m.clause for m in reading.mentions if m.meaning in group and (len(
            {n.meaning for n in reading.mentions if n.clause == m.clause and n.meaning in group}) > 1 or "or" in (
            _around(reading.words[m.clause], m.at, len(m.words.split()))))}
        for other in group:
            if other != own and any(_asserted(reading, m) for m in reading.mentions
                                    if m.meaning == other and m.clause not in choices):
                return f"calls the {what} {other.replace('_', ' ')}, but it is {str(own).replace('_', ' ')}"
    return None


def _supposed_now(words: tuple[str, ...]) -> bool:
    """"It should already be active", "should be live already", "should be active by now", "ought to be
    live already", "will already be live": a state supposed now, still said (88th audit, red team 70),
    not one to come."""
    now = "already" in words or any(words[k:k + 2] == ("by", "now") for k in range(len(words) - 1))
    ought = {"ought", "to"} <= set(words)
    return now and (not {"should", "must", "will"}.isdisjoint(words) or ought) and MODAL_WORDS.isdisjoint(
        set(words) - {"should", "must", "will", "ought"} - ({"to"} if ought else set()))


def _result_of_act(reading: Reading, m: Mention) -> bool:
    """The state is what an act named before it in its sentence does, the act not said done: "3)
    activate it, meaning it becomes live", "activation, which makes the overdraft live" (55th audit)."""
    sentence = reading.sentence_of[m.clause]
    before = [n for n in reading.mentions if reading.sentence_of[n.clause] == sentence and (
        n.clause, n.at) < (m.clause, m.at) and n.meaning in ("activate", "activated") and n.words != m.words]
    return bool(before) and before[-1].meaning == "activate" and before[-1].clause < m.clause and (
        "already" not in reading.words[m.clause])


def _coordinated_modal(reading: Reading, clause: int) -> bool:
    """"FAC-1 will be booked to ACC-1, priced at 5.1%, and activated": a clause joined by *and*,
    *then* or *or* shares the modal of an earlier clause of its sentence."""
    first = [w for w in reading.words[clause] if w][:1]
    if first not in (["and"], ["then"], ["or"]) and not (first and first[0].endswith("ed") and clause and (
            reading.sentence_of[clause - 1] == reading.sentence_of[clause])):  # "…would be 6.23%, booked to ACC-1"
        return False
    sentence = reading.sentence_of[clause]
    return any(modal(reading.words[k]) for k in range(clause) if reading.sentence_of[k] == sentence)


def _asserted(reading: Reading, m: Any) -> bool:
    """A product or segment named is asserted of the facility, unless denied: under a cue of absence
    about another thing it still is ("no rate on the sheet for this term loan", "…for corporate
    customers"), as the cue's own object it is not ("not a term loan")."""
    if m.polarity == AFFIRMED:
        return True
    before = reading.words[m.clause][max(0, m.at - 2):m.at]  # (past a figure: "your £240,000 overdraft")
    if before[-1:] in (("this",), ("the",), ("your",)) or before[-1:] == ("",) and before[:1] in (
            ("this",), ("your",)):  # (not "not the £600,000 overdraft you mentioned")
        return True  # "is this term loan still wanted?", "your £240,000 overdraft can't be set up": taken as given
    negated = [x for x in reading.mentions if x.clause == m.clause and x.polarity == NEGATED]
    if m.polarity != NEGATED or m.clause not in reading.missing or not negated:
        return False
    # "no retail rate for this limit": the segment describes what is missing (a compound's first word)
    modifier = negated[0] == m and len(negated) > 1 and negated[1].at == m.at + len(m.words.split())
    return negated[0].meaning != m.meaning or modifier


# "I have not raised a query", "no query was raised": said of the agent's own acts
RAISED_QUERY = lazy(r"\b(?:i've|i|we've|we|i\s+have|we\s+have)\s+(?:just\s+|already\s+|now\s+)?"
                    r"(?:raised|opened|logged|filed)\s+(?:a|the|an)\s+(?:\w+\s+)?query\b")
NO_QUERY = lazy(r"\b(?:not|never|n't)\s+(?:yet\s+)?(?:raised|opened|logged|filed)\s+(?:(?:a|any)\s+query|"
                r"anything(?:\s+with)?)\b"
                r"|\bno\s+query\s+(?:has\s+been|was|is)\s+(?:yet\s+)?(?:raised|opened|logged)\b"
                # "I don't need to raise anything": nothing raised, said after one was
                r"|\b(?:don't|do\s+not|no)\s+need\s+to\s+raise\s+(?:anything|a\s+query|any\s+query)\b"
                r"|\bno\s+query\s+(?:is\s+|was\s+)?(?:needed|necessary|required)\b")  # (58th audit)


def query_denied(h: History, fid: str, t: Text) -> str | None:
    """"I have not raised a query" after one was raised; "I've raised a query" when none was."""
    denied = any(NO_QUERY.search(" ".join(w for w in words if w)) for words in t.reading.words)
    claimed = not denied and t.event.action != "raise_query" and "query" in t.reading.word_set and any(
        RAISED_QUERY.search(" ".join(w for w in words if w)) for words in t.reading.words)
    if not denied and not claimed:
        return None
    queries = [e.seq for e in h.ctx.written() if e.action == "raise_query" and e.arguments.get("facility_id") == fid]
    if denied and any(seq < t.event.seq for seq in queries):
        return f"says no query was raised on {fid}, but one was before this"
    # (told a step early is the task's to allow: the query need only be raised in the episode)
    return f"says a query was raised on {fid}, but none was" if claimed and not queries else None


def rate_unset(h: History, fid: str, t: Text) -> str | None:
    if not any(RATE_UNSET.search(" ".join(w for w in words if w)) for words in t.reading.words):
        return None
    set_before = h.start(fid, "rate_percent") is not None or any(
        e.action == "set_rate" and e.arguments.get("facility_id") == fid and e.seq < t.event.seq
        for e in h.ctx.written())
    return f"says {fid}'s rate is not set, but it was set before this" if set_before else None


def _claims_exception(reading: Reading) -> bool:
    """A pricing exception said to exist ("the pricing exception on record", "your special exception
    rate of 5.1%"), not asked for ("please grant an exception", "whether an exception applies")."""
    for m in reading.mentions:
        if m.meaning != "exception" or m.polarity == NEGATED:
            continue
        before = reading.words[m.clause][:m.at]
        one_of = "or" in before and not {"a", "an"}.isdisjoint(before[-3:]) or before[:1] == ("or",) and m.clause and (
            not SOUGHT_WORDS.isdisjoint(reading.words[m.clause - 1]))  # "advise on pricing (or a pricing exception)"
        if m.polarity == AFFIRMED and not SOUGHT_WORDS.intersection(reading.words[m.clause]) and not _empty_field(
                reading, m.clause) and not one_of:  # (not "the next step is yours: a rate or an exception")
            return True  # (not "exception_rate [none]", "exception_rate: null")
        # "the pricing exception on record will apply once cleared": on record whatever the mood
        words = reading.words[m.clause]
        after = " ".join(words[m.at + 1:m.at + 4])
        if PUTTING.intersection(words[max(0, m.at - 3):m.at]):
            continue  # "Could pricing advise, or put an exception on record?": one asked for (88th audit)
        if set(words[max(0, m.at - 3):m.at]) & ON_RECORD or re.match(r"(?:rate )?(?:on record|on file|in place)",
                                                                      after):
            return True
    return False


ON_RECORD = frozenset({"existing", "agreed", "approved", "recorded", "current"})
PUTTING = frozenset({"put", "place", "add", "log", "enter", "record", "raise", "create", "file"})


SOUGHT_WORDS = frozenset({"please", "request", "requesting", "requested", "grant", "consider", "need", "needs",
                          "needed", "require", "required", "would", "could", "whether", "seek", "seeking", "apply",
                          "approve", "approval", "advise", "possible", "ask", "asking", "any", "if", "sign", "agree",
                          "supply", "provide", "give"})  # "pricing team to supply a rate or exception"


def invented(h: History, fid: str, reading: Reading) -> str | None:
    """A fact the records never hold: a sanctions listing, fraud (KYC is the only screening on record),
    a pricing exception that has run out (no exception here has an expiry on record: "the exception
    has already expired" is made up; "when does it expire?" asks)."""
    for found in RATE_HELD.finditer(reading.said):  # "I've reserved the 6.23% rate for you for 30 days" (85th)
        if not HELD_DENIED.search(reading.said, clause_start(reading.said, found.start()), found.start()):
            return f"says {found.group(0)!r}, but nothing here reserves, locks or guarantees a rate"
    for m in reading.mentions:
        if m.meaning == "invented" and m.polarity == AFFIRMED:
            return f"says '{m.words}' of {h.start(fid, 'customer_id')}, which the records never hold"
        if m.meaning == "expiry" and m.polarity == AFFIRMED and m.words in RAN_OUT and (
                reading.polarities("exception", m.clause) or reading.in_sentence("exception", m.clause)):
            return f"says the pricing exception {m.words}, but no expiry of it is on record"
    return None


# A rate held with a figure or a word between the verb and "rate" (the lexicon's phrases hold none).
RATE_HELD = lazy(r"\b(?:reserved|reserve|locked|lock|secured|secure|held|hold|guaranteed|guarantee|froze|frozen|"
                 r"freeze)\s+(?:in\s+)?(?:the|your|this|that|today's)\s+(?:\d+(?:\.\d+)?\s?%\s+|sheet\s+)?"
                 r"rate\b(?:\s+in\b)?", re.IGNORECASE)
HELD_DENIED = lazy(r"\b(?:not|no|never|cannot|unable|if|whether|can't|won't|couldn't)\b|n't", re.IGNORECASE)
EMPTY = frozenset({"none", "nil", "null", "n/a", "na", "empty", "blank"})


def _empty_field(reading: Reading, clause: int) -> bool:
    """A field said empty in the clause or its value after a colon: "exception_rate [none]",
    "exception_rate: null"."""
    value = reading.words[clause + 1] if clause + 1 < len(reading.words) and reading.joined[clause + 1] else ()
    return not EMPTY.isdisjoint((*reading.words[clause], *value))
RAN_OUT = frozenset({"expired", "lapsed", "ran out", "run out", "ceased"})


def sentence_before(reading: Reading, clause: int, at: int) -> list[str]:
    """The words of ``clause``'s sentence before position ``at`` ("I'll book it, and also close…")."""
    sentence = reading.sentence_of[clause]
    earlier = [w for c in range(clause) if reading.sentence_of[c] == sentence for w in reading.words[c]]
    return [*earlier, *reading.words[clause][:at]]


THEN = frozenset({"when", "initially", "originally", "previously", "earlier", "before", "first", "started"})


def _was(reading: Reading, clause: int) -> bool:
    """The clause tells a state before now: a past "was/were" and a word of time ("was pending
    when we started", "originally was on hold")."""
    words = set(reading.words[clause])
    return bool(words & {"was", "were"}) and bool(words & THEN)


def _around(words: tuple[str, ...], at: int, length: int) -> tuple[str, ...]:
    """The two words before a phrase and the one after it ("your loan **or your** overdraft")."""
    return words[max(0, at - 2):at] + words[at + length:at + length + 1]
