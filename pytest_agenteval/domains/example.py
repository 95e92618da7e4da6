"""A tiny help-desk environment: the engine's own test bed and the smallest domain example."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, cast

from pydantic import Field
from typing_extensions import TypedDict  # pydantic needs it for a schema on Python < 3.12

from pytest_agenteval.engine import FreeText, action
from pytest_agenteval.environments import Environment
from pytest_agenteval.errors import ActionError

SCHEMA = """
CREATE TABLE customer (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tier TEXT NOT NULL CHECK (tier IN ('standard', 'gold'))
);
CREATE TABLE ticket (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer (id),
    subject     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('open', 'pending', 'closed')),
    priority    INTEGER NOT NULL CHECK (priority BETWEEN 1 AND 4),
    updated_at  TEXT NOT NULL
);
CREATE INDEX ticket_customer ON ticket (customer_id);
CREATE TABLE comment (
    id         TEXT PRIMARY KEY,
    ticket_id  TEXT NOT NULL REFERENCES ticket (id),
    body       TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    created_at TEXT NOT NULL
);
"""

TicketId = Annotated[str, Field(description="Ticket id, e.g. T-0001", max_length=40)]


# What each action returns on success: declared, so the tools and docs/observations.md say it.
class Ticket(TypedDict):
    id: str
    customer_id: str
    subject: str
    status: Literal["open", "pending", "closed"]
    priority: int
    updated_at: str


class PrioritySet(TypedDict):
    ticket_id: str
    priority: int


class Closed(TypedDict):
    ticket_id: str
    status: Literal["closed"]


class Commented(TypedDict):
    comment_id: str


class Deleted(TypedDict):
    deleted: str

SUBJECTS = ("Cannot log in", "Invoice is wrong", "Refund request", "Address change", "Card blocked")


class ExampleEnvironment(Environment):
    name = "example"
    schema = SCHEMA
    default_population = 20
    conformance_probe = [
        ("set_priority", {"ticket_id": "T-0001", "priority": 4}),
        ("add_comment", {"ticket_id": "T-0002", "body": "probe"}),
        ("delete_ticket", {"ticket_id": "T-0003"}),
    ]

    def seed_rows(
        self, rng: random.Random, scenario_seed: int
    ) -> Mapping[str, Iterable[Sequence[Any]]]:
        n = self.population
        customers = [(f"C-{i:04d}", f"Customer {i}", rng.choice(("standard", "gold"))) for i in range(1, n + 1)]
        tickets = [
            (f"T-{i:04d}", rng.choice(customers)[0], rng.choice(SUBJECTS),
             rng.choice(("open", "open", "pending")), rng.randint(1, 4), "2026-01-01T00:00:00Z")
            for i in range(1, 3 * n + 1)
        ]
        return {"customer": customers, "ticket": tickets, "comment": []}

    def _ticket(self, ticket_id: str) -> Ticket:
        return cast(Ticket, self.require("ticket", ticket_id))  # the row, as the schema has it

    @action(writes=False)
    def get_ticket(self, ticket_id: TicketId) -> Ticket:
        """Look up one ticket."""
        return self._ticket(ticket_id)

    @action(writes=False)
    def find_tickets(self, customer_id: Annotated[str, Field(max_length=40)]) -> list[str]:
        """List the ids of a customer's tickets."""
        rows = self.db.execute("SELECT id FROM ticket WHERE customer_id = ? ORDER BY id", (customer_id,))
        return [r[0] for r in rows]

    @action
    def set_priority(self, ticket_id: TicketId, priority: Annotated[int, Field(ge=1, le=4)]) -> PrioritySet:
        """Set a ticket's priority (1 is most urgent)."""
        self._ticket(ticket_id)
        self.db.execute("UPDATE ticket SET priority = ?, updated_at = ? WHERE id = ?",
                        (priority, self.now(), ticket_id))
        return {"ticket_id": ticket_id, "priority": priority}

    @action
    def close_ticket(self, ticket_id: TicketId) -> Closed:
        """Close a ticket that is not closed yet."""
        if self._ticket(ticket_id)["status"] == "closed":
            raise ActionError("already_closed", f"ticket {ticket_id} is already closed")
        self.db.execute("UPDATE ticket SET status = 'closed', updated_at = ? WHERE id = ?",
                        (self.now(), ticket_id))
        return {"ticket_id": ticket_id, "status": "closed"}

    @action
    def add_comment(self, ticket_id: TicketId, body: FreeText) -> Commented:
        """Add a comment to a ticket."""
        self._ticket(ticket_id)
        comment_id = self.new_id("CM")
        self.db.execute("INSERT INTO comment VALUES (?, ?, ?, ?)", (comment_id, ticket_id, body, self.now()))
        return {"comment_id": comment_id}

    @action
    def delete_ticket(self, ticket_id: TicketId) -> Deleted:
        """Delete a ticket and its comments."""
        self._ticket(ticket_id)
        self.db.execute("DELETE FROM comment WHERE ticket_id = ?", (ticket_id,))
        self.db.execute("DELETE FROM ticket WHERE id = ?", (ticket_id,))
        return {"deleted": ticket_id}
