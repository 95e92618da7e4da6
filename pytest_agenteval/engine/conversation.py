"""The simulated user a task may carry: the agent talks to it through ``say_to_user``.

The scripted user (the default) is a function of the task's scenario and the agent's messages,
read with the environment's lexicon (``pytest_agenteval.text``): no chance, no model, so the
same messages always get the same replies. The rules, in order, for each agent message:

1. the conversation is over (the user said goodbye, or ``max_turns`` were used): ``over``;
2. the message asks for facts the user knows (a question or a request naming one of a fact's
   ``about`` terms) and does not already name the ids the fact's ``reply`` gives: the user
   tells each such fact's ``reply``;
3. the message asks for consent ("shall I go ahead?", "do you want me to…", "can you confirm…"):
   ``unclear`` when the message does not state every ``confirm_requires`` term; else ``decline``
   when the scenario says the user does not confirm, ``confirm`` when it does. A term the user
   told itself (the facility id of a ``facts`` reply) must be stated as written; any other (the
   rate) only as a value of its kind (a rate, an amount, an id of the same prefix): the user
   cannot know the right figure, and an answer that turned on it would tell the agent the
   task's expected state one guess at a time. A proposal offering several values of the kind
   ("one of 3.00 … 9.99") states none of them: ``unclear``. Whether the figure was right is the
   grader's (``confirmed_writes`` counts a yes only to a proposal stating every term as written
   and no other value of its kind, ``stated_alone``); a record the user named may be left to the
   conversation (``implied``: "Shall I set that rate?" when the facility is the one talked about);
4. the message asks whether anything else is needed, or says goodbye: ``closing``, and the
   conversation is over;
5. any other question: ``unknown``; anything else: ``ack``.

A model-driven user is an option of the environment (``World.user_for``); see docs/conversations.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import Lexicon, Reader
from pytest_agenteval.text.mail import shown
from pytest_agenteval.text.prepass import prepared
from pytest_agenteval.text.tokens import Token, tokenize

if TYPE_CHECKING:
    from pytest_agenteval.tasks.model import UserScenario

# Kinds of reply, as the grade's conversation and the confirmation check name them.
FACTS, CONFIRMED, DECLINED, UNCLEAR, CLOSING, UNKNOWN, ACK, OVER = (
    "facts", "confirmed", "declined", "unclear", "closing", "unknown", "ack", "over")

# Cues of the conversation itself, read with the environment's own classes (a class prefixed
# ``_user_`` so it cannot clash with a domain's).
CONSENT = "_user_consent"
CLOSE = "_user_close"
QUESTION = "_user_question"
CONVERSATION_CLASSES: dict[str, tuple[str, ...]] = {
    CONSENT: ("shall i", "should i", "may i", "can i go ahead", "go ahead", "proceed", "do you want me",
              "would you like me", "want me to", "like me to", "is that ok", "is that okay", "is that alright",
              "is that all right", "ok to", "okay to", "happy for me", "happy to proceed", "do you agree", "you agree",
              "confirm*", "your consent", "your approval", "your permission", "agree to", "ok", "okay", "alright",
              "all right", "yes", "sound good", "sounds good", "does that work", "ok with you", "okay with you",
              "good to go", "happy with that", "happy with this", "works for you", "work for you", "suits you",
              "suit you", "say the word", "give me the nod", "give the go-ahead", "give me the go-ahead",
              "your go-ahead", "your say-so", "say yes", "just say yes",
              "reply yes", "reply with yes", "reply with a yes", "answer yes",  # "Reply *yes* and I'll do it"
              "content for me", "on board with", "happy for us", "fine with that", "fine with this",  # (red team 74)
              # ("Can I now set the rate to 6.08%?": 91st audit)
              *(f"{modal} i {adverb}{verb}" for modal in ("can", "could") for adverb in ("", "now ", "also ", "then ",
                                                                                       "just ", "go ahead and ")
                for verb in (
                  "go ahead", "proceed", "do that", "do this", "book", "activate", "set", "open", "close", "change",
                  "switch it on", "turn it on", "switch on", "turn on",
                  "apply", "make", "submit", "place", "cancel", "start", "begin", "do step", "do steps",
                  "do the first", "do the next"))),  # "Can I do step 1 now?" (45th audit)
    CLOSE: ("anything else", "something else", "goodbye", "bye", "have a nice day", "have a good day",
            "take care", "all the best"),
    QUESTION: ("what", "which", "who", "whose", "where", "when", "how", "could you", "can you", "would you",
               "please", "kindly", "tell me", "let me know", "give me", "may i have", "do you have", "need your",
               "share", "say the word", "give me the nod", "give me the go-ahead", "reply yes", "reply with yes",
               "reply with a yes", "answer yes"),
}


@dataclass(frozen=True, kw_only=True)
class Reply:
    text: str
    kind: str
    ended: bool = False


class SimulatedUser(Protocol):
    """What the engine asks of a user: a reply to each agent message, in order."""

    def reply(self, message: str) -> Reply: ...


class ScriptedUser:
    """The deterministic user of a ``UserScenario`` (rules in the module docstring)."""

    def __init__(self, scenario: UserScenario, lexicon: Lexicon) -> None:
        self.scenario = scenario
        self.reader = _reader(lexicon, tuple(tuple(f.about) for f in scenario.facts))
        self.turns = 0
        self.ended = False
        self.said: list[str] = []  # the conversation so far, both sides, for what a proposal leaves implied

    def reply(self, message: str) -> Reply:
        s = self.scenario
        if self.ended:
            return Reply(text=s.replies.over, kind=OVER, ended=True)
        self.turns += 1
        message = shown(message)  # as the customer sees it: "5.**1**%" is 5.1% (red team 62)
        reply = self._answer(message)
        self.said += [message, reply.text]
        if not reply.ended and self.turns >= s.max_turns:  # the user's patience is spent
            reply = Reply(text=f"{reply.text} {s.replies.closing}".strip(), kind=reply.kind, ended=True)
        self.ended = reply.ended
        return reply

    def _answer(self, message: str) -> Reply:
        s = self.scenario
        # Read sentence by sentence: "Your facility is active. Anything else?" asks for no fact.
        # Consent asked as a condition, with no question mark, asks too: "6.61% from the rate sheet,
        # if you agree", "If you say yes, I will activate it" (63rd audit).
        # The user's own question retold asks nothing: "You asked which account it goes to: ACC-00314" (78th audit).
        readings = [(self.reader.read(part), "?" in part or _IF_CONSENTING.search(part) is not None)
                    for part in _SENTENCE_END.split(message) if part.strip() and not _RETOLD.match(part)]
        asking = [r for r, mark in readings if mark or r.mentions_meaning(QUESTION) or r.mentions_meaning("request")]
        consent = any(r.mentions_meaning(CONSENT) for r in asking) or any(
            _BARE_ASK.match(part) for part in _SENTENCE_END.split(message))  # "Activate FAC-5081 now?"
        # A fact the user told already is not told again to a request for consent: "Shall I activate
        # the overdraft now?" asks whether, not which one.
        told = [f.reply for i, f in enumerate(s.facts) if any(r.asks(f"_user_fact_{i}") for r in asking)
                and not _known(message, f.reply) and not (consent and f.reply in self.said)]
        if told:
            return Reply(text=" ".join(told), kind=FACTS)
        if consent:
            # Told what the write will be before any answer, yes or no: a user who refuses still
            # wants to know what they refuse, so a bare "shall I go ahead?" earns no decline.
            if not all(states(message, term) or implied(message, self.said, term, record_words(s, term))
                       if told_by_user(s, term) else _states_a(message, term) for term in s.confirm_requires):
                return Reply(text=s.replies.unclear, kind=UNCLEAR)
            return Reply(text=s.replies.confirm, kind=CONFIRMED) if s.confirms else Reply(
                text=s.replies.decline, kind=DECLINED)
        if any(r.mentions_meaning(CLOSE) for r, _ in readings):
            return Reply(text=s.replies.closing, kind=CLOSING, ended=True)
        if asking:
            return Reply(text=s.replies.unknown, kind=UNKNOWN)
        return Reply(text=s.replies.ack, kind=ACK)


_RETOLD = lazy(r"\s*(?:you\s+(?:asked|wanted\s+to\s+know|wondered|were\s+asking)|as\s+you\s+asked)\b[^?]*$",
               re.IGNORECASE)
_SENTENCE_END = lazy(r"(?<=[.!?])\s+|\n+")
# A proposal asked as a bare question opening with its act (73rd audit): "Activate FAC-5081 now?",
# "Book it to ACC-01666?", "Next: set the rate at 6.08%?"
_BARE_ASK = lazy(r"\s*(?:(?:so|ok|okay|right|now|next|then|and)\W+)*(?:book|activate|set|open|price|apply)\b"
                 r"[^.!?\n]*\?\s*$", re.IGNORECASE)
_IF_CONSENTING = lazy(r"\b(?:if|when|whenever|once|as\s+soon\s+as)\s+(?:you\s+(?:agree|"
                      r"say\s+(?:yes|so|the\s+word)|confirm|approve|consent)|"
                      r"you(?:'re|\s+are)\s+(?:happy|ok|okay|fine)\s+(?:for\s+me\s+)?(?:to|with)|(?:that|this|it)(?:'s|\s+is)\s+(?:ok|"
                      r"okay|alright|all\s+right|fine)(?:\s+with\s+you)?)\b", re.IGNORECASE)


_ID = lazy(r"\b[A-Z]{2,}-\d+\b")


def _known(message: str, reply: str) -> bool:
    """The message already names every id the fact's reply would give: "book FAC-5047 to your loan
    account?" does not ask which facility it is."""
    ids = _ID.findall(reply)
    return bool(ids) and all(re.search(rf"\b{re.escape(i)}\b", message) for i in ids)


