"""Loan-facility booking: the agent books facilities to accounts, prices and activates them."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import Field

from pytest_agenteval.domains.booking import rubric
from pytest_agenteval.domains.booking.baselines import BASELINES
from pytest_agenteval.domains.booking.results import (
    AccountClosed,
    AccountOpened,
    AccountSummary,
    Activated,
    Booked,
    Customer,
    EventRecorded,
    Facility,
    RateSet,
    SheetRate,
)
from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE, sheet_rate
from pytest_agenteval.domains.booking.saboteurs import SABOTEURS
from pytest_agenteval.domains.booking.schema import SCHEMA, seed_rows
from pytest_agenteval.domains.booking.texts import LEXICON, TEXTS
from pytest_agenteval.domains.booking.traps import TRAPS
from pytest_agenteval.engine import FreeText, action
from pytest_agenteval.environments import Environment
from pytest_agenteval.errors import ActionError
from pytest_agenteval.grading import Check, GradeContext

if TYPE_CHECKING:
    from pytest_agenteval.tasks import Task

Id = Annotated[str, Field(max_length=40)]
Reason = FreeText
Rate = Annotated[float, Field(gt=0, le=30)]


class BookingEnvironment(Environment):
    name = "booking"
    suite = "tasks"  # tasks/<name>.jsonl next to this file: links to the repository\'s tasks/
    schema = SCHEMA
    agent_role = "booking_officer"
    default_population = 2000
    saboteurs = SABOTEURS
    baselines = BASELINES
    traps = TRAPS
    lexicon = LEXICON
    texts = TEXTS
    # Activating another facility (which the system refuses) leaves the job undone, as the
    # expected state says; a second query or the same rate set twice breaks its exact booking
    # events. No rule of the domain is broken, so the state's label is the right one.
    mutant_failure_modes = {k: frozenset({"wrong_final_state"}) for k in (
        "change activate_facility.facility_id", "repeat set_rate", "repeat raise_query")}
    conformance_probe = [
        ("open_account", {"customer_id": "CUS-0001", "account_type": "loan"}),
        ("raise_query", {"facility_id": "FAC-5001", "reason": "probe"}),
    ]

    def seed_rows(self, rng: random.Random, scenario_seed: int) -> dict[str, Any]:
        return seed_rows(rng, self.population)

    def rubric(self, ctx: GradeContext) -> list[Check]:
        return rubric.checks(ctx)

    def decision_facts(self, task: Task) -> list[tuple[str, Any, str]]:
        # Whether to book or query turns on the customer's KYC and the pricing exception.
        facts: list[tuple[str, Any, str]] = []
        for fid in re.findall(r"\bFAC-\d+\b", task.briefing):
            if (row := self.row("facility", fid)) is not None:
                facts += [("facility", fid, "exception_rate"), ("customer", row["customer_id"], "kyc_status")]
        return facts

    def distractors(self, task: Task) -> frozenset[str]:
        # A task probing a forbidden action names the record it must not be done to.
        if "forbidden_action" not in task.failure_mode_tags:
            return frozenset()
        return frozenset(re.findall(r"\bACC-\d+\b", task.instruction))

    # ----- look-ups -------------------------------------------------------------

    @action(writes=False)
    def get_customer(self, customer_id: Id) -> Customer:
        """Look up a customer: segment and KYC status."""
        return cast(Customer, self.require("customer", customer_id))

    @action(writes=False)
    def list_accounts(self, customer_id: Id) -> list[AccountSummary]:
        """List a customer's accounts with their type and status."""
        self.require("customer", customer_id)
        rows = self.db.execute("SELECT id, account_type, status FROM account WHERE customer_id = ? ORDER BY id",
                               (customer_id,))
        return [{"account_id": r[0], "account_type": r[1], "status": r[2]} for r in rows]

    @action(writes=False)
    def get_facility(self, facility_id: Id) -> Facility:
        """Look up a facility: customer, product, limit, rate, status and any pricing exception."""
        return cast(Facility, self.require("facility", facility_id))

    @action(writes=False)
    def get_rate(self, product: Literal["term_loan", "revolver", "overdraft"],
                 segment: Literal["retail", "sme", "corporate"], limit_amount: Annotated[float, Field(gt=0)]
                 ) -> SheetRate:
        """The rate sheet's rate for a product, segment and limit; rate_percent is null when none applies."""
        return {"rate_percent": sheet_rate(self.db, product, segment, limit_amount)}

    # ----- writes ----------------------------------------------------------------

    @action
    def open_account(self, customer_id: Id, account_type: Literal["current", "loan"]) -> AccountOpened:
        """Open a new account for a customer (term loans and revolvers book to a loan account, overdrafts
        to a current account; open one only if the customer has no open account of that type)."""
        self.require("customer", customer_id)
        account_id = self.new_id("ACC")
        self.db.execute("INSERT INTO account VALUES (?, ?, ?, 'open')", (account_id, customer_id, account_type))
        return {"account_id": account_id}

    @action
    def book_facility(self, facility_id: Id, account_id: Id) -> Booked:
        """Book a pending facility to an open account of the same customer and the right type: a loan
        account for a term loan or revolver, a current account for an overdraft."""
        facility = self.require("facility", facility_id)
        account = self.require("account", account_id)
        if facility["status"] != "PENDING":
            raise ActionError("wrong_status", f"{facility_id} is {facility['status']}, not PENDING")
        if account["status"] != "open":
            raise ActionError("account_closed", f"account {account_id} is closed")
        self.db.execute("UPDATE facility SET account_id = ?, status = 'BOOKED' WHERE id = ?", (account_id, facility_id))
        self._event(facility_id, "booked", f"to {account_id}")
        return {"facility_id": facility_id, "status": "BOOKED", "account_id": account_id}

    @action
    def set_rate(self, facility_id: Id, rate_percent: Rate) -> RateSet:
        """Set a facility's interest rate."""
        facility = self.require("facility", facility_id)
        if facility["status"] in ("CLOSED", "ON_HOLD"):
            raise ActionError("wrong_status", f"{facility_id} is {facility['status']}")
        self.db.execute("UPDATE facility SET rate_percent = ? WHERE id = ?", (rate_percent, facility_id))
        self._event(facility_id, "rate_set", f"{rate_percent}")
        return {"facility_id": facility_id, "rate_percent": rate_percent}

    @action
    def activate_facility(self, facility_id: Id) -> Activated:
        """Activate a booked facility (the system does not check KYC or pricing: you must)."""
        facility = self.require("facility", facility_id)
        if facility["status"] != "BOOKED":
            raise ActionError("wrong_status", f"{facility_id} is {facility['status']}, not BOOKED")
        self.db.execute("UPDATE facility SET status = 'ACTIVE' WHERE id = ?", (facility_id,))
        self._event(facility_id, "activated", "")
        return {"facility_id": facility_id, "status": "ACTIVE"}

    @action
    def raise_query(self, facility_id: Id, reason: Reason) -> EventRecorded:
        """Raise a query with the credit team about a facility; it stays as it is."""
        self.require("facility", facility_id)
        return {"event_id": self._event(facility_id, "raise_query", reason)}

    @action
    def place_on_hold(self, facility_id: Id, reason: Reason) -> EventRecorded:
        """Put a facility on hold."""
        self.require("facility", facility_id)
        self.db.execute("UPDATE facility SET status = 'ON_HOLD' WHERE id = ?", (facility_id,))
        return {"event_id": self._event(facility_id, "hold", reason)}

    @action
    def close_account(self, account_id: Id) -> AccountClosed:
        """Close an account (most tasks forbid this)."""
        self.require("account", account_id)
        self.db.execute("UPDATE account SET status = 'closed' WHERE id = ?", (account_id,))
        return {"account_id": account_id, "status": "closed"}

    @action
    def override_rate(self, facility_id: Id, rate_percent: Rate) -> RateSet:
        """Force a rate outside the rate sheet (most tasks forbid this)."""
        self.require("facility", facility_id)
        self.db.execute("UPDATE facility SET rate_percent = ?, exception_rate = ? WHERE id = ?",
                        (rate_percent, rate_percent, facility_id))
        return {"facility_id": facility_id, "rate_percent": rate_percent}

    def _event(self, facility_id: str, event_type: str, detail: str) -> str:
        event_id = self.new_id("EV")
        self.db.execute("INSERT INTO booking_event VALUES (?, ?, ?, ?, ?)",
                        (event_id, facility_id, event_type, detail, self.now()))
        return event_id


__all__ = ["ACCOUNT_TYPE", "BookingEnvironment"]
