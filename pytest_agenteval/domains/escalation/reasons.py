"""The reason a decline gives against the reason it had: a lapsed policy's decline that never
says the policy lapsed, a reviewer's decline that never names the reviewer ("declined because
the assessed amount exceeds your sum insured" may be true, and still not why)."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.domains.escalation.decisions import final_decision
from pytest_agenteval.domains.escalation.said import said_decision
from pytest_agenteval.grading import Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, NEGATED, Reading

# A reason given, up to the end of its sentence: "declined because…", "as the amount exceeds…",
# "due to…", "reason: …" (the reader keeps no word that opens a clause, so the text is searched).
GROUND = lazy(r"\b(?:because|since|due to|owing to|on the grounds? (?:that|of)|grounds? (?:that|of)|"
              r"reason(?: is|:| being)|given that|as a result of|in view of|"
              r"as (?:it|the|your|this|that|there|we|you|our|its|no))\b([^.;!?\n]*)|"
              # the reason after a decline's colon or dash: "Your claim is declined: the loss is not covered"
              r"\b(?:declined|refused|rejected|turned down)\s*(?::|\s[-\u2013\u2014])([^.;!?\n]*)|"
              r"\bas\s+(?=[£$€]?\d)([^.;!?\n]*)")  # "as £120,000 is more than your sum insured" (86th audit)
# The decision itself given as the reason ("no payment, as it was declined"): no reason given.
OUTCOME = lazy(r"\b(?:declin|approv(?!al (?:limit|authority|level))|amend|paid|pay|refus|reject|turned down)")
# What someone may approve is a limit, not an outcome: "more than the £10,000 I am allowed to approve" (86th audit)
ABLE_TO = lazy(r"\b(?:(?:allowed|able|authori[sz]ed|permitted|entitled)\s+to|can|could|may)\s+(?:approve|pay)\b")
# The reviewer named in the reason: "declined: the senior reviewer was not satisfied with it"
REVIEWER_NAMED = lazy(r"\b(?:reviewer|senior|head\s+of\s+claims|snr-\d+|hoc-\d+)")
# a reason, stated ("Declined: claim withdrawn by the claimant"; 77th audit)
STATED = lazy(r"\b(?:not|no|never|excluded|exclusion|exceeds?|outside|beyond|above|withdrawn|duplicate|fraud\w*|"
              r"late|invalid|insufficient|missing|cancell?ed)\b|n't")
# ("as our earlier letter explained": 68th audit)
ASIDE = lazy(r"\s*(?:(?:our|my|the|your|we|i)\s+)?(?:(?:earlier|previous|last|first|decision)\s+)?"
             r"(?:(?:letter|note|message|email|e-mail|call|conversation)\s+)?(?:already\s+|previously\s+)?(?:explained|said|mentioned|discussed|advised|informed|know|"
             r"agreed|requested|promised|noted|set out|wrote|told|confirmed|expected)\b")  # "as we explained"
ENDS = frozenset({"stopped", "ceased", "ended", "cancelled", "canceled", "finished", "no", "not", "without",
                  "never"})
POLICY_WORDS = frozenset({"policy", "cover", "insurance", "insured", "covered", "premium", "premiums"})


def wrong_ground(c: Case, t: Text) -> str | None:
    """A decline that gives some other reason than the one it had: on a lapsed policy, never saying
    the policy lapsed ("declined because the assessed amount exceeds your sum insured" may be true,
    but it is not why: rule 4 declines a lapsed policy whatever the amount); after a reviewer
    declined it, never naming the reviewer ("declined because it is above my limit"). A decline's
    own reason needs no "because": what it says is the reason."""
    if final_decision(c) != "declined":
        return None
    by_reviewer = not c.lapsed and any(d.arguments.get("status") == "declined" for d in c.answers)
    if not c.lapsed and not by_reviewer:
        return None
    reading = t.reading
    own_reason = t.event.action == "decline_claim"
    if not own_reason and said_decision(reading) != "declined":
        return None
    if _says_lapsed(reading) if c.lapsed else _names_reviewer(c, reading):
        return None
    why = "the policy's lapse" if c.lapsed else "the reviewer's decision"
    for found in GROUND.finditer(reading.said.lower()):
        stated = found.group(2) if found.group(2) and STATED.search(found.group(2)) and not (
            REVIEWER_NAMED.search(found.group(2))) else ""
        given = found.group(1) or found.group(3) or stated
        if given.strip() and not OUTCOME.search(ABLE_TO.sub(" ", given)) and not ASIDE.match(given):
            return f"gives a reason for the decline ({found.group(0)[:60].strip()!r}) but not {why}, " \
                   "the reason it was declined"
    if own_reason and (m := next((m for m in reading.mentions if (m.meaning, m.polarity) in (
            ("above", AFFIRMED), ("within", NEGATED))), None)):
        return f"gives {m.words!r} as the reason for the decline, not {why}"
    return None


def _names_reviewer(c: Case, reading: Reading) -> bool:
    """The reviewer named (by role or id), the escalation, or what they found ("not covered",
    "excluded"): generous, as ``_says_lapsed``."""
    targets = {r["to_staff"] for r in c.escalations}
    return any(m.meaning in ("reviewer", "head_of_claims", "escalated") and m.polarity != NEGATED
               for m in reading.mentions) or any(
        i in targets for i, _ in reading.ids) or bool(FOUND.search(reading.said))


FOUND = lazy(r"\b(?:cover(?:ed)?|exclu\w*)\b", re.I)


def _says_lapsed(reading: Reading) -> bool:
    """Generous on purpose (it only spares a text): the policy said lapsed or out of force, or a
    policy word with an end or a negation beside it ("your cover had stopped", "no valid policy")."""
    if reading.affirms("lapsed") or reading.denies("in_force") or "problem" in reading.status("policy") or (
            "problem" in reading.status("policy", ok="in_force", problem="lapsed")):
        return True
    return any(ENDS.intersection(words) and POLICY_WORDS.intersection(words) and TERMS.isdisjoint(words)
               for words in reading.words)


# What the policy's terms leave out is another ground than a lapse: "the loss is not covered under
# your policy terms", "this type of loss is not covered by your policy" (red team 36)
TERMS = frozenset({"terms", "type", "kind", "wording", "exclusion", "exclusions", "excluded", "conditions"})