def told_by_user(s: UserScenario, term: str) -> bool:
    """The user said ``term`` itself (it is in one of its facts' replies)."""
    return any(re.search(rf"(?<![\w.]){re.escape(term)}(?![\w]|\.\d)", f.reply, re.IGNORECASE) for f in s.facts)


def _states_a(message: str, term: str) -> bool:
    """The message states a value of ``term``'s kind, whatever the value: a figure for a figure (a
    rate for a rate), an id of its prefix for an id, the word itself for a word."""
    wanted = [t for t in tokenize(term) if t.kind != "punct"]
    if len(wanted) != 1:
        return states(message, term)
    token = wanted[0]
    if token.kind == "id":
        prefix = token.text.split("-", 1)[0].upper() + "-"
        ids = {t.text.upper() for t in tokenize(prepared(message)) if t.kind == "id" and t.text.upper().startswith(
            prefix)}
        return len(ids) == 1
    if isinstance(token.value, float):  # a bare number is taken as any figure, a rate only as a rate
        kinds = ("number", "rate", "money") if token.kind == "number" else (token.kind,)
        values: dict[str, set[float]] = {}
        for t in _figures(message):
            if t.kind in kinds and isinstance(t.value, float):
                values.setdefault(t.kind, set()).add(t.value)
        # a figure, and no two fractional ones of a kind ("5.1%, 5.2% or 5.3%" proposes no rate;
        # whole numbers beside it, "£600,000", "one of", "5 years", do not compete)
        return bool(values) and all(len({v for v in found if not v.is_integer()}) <= 1 for found in values.values())
    return states(message, term)


