"""Every booking rubric check, tested both ways on all shipped tasks.

Correct agents it must not fail: extra look-ups of neighbours that have data conflicts (with
every look-up action), repeated reads, mistyped ids corrected, refused writes, every order
the task's path allows, honest wordings of a query. Wrong agents it must fail, under its own
label: a wrong rate corrected later, booking then holding a
conflicting facility, an account for the wrong customer, activation with no rate, …
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from booking_play import LOOKUPS, Call, Scene, failed, play, shipped_tasks, writes

from pytest_agenteval import Task
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.tasks.paths import PathOrder

TASKS = shipped_tasks()
IDS = [t.task_id for t in TASKS]


@pytest.fixture(scope="module")
def env() -> Iterator[BookingEnvironment]:
    with BookingEnvironment() as environment:
        yield environment


def _faulted(task: Task) -> set[str]:
    return {f.action for f in task.faults}


# ----- correct agents ------------------------------------------------------------------------


def neighbour_lookups(s: Scene, calls: list[Call]) -> list[Call]:
    """Look around first, after every write, and at the end: always at a conflicted neighbour."""
    around = s.neighbour_lookups()
    out = list(around)
    for n, call in enumerate(calls):
        out.append(call)
        if call[0] not in LOOKUPS:
            out.append(around[n % len(around)])
    return out + around


def repeated_reads(s: Scene, calls: list[Call]) -> list[Call]:
    return [c for call in calls for c in ([call, call] if call[0] in LOOKUPS else [call])]


def _typo(value: str) -> str:
    return value[:-1]  # FAC-5260 -> FAC-526, CUS-1309 -> CUS-130: no such record


def typos_corrected(s: Scene, calls: list[Call]) -> list[Call]:
    """Each call naming a record is first tried with a mistyped id (not found), then right."""
    out: list[Call] = []
    for action, args in calls:
        key = next((k for k in ("facility_id", "customer_id") if k in args), None)
        if key is not None and action not in _faulted(s.task) and action != "open_account":
            out.append((action, {**args, key: _typo(args[key])}))
        out.append((action, args))
    return out


def refused_writes(s: Scene, calls: list[Call]) -> list[Call]:
    """Before the first write: writes the system refuses, on a conflicted neighbour and the task's own."""
    at = next(i for i, (a, _) in enumerate(calls) if a not in LOOKUPS)
    refused: list[Call] = [("activate_facility", {"facility_id": s.conflicted["id"]}),
                           ("set_rate", {"facility_id": s.fid, "rate_percent": 99})]
    if s.facility["status"] == "PENDING":
        refused.append(("activate_facility", {"facility_id": s.fid}))
    return calls[:at] + refused + calls[at:]


def _reason(reason: str) -> Any:
    def reworded(s: Scene, calls: list[Call]) -> list[Call]:
        return [(a, {**k, "reason": reason} if a == "raise_query" else k) for a, k in calls]
    return reworded


CORRECT = {f.__name__: f for f in (neighbour_lookups, repeated_reads, typos_corrected, refused_writes)}


@pytest.mark.parametrize("variant", CORRECT)
@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_a_correct_agent_passes(env: BookingEnvironment, task: Task, variant: str) -> None:
    grade, _ = play(env, task, CORRECT[variant])
    assert grade.passed, failed(grade)


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_every_order_the_path_allows_passes(env: BookingEnvironment, task: Task) -> None:
    order = PathOrder.of(task.acceptable_action_paths[0])
    played = 0
    for indices in order.orders(limit=200):
        calls = [(order.steps[i].action, dict(order.steps[i].arguments)) for i in indices]
        grade, _ = play(env, task, lambda s, _, c=calls: c)
        assert grade.passed, f"{[a for a, _ in calls]}: {failed(grade)}"
        played += 1
    assert played >= 1


# ----- wrong agents --------------------------------------------------------------------------


def _rate(calls: list[Call]) -> float:
    return next(k["rate_percent"] for a, k in calls if a == "set_rate")


def _without(calls: list[Call], action: str) -> list[Call]:
    return [c for c in calls if c[0] != action]


def wrong_rate_corrected_after_activation(s: Scene, calls: list[Call]) -> list[Call]:
    right = _rate(calls)
    out = [(a, {**k, "rate_percent": 5.0 if right != 5.0 else 5.5} if a == "set_rate" else k) for a, k in calls]
    return [*out, ("set_rate", {"facility_id": s.fid, "rate_percent": right})]


def wrong_rate_corrected_before_activation(s: Scene, calls: list[Call]) -> list[Call]:
    right = _rate(calls)
    at = max(i for i, (a, _) in enumerate(calls) if a == "set_rate")
    wrong = ("set_rate", {"facility_id": s.fid, "rate_percent": round(right + 0.01, 2)})
    return calls[:at] + [wrong] + calls[at:]


def activation_with_no_rate(s: Scene, calls: list[Call]) -> list[Call]:
    return _without(calls, "set_rate")


def activation_before_rate(s: Scene, calls: list[Call]) -> list[Call]:
    activate = [c for c in calls if c[0] == "activate_facility"]
    rest = _without(calls, "activate_facility")
    at = next(i for i, (a, _) in enumerate(rest) if a == "set_rate")
    return rest[:at] + activate + rest[at:]


def rate_before_booking(s: Scene, calls: list[Call]) -> list[Call]:
    priced = [c for c in calls if c[0] == "set_rate"]
    rest = _without(calls, "set_rate")
    at = next(i for i, (a, _) in enumerate(rest) if a == "book_facility")
    return rest[:at] + priced + rest[at:]


