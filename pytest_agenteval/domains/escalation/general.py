"""Rules told of claims in general, not this claim's story: "claims over £500,000 must be
escalated to the head of claims", "rule 2 (escalation) only applies above the limit"."""

from __future__ import annotations

from collections.abc import Sequence


def rule_of_claims(words: Sequence[str]) -> bool:
    """A rule for claims in general, not this claim's story: "claims over £500,000 must be escalated
    to the head of claims" (48th audit)."""
    # (not what happened: "both claims were approved by a senior", "…, who approved the payment"; red team 31)
    done = any(w in TOLD_DONE or w in DONE_ACTS and (k == 0 or words[k - 1] not in ("be", "been", "being"))
               for k, w in enumerate(words))
    return "claims" in words[:3] and not GENERAL_RULE.isdisjoint(words) and THIS_CLAIM.isdisjoint(words) and not done


def numbered_rule(words: Sequence[str]) -> bool:
    """A clause telling what a rule does, by its number: "rule 2 (escalation) only applies above the
    limit", "Rule 1 lets me decide within my limit" (85th audit): no amount set against a limit."""
    rest = [w for w in words[2:10] if w]
    while rest[:1] and rest[0] in _OF_THE_POLICY:  # "Rule 1 of the authority policy lets me…" (92nd audit)
        rest = rest[1:]
    return len(words) > 2 and words[0] == "rule" and words[1] == "" and not RULE_DOES.isdisjoint(rest[:3])


_OF_THE_POLICY = frozenset({"of", "the", "our", "authority", "claims", "policy", "in", "under"})


RULE_DOES = frozenset({"applies", "apply", "lets", "allows", "says", "requires", "means", "covers", "sends"})
GENERAL_RULE = frozenset({"must", "should", "can", "may", "only", "normally", "usually", "always", "over", "above",
                          "beyond", "exceeding", "under", "below", "within", "up"})
THIS_CLAIM = frozenset({"your", "yours", "this", "it", "its"})
TOLD_DONE = frozenset({"was", "were", "had", "did"})
DONE_ACTS = frozenset({"approved", "declined", "decided", "paid", "escalated", "amended", "reviewed", "signed"})
