"""The claim's type, where a text names it: "your travel claim", "CLM-00081 (motor)", "Claim type
motor.", "the damage to your home" must be the claim's own type (or, for a senior, their specialism)."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import Reading

# The claim types (the seniors' specialisms) and the everyday words for each: "your holiday claim".
KINDS = {"motor": ("motor", "car", "vehicle", "auto", "van"), "property": ("property", "home", "house", "household",
                                                                           "buildings", "contents"),
         "liability": ("liability",), "travel": ("travel", "holiday", "trip")}
KIND_OF = {word: kind for kind, words in KINDS.items() for word in words}
KIND_WORDS = frozenset(KIND_OF)
TYPE_LABELLED = lazy(r"\b(?:type|product|specialism|line\s+of\s+business)\s*(?:[:=\-|]|is|was)?\s*([a-z]+)\b",
                     re.IGNORECASE)
# ("car loss": a motor loss; "property product": a policy of that type)
TYPED = frozenset({"claim", "claims", "policy", "insurance", "cover", "senior", "seniors", "reviewer", "team",
                   "specialist", "underwriter", "department", "desk", "loss", "losses", "product"})


def kind_named(c: Case, reading: Reading) -> str | None:
    """What a text says the claim's type is, where it is not the claim's."""
    kind = c.claim.get("claim_type")
    if (beside := _kind_beside(reading, c.id)) is not None and KIND_OF[beside] != kind:
        return f"gives {c.id} as {beside}, but the claim is {kind}"  # "CLM-00081 (motor)", "CLM-00009, motor"
    for labelled in TYPE_LABELLED.finditer(reading.said):  # "Claim type motor.", "type=motor", "product: motor"
        if (w := labelled.group(1).lower()) in KIND_OF and KIND_OF[w] != kind:
            return f"gives its type as {w}, but the claim is {kind}"
    for words in (w for w in reading.words if not KIND_WORDS.isdisjoint(w)):
        for k, w in enumerate(words[:-1]):
            if w in KIND_WORDS and KIND_OF[w] != kind and words[k + 1] in TYPED and not _denied(words, k, 3):
                return f"calls it a {w} {words[k + 1]}, but the claim is {kind}"
            if w in KIND_WORDS and KIND_OF[w] == kind and words[k + 1] in OWN_TYPE and TYPE_DENIED.search(
                    " ".join(words[max(0, k - 3):k])) and (
                    words[k + 2:k + 3] not in (("for",), ("extras",), ("extra",), ("add",))):
                return f"says it is no {w} {words[k + 1]}, but the claim is {kind}"  # "does not include travel cover"
    for words in reading.words:  # "the damage to your home", "your car was stolen": the loss is of a kind
        for k, w in enumerate(words):
            other = OBJECT_OF.get(w)
            if other is None or other == kind or _denied(words, k, 5):
                continue
            before = tuple(words[max(0, k - 3):k])
            after = words[k + 1] if k + 1 < len(words) else ""
            damaged = len(before) == 3 and before[0] in LOSSES and before[1] in ("to", "of") and before[2] in (
                "your", "the") or before[-1:] == ("your",) and bool(LOST.intersection(words[k + 1:k + 4])) or (
                before[-2:] in (("of", "your"), ("for", "your"), ("on", "your")) and after not in ADDRESS_WORDS
                and not SPOKEN_OF.isdisjoint(words))  # "photos of your car"; not "best wishes for your holiday"
            if damaged:
                return f"speaks of a loss to the claimant's {w}, but the claim is {kind}"
    return None


def _kind_beside(reading: Reading, claim: str) -> str | None:
    """A kind word alone right after the claim's id, in brackets or after a comma ("CLM-00081
    (motor)", "Claim: CLM-00009, motor")."""
    for ident, k, at in reading.id_at:
        if ident != claim:
            continue
        after = [w for w in reading.words[k][at + 1:at + 4] if w]
        if not after and k + 1 < len(reading.words) and reading.sentence_of[k + 1] == reading.sentence_of[k]:
            after = [w for w in reading.words[k + 1] if w]  # the next clause, when it is the kind alone
            after = after if len(after) == 1 else []
        if after and after[0] in KIND_WORDS and (len(after) == 1 or after[1] not in NOT_A_KIND):
            return after[0]
    return None