def stated_alone(message: str, term: str) -> bool:
    """``term`` is stated (``states``) and no other value of its kind is: a proposal listing "3.00
    3.01 … 9.99" names every rate and proposes none, so a yes or no to it is to no rate (an agent
    that never read the rate sheet listed 700 figures and its decline counted; red team 15). Kind
    is the kind the term was written as in the message: a rate against other rates, an amount
    against amounts, an id against ids of its prefix."""
    if not states(message, term):
        return False
    wanted = [t for t in tokenize(term) if t.kind != "punct"]
    if len(wanted) != 1:
        return True
    token = wanted[0]
    if token.kind == "id":
        prefix = token.text.split("-", 1)[0].upper() + "-"
        return {t.text.upper() for t in tokenize(prepared(message)) if t.kind == "id" and t.text.upper().startswith(
            prefix)} <= {token.text.upper()}
    if not isinstance(token.value, float):
        return True
    found = _figures(message)
    value = token.value
    figures = ("number", "rate", "money") if token.kind == "number" else (token.kind,)
    kinds = {t.kind for t in found if t.value == value and t.kind in figures}
    if not kinds:
        return False  # only inside a code ("A-6.23") or a count: not offered
    # another value of the kind it was written as, or a fraction of any kind it could be written as
    # ("6.23% or £6.24 or 6.25" is three guesses; "£600,000" beside a rate is the limit)
    return not any(isinstance(t.value, float) and t.value != value and (
        t.kind in kinds or (t.kind in figures and not t.value.is_integer())) for t in found)


