"""Misspelt decisions and states, read as the words they misspell: a typo must not hide what a
text says ("Your claim has been aprooved", "KYC pendng"). Only a few words, those whose meaning
a check turns on; a letter missing, added, doubled or changed, never the first or the last one
(other words differ there: "approver", "settles")."""

from __future__ import annotations

# Words whose misspellings are read as them (an edit or two away, the same first letter): the
# decisions and states a typo must not hide. Not "received" ("receiver" is a word).
SPELLED = ("approved", "approve", "approval", "declined", "decline", "rejected", "refused", "amended", "settled",
           "verified", "pending", "outstanding", "completed", "complete", "escalated", "lapsed", "expired",
           "cancelled", "withdrawn", "reversed",
           # and how an amount stands to a limit: "above my limt", "withn my authorty"
           "limit", "within", "exceed", "exceeds", "exceeded", "authority", "mandate", "threshold",
           # and a facility's state: "booked and actve"
           "booked", "active", "activated")


# misspelt in under six letters too: "limt", "withn", "exced", "actve", "boked"
SHORT = frozenset({"limit", "within", "exceed", "active", "booked"})


def _deletions(word: str) -> list[str]:
    return [word] + [word[:k] + word[k + 1:] for k in range(len(word))]  # in order: the same answer every run


_NEAR: dict[str, str] = {}
for _right in SPELLED:
    for _variant in _deletions(_right):
        _NEAR.setdefault(_variant, _right)


def misspelt(word: str) -> str | None:
    """The word ``word`` misspells (one of ``SPELLED``), or None: a letter missing, added, doubled
    or changed ("aprooved", "declned", "pendng", "complet", "limt"), never the first or the last one
    ("approver", "settles" are other words)."""
    if len(word) < 4 or not word.isalpha():
        return None
    for variant in _deletions(word):
        meant = _NEAR.get(variant)
        if meant is not None and meant != word and meant[0] == word[0] and (len(word) >= 6 or meant in SHORT) and (
                meant[-1] == word[-1] or meant.startswith(word)):
            return meant
    return None
