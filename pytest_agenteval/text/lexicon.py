"""Meaning classes: named sets of words and phrases that say the same thing.

A term is a word (``invoice``), a word stem ending in ``*`` (``approv*``: approve, approved,
approval…) or a phrase of such words (``know your customer``, ``turn* down``). A lexicon is
English and small on purpose: each environment extends the base one with its own classes
(``Lexicon.extend``), and documents them, so an agent can know which words carry a meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Words that negate what follows them in their clause (NegEx-style cues).
NEGATIONS = frozenset({"not", "no", "never", "cannot", "neither", "nor", "none", "nothing", "without", "unable",
                       "nobody", "nowhere", "lack", "lacks", "lacking", "absent", "instead", "rather",
                       "nil"})  # shorthand: "nil pd"
# Undoing what follows: "we have reversed our approval and withdrawn the payment" (two undoings
# do not cancel each other, as two negations do). Negation cues unless the lexicon has the word.
REVERSALS = frozenset({"reversed", "reverse", "reversing", "withdrawn", "withdrew", "withdraw", "rescinded", "rescind",
                       "revoked", "revoke", "overturned", "overturn", "retracted", "retract", "cancelled", "canceled",
                       "cancel", "withheld", "withhold", "withholding", "stopped", "suspended", "halted", "frozen"})
NEGATIONS = NEGATIONS | REVERSALS
# Words that make what follows them in their clause hypothetical: asserted as neither true nor false.
# A question is hypothetical too. ("could"/"would" are not here: "could not be approved" declines.)
# What is said as a habit or a general rule ("claims are normally settled within a week") tells
# nothing of this case: hedged too.
HABITUAL = frozenset({"normally", "usually", "typically", "generally", "ordinarily", "routinely", "customarily"})
HEDGES = frozenset({"if", "whether", "once", "unless", "until", "may", "might", "should", "when", "whenever",
                    "before", "provided", "subject", "possibly", "perhaps", "unsure", "uncertain",
                    "reportedly", "depends", "depend", "depending", "dependent", "contingent"}) | HABITUAL
# An aim said of no one in particular ("we aim to pay claims within 5 days") is a general rule; said
# to the reader ("we aim to pay you by Friday") it is a promise.
AIMS = frozenset({"aim", "aims", "endeavour", "endeavor", "strive", "try", "tries", "seek", "seeks"})
ADDRESSED = frozenset({"you", "your", "yours"})
# "please approve": asked of someone, not done.
BIDDING = frozenset({"please", "kindly"})
# After "and"/"or", a cue of absence opens a clause of its own: "not approved and no payment will be made".
FRESH_NEGATIONS = frozenset({"no", "never", "nothing", "none"})
# Hedges after which the words before stay asserted: "we cannot pay unless you send the invoice"
# denies payment now, and says the decision waits on a condition.
CONDITIONS = frozenset({"unless", "until", "once", "subject", "provided",
                        "depends", "depend", "depending", "dependent", "contingent"})  # "payment depends on…"
# "Waiting on KYC before this facility can be booked": what comes before "before" stays asserted
# (but, unlike a condition, no decision is said to wait on it).
ASSERTED_BEFORE = CONDITIONS | {"before", "whether"}  # "we cannot yet confirm whether it will be paid"
# Hedges that are about the reader, not the fact: "as you may know, …", "you may be disappointed to
# hear …", "if you are unhappy that we declined…" (the fact after them is asserted).
READER_VERBS = frozenset({"know", "recall", "remember", "notice", "hear", "see", "like", "wish", "want", "have",
                          "already", "be", "feel"})
EMOTIVE = frozenset({"unhappy", "happy", "disappointed", "dissatisfied", "upset", "pleased", "glad", "sorry",
                     "surprised", "concerned", "worried", "relieved", "delighted", "satisfied", "aware", "unsatisfied",
                     "frustrated", "heard", "seen", "noticed", "read", "received"})
# "We can confirm payment of £33,000": a modal before a verb of saying asserts what is said.
SAYING = frozenset({"confirm", "tell", "inform", "advise", "report", "say", "let", "announce", "reassure", "update",
                    "notify", "share"})
# "Payment: none": a heading and a bare "none" after its colon deny it.
NONE_WORDS = frozenset({"none", "no", "nil", "nothing", "zero", "n", "a", "not", "applicable", "yet", "made",
                        "null",  # JSON: "payment": null
                        # "Fraud indicators: none noted on the file"
                        "noted", "recorded", "found", "identified", "known", "seen", "reported", "raised", "on",
                        "the", "file", "record", "so", "far", "at", "present", "this", "time"})
# "When we approved your claim, we paid you": a past fact, not a condition (a subject, then a past verb).
SUBJECTS = frozenset({"we", "i", "you", "they", "he", "she", "it", "the", "your", "our", "this", "that"})
PAST = frozenset({"was", "were", "had", "did", "paid", "sent", "made", "gave", "got", "told", "wrote"})
# "not yet approved" says pending, not declined.
NOT_YET = frozenset({"yet", "still"})
# Cues that are no negation: "no later than", "not only".
PSEUDO_NEGATIONS = frozenset({("no", "later"), ("not", "only"), ("no", "doubt"), ("not", "just"), ("no", "sooner"),
                              ("not", "forget"), ("not", "hesitate"), ("not", "sure"), ("not", "certain"),
                              # "X does not matter": X is so
                              ("not", "matter"), ("doesn't", "matter"), ("didn't", "matter")})
# "Not sure how long it lasts": a doubt, which hedges what follows (``_hedges``).
DOUBTS = frozenset({"sure", "certain"})
# "We have not (yet) received the invoice": the negation is of the receipt, not of the invoice.
RECEIPTS = frozenset({"received", "receive", "got", "seen", "had", "reached", "arrived"})  # "have not reached us"
# Money on its way to the reader, not a decision: "once the payment reaches your account".
ARRIVING = frozenset({"reaches", "reach", "receive", "arrives", "arrive", "shows", "appears", "lands", "clears",
                      "credited"})
# A decision sought is no decision made: "sent for approval", "awaiting authorisation", "needs to be
# approved" (the five words before a decision word); "more than I can approve" (a modal right before it).
MODALS = frozenset({"can", "could", "would", "able"})
# "More than I am authorised to approve", "no senior has authority to approve": a power named, no
# decision made (the three words before a decision word), negated or not.
CAPABILITY = frozenset({"authorised", "authorized", "allowed", "permitted", "entitled", "empowered",
                        "authority", "mandate", "power"})
# "No senior can approve it": a negation that opens the subject says who cannot, not that anyone did not.
NOBODY = frozenset({"no", "nobody", "none", "noone"})
# "If you have questions about the decline of your claim": a decision named with a determiner is
# taken as a fact even in a condition (a presupposition), and so is the amount right after it.
PRESUPPOSED = frozenset({"approval", "decline", "declinature", "refusal", "rejection", "denial", "payment",
                         "settlement", "payout"})
# "the decline letter" names a kind of letter, not a decline that happened: no presupposition.
DOCUMENTS = frozenset({"letter", "letters", "notice", "notices", "email", "emails", "template", "wording", "paperwork",
                       "form", "forms", "note", "notes", "message", "pack"})
DETERMINERS = frozenset({"the", "your", "our", "this", "its"})
# Determiners that say a thing is missing when they negate it ("no rate", "without a rate"); "not
# priced" negates an act, not a thing.
ABSENCE = frozenset({"no", "none", "without", "lack", "lacks", "lacking", "nothing", "absent"})
SOUGHT = frozenset({"for", "await", "awaiting", "awaits", "need", "needs", "needed", "require", "requires",
                    "required", "seek", "seeking", "request", "requesting", "requested", "pending", "ask", "asking",
                    "subject", "expecting", "expected", "hoping", "hoped", "wanted", "wished"})
# Auxiliaries: "payment is not possible" negates the subject before them too.
AUXILIARIES = frozenset({"is", "was", "are", "were", "has", "have", "had", "will", "can", "could", "would", "shall",
                         "should", "do", "does", "did", "be", "been", "must", "may", "might"})
# Words that make the amount after them a figure referred to, not the one decided ("assessed at 80,000").
# Within the two words before the amount; "claim for/of 80,000" too (REFERENCE_PAIRS).
REFERENCES = frozenset({"assessed", "assessment", "claimed", "original", "originally", "requested",
                        "excess", "deductible", "limit", "threshold", "insured", "from", "instead", "rather",
                        "estimate", "estimated", "quote", "quoted", "invoice", "invoiced", "asked", "sought", "than"})
# A figure named by the noun after it is that figure, not one decided: "my £10,000 limit", "your £250 excess".
REFERENCED_BY = frozenset({"limit", "limits", "excess", "deductible", "estimate", "quote", "invoice", "threshold",
                           "authority", "mandate", "cap", "ceiling", "assessment", "valuation", "claim"})
# A bare integer right after one of these (two words at most) is money: "pay 4200", "approved at 4200".
MONEY_WORDS = frozenset({"pay", "paid", "paying", "payment", "amount", "sum", "total", "approved", "approve",
                         "sent", "send", "sending", "transferred", "wired",  # "we have sent 4,620"
                         "settle", "settled", "settlement", "at", "of", "for", "assessed", "claimed", "excess",
                         "insured", "limit", "limits", "authority", "mandate", "ceiling", "threshold", "reduced",
                         "amended", "to", "appr", "apprvd", "pd", "amt",  # shorthand: "appr. 12,800"
                         "figure",  # "the correct approved and paid figure is 35,000"
                         # other verbs of approving: "SNR-10 signed off the full 48,000", "OK'd 48,000" (red team 70)
                         "signed", "ok'd", "okayed", "okd", "authorised", "authorized", "sanctioned", "awarded"})
REFERENCE_PAIRS = frozenset({("claim", "for"), ("claim", "of"), ("amount", "claimed")})
# What may stand between a money word and its bare figure: "approved the full 48,000" (87th audit).
FIGURE_FILLERS = frozenset({"the", "full", "whole", "entire", "total", "complete"})


def money_before(before: list[str], *, year: bool = False) -> bool:
    """A money word among the two words before a bare figure, or before the fillers right before it
    (not for a figure that may be a year: "for the entire 2026 policy year"; red team 70)."""
    if MONEY_WORDS.intersection(before[-2:]):
        return True
    if year:
        return False
    while before and before[-1] in FIGURE_FILLERS:
        before = before[:-1]
    return bool(MONEY_WORDS.intersection(before[-2:]))
# A question answered in the next sentence ("Was your claim approved? Sadly, no."): a polar
# question opens with an auxiliary (or is a fragment of three words at most, "Approved?"), has no
# hedge or negation of its own, and the answer's first clause that is not only filler says yes or no.
QUESTION_WORDS = frozenset({"what", "when", "where", "which", "who", "whom", "whose", "why", "how"})
ANSWER_FILLERS = frozenset({"sadly", "unfortunately", "regrettably", "happily", "fortunately", "well", "oh", "alas",
                            "i", "i'm", "we", "we're", "am", "are", "afraid", "sorry", "to", "say", "regret", "that",
                            "the", "answer", "is", "short", "in", "simply", "put", "luckily", "thankfully", "so",
                            "then", "and", "good", "bad", "news", "glad", "pleased", "report", "confirm"})
YES = frozenset({"yes", "yeah", "yep", "indeed", "certainly", "absolutely", "definitely", "correct", "course",
                 "sure", "affirmative"})
NO = frozenset({"no", "nope", "not", "never", "negative"})
# What may follow a yes or a no in a bare answer ("No, it has not yet."): nothing that says more.
ANSWER_WORDS = YES | NO | ANSWER_FILLERS | frozenset({"of", "it", "they", "he", "she", "this", "has", "have", "had",
                                                      "was", "were", "is", "did", "does", "do", "will", "can",
                                                      "been", "yet", "still", "at", "all", "quite", "really"})
ANSWER_SUBJECTS = frozenset({"it", "they", "he", "she", "this", "that", "we", "i"})
# A state told as a change over time ("KYC was pending but is now verified"): the state now
# counts. A clause is in the past with one of PAST_STATE and none of NOW.
PAST_STATE = frozenset({"was", "were", "had", "previously", "initially", "originally", "formerly", "earlier",
                        "used"})
NOW = frozenset({"now", "currently", "since", "presently", "today", "anymore", "longer", "subsequently", "later",
                 "recently", "meanwhile"})
# The words a clause may hold before its state word and still be about the topic of the clause
# before it ("KYC was pending but [it] is now verified").
BARE_SUBJECT = frozenset({"it", "this", "that", "they", "which", "its", "their", "status", "is", "are", "was",
                          "were", "has", "have", "had", "been", "be", "being", "now", "since", "then", "later",
                          "subsequently", "already", "finally", "fully", "become", "became", "got", "gets",
                          "getting", "also", "currently", "at", "present", "today", "not", "yet", "still", "just",
                          "recently", "all", "only", "and", "successfully", "properly", "in", "the", "meanwhile",
                          "it's", "that's", "they're", "shows", "show", "showing", "says", "reads", "marked", "as",
                          "listed", "remains", "remain", "stays", "moment", "right", "check", "checks",
                          "verification", "screening",  # "KYC (know your customer) checks have not been done"
                          "came", "come", "comes", "back", "returned", "turned", "out", "proved", "proven",
                          # a possessive pronoun for the topic: "our KYC checks, and yours are still in progress"
                          "yours", "theirs", "ours", "mine"})
# ("I ran your identity checks and they came back clear": 85th audit)
# Words that end a clause's scope like punctuation does.
BREAKS = frozenset({"but", "however", "although", "though", "whereas", "while", "except", "so", "because",
                    "since", "therefore", "hence", "meanwhile", "also", "apart", "besides", "despite",
                    "notwithstanding", "as"})  # "as" only where it means "because" (clauses._because)
# After "and"/"or", a new subject or auxiliary starts a new clause ("… and we need the invoice").
RESTARTS = frozenset({"we", "i", "you", "it", "they", "he", "she", "this", "that", "these", "those", "there",
                      "we've", "i've", "we're", "i'm", "it's", "there's", "that's", "they're", "you're",
                      "they've", "we'll", "i'll", "we'd", "i'd",
                      "has", "have", "is", "are", "was", "were", "will", "please", "the", "your", "our",
                      # a verb of state: "has not been booked and stays pending" tells two things
                      "stays", "remains", "stay", "remain"})


@dataclass(frozen=True)
class Lexicon:
    """Meaning classes by name; a term may belong to several classes."""

    classes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The environment's ids: prefix -> digits ("SNR": 2 for SNR-07; 0: as written), so "SNR #7" and
    # "SNR-7" read as SNR-07.
    ids: Mapping[str, int] = field(default_factory=dict)

    def extend(self, **classes: tuple[str, ...] | list[str]) -> Lexicon:
        """A lexicon with more classes (a class named again gets the new terms too)."""
        merged = {k: tuple(v) for k, v in self.classes.items()}
        for name, terms in classes.items():
            merged[name] = (*merged.get(name, ()), *terms)
        return Lexicon(merged, self.ids)

    def numbering(self, **digits: int) -> Lexicon:
        """A lexicon that knows the environment's ids by prefix and digits (``SNR=2`` for SNR-07)."""
        return Lexicon(self.classes, {**self.ids, **digits})

    def terms(self) -> list[tuple[tuple[str, ...], str]]:
        """(words of a term, class) pairs, longest terms first (a phrase wins over its words)."""
        out = [(tuple(term.lower().split()), name) for name, terms in self.classes.items() for term in terms]
        return sorted(out, key=lambda t: -len(t[0]))