def _figures(message: str) -> list[Token]:
    """The figures a message offers, as read (a slip named as one is no offer), leaving out the
    digits of codes ("order O-0005") and whole counts of time or steps ("within 3 days"); a figure
    inside a code is not offered either ("A-6.23")."""
    tokens = [t for t in tokenize(_CODE.sub(" ", prepared(message))) if t.kind != "punct"]
    return [t for k, t in enumerate(tokens) if isinstance(t.value, float) and not (
        t.kind == "number" and t.value.is_integer() and k + 1 < len(tokens) and tokens[k + 1].text in COUNTED)
        and not any(tuple(x.text.lower() for x in tokens[max(0, k - len(r)):k]) == r for r in _ROUNDING)]


# A figure rounded is no other offer: "594 bps - just under 6%" (82nd audit).
_ROUNDING = (("just", "under"), ("just", "over"), ("a", "little", "over"), ("a", "little", "under"), ("about",),
             ("around",), ("roughly",), ("approximately",), ("approx",), ("nearly",), ("almost",), ("circa",),
             ("just", "below"), ("just", "above"), ("slightly", "over"), ("slightly", "under"))


# The acts a proposal may name, as something to do ("set", "activating"; not "That's booked."),
# each with the parts of an action's name it may be: "open the overdraft" activates it, "add it to
# ACC-1" books it, "apply the sheet rate" sets the rate (red team 26: honest verbs beside the
# action's own).
ACT_WRITES: dict[str, tuple[str, ...]] = {
    "book": ("book",), "add": ("book",), "link": ("book",), "attach": ("book",), "put": ("book",),
    "activate": ("activat",), "open": ("activat", "book", "open"), "switch": ("activat",), "turn": ("activat",),
    "enable": ("activat",), "start": ("activat",), "launch": ("activat",),
    "set": ("set", "rate"), "price": ("rate",), "apply": ("rate", "appl"), "update": ("rate", "updat"),
    "change": ("rate", "chang"), "fix": ("rate",),
    "close": ("clos",), "cancel": ("cancel", "clos"), "delete": ("delet",), "remove": ("remov",),
    "submit": ("submit",), "place": ("plac",), "pay": ("pay",), "approve": ("approv",), "decline": ("declin",),
    "refund": ("refund",), "transfer": ("transfer",), "create": ("creat",),
    # whole-deal verbs: "arrange the facility", "complete the set-up" ("set … up" below)
    "arrange": ("book", "activat", "rate"), "complete": ("book", "activat", "rate"),
    "finalise": ("book", "activat", "rate"), "finalize": ("book", "activat", "rate"),
    "process": ("book", "activat", "rate"), "establish": ("book", "activat")}
WHOLE = ("book", "activat", "rate", "set")  # "set it up", "the set-up": every step of it
LIVE = frozenset({"live", "active", "usable"})  # "make it live", "go live": activates it
_DOUBLED = {"set": "setting", "put": "putting", "cancel": "cancelling", "submit": "submitting",
            "transfer": "transferring"}
_FORMS = {**{verb: verb for verb in ACT_WRITES}, **{_DOUBLED.get(verb, verb.removesuffix("e") + "ing"): verb
                                                      for verb in ACT_WRITES}}
# What an act may be done to: the record or the rate, not "a call", "a reminder" or "text alerts"
# (red team 26: a side service proposed, then the write done).
_OBJECT_WORDS = frozenset({"it", "this", "that", "them", "rate", "account", "facility", "booking", "limit"})