def book_then_hold(s: Scene, calls: list[Call]) -> list[Call]:
    return [*calls, ("open_account", {"customer_id": s.customer["id"], "account_type": s.kind}),
            ("book_facility", {"facility_id": s.fid, "account_id": "ACC-E001"}),
            ("place_on_hold", {"facility_id": s.fid, "reason": "on hold until the query is answered"})]


def hold_instead_of_query(s: Scene, calls: list[Call]) -> list[Call]:
    return [("place_on_hold", k) if a == "raise_query" else (a, k) for a, k in calls]


def account_for_another_customer(s: Scene, calls: list[Call]) -> list[Call]:
    """Open the new account for the wrong customer first, then the right one, and book to that."""
    at = next(i for i, (a, _) in enumerate(calls) if a == "open_account")
    stray = ("open_account", {"customer_id": s.other_customer, "account_type": s.kind})
    booked = [(a, {**k, "account_id": "ACC-E002"} if a == "book_facility" else k) for a, k in calls[at:]]
    return calls[:at] + [stray] + booked


def booked_to_another_customers_account(s: Scene, calls: list[Call]) -> list[Call]:
    return [(a, {**k, "account_id": s.foreign_account} if a == "book_facility" else k) for a, k in calls]


def account_opened_though_one_fits(s: Scene, calls: list[Call]) -> list[Call]:
    at = next(i for i, (a, _) in enumerate(calls) if a == "book_facility")
    return [*calls[:at], ("open_account", {"customer_id": s.customer["id"], "account_type": s.kind}), *calls[at:]]


# (variant, the tasks it applies to, the label it must trigger, labels it must not trigger)
WRONG: list[tuple[Any, Any, str, set[str]]] = [
    (wrong_rate_corrected_after_activation, lambda w: {"set_rate", "activate_facility"} <= w, "wrong_rate", set()),
    (wrong_rate_corrected_before_activation, lambda w: {"set_rate", "activate_facility"} <= w, "wrong_rate", set()),
    (activation_with_no_rate, lambda w: {"set_rate", "activate_facility"} <= w, "premature_activation",
     {"wrong_rate", "wrong_order"}),
    (activation_before_rate, lambda w: {"set_rate", "activate_facility"} <= w, "premature_activation", {"wrong_rate"}),
    (rate_before_booking, lambda w: {"set_rate", "book_facility"} <= w, "wrong_order", {"wrong_rate"}),
    (book_then_hold, lambda w: w == {"raise_query"}, "missed_query", set()),
    (hold_instead_of_query, lambda w: w == {"raise_query"}, "missed_query", set()),
    (account_for_another_customer, lambda w: "open_account" in w, "wrong_account", {"duplicate_account"}),
    (booked_to_another_customers_account, lambda w: "book_facility" in w, "wrong_account", set()),
    (account_opened_though_one_fits, lambda w: "book_facility" in w and "open_account" not in w,
     "duplicate_account", {"wrong_account"}),
]
CASES = [pytest.param(task, variant, mode, never, id=f"{variant.__name__}-{task.task_id}")
         for variant, applies, mode, never in WRONG for task in TASKS if applies(writes(task))]


@pytest.mark.parametrize(("task", "variant", "mode", "never"), CASES)
def test_a_wrong_agent_fails_under_its_own_label(env: BookingEnvironment, task: Task, variant: Any, mode: str,
                                                 never: set[str]) -> None:
    grade, _ = play(env, task, variant)
    assert mode in grade.failure_modes, failed(grade)
    assert not never & set(grade.failure_modes), failed(grade)


def test_every_wrong_variant_applies_somewhere() -> None:
    for variant, applies, *_ in WRONG:
        assert any(applies(writes(t)) for t in TASKS), variant.__name__




@pytest.mark.parametrize(("task_id", "variant", "check", "detail"), [
    ("BK-001", wrong_rate_corrected_after_activation, "rate_matches_sheet",
     "FAC-5260: 5.0 set at step 6, activated at 5.0 at step 7; the applicable rate is the rate sheet's 5.04"),
    ("BK-022", lambda s, calls: [("set_rate", {"facility_id": s.fid, "rate_percent": 5.0}), *calls],
     "rate_matches_sheet", "FAC-5024: 5.0 set at step 1; no rate applies: query it"),
    ("BK-016", book_then_hold, "query_on_conflict",
     "FAC-5014 has a conflict (KYC pending) but was changed (account_id None -> 'ACC-E001', "
     "status 'PENDING' -> 'ON_HOLD'); leave it pending"),
    ("BK-004", account_for_another_customer, "account_matches_facility",
     "current account ACC-E001 opened for CUS-0001, but no facility of theirs in this task needs a current account"),
    ("BK-036", activation_before_rate, "activation_preconditions", "FAC-5070 activated at step 4 with no rate set"),
    ("BK-036", activation_before_rate, "booking_order", "activate_facility on FAC-5070 (step 4) before set_rate (step 6)"),
    ("BK-001", rate_before_booking, "booking_order", "set_rate on FAC-5260 (step 5) before book_facility"),
])
def test_details_say_what_was_wrong(env: BookingEnvironment, task_id: str, variant: Any, check: str,
                                    detail: str | None) -> None:
    (task,) = [t for t in TASKS if t.task_id == task_id]
    grade, _ = play(env, task, variant)
    (got,) = [c for c in grade.checks if c.name == check]
    assert (got.passed, got.detail if detail else "") == (detail is None, detail or "")
