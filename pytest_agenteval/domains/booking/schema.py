"""Loan-facility booking: tables and seed data."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE

__all__ = ["ACCOUNT_TYPE", "SCHEMA", "seed_rows"]

SCHEMA = """
CREATE TABLE customer (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    segment    TEXT NOT NULL CHECK (segment IN ('retail', 'sme', 'corporate')),
    kyc_status TEXT NOT NULL CHECK (kyc_status IN ('verified', 'pending', 'failed'))
);
CREATE TABLE account (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customer (id),
    account_type TEXT NOT NULL CHECK (account_type IN ('current', 'loan')),
    status       TEXT NOT NULL CHECK (status IN ('open', 'closed'))
);
CREATE INDEX account_customer ON account (customer_id);
CREATE TABLE facility (
    id             TEXT PRIMARY KEY,
    customer_id    TEXT NOT NULL REFERENCES customer (id),
    account_id     TEXT REFERENCES account (id),
    product        TEXT NOT NULL CHECK (product IN ('term_loan', 'revolver', 'overdraft')),
    limit_amount   REAL NOT NULL CHECK (limit_amount > 0),
    term_months    INTEGER NOT NULL CHECK (term_months > 0),
    rate_percent   REAL CHECK (rate_percent IS NULL OR rate_percent BETWEEN 0 AND 30),
    exception_rate REAL CHECK (exception_rate IS NULL OR exception_rate BETWEEN 0 AND 30),
    status         TEXT NOT NULL CHECK (status IN ('PENDING', 'BOOKED', 'ACTIVE', 'ON_HOLD', 'CLOSED')),
    CHECK (status NOT IN ('BOOKED', 'ACTIVE') OR account_id IS NOT NULL)
);
CREATE INDEX facility_customer ON facility (customer_id);
CREATE TABLE rate_sheet (
    id           TEXT PRIMARY KEY,
    product      TEXT NOT NULL,
    segment      TEXT NOT NULL,
    band_min     REAL NOT NULL,
    band_max     REAL NOT NULL CHECK (band_max > band_min),
    rate_percent REAL NOT NULL CHECK (rate_percent > 0),
    UNIQUE (product, segment, band_min)
);
CREATE TABLE booking_event (
    id          TEXT PRIMARY KEY,
    facility_id TEXT NOT NULL REFERENCES facility (id),
    event_type  TEXT NOT NULL CHECK (event_type IN ('booked', 'rate_set', 'activated', 'raise_query', 'hold')),
    detail      TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX booking_event_facility ON booking_event (facility_id);
"""

PRODUCTS = ("term_loan", "revolver", "overdraft")
SEGMENTS = ("retail", "sme", "corporate")
# Limit bands: a facility above the last band has no sheet rate (a data conflict).
BANDS = ((0.0, 250_000.0), (250_000.0, 1_000_000.0), (1_000_000.0, 5_000_000.0))
FIRST_FACILITY = 5001
# This world's ids: prefix -> digits of the seeded ones (0: made in an episode, "EV-E001"). A
# text's id of another prefix ("CH-48213") is no claim about its records.
ID_DIGITS = {"CUS": 4, "ACC": 5, "FAC": 4, "EV": 0}


def seed_rows(rng: random.Random, population: int) -> dict[str, Any]:
    """``population`` customers, about 1.5 accounts and 1.2 facilities each."""
    customers = [
        (f"CUS-{i:04d}", f"Customer {i}", rng.choice(SEGMENTS),
         rng.choices(("verified", "pending", "failed"), (90, 7, 3))[0])
        for i in range(1, population + 1)
    ]
    accounts: list[tuple[Any, ...]] = []
    for cid, *_ in customers:
        for kind in rng.sample(("current", "loan"), rng.choice((1, 1, 2))):
            accounts.append((f"ACC-{len(accounts) + 1:05d}", cid, kind, rng.choices(("open", "closed"), (92, 8))[0]))
    open_by_customer: dict[tuple[str, str], str] = {}
    for aid, cid, kind, status in accounts:
        if status == "open":
            open_by_customer.setdefault((cid, kind), aid)
    return {
        "customer": customers,
        "account": accounts,
        "rate_sheet": list(_rate_sheet(rng)),
        "facility": list(_facilities(rng, customers, open_by_customer, int(population * 1.2))),
        "booking_event": [],
    }


def _rate_sheet(rng: random.Random) -> Iterator[tuple[Any, ...]]:
    for product in PRODUCTS:
        for segment in SEGMENTS:
            base = rng.uniform(4.5, 8.5)
            for n, (low, high) in enumerate(BANDS, start=1):
                yield (f"RS-{product}-{segment}-{n}", product, segment, low, high, round(base - 0.25 * n, 2))


def _facilities(rng: random.Random, customers: list[tuple[Any, ...]],
                open_accounts: dict[tuple[str, str], str], count: int) -> Iterator[tuple[Any, ...]]:
    for i in range(count):
        cid = customers[rng.randrange(len(customers))][0]
        product = rng.choice(PRODUCTS)
        limit = float(rng.choice((50, 120, 240, 300, 600, 900, 1500, 3000)) * 1000)
        account = open_accounts.get((cid, ACCOUNT_TYPE[product]))
        status = rng.choice(("PENDING", "PENDING", "ACTIVE", "BOOKED")) if account else "PENDING"
        rate = round(rng.uniform(4, 8), 2) if status == "ACTIVE" else None
        yield (f"FAC-{FIRST_FACILITY + i}", cid, account if status != "PENDING" else None, product,
               limit, rng.choice((12, 24, 36, 60)), rate, None, status)