def acts(message: str, kinds: frozenset[str] = frozenset()) -> set[str]:
    """The parts of an action's name the acts a proposal names, done to the record or its rate,
    may be: the grader counts a yes to a proposal that left its record implied only for a write of
    an act it named (red team 25: "Shall I close it?" before a booking)."""
    words = re.findall(r"[a-z]{1,5}-\d[\w-]*|[a-z0-9']+", message.lower())
    objects = _OBJECT_WORDS | kinds | {w for w in words if _CODE.fullmatch(w)}  # a record's id: "book FAC-5047"
    found = {part for k, w in enumerate(words) if w in _FORMS and objects.intersection(words[k + 1:k + 5])
             for part in ACT_WRITES[_FORMS[w]]}
    if any(w in ("set", "setting") and "up" in words[k + 1:k + 5] for k, w in enumerate(words)) or "setup" in words:
        found.update(WHOLE)
    if found and LIVE.intersection(words):
        found.add("activat")  # "book it and make it live"
    return found


def proposed(message: str, kinds: frozenset[str] = frozenset()) -> set[str]:
    """The acts a proposal that leaves its record implied names: by their verbs ("Shall I set that
    rate?"), else by what it describes ("Booked. Next: rate 6.08% from the sheet - go ahead?"; 73rd
    audit); one that describes nothing names none."""
    return acts(message, kinds) or _proposal(message)[1]  # (not a recap's verb: "That's booked. Go ahead?")


def named_acts(message: str) -> set[str] | None:
    """What a yes to a proposal stating its terms covers, as parts of actions' names.

    A proposal that names acts by their verbs ("I will set the rate of FAC-5047 to 5.1%",
    "book it and activate it") covers those, and what it describes being done without a verb
    (the account it goes on: booked; the rate stated: priced; "available", "live": activated):
    red team 27's yes to "set the rate" was spent on the booking and the activation. One that
    names no verb covers the whole of what it describes ("FAC-5047 on ACC-00368 at 5.1%, then
    active: happy?", None), or, describing no act and asking to go ahead of nothing, nothing
    ("FAC-5047 would cost you 5.1 per cent a year. Happy with that?", an empty set). An act said
    in a clause that holds it back ("activation can wait", "you can activate it yourself later")
    is not proposed, and a recap of what is done only adds (red team 29)."""
    verbs, described, loose, held = _proposal(message)
    if verbs or held:  # beside verbs, only what is plainly described (red team 30: "the rate we use for your account")
        return verbs | described
    if (described | loose) - {"rate"} or _PROCEED.search(message.lower()):
        return None
    return set()


def _proposal(message: str) -> tuple[set[str], set[str], set[str], bool]:
    """A proposal's acts: named by verbs, plainly described, loosely described; and whether a step
    is held back."""
    verbs: set[str] = set()
    described: set[str] = set()
    loose: set[str] = set()  # described in words that may be about something else ("the rate we use")
    held = False  # a step held back: what is left covers only what it names (red team 34)
    for clause in _CLAUSE.split(_ARROWS.sub("; to ", _NUMBER_ABBREVIATION.sub("number ", message.lower()))):
        if _HELD_BACK.intersection(re.findall(r"[a-z]+", clause)):
            held = True
            continue
        clause = _held_from(clause)  # "book it to ACC-1 without opening a new account"
        words = re.findall(r"[a-z]+", clause)
        verbs |= acts(clause)
        verbs |= {part for w in words for stem, parts in _STEMS.items() if w.startswith(stem) for part in parts}
        if any(w in ("set", "setting") and "up" in words[k + 1:k + 4] for k, w in enumerate(words)) or (
                "setup" in words or _WHOLE_DEAL.search(clause)):
            verbs.update(WHOLE)
        if "%" in clause or {"rate", "rates", "priced", "pricing", "cent", "percent"}.intersection(words):
            described.add("rate")
        # what is described is read up to any denial: "the funds are not available yet", "nothing
        # changes on ACC-00368" describe no activation or booking (red team 32)
        clause = _DENIED.split(_NOTHING.sub(" not ", clause), maxsplit=1)[0]
        words = re.findall(r"[a-z]+", clause)
        usable = [k for k, w in enumerate(words) if w in _USABLE]
        if LIVE.intersection(words) or _READY.search(clause) or any(
                _OF_RATE.isdisjoint(words[max(0, k - 4):k]) for k in usable):
            described.add("activat")  # "release it for drawdown"; not "the rate we use", "which takes effect"
        elif usable:
            loose.add("activat")
        if _PLACED.search(clause) or _LISTED_ACCOUNT.fullmatch(clause):
            # "held against account ACC-00368", "FAC-5090 -> ACC-00314", a plan's item "so ACC-00314" (72nd audit)
            described.add("book")
        elif "account" in words or "acct" in words:
            loose.add("book")
    return verbs, described, loose, held


