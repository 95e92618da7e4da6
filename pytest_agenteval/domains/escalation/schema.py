"""Claims case escalation: tables and seed data.

The agent is handler STF-001. Seniors (SNR-01 … SNR-12) cover one specialism each in three
authority tiers; each senior's deputy is the next tier up in the same specialism, and the
top tier's deputy is the head of claims (HOC-1).
"""

from __future__ import annotations

import random
from typing import Any

SCHEMA = """
CREATE TABLE staff (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    role           TEXT NOT NULL CHECK (role IN ('handler', 'senior', 'head_of_claims')),
    approval_limit REAL NOT NULL CHECK (approval_limit > 0),
    status         TEXT NOT NULL CHECK (status IN ('present', 'absent')),
    deputy_id      TEXT REFERENCES staff (id),
    specialism     TEXT CHECK (specialism IN ('motor', 'property', 'liability', 'travel'))
);
CREATE TABLE policy (
    id          TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    product     TEXT NOT NULL CHECK (product IN ('motor', 'property', 'liability', 'travel')),
    sum_insured REAL NOT NULL CHECK (sum_insured > 0),
    excess      REAL NOT NULL CHECK (excess >= 0),
    status      TEXT NOT NULL CHECK (status IN ('active', 'lapsed'))
);
CREATE TABLE claim (
    id              TEXT PRIMARY KEY,
    policy_id       TEXT NOT NULL REFERENCES policy (id),
    claim_type      TEXT NOT NULL CHECK (claim_type IN ('motor', 'property', 'liability', 'travel')),
    amount_claimed  REAL NOT NULL CHECK (amount_claimed > 0),
    assessed_amount REAL NOT NULL CHECK (assessed_amount > 0),
    status          TEXT NOT NULL CHECK (status IN ('open', 'escalated', 'approved', 'settled', 'declined',
                                                    'info_requested')),
    handler_id      TEXT NOT NULL REFERENCES staff (id),
    approved_amount REAL CHECK (approved_amount IS NULL OR approved_amount > 0),
    decided_by      TEXT REFERENCES staff (id)
);
CREATE INDEX claim_handler ON claim (handler_id);
CREATE INDEX staff_reviewers ON staff (role, specialism, approval_limit);
CREATE TABLE escalation (
    id              TEXT PRIMARY KEY,
    claim_id        TEXT NOT NULL REFERENCES claim (id),
    from_staff      TEXT NOT NULL REFERENCES staff (id),
    to_staff        TEXT NOT NULL REFERENCES staff (id),
    reason          TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'amended', 'declined', 'returned')),
    decision_amount REAL,
    response        TEXT,
    decided_step    INTEGER
);
CREATE INDEX escalation_claim ON escalation (claim_id);
CREATE TABLE payment (
    id            TEXT PRIMARY KEY,
    claim_id      TEXT NOT NULL REFERENCES claim (id),
    amount        REAL NOT NULL CHECK (amount > 0),
    authorised_by TEXT NOT NULL REFERENCES staff (id)
);
CREATE INDEX payment_claim ON payment (claim_id);
CREATE TABLE note (
    id        TEXT PRIMARY KEY,
    claim_id  TEXT NOT NULL REFERENCES claim (id),
    author_id TEXT NOT NULL REFERENCES staff (id),
    kind      TEXT NOT NULL CHECK (kind IN ('decision', 'escalation', 'decline', 'info')),
    body      TEXT NOT NULL
);
CREATE INDEX note_claim ON note (claim_id);
CREATE TABLE correspondence (
    id       TEXT PRIMARY KEY,
    claim_id TEXT NOT NULL REFERENCES claim (id),
    kind     TEXT NOT NULL CHECK (kind IN ('approval', 'decline', 'info_request', 'update')),
    body     TEXT NOT NULL
);
CREATE INDEX correspondence_claim ON correspondence (claim_id);
"""

AGENT = "STF-001"
HEAD = "HOC-1"
# This world's ids: prefix -> digits of the seeded ones (0: made in an episode, "ESC-E001"). A
# text's id of another prefix ("VAT-20", "CH-48213") is no claim about its records.
ID_DIGITS = {"CLM": 5, "POL": 5, "STF": 3, "SNR": 2, "HOC": 1, "ESC": 0, "PAY": 0, "COR": 0, "NOTE": 0}
SPECIALISMS = ("motor", "property", "liability", "travel")
TIERS = (50_000.0, 150_000.0, 500_000.0)
HANDLER_LIMIT = 10_000.0


# The seniors' ids, the same in every world (what each covers is shuffled per seed).
SENIORS = tuple(f"SNR-{n:02d}" for n in range(1, len(SPECIALISMS) * len(TIERS) + 1))


def seniors_for(rng: random.Random) -> list[tuple[Any, ...]]:
    """12 seniors: specialisms shuffled per seed over SNR-01 … SNR-12, tiers in order."""
    order = list(SPECIALISMS)
    rng.shuffle(order)
    rows = []
    for s, spec in enumerate(order):
        for t, limit in enumerate(TIERS):
            sid = f"SNR-{s * 3 + t + 1:02d}"
            deputy = f"SNR-{s * 3 + t + 2:02d}" if t < 2 else HEAD
            status = "absent" if rng.random() < 0.15 else "present"
            rows.append((sid, f"Senior {sid[-2:]}", "senior", limit, status, deputy, spec))
    rows.reverse()  # each deputy is inserted before the senior who names it
    return rows


def seed_rows(rng: random.Random, population: int) -> dict[str, list[tuple[Any, ...]]]:
    """``population`` claims (default 800), about 0.75 policies per claim, ~200 handlers."""
    staff: list[tuple[Any, ...]] = [(HEAD, "Head of Claims", "head_of_claims", 5_000_000.0, "present", None, None)]
    staff += seniors_for(rng)
    staff.append((AGENT, "You (handler)", "handler", HANDLER_LIMIT, "present", None, None))
    for i in range(2, max(20, population // 4) + 1):
        staff.append((f"STF-{i:03d}", f"Handler {i}", "handler", float(rng.choice((5_000, 10_000, 20_000))),
                      rng.choice(("present", "present", "absent")), None, rng.choice(SPECIALISMS)))
    handlers = [s[0] for s in staff if s[2] == "handler"]
    policies = []
    for i in range(1, int(population * 0.75) + 1):
        product = rng.choice(SPECIALISMS)
        policies.append((f"POL-{i:05d}", f"Holder {i}", product, float(rng.choice((20, 50, 250, 900)) * 1000),
                         float(rng.choice((0, 250, 500, 1000))), rng.choices(("active", "lapsed"), (9, 1))[0]))
    claims = []
    for i in range(1, population + 1):
        pol = policies[rng.randrange(len(policies))]
        claimed = float(rng.choice((2, 6, 9, 30, 45, 120, 400, 700)) * 1000)
        assessed = round(claimed * rng.choice((0.8, 0.9, 1.0)), 2)
        # Every eighth claim is in the agent's own queue.
        handler = AGENT if i % 8 == 1 else rng.choice(handlers)
        claims.append((f"CLM-{i:05d}", pol[0], pol[2], claimed, assessed, "open", handler, None, None))
    return {"staff": staff, "policy": policies, "claim": claims, "escalation": [], "payment": [], "note": [],
            "correspondence": []}
