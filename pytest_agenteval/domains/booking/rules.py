"""The booking rules, as code the environment, the rubric, the saboteurs and the task
generator share.

Book a pending facility to an open account of the same customer and the right type (a loan
account for term loans and revolvers, a current account for overdrafts), opening one only if
none exists; price it from the rate sheet for its product, the customer's segment and the
limit band, unless a pricing exception is on record; then activate it. When data conflicts
(KYC not verified, no rate for the limit), raise a query and leave it pending.
"""

from __future__ import annotations

import sqlite3

ACCOUNT_TYPE = {"term_loan": "loan", "revolver": "loan", "overdraft": "current"}


def sheet_rate(db: sqlite3.Connection, product: str, segment: str, limit: float) -> float | None:
    row = db.execute(
        "SELECT rate_percent FROM rate_sheet WHERE product = ? AND segment = ? AND band_min <= ? AND ? < band_max",
        (product, segment, limit, limit),
    ).fetchone()
    return None if row is None else row[0]
