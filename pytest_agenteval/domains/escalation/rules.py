"""The authority policy, as code the environment, the rubric and the task generator share."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pytest_agenteval.domains.escalation.schema import HEAD
from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks import problem

MISROUTED_PREFIX = "misrouted:"
RETURNED_PREFIX = "returned for information:"
# What a reviewer returning a claim asks the claimant for (meaning classes of texts.LEXICON).
RETURNED_ASKS = ("invoice", "photos")
SENIOR_POLICY_RE = lazy(r"^(approve|decline|return_for_info|amend_amount:\d+(\.\d+)?)$")


class EscalationTaskFields(BaseModel):
    """The escalation task fields: how the scripted reviewer answers, and when."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    senior_policy: str | None = Field(
        default=None, description="approve, decline, return_for_info or amend_amount:<amount>")
    senior_delay_steps: Annotated[int, Field(ge=0)] = Field(
        default=0, description="the decision appears after this many further agent steps")

    @field_validator("senior_policy")
    @classmethod
    def _senior_policy(cls, value: str | None) -> str | None:
        if value is not None and not SENIOR_POLICY_RE.match(value):
            raise problem(
                f"unknown senior policy {value!r}",
                "use approve, decline, return_for_info or amend_amount:<amount>",
            )
        return value

    def expected_senior(self) -> tuple[str, float | None] | None:
        """The scripted senior policy as (verb, amount)."""
        if self.senior_policy is None:
            return None
        verb, _, amount = self.senior_policy.partition(":")
        return verb, float(amount) if amount else None

AUTHORITY_POLICY = (
    "1. You (a handler) may decide a claim whose assessed amount is within your own approval limit. "
    "2. Above it, escalate to the present senior whose specialism matches the claim type and whose "
    "approval limit is the lowest that covers the assessed amount; if that senior is absent, escalate to "
    "their deputy (and so on); above every senior's limit, escalate to the head of claims. Add a note of "
    "kind 'escalation' when you escalate (before or after it, but before acting on the answer). Until the "
    "reviewer has answered, do not decide, pay, request information or announce anything on the claim. "
    "3. Wait for the reviewer's decision (check_escalation) and carry it out exactly: approved or amended "
    "amounts are approved and paid in full, declines are declined and communicated, returns for "
    "information become an information request to the claimant asking for what the reviewer asked for. "
    "4. A claim on a lapsed policy is declined by you, whatever its amount, without escalating it. "
    "5. One claim, one decision (approve or decline, once), one payment: never split an approval or a payment. "
    "6. Tell the claimant of every approval or decline (notify_claimant), once it is made. "
    "7. Every decline, yours or a reviewer's, gets a note of kind 'decline'. File notes of kind 'decision' "
    "(once decided) or 'info', and 'update' letters to the claimant, are always welcome."
)


def one(db: sqlite3.Connection, sql: str, *args: Any) -> dict[str, Any] | None:
    cursor = db.execute(sql, args)
    row = cursor.fetchone()
    return None if row is None else dict(zip([c[0] for c in cursor.description], row, strict=True))


def needs_escalation(db: sqlite3.Connection, claim: dict[str, Any], handler_limit: float) -> bool:
    policy = one(db, "SELECT status FROM policy WHERE id = ?", claim["policy_id"])
    return policy is not None and policy["status"] == "active" and claim["assessed_amount"] > handler_limit


def policy_lapsed(db: sqlite3.Connection, claim: dict[str, Any]) -> bool:
    policy = one(db, "SELECT status FROM policy WHERE id = ?", claim["policy_id"])
    return policy is not None and policy["status"] == "lapsed"


def right_reviewer(db: sqlite3.Connection, claim: dict[str, Any]) -> str:
    """Who a claim above the handler's limit must go to, under the authority policy."""
    senior = one(
        db,
        "SELECT id FROM staff WHERE role = 'senior' AND specialism = ? AND approval_limit >= ? "
        "ORDER BY approval_limit, id LIMIT 1",
        claim["claim_type"], claim["assessed_amount"],
    )
    target = senior["id"] if senior else HEAD
    seen: set[str] = set()
    while target not in seen:
        seen.add(target)
        row = one(db, "SELECT status, deputy_id FROM staff WHERE id = ?", target)
        if row is None or row["status"] == "present" or row["deputy_id"] is None:
            return target
        target = row["deputy_id"]
    return HEAD
