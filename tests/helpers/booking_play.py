"""Test helper: play a shipped booking task's reference path with a transformation.

A transformation gets the task's ``Scene`` (the scenario as reset for the task, read
straight from the database, as a test may) and the reference calls, and returns the calls
to make. ``play`` runs them and grades the episode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_agenteval import Grade, Task, load_tasks
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.domains.booking.schema import ACCOUNT_TYPE
from pytest_agenteval.tasks.paths import first_order

TASKS = Path(__file__).parent.parent.parent / "tasks" / "booking.jsonl"
LOOKUPS = ("get_facility", "get_customer", "list_accounts", "get_rate")
Call = tuple[str, dict[str, Any]]


def shipped_tasks() -> list[Task]:
    return list(load_tasks(TASKS))


def reference_calls(task: Task) -> list[Call]:
    return [(s.action, dict(s.arguments)) for s in first_order(task.acceptable_action_paths[0])]


@dataclass(frozen=True)
class Scene:
    """The task's facility, its customer, and neighbours worth tempting an agent with."""

    task: Task
    facility: dict[str, Any]
    customer: dict[str, Any]
    # The nearest other facility whose customer's KYC is not verified, and still PENDING.
    conflicted: dict[str, Any]
    conflicted_customer: dict[str, Any]
    # An open account of the right type that belongs to another customer.
    foreign_account: str
    # Another customer with no open account of the type this facility needs.
    other_customer: str

    @property
    def fid(self) -> str:
        return str(self.facility["id"])

    @property
    def kind(self) -> str:
        return ACCOUNT_TYPE[self.facility["product"]]

    def neighbour_lookups(self) -> list[Call]:
        """One look-up with every look-up action, all about a neighbour with a data conflict."""
        other = self.conflicted
        return [("get_facility", {"facility_id": other["id"]}),
                ("get_customer", {"customer_id": other["customer_id"]}),
                ("list_accounts", {"customer_id": other["customer_id"]}),
                ("get_rate", {"product": other["product"], "segment": self.conflicted_customer["segment"],
                              "limit_amount": 7_500_000.0})]  # no band: the sheet answers null


def scene(env: BookingEnvironment, task: Task) -> Scene:
    env.reset(task.scenario_seed, task=task)
    fid = next(a["facility_id"] for _, a in reference_calls(task) if "facility_id" in a)
    facility = env.row("facility", fid)
    assert facility is not None
    customer = env.row("customer", facility["customer_id"])
    assert customer is not None
    number = int(fid.split("-")[1])
    conflicted = env.db.execute(
        "SELECT f.id FROM facility f JOIN customer c ON c.id = f.customer_id "
        "WHERE c.kyc_status != 'verified' AND f.status = 'PENDING' AND f.id != ? "
        "ORDER BY abs(CAST(substr(f.id, 5) AS INTEGER) - ?), f.id LIMIT 1", (fid, number)).fetchone()[0]
    other = env.row("facility", conflicted)
    assert other is not None
    kind = ACCOUNT_TYPE[facility["product"]]
    foreign = env.db.execute("SELECT id FROM account WHERE customer_id != ? AND account_type = ? AND status = 'open' "
                             "ORDER BY id LIMIT 1", (facility["customer_id"], kind)).fetchone()[0]
    other_customer = env.db.execute(
        "SELECT id FROM customer c WHERE id != ? AND kyc_status = 'verified' AND NOT EXISTS (SELECT 1 FROM account a "
        "WHERE a.customer_id = c.id AND a.account_type = ? AND a.status = 'open') ORDER BY id LIMIT 1",
        (facility["customer_id"], kind)).fetchone()[0]
    return Scene(task=task, facility=facility, customer=customer, conflicted=other,
                 conflicted_customer=env.row("customer", other["customer_id"]) or {},
                 foreign_account=foreign, other_customer=other_customer)


Transform = Callable[[Scene, list[Call]], list[Call]]


def play(env: BookingEnvironment, task: Task, transform: Transform | None = None) -> tuple[Grade, list[dict[str, Any]]]:
    """Reset for ``task``, make the (transformed) reference calls, grade."""
    calls = reference_calls(task)
    if transform is not None:
        calls = transform(scene(env, task), calls)
    env.reset(task.scenario_seed, task=task)
    observations = [env.apply(action, arguments) for action, arguments in calls]
    return env.grade(), observations


def writes(task: Task) -> set[str]:
    return {a for a, _ in reference_calls(task) if a not in LOOKUPS}


def failed(grade: Grade) -> str:
    return "; ".join(f"{c.name} [{c.failure_mode}]: {c.detail}" for c in grade.failed_checks())
