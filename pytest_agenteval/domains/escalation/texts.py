"""Letters, notes and reasons judged by what they say, against the claim's records.

A text fails when it names a record that is not its claim's (another claim, another
policy, a reviewer the claim did not go to), announces a decision the claim did not get
(a decline letter saying "approved", "paid in full" for an amended amount), states an
amount that is not the approved one where it announces an approval (or no amount of the
claim at all), or calls the claim pending after it was decided ("Policy lapsed at the date
of loss" in a decline letter says no decision, and contradicts none). A decision announced
before it exists is ``follow_through.waited_for_reviewer``'s (see ``said.announces``).
Silence is never a contradiction.

This module holds the domain's lexicon and runs the checks, one concern per module:
``people`` (ids, staff), ``kinds`` (the claim's type), ``decisions`` (what was decided, when, by whom),
``money`` (amounts and limits), ``documents`` (what the records can never hold).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pytest_agenteval.domains.escalation.by_name import names, roles_told
from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.domains.escalation.counts_told import counts_told
from pytest_agenteval.domains.escalation.cover import cover
from pytest_agenteval.domains.escalation.decisions import answer, decision
from pytest_agenteval.domains.escalation.documents import invented
from pytest_agenteval.domains.escalation.everyone import everyone
from pytest_agenteval.domains.escalation.fields import fields_told
from pytest_agenteval.domains.escalation.figures import tied
from pytest_agenteval.domains.escalation.handler_only import reviewer_did_handlers_act
from pytest_agenteval.domains.escalation.limits import limits, too_low
from pytest_agenteval.domains.escalation.money import amounts
from pytest_agenteval.domains.escalation.order import told_out_of_order
from pytest_agenteval.domains.escalation.own_authority import own_authority
from pytest_agenteval.domains.escalation.panel import panel
from pytest_agenteval.domains.escalation.payments_told import payments_told
from pytest_agenteval.domains.escalation.people import addressed, records
from pytest_agenteval.domains.escalation.policy_said import misstated
from pytest_agenteval.domains.escalation.reasons import wrong_ground
from pytest_agenteval.domains.escalation.relations import lowest_told, relations
from pytest_agenteval.domains.escalation.requests_told import asked_claimant, outstanding_denied
from pytest_agenteval.domains.escalation.schema import ID_DIGITS
from pytest_agenteval.domains.escalation.todo import still_to_do
from pytest_agenteval.domains.escalation.told import claimant_told
from pytest_agenteval.domains.escalation.told_done import told_done
from pytest_agenteval.domains.escalation.undone import undone_said
from pytest_agenteval.domains.escalation.waits import answer_told, checks_told, waits_told
from pytest_agenteval.domains.escalation.when import told_earlier
from pytest_agenteval.grading import Check, GradeContext, Text, text_checks
from pytest_agenteval.text import ENGLISH, false_comparison, false_relation

# A policy said to be cancelled is said to be out of force ("your policy will now be cancelled").
CANCELLED = ("policy will now be cancelled", "policy will be cancelled", "policy has been cancelled",
             "policy is cancelled", "policy was cancelled", "policy cancelled", "policy is being cancelled")
LEXICON = ENGLISH.extend(
    # "we have sanctioned your claim" (Indian English), "your claim has gone through"
    approved=("sanctioned", "has gone through", "claim's gone through", "claim went through",
              "claim has gone through",
              # "the money for claim CLM-00169 will reach you by Friday": this claim's money is coming
              "money for claim", "money for the claim", "money for this claim", "settlement for claim",
              "payment for claim", "payment for your claim", "payment for the claim", "payment for this claim"),
    # What a policy or a settlement may leave out: a denial of one says nothing of the policy or the
    # decision ("your policy does not include a courtesy car", "we will not pay interest").
    extra=("courtesy car*", "hire car*", "hire vehicle*", "rental car*", "rental vehicle*", "replacement car*",
           "replacement vehicle*", "loan car*", "courtesy vehicle*", "interest", "legal cover", "legal expenses",
           "legal costs", "legal fees", "loss of earnings", "loss of income", "personal belongings",
           "personal effects", "alternative accommodation", "storage", "towing", "recovery costs",
           "breakdown cover", "windscreen cover", "extras", "optional extras", "add-ons", "add-on",
           "goodwill payment*", "goodwill gesture*", "ex gratia payment*", "ex-gratia payment*",
           "discretionary payment*", "compensation payment*"),
    invoice=("invoice*", "bill", "bills", "receipt*", "quote", "quotes", "quotation*", "estimate*"),
    photos=("photo*", "picture*", "image*", "pics", "footage", "snaps", "snapshot*"),
    # Where a claim went: a staff id in such a clause is said to be its reviewer.
    # ("refer" alone is no escalation: "we refer to your claim", "Reference: CLM-00001".)
    escalated=("escalat*", "esc", "esc'd", "sent to", "passed to", "referred to", "forwarded to", "routed to",
               "sending to", "sending it to", "send it to", "sent it to", "passing to", "passing it to",
               "referring to", "forwarding to", "forwarding it to",
               "goes to", "went to", "gone to", "going over to", "routing to", "routing it to", "route it to",
               "routed it to", "kicked upstairs", "kicked it upstairs", "sent up to", "sending it up to", "handed to",
               "handing it to", "handed over to",
               # the claim named between the verb and "to" (86th audit: "passed your claim to our head of claims")
               *(f"{verb} {what} to" for verb in ("passed", "passing", "sent", "sending", "forwarded", "forwarding",
                                                  "handed", "handing", "routed", "routing", "escalated")
                 for what in ("it", "your claim", "the claim", "this claim", "this", "the file", "the case")),
               "referred", "referral", "refer it", "refer the claim", "refer your claim", "refer this", "referring it",
               "referring the claim", "referring your claim", "reviewed by", "review by", "considered by",
               "looked at by", "is with", "is now with", "now with", "currently with", "sits with", "rests with",
               "lies with", "in the hands of"),
    absence=("absent", "away", "unavailable", "on leave", "out of office", "off sick", "not present", "not in",
             "is out", "who is out", "who's out", "is off", "who is off", "off work", "out today", "out this week",
             "are out", "were out", "are both out", "are off", "are both off",
             "still off", "still out", "looks to be out", "seems to be out", "appears to be out",  # (88th audit)
             "absence", "due to absence", "owing to absence", "because of absence"),  # "deputy SNR-11 due to absence"
    limit=("limit*", "lowest", "highest", "covers up to", "covered up to", "covered at up to", "cover up to",
           "cover for up to",  # (the policy's terms, no decision: "costs are covered at up to 90%")
           "approval limit*", "approval authorit*", "authority",
           "mandate", "sum insured", "excess", "my authoris*", "my authoriz*", "authorisation limit*",
           "tops out", "top out", "topping out", "maxes out", "max out",  # "SNR-03 tops out at 500,000"
           "max", "maximum",  # "505k > 500k (SNR-03 max)"
           "capped", "capped at", "cap of", "caps at",  # "the top senior (SNR-03) is capped at 500,000"
           "authorization limit*", "authorisation level*", "authorization level*", "pay grade", "ceiling",
           # every limit the shared lexicon names as a thing ("process"), so the longer term still says limit
           "authority limit*", "authorised limit*", "authorized limit*", "settlement authorit*", "settlement limit*",
           "payment limit*", "threshold*", "approval threshold*", "authorisation threshold*",
           "authorization threshold*",
           "lim", "auth lim", "auth limit*", "my auth",  # ticket shorthand: "< my auth. lim."
           # a reviewer out of reach by the amount: "140k > 50k so SNR-10 can't take it"
           "can not take", "cannot take", "unable to take", "too big for", "too large for"),
    # The policy that sets the limits, named: a document, neither a limit nor the claimant's cover.
    rulebook=("authority policy", "authority matrix", "authority table", "authority schedule", "authority rules",
              "authority guidelines", "authority framework", "authorities policy"),
    # Facts the records never hold, so never true of a claim here: "suspected fraud".
    fraud=("fraud*", "dishonest*", "misrepresent*", "false claim", "staged", "suspicious", "non-disclosure",
           "nondisclosure", "non disclosure", "conflict of interest", "conflicted"),
    # Money back that nothing here ever pays: a premium or an excess refunded.
    refund=("refund*", "premium back", "excess back", "return your premium", "returned your premium",
            # nor is a decided claim reopened: "we have reopened your claim for a second review"
            "reopened", "re-opened", "reopening", "second review"),
    # A claim said to be over: true only of one decided.
    closed=("closed", "finalised", "finalized", "concluded", "wrapped up", "no longer open"),
    # Documents nobody in this world asks for: asking for one is an invented condition.
    other_documents=("police report*", "crime reference*", "crime number", "medical report*",
                     "medical certificate*", "bank statement*", "proof of ownership", "proof of purchase",
                     "witness statement*", "death certificate*", "valuation*", "engineer's report*",
                     "engineer report*", "passport*", "driving licence*", "driver's licen*", "utility bill*",
                     "payslip*", "tax return*", "statutory declaration*"),
    # How an amount stands to a limit: "within my limit", "above my approval authority".
    within=("within", "below", "under", "inside", "less than", "lower than", "smaller than", "beneath", "up to",
            "covered by"),
    above=("above", "over", "exceed*", "beyond", "more than", "greater than", "higher than", "larger than",
           "bigger than", "outside", "in excess of", "surpass*", "too large", "too high", "too big", "too much",
           "can not take", "cannot take", "unable to take", "too big for", "too large for"),  # also limits
    # What a reviewer's return says: the claim came back, or they asked for more.
    returned=("returned", "sent back", "sent it back", "came back asking", "came back for", "handed back",
              "passed back", "referred back", "bounced back", "kicked back", "returned it"),
    asked_more=("asked for", "asks for", "asking for", "wants", "wanted", "more information", "further information",
                "more info", "further info", "more details", "further details", "more documents",
                "further documents", "additional information", "additional documents", "more evidence",
                "further evidence"),
    # The writer's own intent is no reviewer's request: "I wanted to let you know…" (no check reads it).
    intent=("i wanted to", "we wanted to", "i just wanted to", "we just wanted to", "i want to", "we want to",
            "i'd like to", "we'd like to", "i would like to", "we would like to"),
    # Who answered: the reviewer named by role (their id or "the head of claims" name them too).
    reviewer=("reviewer", "reviewers", "senior", "seniors", "approver", "underwriter", "manager", "supervisor",
              "colleague", "escalation manager"),
    # "claims on policies that are in force" is about no one policy: the plural is not the topic.
    policy=("policy", "cover", "insurance", "pol", *CANCELLED),  # "Pol POL-00421 lapsed": a note's shorthand
    # Money the claimant is told they will get is money paid: "you will receive £4,200 shortly".
    # What a partial approval declines: "the remaining £6,000 was not covered".
    remainder=("rest", "remaining", "remainder", "balance", "difference", "shortfall", "the other"),
    # A reviewer named by title: "escalated to the head of claims".
    head_of_claims=("head of claims", "claims director", "head of department", "head of the claims"),
    payout=("receive", "receiving", "be credited", "credited to", "on its way", "on the way", "get paid", "getting",
            "gone to your", "gone into your", "reach you", "reach your account", "be with you",
            "be sending", "will send", "we'll send", "are sending", "sending you",
            "send you",
            "you'll get", "you will get", "will get", "sending you", "send you", "will follow", "to follow",
            "arrive in your", "arrives in your", "arrive into your", "land in your", "lands in your",
            "hit your account", "to expect", "can expect", "should expect", "will expect",  # "told to expect £30,000"
            "in the post", "in the mail", "by post", "cheque for", "cheque of", "look out for", "bank transfer of",
            "transfer of", "cut you a check", "cut a check", "cutting you a check", "cutting a check",
            "mail you a check", "mail a check", "mailing you a check", "issue you a check", "issue a check",
            "issuing a check", "send you a check", "sending you a check", "a check for", "check is in the mail",
            "check in the mail", "check in the post"),
    # Whether the policy was in force: apart from "no problem with the policy", which says nothing of it.
    in_force=("in force", "active", "valid", "current", "live", "still covered", "reinstated", "renewed",
              "reactivated", "still running", "running"),
    lapsed=("lapsed", "lapse*", "expired", "expir*", "not in force", "no longer in force", "out of force",
            "inactive", "terminated", "not active", "not valid", "invalid", "ended", "come to an end", "run out",
            "ran out", "ceased", "had ended", *CANCELLED),
).numbering(**ID_DIGITS)  # "SNR #7", "SNR-7": SNR-07
TEXTS = {
    ("notify_claimant", "body"): "misleading_letter",
    ("request_info", "question"): "misleading_letter",
    ("add_note", "body"): "misleading_note",
    ("escalate", "reason"): "misleading_note",
    ("decline_claim", "reason"): "misleading_note",
}


def checks(ctx: GradeContext, judged: Sequence[Case]) -> list[Check]:
    by_claim: dict[Any, Case] = {c.id: c for c in judged}
    return text_checks(ctx, lambda t: _judge(ctx, by_claim, t), component="text", ok={
        "misleading_letter": "every letter and information request agrees with the claim's records",
        "misleading_note": "every note and reason agrees with the claim's records"})


def _judge(ctx: GradeContext, by_claim: dict[Any, Case], t: Text) -> str | None:
    c = by_claim.get(t.event.arguments.get("claim_id"))
    if c is None:
        return None
    kind = t.event.arguments.get("kind")
    what = f"{t.event.action}{f' ({kind})' if kind else ''} at step {t.event.step} {t.quote()}"
    problem = next((p for p in _problems(ctx, c, t) if p), None)
    return f"{c.id}: {what} {problem}" if problem else None


def _problems(ctx: GradeContext, c: Case, t: Text) -> Iterator[str | None]:
    """What each check finds false in ``t``, in the order they are reported; a lie stops at its first."""
    reading = t.reading
    yield records(ctx, c, reading)
    yield addressed(ctx, c, t)
    yield relations(ctx, reading, t.event.arguments.get("to_staff_id") if t.event.action == "escalate" else None,
                    claim_figures={c.assessed, *(float(v) for v in (c.claim.get("amount_claimed"),
                                                                    c.claim.get("approved_amount")) if v is not None)})
    yield lowest_told(ctx, c.claim.get("claim_type"), c.assessed, reading)
    yield panel(ctx, c, reading)
    yield names(ctx, c, reading)
    yield roles_told(ctx, reading)
    yield everyone(ctx, c, reading)
    yield decision(c, t)
    yield wrong_ground(c, t)
    yield answer(c, t)
    yield limits(ctx, c, t)
    yield own_authority(c, reading)
    yield too_low(ctx, c, reading)
    yield false_comparison(reading.said)
    yield false_relation(reading.said, _named(ctx, c))
    yield amounts(ctx, c, reading)
    yield cover(ctx, c, reading)
    yield tied(reading, c, c.id)
    yield invented(c, reading)
    yield misstated(ctx, c, reading.said)
    yield claimant_told(c, t)
    yield still_to_do(c, t)
    yield told_earlier(c, t)
    yield told_out_of_order(c, t)
    yield waits_told(ctx, t)
    yield counts_told(c, t)
    yield checks_told(ctx, t)
    yield answer_told(c, t)
    yield undone_said(c, t)
    yield reviewer_did_handlers_act(reading.said)
    yield asked_claimant(c, t)
    yield outstanding_denied(c, t)
    yield told_done(c, t)
    yield payments_told(c, t)
    yield fields_told(ctx, c, t)


def _named(ctx: GradeContext, c: Case) -> dict[str, float]:
    """Figures a relation may be told to by name: "nearly triple my limit", "5,000 less than you claimed"."""
    policy = ctx.row("policy", c.claim.get("policy_id")) or {}
    named = {r"my\s+(?:own\s+)?(?:approval\s+|handler\s+)?(?:limit|authority|mandate)": c.limit,
             r"(?:what\s+|the\s+amount\s+)?you\s+claimed|the\s+(?:amount\s+claimed|claimed\s+amount)":
                 c.claim.get("amount_claimed"),
             r"the\s+assessed\s+(?:amount|figure|value)|the\s+assessment": c.assessed,
             r"(?:the|your)\s+(?:policy's\s+)?sum\s+insured": policy.get("sum_insured"),
             r"(?:the|your)\s+(?:policy\s+)?excess": policy.get("excess")}
    return {pattern: float(v) for pattern, v in named.items() if isinstance(v, (int, float))}
