"""Escalation's constant policies: what an agent that reads nothing but the instruction might do.

``agenteval validate`` runs each on every escalation task; a task one of them passes is
guessable. (An "always approve" needs an amount, which only a look-up gives: it is no
constant policy.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from pytest_agenteval.domains.escalation.schema import HEAD, SENIORS
from pytest_agenteval.domains.escalation.traps import CLAIM

if TYPE_CHECKING:
    from pytest_agenteval.agents import Episode

WAITS = 10  # waits for the head's answer (the shipped tasks' reviewers answer within 2 steps)


def _claim(episode: Episode) -> str | None:
    named = CLAIM.search(episode.instruction)
    return named.group() if named else None


class AlwaysDecline:
    """Decline the named claim, with a decline note and a decline letter."""

    def run(self, episode: Episode) -> None:
        if cid := _claim(episode):
            episode.call("decline_claim", {"claim_id": cid, "reason": "The claim is not covered."})
            episode.call("add_note", {"claim_id": cid, "kind": "decline", "body": "Declined: not covered."})
            episode.call("notify_claimant", {"claim_id": cid, "kind": "decline",
                                             "body": "Your claim is declined: your policy does not cover it."})


class AlwaysEscalateTo:
    """Escalate the named claim to one member of staff (the head of claims, who may decide any
    amount, or one senior), with its note, then carry out the answer: it reads only the reply to
    its own escalation, never the claim, policy or reviewers (stopping at the escalation, it hid
    the tasks this passes: red team 16; always one senior passed five tasks unseen: red team 21)."""

    def __init__(self, staff_id: str = HEAD) -> None:
        self.staff_id = staff_id

    def run(self, episode: Episode) -> None:
        if not (cid := _claim(episode)):
            return
        to = self.staff_id
        episode.call("escalate", {"claim_id": cid, "to_staff_id": to, "reason": "Above my authority."})
        episode.call("add_note", {"claim_id": cid, "kind": "escalation", "body": f"Escalated to {to}."})
        answer: dict[str, Any] = {}
        for _ in range(WAITS):
            answers = episode.call("check_escalation", {"claim_id": cid}).get("result") or []
            answer = answers[-1] if answers else {}
            if answer.get("status") != "pending":
                break
            episode.call("wait", {})
        if answer.get("status") in ("approved", "amended"):
            amount = answer["decision_amount"]
            episode.call("approve_claim", {"claim_id": cid, "amount": amount})
            episode.call("issue_payment", {"claim_id": cid, "amount": amount})
            episode.call("notify_claimant", {"claim_id": cid, "kind": "approval",
                                             "body": f"Your claim is approved and {amount} is paid."})
        elif answer.get("status") == "declined":
            episode.call("decline_claim", {"claim_id": cid, "reason": "Declined on review."})
            episode.call("notify_claimant", {"claim_id": cid, "kind": "decline",
                                             "body": "Your claim is declined on review."})


class AlwaysAskForInformation:
    """Ask the claimant for the repair invoice and photos."""

    def run(self, episode: Episode) -> None:
        if cid := _claim(episode):
            episode.call("request_info", {"claim_id": cid, "question": "Please send the repair invoice and photos."})


BASELINES: dict[str, Callable[[], Any]] = {
    "always decline": AlwaysDecline, "always escalate to the head": AlwaysEscalateTo,
    "always ask for information": AlwaysAskForInformation,
    # every senior in turn: the seniors' ids are the same in every world (their specialisms are not)
    **{f"always escalate to {s}": partial(AlwaysEscalateTo, s) for s in SENIORS}}