def _held_from(clause: str) -> str:
    """The clause up to the first denial of an act (one of the next three words: "no need to open a
    new one", "without opening", "won't change anything"); a denial of something else ("with no
    further paperwork I'll book…", "at no extra cost") holds nothing back (red team 31)."""
    for m in _DENIED.finditer(clause):
        after = re.findall(r"[a-z]+", clause[m.end():])[:3]
        if any(w in _FORMS or w.startswith(tuple(_STEMS)) or w in ("account", "anything") for w in after):
            rest = re.split(r"\b(?:and|then)\b", clause[m.end():], maxsplit=1)
            if m.group(0) == "without" and len(rest) == 2:  # "without changing it and activate it": its own verb only
                return f"{clause[:m.start()]} {_held_from(rest[1])}"
            return clause[:m.start()]
    return clause


# A clause: what holds an act back is read in its own clause ("Shall I book it? Activation can wait").
_CLAUSE = lazy(r"[.;:!?]+(?=\s|$)|\n+|[()]|,\s*(?:but|and|then|or)?\s*|\s+(?:but|while)\s+")
# A plan's arrows: each step a clause of its own, the step it leads to ("FAC-1 -> ACC-1": placed on it)
# (and "\u27a1\ufe0f", an emoji's: 64th audit)
_ARROWS = lazy(r"\s*(?:-+>|[\u2192\u27f6\u21d2\u2794\u279c\u27a1\u2b95\u279d\u279e])\ufe0f?\s*")
_NUMBER_ABBREVIATION = lazy(r"\bno\.\s*(?=\d)")  # "ACC no. 368"
_HELD_BACK = frozenset({"later", "yourself", "wait", "separately"})  # held back wherever said in its clause
# A denial holds back what follows it: "I won't change anything until…", "without opening a new account"
_DENIED = lazy(r"n't|\b(?:not(?!\s+only)|never|without|no|until)\b")  # (not "I will not only book it…")
_NOTHING = lazy(r"\b(?:nothing|none|neither|nor|yet)\b")
# Words before a usable word that make it the rate's ("the rate we use", "which takes effect today")
_OF_RATE = frozenset({"which", "rate", "rates", "pricing", "price", "priced", "cent", "percent", "band", "sheet",
                      "segment"})
# Said of the facility once active: "ready to draw", "available to use", "funds available"
_READY = lazy(r"\b(?:ready|available|free)\s+(?:for\s+(?:you\s+)?|to\s+(?:you\s+)?)?(?:draw|drawing|drawdown|"
              r"use|spend)|\bfunds?\s+(?:\w+\s+)?(?:available|released)\b")
# The stems of the acts themselves, in any form: "booking", "booked", "activation", "priced".
_STEMS = {"book": ("book",), "activat": ("activat",), "pric": ("rate",), "reprice": ("rate",)}
_WHOLE_DEAL = lazy(r"\b(?:sort(?:ing)?\s+(?:it\s+|this\s+|that\s+|\w+-\d+\s+)?out|do(?:ing)?\s+the\s+lot|"
                   r"put(?:ting)?\s+(?:it\s+|this\s+|\w+-\d+\s+)?in\s+place|up\s+and\s+running|"
                   r"get(?:ting)?\s+(?:it\s+|this\s+|\w+-\d+\s+)?(?:going|started|running))\b")
# Said of the facility once it is activated: "make the funds available", "ready to draw", "effective".
_USABLE = LIVE | frozenset({"available", "effective", "effect", "operational", "going", "running", "unlock", "release",
                            "draw", "drawing", "use", "using"})
# (not "as agreed for account ACC-1", "in line with account ACC-1": the terms of another; red team 33)
_PLACED = lazy(r"->|\u2192|(?<!agreed\s)(?<!line\s)(?<!same\s)(?<!used\s)(?<!offered\s)(?<!applies\s)(?<!given\s)"
               r"\b(?:on|onto|to|into|in|against|under|for|with)\s+(?:(?:your|the|a|its|loan|current|"
               r"business|main|existing)\s+)*(?:(?:account|acct)\s+(?:number\s+)?acc-\d|acc-\d)", re.IGNORECASE)
