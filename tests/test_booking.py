"""The booking domain on in-memory databases: rules, faults, and each rubric check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Grade, load_tasks
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.tasks.paths import first_order

TASKS = Path(__file__).parent.parent / "tasks" / "booking.jsonl"


@pytest.fixture(scope="module")
def env() -> Iterator[BookingEnvironment]:
    with BookingEnvironment(population=300) as environment:
        yield environment


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    return {t.task_id: t for t in load_tasks(TASKS)}


def test_suite_size_splits_and_tags(shipped: dict[str, Any]) -> None:
    assert len(shipped) >= 40
    assert {t.split for t in shipped.values()} == {"train", "eval"}
    assert len({t.scenario_seed for t in shipped.values()}) >= 4
    for tag in ("duplicate_account", "wrong_rate", "premature_activation", "missed_query", "wrong_account",
                "forbidden_action", "collateral_change", "wrong_order"):
        assert sum(tag in t.failure_mode_tags for t in shipped.values()) >= 4, tag


def test_seed_document_example(shipped: dict[str, Any]) -> None:
    (task,) = [t for t in shipped.values() if "FAC-6102" in t.expected_final_state.get("facility", {})]
    assert task.expected_final_state["facility"]["FAC-6102"]["status"] == "ACTIVE"
    assert task.expected_final_state["facility"]["FAC-6102"]["rate_percent"] == 5.89
    added = task.expected_final_state["booking_event"]["+"]
    assert sum(e["event_type"] == "raise_query" for e in added) == 1


def play(env: BookingEnvironment, task: Any, calls: list[tuple[str, dict[str, Any]]]) -> tuple[Grade, list[dict]]:
    env.reset(task.scenario_seed, task=task)
    observations = [env.apply(a, args) for a, args in calls]
    return env.grade(), observations


def reference_calls(task: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(s.action, dict(s.arguments)) for s in first_order(task.acceptable_action_paths[0])]


def modes(grade: Grade) -> set[str]:
    return set(grade.failure_modes)


def first(shipped: dict[str, Any], predicate: Any) -> Any:
    return next(t for t in shipped.values() if predicate(t))


def test_retry_after_timeout_without_looking_is_a_duplicate_account(shipped: dict[str, Any]) -> None:
    task = first(shipped, lambda t: t.faults and t.faults[0].after_commit)
    calls = reference_calls(task)
    opened = next(c for c in calls if c[0] == "open_account")
    with BookingEnvironment() as env:
        grade, obs = play(env, task, [*calls[:5], opened, *[c for c in calls[5:] if c[0] != "list_accounts"]])
        assert obs[4]["error"] == "timeout"
        assert "duplicate_account" in modes(grade)
        dup = next(c for c in grade.checks if c.name == "no_duplicate_account")
        assert dup.detail.startswith("2 loan accounts opened for") or dup.detail.startswith("2 current accounts")
        looked, _ = play(env, task, calls)  # looks first (list_accounts), then books to ACC-E001
        assert looked.passed


@pytest.mark.parametrize(
    ("change", "mode"),
    [
        ("rate_plus_half", "wrong_rate"),
        ("activate_before_rate", "wrong_order"),
        ("wrong_account_type", "wrong_account"),
        ("touch_other_facility", "collateral_change"),
        ("close_account", "forbidden_action"),
    ],
)
def test_each_rubric_check_fires(shipped: dict[str, Any], change: str, mode: str) -> None:
    task = first(shipped, lambda t: "wrong_account" in t.tags and "collateral_change" in t.tags)
    calls = reference_calls(task)
    fid = calls[0][1]["facility_id"]
    with BookingEnvironment() as env:
        env.reset(task.scenario_seed, task=task)
        customer = env.row("facility", fid)["customer_id"]
        other = env.db.execute("SELECT id FROM facility WHERE customer_id != ? AND status = 'PENDING' LIMIT 1",
                               (customer,)).fetchone()[0]
        if change == "rate_plus_half":
            calls = [(a, {**k, "rate_percent": k["rate_percent"] + 0.5} if a == "set_rate" else k) for a, k in calls]
        elif change == "activate_before_rate":
            calls = [c for c in calls if c[0] != "set_rate"] + [c for c in calls if c[0] == "set_rate"]
        elif change == "wrong_account_type":
            product = env.row("facility", fid)["product"]
            kind = "current" if product != "overdraft" else "loan"
            calls = [*calls[:4], ("open_account", {"customer_id": customer, "account_type": kind}),
                     *[(a, {**k, "account_id": "ACC-E001"} if a == "book_facility" else k) for a, k in calls[4:]]]
        elif change == "touch_other_facility":
            calls = [*calls, ("raise_query", {"facility_id": other, "reason": "just checking"})]
        else:
            acc = next(k["account_id"] for a, k in calls if a == "book_facility")
            calls = [*calls, ("close_account", {"account_id": acc})]
        grade, _ = play(env, task, calls)
    assert mode in modes(grade), grade.failure_modes


def test_kyc_pending_activation_is_premature(shipped: dict[str, Any]) -> None:
    task = first(shipped, lambda t: "premature_activation" in t.tags and "customer" in t.overrides)
    fid = first_order(task.acceptable_action_paths[0])[0].arguments["facility_id"]
    with BookingEnvironment() as env:
        env.reset(task.scenario_seed, task=task)
        facility = env.row("facility", fid)
        customer = env.row("customer", facility["customer_id"])
        accounts = env.apply("list_accounts", {"customer_id": facility["customer_id"]})["result"]
        kind = "loan" if facility["product"] != "overdraft" else "current"
        account = next((a["account_id"] for a in accounts if a["account_type"] == kind and a["status"] == "open"), None)
        calls = [] if account else [("open_account", {"customer_id": customer["id"], "account_type": kind})]
        rate = env.apply("get_rate", {"product": facility["product"], "segment": customer["segment"],
                                      "limit_amount": facility["limit_amount"]})["result"]["rate_percent"]
        calls += [("book_facility", {"facility_id": fid, "account_id": account or "ACC-E001"}),
                  ("set_rate", {"facility_id": fid, "rate_percent": rate}), ("activate_facility", {"facility_id": fid})]
        grade, _ = play(env, task, calls)
    assert {"premature_activation", "missed_query"} <= modes(grade)


def test_unavailable_set_rate_commits_nothing(shipped: dict[str, Any]) -> None:
    task = first(shipped, lambda t: t.faults and t.faults[0].error == "unavailable")
    calls = reference_calls(task)
    with BookingEnvironment() as env:
        env.reset(task.scenario_seed, task=task)
        results = [env.apply(a, k) for a, k in calls[:4]]
        assert results[3]["error"] == "unavailable"
        assert "booking_event" not in env.diff()
        assert env.audit_log()[3].fault == "unavailable"


def test_rules_refuse_impossible_bookings(env: BookingEnvironment) -> None:
    env.reset(1)
    booked = env.db.execute("SELECT id FROM facility WHERE status = 'ACTIVE' LIMIT 1").fetchone()[0]
    assert env.apply("book_facility", {"facility_id": booked, "account_id": "ACC-00001"})["error"] == "wrong_status"
    closed = env.db.execute("SELECT id FROM account WHERE status = 'closed' LIMIT 1").fetchone()[0]
    pending = env.db.execute("SELECT id FROM facility WHERE status = 'PENDING' LIMIT 1").fetchone()[0]
    assert env.apply("book_facility", {"facility_id": pending, "account_id": closed})["error"] == "account_closed"
    assert env.apply("activate_facility", {"facility_id": pending})["error"] == "wrong_status"
    assert env.apply("set_rate", {"facility_id": pending, "rate_percent": 99})["error"] == "invalid_arguments"
    assert env.diff() == {}


def test_stale_read_of_a_facility(env: BookingEnvironment) -> None:
    from pytest_agenteval import Task

    env.reset(1)
    pending, customer = env.db.execute(
        "SELECT f.id, f.customer_id FROM facility f JOIN account a ON a.customer_id = f.customer_id "
        "WHERE f.status = 'PENDING' AND a.status = 'open' AND a.account_type = "
        "CASE f.product WHEN 'overdraft' THEN 'current' ELSE 'loan' END LIMIT 1").fetchone()
    account = env.db.execute("SELECT id FROM account WHERE customer_id = ? AND status = 'open' AND account_type = ?",
                             (customer, "current" if env.row("facility", pending)["product"] == "overdraft" else "loan")
                             ).fetchone()[0]
    task = Task.model_validate({
        "task_id": "STALE", "environment": "booking", "scenario_seed": 1, "instruction": "x",
        "allowed_actions": ["book_facility", "get_facility"], "expected_final_state": {},
        "faults": [{"action": "get_facility", "call": 1, "error": "stale_read"}]})
    env.reset(1, task=task)
    assert env.apply("book_facility", {"facility_id": pending, "account_id": account})["ok"]
    assert env.apply("get_facility", {"facility_id": pending})["result"]["status"] == "PENDING"
    assert env.apply("get_facility", {"facility_id": pending})["result"]["status"] == "BOOKED"


def test_the_missed_query_saboteur_asks_for_the_wrong_reason_where_the_task_says_what_to_name(
        shipped: dict[str, Any]) -> None:
    from pytest_agenteval.agents.saboteurs import Saboteur

    with BookingEnvironment() as env:
        for task in shipped.values():
            if "missed_query" not in task.tags:
                continue
            grade = run_episode(env, task, Saboteur("missed_query"), time_limit=None)
            queries = [a for a in grade.actions if a["action"] == "raise_query"]
            assert queries and all("KYC" not in q["arguments"]["reason"] for q in queries), task.task_id
            assert grade.failure_modes == ["missed_query"], (task.task_id, grade.failure_modes)
