"""What each claims action returns on success (its ``result``): the shapes agents read.

Declared as the actions' return types, so the tool export and docs/observations.md say them;
tests/test_observations.py checks every result the reference agent sees against them.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict  # pydantic needs it for a schema on Python < 3.12

Specialism = Literal["motor", "property", "liability", "travel"]
EscalationStatus = Literal["pending", "approved", "amended", "declined", "returned"]


class Claim(TypedDict):
    id: str
    policy_id: str
    claim_type: Specialism
    amount_claimed: float
    assessed_amount: float
    status: Literal["open", "escalated", "approved", "settled", "declined", "info_requested"]
    handler_id: str
    approved_amount: float | None
    decided_by: str | None


class Policy(TypedDict):
    id: str
    holder: str
    product: Specialism
    sum_insured: float
    excess: float
    status: Literal["active", "lapsed"]


class Staff(TypedDict):
    id: str
    name: str
    role: Literal["handler", "senior", "head_of_claims"]
    approval_limit: float
    status: Literal["present", "absent"]
    deputy_id: str | None
    specialism: Specialism | None


class Reviewer(TypedDict):
    staff_id: str
    role: Literal["senior", "head_of_claims"]
    approval_limit: float
    status: Literal["present", "absent"]
    deputy_id: str | None


class AuthorityPolicy(TypedDict):
    policy: str
    your_staff_id: str
    your_approval_limit: float


class EscalationState(TypedDict):
    escalation_id: str
    to_staff: str
    status: EscalationStatus
    decision_amount: float | None
    response: str | None


class Waited(TypedDict):
    waited: Literal[True]


class Escalated(TypedDict):
    escalation_id: str
    status: Literal["pending"]


class Approved(TypedDict):
    claim_id: str
    approved_amount: float


class Declined(TypedDict):
    claim_id: str
    status: Literal["declined"]


class Paid(TypedDict):
    payment_id: str


class InfoRequested(TypedDict):
    claim_id: str
    status: Literal["info_requested"]


class Noted(TypedDict):
    note_id: str


class Sent(TypedDict):
    sent: Literal[True]