NOT_A_KIND = frozenset({"policy", "policies", "senior", "seniors", "reviewer", "team", "handler", "specialism"})


# What a loss of each kind is a loss of, in everyday words.
OBJECTS = {"motor": ("car", "vehicle", "van", "motorbike", "motorcycle"),
           "property": ("home", "house", "roof", "kitchen", "flat", "building", "buildings", "contents", "property"),
           "travel": ("luggage", "baggage", "suitcase", "flight", "trip", "holiday")}
OBJECT_OF = {word: kind for kind, words in OBJECTS.items() for word in words}
# "photos of your car" names the thing lost; "to your home address" names where a letter goes.
ADDRESS_WORDS = frozenset({"address", "addresses", "phone", "email", "number", "postcode", "insurance", "policy"})
LOSSES = frozenset({"damage", "loss", "theft", "repair", "repairs", "destruction", "cancellation", "delay"})
LOST = frozenset({"damaged", "stolen", "lost", "broken", "destroyed", "flooded", "cancelled", "delayed", "vandalised"})


NEGATIONS_NEAR = frozenset({"not", "no", "never", "nor", "neither", "nobody"})
# What a denial of the claim's own type is said of: "your policy is not a travel policy" (audit 52)
OWN_TYPE = frozenset({"policy", "insurance", "cover", "claim"})
# ... denied as a type, not another verb's denial ("we can't pay your motor claim")
TYPE_DENIED = lazy(r"(?:^|\s)(?:not|no)(?:\s+an?)?$|\bnot\s+(?:include|includes|cover|covers|provide|provides|"
                   r"offer|offers|have|has)(?:\s+any)?$")
# Where a clause inside the sentence opens: "it is never easy when your home is flooded" denies nothing of the flood.
SUBORDINATE = frozenset({"when", "that", "if", "whether", "because", "once", "after", "while", "where", "since"})
# "tell us whether your car was damaged": asked (not "we checked whether … is covered, and it is")
ASKING = frozenset({"tell", "let", "know", "confirm", "ask", "asking", "advise", "clarify", "inform", "us", "me"})
SAYING = frozenset({"say", "saying", "said", "suggest", "suggesting", "suggested", "suggestion", "think", "thinking",
                    "thought", "believe", "believing", "claim", "claiming", "mean", "meaning", "imply", "implying",
                    "sign", "evidence"})
# What a loss's thing is spoken of with, in "of / for / on your …": the loss, its evidence or its repair.
SPOKEN_OF = LOSSES | LOST | frozenset({"photos", "photographs", "pictures", "images", "invoice", "invoices", "quote",
                                       "quotes", "estimate", "estimates", "receipt", "receipts", "bill", "claim",
                                       "claimed", "stolen", "accident", "incident", "flood", "fire", "storm",
                                       "burglary", "leak", "collision", "crash", "break-in"})


def _denied(words: tuple[str, ...], k: int, reach: int) -> bool:
    """A negation within ``reach`` words before ``words[k]``, in its own part of the clause; or
    said of saying or thinking before its "that" ("we are not saying that your car was damaged"),
    or supposed ("if your car was damaged too"; red team 34)."""
    opened = max((i for i in range(max(0, k - reach), k) if words[i] in SUBORDINATE), default=-1)
    # ("checked whether the damage to your car is covered, and it is"; "sorry if the damage to your
    # home has been upsetting" presupposes it; "not believe anyone disputes that": not the verb's own
    # denial; red team 35)
    if opened >= 0 and (words[opened] == "if" and words[opened - 1:opened] != ("sorry",) or (
            words[opened] == "whether" and not ASKING.isdisjoint(words[max(0, opened - 3):opened])) or (
            words[opened - 1:opened] and words[opened - 1] in SAYING and not NEGATIONS_NEAR.isdisjoint(
                words[max(0, opened - 4):opened - 1]))):
        return True
    return not NEGATIONS_NEAR.isdisjoint(words[max(0, k - reach, opened + 1):k])
