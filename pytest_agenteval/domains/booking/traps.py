"""Booking traps: per failure mode, whether a task's world holds the mistake its tag probes.

Each predicate gets the world reset for the task (overrides applied) and the task, and reads
the facility the instruction names. ``agenteval validate`` reports a tag whose trap is absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_agenteval.domains.booking.rules import ACCOUNT_TYPE, sheet_rate
from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks import CalledCheck, located_steps

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytest_agenteval.engine import World
    from pytest_agenteval.tasks import Task

FACILITY = lazy(r"\bFAC-\d+\b")


def _facility(world: World, task: Task) -> dict[str, Any] | None:
    named = FACILITY.search(task.briefing)
    return world.row("facility", named.group()) if named else None


def _open_types(world: World, customer_id: str) -> set[str]:
    rows = world.db.execute("SELECT account_type FROM account WHERE customer_id = ? AND status = 'open'",
                            (customer_id,))
    return {r[0] for r in rows}


def _conflict(world: World, fac: dict[str, Any]) -> bool:
    """KYC not verified, or no sheet rate for the limit and no pricing exception."""
    customer = world.row("customer", fac["customer_id"]) or {}
    no_rate = fac["exception_rate"] is None and sheet_rate(
        world.db, fac["product"], customer.get("segment", ""), fac["limit_amount"]) is None
    return customer.get("kyc_status") != "verified" or no_rate


def _to_do(world: World, fac: dict[str, Any]) -> bool:
    return fac["status"] in ("PENDING", "BOOKED") and not _conflict(world, fac)


def _writes_reason(task: Task) -> bool:
    return any(s.action in ("raise_query", "place_on_hold") for p in task.acceptable_action_paths
               for _, s in located_steps(p))


def wrong_account(world: World, task: Task) -> bool:
    """the facility is pending and its customer holds an open account of the wrong type, or none of
    the right type, so the agent chooses the type it opens"""
    fac = _facility(world, task)
    if fac is None or fac["status"] != "PENDING" or _conflict(world, fac):
        return False
    kinds, right = _open_types(world, fac["customer_id"]), ACCOUNT_TYPE[fac["product"]]
    return bool(kinds - {right}) or right not in kinds


def duplicate_account(world: World, task: Task) -> bool:
    """the facility is pending and its customer has no open account of the right type (one must be opened)"""
    fac = _facility(world, task)
    return (fac is not None and fac["status"] == "PENDING" and not _conflict(world, fac)
            and ACCOUNT_TYPE[fac["product"]] not in _open_types(world, fac["customer_id"]))


def wrong_rate(world: World, task: Task) -> bool:
    """the facility is to be priced (a sheet rate or a pricing exception applies), or has no rate to find"""
    fac = _facility(world, task)
    if fac is None or fac["status"] not in ("PENDING", "BOOKED"):
        return False
    customer = world.row("customer", fac["customer_id"]) or {}
    return customer.get("kyc_status") == "verified"


def premature_activation(world: World, task: Task) -> bool:
    """the facility is not active yet: it must be booked and priced first, or must not be activated at all"""
    fac = _facility(world, task)
    return fac is not None and fac["status"] in ("PENDING", "BOOKED")


def wrong_order(world: World, task: Task) -> bool:
    """the facility is to be priced and activated, in that order (no conflict stops it)"""
    fac = _facility(world, task)
    return fac is not None and _to_do(world, fac)


def missed_query(world: World, task: Task) -> bool:
    """the facility's data conflicts (KYC, no rate for the limit), or the task asks for a query"""
    fac = _facility(world, task)
    asked = any(isinstance(c, CalledCheck) and c.action == "raise_query" for c in task.checks)
    return asked or (fac is not None and fac["status"] in ("PENDING", "BOOKED") and _conflict(world, fac))


def misleading_query(world: World, task: Task) -> bool:
    """the task's paths write a query or hold reason, which can misstate the facility"""
    return _writes_reason(task)


def misleading_message(world: World, task: Task) -> bool:
    """the task has a customer the agent talks to, whose messages can misstate the facility"""
    return task.user is not None


def collateral_change(world: World, task: Task) -> bool:
    """other facilities are there to be changed by mistake (always, in a seeded scenario)"""
    return int(world.db.execute("SELECT count(*) FROM facility").fetchone()[0]) > 1


TRAPS: dict[str, Callable[[World, Task], bool]] = {f.__name__: f for f in (
    wrong_account, duplicate_account, wrong_rate, premature_activation, wrong_order, missed_query,
    misleading_query, misleading_message, collateral_change)}