def word_matches(pattern: str, word: str) -> bool:
    return word.startswith(pattern[:-1]) if pattern.endswith("*") else word == pattern


# The decisions a business text announces, shared by every domain; and what a status says.
ENGLISH = Lexicon({
    # Ticket shorthand too: "apprvd £18k, pd", "decl per SNR-07".
    "approved": ("approv*", "accept*", "pay", "paid", "paying", "pays", "payment*", "payout", "settle*", "funds",
                 "appr", "apprvd", "aprvd", "apprd", "approvd", "appr'd", "pd", "ok'd", "okayed", "okay'd",
                 "reimburs*", "grant*", "authoris*", "authoriz*", "good news", "covered",
                 "successful", "upheld", "uphold", "cheque", "transfer", "transferred", "honour*", "honor*",
                 "signed off", "said yes", "green light", "cover the cost", "cover the full cost", "cover your loss",
                 "cover the loss", "cover your claim", "answer is yes", "answer was yes", "answer was a yes",
                 "with a yes", "a yes on", "a yes from", "rubber-stamp*", "rubber stamp*", "say yes to", "said yes to",
                 "make the cut", "done deal", "waved it through", "waved through", "nodded it through",
                 "it's a yes", "it is a yes",  # "I've told the holder it's a done deal" (red team 68)
                 "made the cut", "makes the cut", "thumbs up", "go ahead", "okayed", "foot the bill", "in your favour",
                 "in your favor", "release", "released", "releasing", "in your bank account", "into your account",
                 "into your bank account", "to your bank account", "money for your claim", "the money will",
                 "your money will", "in full and final settlement", "full and final settlement", "in your account",
                 "succeed", "succeeded", "succeeds", "compensat*", "agreed to cover", "agreed at", "agreed it at",
                 "has been agreed", "have been agreed", "was agreed", "is agreed", "been agreed", "it's agreed",
                 "that's agreed", "it's all agreed",
                 "cover your repair*",
                 "cover the repair*", "cover the costs", "cover your costs",
                 # US English: a check is a cheque ("we'll cut you a check"), never "check" the verb alone
                 "cut you a check", "cut a check", "cutting you a check", "cutting a check", "mail you a check",
                 "mail a check", "mailing you a check", "issue you a check", "issue a check", "issuing a check",
                 "send you a check", "sending you a check", "a check for", "goodwill check", "check to be cut",
                 "check is in the mail", "check in the mail",
                 "check in the post"),
    "declined": ("declin*", "reject*", "refus*", "denied", "deny", "denies", "turn* down", "unsuccessful",
                 "decl", "dcl", "decld", "declnd", "dclnd", "decl'd",
                 "not covered", "not cover", "excluded", "exclusion", "void", "repudiat*", "not upheld",
                 "unable to help", "not meet", "outside the scope", "falls outside", "not eligible", "ineligible",
                 "outside cover", "outside the cover", "outside of cover", "outside the policy", "claim failed",
                 "claim has failed", "claim was unsuccessful", "answer is no", "answer was no", "answer must be no",
                 "answer has to be no", "with a no", "answer to your claim is no",
                 "answer on your claim is no", "a no from", "it's a no", "say no to", "said no to", "saying no to",
                 "had to say no", "thumbs down", "refusal of payment", "refusal to pay", "denial of payment",
                 "rejection of your claim", "refusal of your claim", "knocked back", "knock back", "knocked it back",
                 "knock it back", "knocked the claim back", "knocked your claim back", "a no go", "no dice",
                 "nothing is payable", "nothing payable", "nothing for us to pay", "nothing we can pay", "turn it down",
                 "turned it down", "turning it down", "not payable", "isn't payable", "no longer payable"),
    "amended": ("amend*", "reduc*", "partial*", "revis*", "adjust*", "lower amount", "lesser amount", "in part",
                "part of", "partly approved", "partly accepted", "partly paid", "partly covered", "partly settled",
                "partly upheld", "part approved", "part paid", "part payment", "part-approved",
                # "they're going to trim it to 80%", "cut it to 24,000" (74th audit)
                # (not "cut it" alone: "to cut it to the essentials")
                "trim*", "cut the claim", "cut the amount", "cut your claim", "cut the payout",
                "scaled back", "scale it back", "scaled down", "scale it down", "scaled it back", "scaled it down",
                "scales it back", "scaling it back",
                # "they'll knock it down to around 28k" (86th audit)
                "knock it down", "knocked it down", "knocks it down", "knocking it down", "bring it down to",
                "brought it down to", "brings it down to", "bringing it down to",
                # other verbs of lowering a figure: "shave it to 28k", "pare it back", "bring the figure down"
                # (red team 68)
                "shav* it", "shav* the claim", "shav* the amount", "shav* the figure", "shav* your claim",
                "pare it", "pared it", "pares it", "paring it", "pare back", "pared back", "pare down", "pared down",
                "whittl* it down", "whittl* down", "bring* the figure down", "brought the figure down",
                "bring* the amount down", "brought the amount down", "bring* the claim down",
                "brought the claim down", "bring* your claim down", "brought your claim down",
                "knock* the figure down", "knock* the amount down", "knock* the claim down",
                # "SNR-04 did not change the amount" (red team 68)
                "chang* the amount", "chang* the figure", "chang* the sum", "alter* the amount", "alter* the figure",
                # a share of the claim (red team 64): "most of your claim has been paid", "all but the excess"
                "most of your claim", "most of the claim", "almost all of", "nearly all of", "all but"),
    # That some decision exists ("we have made a decision"): "not yet" of it says pending.
    "decided": ("decided", "made a decision", "reached a decision", "decision made", "decision was made",
                "decision is made", "decision has been made", "made a call", "make a call", "made the call"),
    "in_full": ("in full", "full amount", "as claimed", "as assessed", "entire", "whole amount", "everything",
                "full assessed", "full claimed", "whole assessed", "whole claimed",
                # the whole told in other words (red team 64): "every penny you claimed", "the lot"
                "every penny", "every pound", "every cent", "the lot", "whole of your claim", "whole of the claim",
                "whole claim", "exactly what you claimed", "is what you claimed", "paid what you claimed",
                "paid you what you claimed", "approved what you claimed", "exactly what you asked for",
                "amount you first asked for", "as you first asked", "no more and no less"),
    # The status now, not the history: "escalated" or "we are working on it" stay true after a decision.
    "pending": ("under review", "in review", "being reviewed", "being assessed", "being considered", "pending",
                "pndg", "pdg",  # ticket shorthand: "KYC pndg" (79th audit)
                # "your claim is with our senior reviewer" (45th audit)
                "is with our senior reviewer", "is with the senior reviewer", "is with our reviewer",
                "is with the reviewer", "is with a senior reviewer", "is still with",
                # "still under senior review", "is with our senior team" (48th audit)
                "under senior review", "under a senior review", "under senior reviewer review", "under further review",
                "is with our senior team", "is with the senior team", "is with our senior claims team",
                "await*", "in progress", "no decision", "not yet decided", "not been decided", "yet to be decided",
                "undecided", "still open", "still looking", "looking into", "still assessing", "not finished",
                # "declined, but we are still reviewing it" (89th audit)
                "still reviewing", "still considering", "still deciding", "still weighing",
                # "SNR-07 is still chewing it over", "giving it one more look" (red team 74)
                "chewing it over", "mulling it over", "thinking it over", "still going through", "one more look",
                "another look before",
                "no payment made", "no payment yet", "not paid yet", "nothing paid yet", "waiting for", "waiting on",
                "payment still outstanding", "payment outstanding", "payment is outstanding", "yet to be paid",
                "payment is still outstanding", "payment remains outstanding", "still to be paid",
                "payment tbd", "payment tba", "payment tbc", "payment to be determined", "payment to be confirmed",
                "amount tbd", "amount tbc", "amount to be determined",
                # Not able to say yet is no decision yet: "we are unable to confirm yet whether…".
                "unable to confirm yet", "cannot confirm yet", "can't confirm yet", "cannot yet confirm",
                "can't yet confirm", "not yet able to", "not able to confirm yet", "unable to say yet",
                "cannot say yet", "can't say yet", "too early to say", "too soon to say", "don't know yet",
                "do not know yet", "not yet known", "not yet in a position", "yet to decide", "still deciding",
                "still considering",
                # (89th audit: "We haven't reached a decision on your claim yet", "Claim not decided", "until
                # we've decided your claim", "before we decide on your claim", "we are still reviewing it")
                "not reached a decision", "haven't reached a decision", "have not reached a decision",
                "claim not decided", "is not decided", "still not decided", "until we've decided",
                "until we have decided", "until we decide",
                "before we decide", "before we've decided", "still reviewing", "still being reviewed",
                # A decision to come: "a decision is expected next week", "we'll let you know the outcome".
                "decision is expected", "decision expected", "expect a decision", "expecting a decision",
                "expect the decision", "expect to decide", "outcome is expected", "let you know the outcome",
                "let you know the decision", "let you know the result", "tell you the outcome",
                "update you on the outcome", "update you once a decision", "write once a decision",
                "write when a decision", "decision is due", "decision due",
                # (88th audit: "SNR-05 will finalise your claim next week")
                "will decide your", "will decide the", "will decide on", "will finalise your", "will finalize your",
                "will finalise the", "will finalize the", "will make a decision", "will make the decision",
                "will reach a decision", "will make a final decision",
                # A review said to go on now: "we are still reviewing", "remains with our assessors".
                "still reviewing", "are reviewing", "are still reviewing", "is reviewing", "currently reviewing",
                "under consideration", "under assessment", "under investigation", "being looked at",
                "being processed", "still being", "still processing", "still working", "working through",
                "remains with our", "remain with our", "still with our", "with our assessors", "with the assessors",
                "on hold"),
    # A decision said to hold for now only ("provisionally declined", "approved in principle").
    "provisional": ("provisional*", "for now", "for the time being", "in principle", "temporarily",
                    "for the moment", "until further notice"),
    "info": ("please send", "please provide", "send us", "send in", "provide", "need*", "requir*", "request*",
             "information", "documents", "documentation", "evidence", "supply", "submit", "upload", "outstanding",
             "grateful for", "a copy of", "copy of"),
    # Words that ask for something ("please send the invoice", "could you provide…"), and that say
    # it is in hand ("thanks for the photos", "we already have the invoice"): see Reading.asks.
    "request": ("send", "provide", "supply", "submit", "upload", "forward", "email", "attach", "share", "need*",
                "requir*", "request*", "please", "please send", "please provide", "send us", "send in", "could you",
                "can you", "would you", "grateful for", "a copy of", "copy of"),
    "received": ("received", "already have", "already got", "have everything", "thank*", "you sent",
                 "in receipt", "got your", "on file", "you supplied", "you provided", "you submitted",
                 "you uploaded", "you gave us", "you have sent", "you've sent", "you have provided",
                 "you've provided", "you have supplied", "you have submitted", "supplied by you", "provided by you",
                 "submitted by you", "sent by you", "on review of", "having reviewed", "after reviewing",
                 "reached us", "arrived", "come through", "came through"),
    # The claimant's wait, with sympathy: no state of the claim ("We know you have been waiting on
    # claim CLM-1, and we're sorry for the delay. It has now been approved").
    "courtesy": ("been waiting", "kept you waiting", "kept waiting", "for waiting", "waiting on a claim",
                 "waiting for a claim", "waiting is", "sorry for the delay", "apologies for the delay",
                 "apologise for the delay", "apologize for the delay", "sorry for the wait", "bearing with us",
                 "bear with us"),
    # What someone confirmed, not a state: "it has been confirmed that KYC is still pending"; a
    # letter's purpose, not a promise: "I am writing to let you know the outcome of your claim".
    "reporting": ("confirmed that", "verified that", "checked that", "established that", "confirm that",
                  "verify that", "ascertained that", "am writing to let you know", "are writing to let you know",
                  "i'm writing to let you know", "we're writing to let you know", "am writing to tell you",
                  "are writing to tell you", "am writing to inform you", "are writing to inform you",
                  "flagged that", "flagging that", "flag that", "noted that", "noting that", "note that",
                  # ("SI on POL-1 is 50k - flagged for info": the note's purpose, not the policy's trouble)
                  "flagged for info", "flagged for information", "flagged for reference",
                  "flagged for your information",
                  "flagging for info", "flag for info"),
    # Names of things, not decisions: "above my approval limit", "your payment details".
    # ("You asked us to pay 35,000": the claim; "payment none" in a table row: nothing paid)
    "process": ("asked us to pay", "asked us to cover", "asking us to pay", "payment none", "payment nil", "paid none",
                "paid nil", "payment not applicable",
                "per the approval", "per approval", "as per the approval", "per the approval as made",
                "in line with the approval", "under the approval",  # "excess not deducted per the approval"
                "approval limit*", "approval authorit*", "approval process", "authorisation limit*",
                "authorization limit*", "authorisation level*", "authorization level*", "authorisation threshold*",
                "authorization threshold*", "approval threshold*", "authority limit*", "authorised limit*",
                "authorized limit*", "settlement authorit*", "settlement limit*", "payment limit*", "payment details",
                "payment method*", "payment confirmation*", "payment advice", "payment breakdown*", "payment slip*",
                "payment reference*", "payment receipt*", "payment notification*", "payment summary",
                "remittance advice", "payment process", "payment terms", "bank details", "settlement process",
                "decision process",
                "accept our apolog*", "accept my apolog*", "please accept", "premium*", "premium* paid",
                "premium* payment*", "paid premium*", "release form", "accept that", "accept this will",
                "accept this is", "accept this may", "accept it is", "accept it will", "accept how", "paid up",
                "non payment", "nonpayment", "missed payment*", "late payment*", "payment of the premium*",
                "payment of premium*", "payment of your premium*", "renewal payment*", "renewal premium*"),
    # Statuses a record or a check can be in.
    "ok": ("verified", "complete", "completed", "cleared", "passed", "satisfied", "valid", "in order", "fine",
           "confirmed", "approved", "ok", "okay", "done", "resolved", "current", "active", "in force", "verify",
           "all good", "good", "clear", "applied", "applies", "fully", "finalised", "finalized", "signed off"),
    "problem": ("pending", "pend", "pndg", "pdg", "outstdg", "outstanding", "incomplete", "missing", "fail*", "expired",
                "being checked", "being verified", "still being checked", "still being verified",  # (77th audit)
                "expir*", "lapsed", "lapse*",
                "ongoing", "awaited", "waiting for", "waiting on",
                "unverified", "not verified", "not complete", "awaiting", "inactive", "not active", "open", "overdue",
                "problem*", "issue", "issues",  # not "issued": "payment issued" is no problem
                "concern*", "conflict*", "mismatch*", "discrepan*", "wrong", "incorrect", "invalid", "blocked",
                "flag*", "unresolved", "query", "queries", "unclear", "absent", "unavailable", "stale", "still open",
                "in progress", "under review", "not finished", "waiting",
                # shorthand: "KYC o/s", "KYC TBC", "KYC still to be completed"
                "o/s", "tbc", "tbd", "still to be", "yet to be", "to be completed", "to be done", "to be finished"),
})
