"""What each booking action returns on success (its ``result``): the shapes agents read.

Declared as the actions' return types, so the tool export and docs/observations.md say them;
tests/test_observations.py checks every result the reference agent sees against them.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict  # pydantic needs it for a schema on Python < 3.12

FacilityStatus = Literal["PENDING", "BOOKED", "ACTIVE", "ON_HOLD", "CLOSED"]


class Customer(TypedDict):
    id: str
    name: str
    segment: Literal["retail", "sme", "corporate"]
    kyc_status: Literal["verified", "pending", "failed"]


class AccountSummary(TypedDict):
    account_id: str
    account_type: Literal["current", "loan"]
    status: Literal["open", "closed"]


class Facility(TypedDict):
    id: str
    customer_id: str
    account_id: str | None
    product: Literal["term_loan", "revolver", "overdraft"]
    limit_amount: float
    term_months: int
    rate_percent: float | None
    exception_rate: float | None
    status: FacilityStatus


class SheetRate(TypedDict):
    rate_percent: float | None  # null: no rate on the sheet for that limit


class AccountOpened(TypedDict):
    account_id: str


class Booked(TypedDict):
    facility_id: str
    status: Literal["BOOKED"]
    account_id: str


class RateSet(TypedDict):
    facility_id: str
    rate_percent: float


class Activated(TypedDict):
    facility_id: str
    status: Literal["ACTIVE"]


class EventRecorded(TypedDict):
    event_id: str


class AccountClosed(TypedDict):
    account_id: str
    status: Literal["closed"]