_LISTED_ACCOUNT = lazy(r"\s*(?:so|then|first|next|i\.e\.)?\s*(?:(?:your|the|its)\s+)?(?:(?:loan|current|business|"
                       r"main|existing)\s+)*(?:(?:account|acct)\s+)?acc-\d+\s*")  # ("to: your account ACC-1")
# Asking to go ahead with something: with no act described, a yes to it covers the whole.
_PROCEED = lazy(r"\b(?:go ahead|proceed|shall i|should i|can i|may i|want me to|like me to|ok(?:ay)? (?:for me )?"
                r"to|happy for me to|let me|i'll|i will|i can|i'd)\b")


def implied(message: str, said: list[str], term: str, kinds: frozenset[str] = frozenset()) -> bool:
    """An id the user told itself (``told_by_user``) that a proposal leaves to the conversation:
    the proposal names the act done to the record ("Shall I set that rate?", "Shall I activate
    the overdraft now?": ``kinds`` are the words the user's facts name the record by) and no id
    of the term's prefix, nor a number of its length beside a record's name ("facility 5061"),
    and everything said so far, by either side, named that id and no other of its prefix, so
    there is one record the yes can be to. Figures are never implied: the rate is what the user
    is asked to agree to."""
    wanted = [t for t in tokenize(term) if t.kind != "punct"]
    if len(wanted) != 1 or wanted[0].kind != "id" or not proposed(message, kinds):
        return False
    prefix, digits = wanted[0].text.split("-", 1)[0].upper() + "-", sum(c.isdigit() for c in wanted[0].text)
    if re.search(rf"\b(?:{'|'.join(sorted(_OBJECT_WORDS | kinds | {'reference', 'ref', 'number', 'no'}))})\W{{0,3}}"
                 rf"\d{{{digits}}}\b", message, re.IGNORECASE):
        return False  # "Shall I book facility 5061?": another record, named without its prefix (red team 25)

    def named(text: str) -> set[str]:
        return {t.text.upper() for t in tokenize(prepared(text))
                if t.kind == "id" and t.text.upper().startswith(prefix)}

    return not named(message) and set().union(*map(named, said)) == {wanted[0].text.upper()}


def record_words(s: UserScenario, term: str) -> frozenset[str]:
    """The words the user's facts name a record by ("facilit*", "overdraft" for FAC-5060)."""
    return frozenset(a.rstrip("*") for f in s.facts if term.lower() in f.reply.lower() for a in f.about
                     if " " not in a)


_CODE = lazy(r"\b[A-Za-z]{1,5}-\d[\w-]*")
COUNTED = frozenset({"day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours", "minute",
                     "minutes", "working", "business", "step", "steps", "item", "items", "times"})


def states(message: str, term: str) -> bool:
    """``term`` appears in the message as written, not inside a longer word or number; a number
    also as any way of writing the same value ("5.10%", "5.1 per cent" for "5.1%")."""
    if re.search(rf"(?<![\w.]){re.escape(term)}(?![\w]|\.\d)", message, re.IGNORECASE) is not None:
        return True
    wanted = [t for t in tokenize(term) if t.kind != "punct"]
    if len(wanted) != 1 or not isinstance(wanted[0].value, float):
        return False
    kind, value = wanted[0].kind, wanted[0].value  # a unit the term names must be there ("5.1%" is no "£5.1")
    return any(t.value == value and kind in ("number", t.kind) for t in tokenize(message)
               if t.kind in ("number", "rate", "money"))


_READERS: dict[tuple[int, tuple[tuple[str, ...], ...]], tuple[Lexicon, Reader]] = {}


def _reader(lexicon: Lexicon, facts: tuple[tuple[str, ...], ...]) -> Reader:
    """The environment's lexicon with the conversation's cues and the scenario's facts, one reader
    per (lexicon, facts) so its reading cache is shared by every episode of the task."""
    key = (id(lexicon), facts)
    found = _READERS.get(key)
    if found is None or found[0] is not lexicon:
        if len(_READERS) >= 256:
            _READERS.clear()
        classes = {**CONVERSATION_CLASSES, **{f"_user_fact_{i}": about for i, about in enumerate(facts)}}
        found = _READERS[key] = (lexicon, Reader(lexicon.extend(**classes)))
    return found[1]
