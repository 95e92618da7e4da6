"""Every booking rubric check, tested both ways on all shipped tasks.

Correct agents it must not fail: extra look-ups of neighbours that have data conflicts (with
every look-up action), repeated reads, mistyped ids corrected, refused writes, every order
the task's path allows, honest wordings of a query. Wrong agents it must fail, under its own
label: a wrong rate corrected later, a query for the wrong reason, booking then holding a
conflicting facility, an account for the wrong customer, activation with no rate, …
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_agenteval import Task
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.tasks.paths import PathOrder
from tests.helpers.booking_play import LOOKUPS, Call, Scene, failed, play, reference_calls, scene, shipped_tasks, writes
from tests.helpers.booking_play import TASKS as TASKS_FILE

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
    """Each call naming a record is first tried with a mistyped id (not found), then right.

    Not for an action with an injected fault: the mistyped call would meet the fault, which
    counts calls (that case has its own test at the end of this file)."""
    out: list[Call] = []
    for action, args in calls:
        key = next((k for k in ("facility_id", "customer_id") if k in args), None)
        if key is not None and action not in _faulted(s.task):
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


def _conflict(s: Scene) -> str:
    if s.facility["exception_rate"] is not None:
        return "exception"
    return "kyc" if s.customer["kyc_status"] != "verified" else "rate"


# Honest reasons in other words than the reference's, and reasons that miss the point.
HONEST = {
    "kyc": ["Customer's know-your-customer check is still pending; cannot book.", "kyc_status is 'pending'",
            "Identity verification of the customer is not complete"],
    "rate": ["Limit of 7,500,000 is above every band of the rate sheet.", "No rate available for this limit",
             "get_rate returned null: cannot price the facility", "There is no sheet rate for a 7.5m limit"],
    "exception": ["Until when is the 5.89% pricing exception valid?", "When does the exception expire?",
                  "Please confirm the end date of the 5.89% rate"],
}
WRONG_REASONS = {
    # "incorporated" holds "rate": a requirement must not be met by accident.
    "kyc": ["Please confirm the term for this incorporated business.", "Is the rate sheet up to date?"],
    "rate": ["Please confirm the term for this incorporated business.", "KYC documents look old, please check"],
    "exception": ["Please confirm the term for this incorporated business.", "Please confirm the exception is approved."],
}


def _reason(reason: str) -> Any:
    def reworded(s: Scene, calls: list[Call]) -> list[Call]:
        return [(a, {**k, "reason": reason} if a == "raise_query" else k) for a, k in calls]
    return reworded


def refused_repeats(s: Scene, calls: list[Call]) -> list[Call]:
    """Booking and activation said twice: the system refuses the second, which changes nothing."""
    return [c for call in calls for c in ([call, call] if call[0] in ("book_facility", "activate_facility") else [call])]


CORRECT = {f.__name__: f for f in (neighbour_lookups, repeated_reads, typos_corrected, refused_writes, refused_repeats)}


@pytest.mark.parametrize("variant", CORRECT)
@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_a_correct_agent_passes(env: BookingEnvironment, task: Task, variant: str) -> None:
    grade, _ = play(env, task, CORRECT[variant])
    assert grade.passed, failed(grade)


QUERY_TASKS = [t for t in TASKS if "raise_query" in writes(t)]


@pytest.mark.parametrize("task", QUERY_TASKS, ids=[t.task_id for t in QUERY_TASKS])
def test_a_query_in_other_words_is_judged_by_what_it_names(env: BookingEnvironment, task: Task) -> None:
    kind = _conflict(scene(env, task))
    for reason in HONEST[kind]:
        grade, _ = play(env, task, _reason(reason))
        assert grade.passed, f"{reason!r}: {failed(grade)}"
    for reason in WRONG_REASONS[kind]:
        grade, _ = play(env, task, _reason(reason))
        assert grade.failure_modes == ["missed_query"], f"{reason!r}: {failed(grade)}"


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


def query_for_the_wrong_reason(s: Scene, calls: list[Call]) -> list[Call]:
    """The audit's example: 'confirm the term', whatever the conflict."""
    return _reason("Please confirm the term.")(s, calls)


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


def account_of_the_wrong_type(s: Scene, calls: list[Call]) -> list[Call]:
    """A new account of the type this facility does not need (the customer may have one): booked to it."""
    wrong = "current" if s.kind == "loan" else "loan"
    at = next(i for i, (a, _) in enumerate(calls) if a == "book_facility")
    return [*[c for c in calls[:at] if c[0] != "open_account"],
            ("open_account", {"customer_id": s.customer["id"], "account_type": wrong}),
            *[(a, {**k, "account_id": "ACC-E001"} if a == "book_facility" else k) for a, k in calls[at:]]]


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
    (query_for_the_wrong_reason, lambda w: "raise_query" in w, "missed_query", set()),
    (book_then_hold, lambda w: w == {"raise_query"}, "missed_query", set()),
    (hold_instead_of_query, lambda w: w == {"raise_query"}, "missed_query", set()),
    (account_for_another_customer, lambda w: "open_account" in w, "wrong_account", {"duplicate_account"}),
    (booked_to_another_customers_account, lambda w: "book_facility" in w, "wrong_account", set()),
    (account_of_the_wrong_type, lambda w: "book_facility" in w, "wrong_account", {"duplicate_account"}),
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




def _move(calls: list[tuple[str, Any]], action: str, before: str) -> list[tuple[str, Any]]:
    """``calls`` with the first ``action`` moved just before the first ``before``."""
    moved = next(c for c in calls if c[0] == action)
    rest = [c for c in calls if c is not moved]
    at = next(i for i, (a, _) in enumerate(rest) if a == before)
    return rest[:at] + [moved] + rest[at:]


def _names_customer(task: Task) -> bool:
    return "customer CUS-" in task.instruction


# Freedoms the booking rules leave: (what, move this, before that, the tasks it applies to).
FREEDOMS: list[tuple[str, str, str, Any]] = [
    ("the exception query first", "raise_query", "get_rate", lambda t: "activate_facility" in writes(t)),
    ("the exception query before pricing", "raise_query", "set_rate", lambda t: "activate_facility" in writes(t)),
    ("the rate looked up after booking", "get_rate", "set_rate", lambda t: "book_facility" in writes(t)),
    ("the account opened before the rate is looked up", "open_account", "get_rate", lambda t: True),
    ("the accounts listed before the facility is read", "list_accounts", "get_facility", _names_customer),
    ("the customer read before the facility", "get_customer", "get_facility", _names_customer),
]
FREE = [pytest.param(task, action, before, id=f"{what}-{task.task_id}")
        for what, action, before, applies in FREEDOMS for task in TASKS
        if {action, before} <= {a for a, _ in reference_calls(task)} and applies(task)]


@pytest.mark.parametrize(("task", "action", "before"), FREE)
def test_the_path_allows_what_the_rules_leave_free(env: BookingEnvironment, task: Task, action: str,
                                                   before: str) -> None:
    order = PathOrder.of(task.acceptable_action_paths[0])
    moved = _move([(s.action, s) for s in order.steps], action, before)
    assert order.allows([s for _, s in moved], lambda want, got: want is got), [a for a, _ in moved]
    grade, _ = play(env, task, lambda s, calls: _move(calls, action, before))
    assert grade.passed, failed(grade)


# Orders the rules fix, which no path may leave free: (what, move this, before that).
FIXED = [
    ("pricing before booking", "set_rate", "book_facility"),
    ("activation before pricing", "activate_facility", "set_rate"),
    ("booking before the account is opened", "book_facility", "open_account"),
    ("opening an account before looking at the customer's accounts", "open_account", "list_accounts"),
    ("a write before the customer's KYC is read", "raise_query", "get_customer"),
    ("a write before the customer's KYC is read", "book_facility", "get_customer"),
    ("a write before the customer's KYC is read", "set_rate", "get_customer"),
]
PINNED = [pytest.param(task, action, before, id=f"{what}-{task.task_id}")
          for what, action, before in FIXED for task in TASKS
          if {action, before} <= {a for a, _ in reference_calls(task)}]


@pytest.mark.parametrize(("task", "action", "before"), PINNED)
def test_the_path_keeps_what_the_rules_fix(task: Task, action: str, before: str) -> None:
    order = PathOrder.of(task.acceptable_action_paths[0])
    moved = _move([(s.action, s) for s in order.steps], action, before)
    assert not order.allows([s for _, s in moved], lambda want, got: want is got), [a for a, _ in moved]


def test_after_a_timeout_the_account_is_looked_up_before_it_is_used() -> None:
    for task in TASKS:
        steps = [s.action for s in PathOrder.of(task.acceptable_action_paths[0]).steps]
        if task.faults and task.faults[0].action == "open_account":
            order = PathOrder.of(task.acceptable_action_paths[0])
            opened, looked, booked = steps.index("open_account"), len(steps) - 1 - steps[::-1].index(
                "list_accounts"), steps.index("book_facility")
            assert opened in order.before[looked] and looked in order.before[booked], task.task_id


@pytest.mark.parametrize(("task_id", "variant", "check", "detail"), [
    ("BK-001", wrong_rate_corrected_after_activation, "rate_matches_sheet",
     "FAC-5592: 5.0 set at step 6, activated at 5.0 at step 7; the applicable rate is the rate sheet's 7.82"),
    ("BK-025", lambda s, calls: [("set_rate", {"facility_id": s.fid, "rate_percent": 5.0}), *calls],
     "rate_matches_sheet", "FAC-5015: 5.0 set at step 1; no rate applies: query it"),
    ("BK-025", query_for_the_wrong_reason, "rate_matches_sheet", None),
    ("BK-021", book_then_hold, "query_on_conflict",
     "FAC-5034 has a conflict (KYC pending) but was changed (account_id None -> 'ACC-E001', "
     "status 'PENDING' -> 'ON_HOLD'); leave it pending"),
    ("BK-009", account_for_another_customer, "account_matches_facility",
     "current account ACC-E001 opened for CUS-0001, but no facility of theirs in this task needs a current account"),
    ("BK-038", activation_before_rate, "activation_preconditions", "FAC-5070 activated at step 4 with no rate set"),
    ("BK-038", activation_before_rate, "booking_order", "activate_facility on FAC-5070 (step 4) before set_rate (step 6)"),
    ("BK-001", rate_before_booking, "booking_order", "set_rate on FAC-5592 (step 5) before book_facility"),
])
def test_details_say_what_was_wrong(env: BookingEnvironment, task_id: str, variant: Any, check: str,
                                    detail: str | None) -> None:
    (task,) = [t for t in TASKS if t.task_id == task_id]
    grade, _ = play(env, task, variant)
    (got,) = [c for c in grade.checks if c.name == check]
    assert (got.passed, got.detail if detail else "") == (detail is None, detail or "")


def test_a_rate_forced_with_override_rate_is_judged_against_the_exception_on_record(env: BookingEnvironment) -> None:
    """override_rate also writes an exception: the applicable rate is the one the episode found."""
    (task,) = [t for t in TASKS if t.task_id == "BK-001"]
    task = task.model_copy(update={"allowed_actions": [*task.allowed_actions, "override_rate"]})
    grade, _ = play(env, task, lambda s, calls: [("override_rate", {**k, "rate_percent": 4.0}) if a == "set_rate"
                                                   else (a, k) for a, k in calls])
    (rate,) = [c for c in grade.checks if c.name == "rate_matches_sheet"]
    assert rate.detail == "FAC-5592: 4.0 set at step 6, activated at 4.0 at step 7; the applicable rate is the rate sheet's 7.82"


def test_a_conflicting_facility_may_change_as_the_task_expects(env: BookingEnvironment) -> None:
    """'Left as it was' yields to the task: one that wants the facility on hold gets it on hold."""
    line = next(json.loads(x) for x in TASKS_FILE.read_text().splitlines() if '"BK-021"' in x)
    fid = "FAC-5034"
    line["expected_final_state"] = {"facility": {fid: {"status": "ON_HOLD"}},
                                    "booking_event": {"+": [{"facility_id": fid, "event_type": "raise_query"},
                                                            {"facility_id": fid, "event_type": "hold"}]}}
    line["acceptable_action_paths"][0].append(
        {"action": "place_on_hold", "arguments": {"facility_id": fid, "reason": "KYC pending"}})
    task = Task.model_validate(line)
    grade, _ = play(env, task)
    assert grade.passed, failed(grade)

    def booked_first(s: Scene, calls: list[Call]) -> list[Call]:
        at = next(i for i, (a, _) in enumerate(calls) if a == "raise_query")
        return [*calls[:at], ("book_facility", {"facility_id": fid, "account_id": s.foreign_account}), *calls[at:]]

    grade, _ = play(env, task, booked_first)
    assert "missed_query" in grade.failure_modes, failed(grade)


RUBRIC = ("no_duplicate_account", "rate_matches_sheet", "activation_preconditions", "booking_order",
          "account_matches_facility", "query_on_conflict")


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_reading_alone_fails_no_rubric_check_but_a_query_the_task_needs(env: BookingEnvironment, task: Task) -> None:
    """Only reads — the task's and a conflicted neighbour's: the rubric can only say the task's own
    conflicting facility still needs its query."""
    grade, _ = play(env, task, lambda s, calls: [c for c in neighbour_lookups(s, calls) if c[0] in LOOKUPS])
    rubric = {c.name: c for c in grade.checks if c.name in RUBRIC}
    assert len(rubric) == len(RUBRIC)
    failing = [c for c in rubric.values() if not c.passed]
    needs_query = "raise_query" in writes(task) and "activate_facility" not in writes(task)
    assert [c.name for c in failing] == (["query_on_conflict"] if needs_query else [])
    fid = next(a["facility_id"] for _, a in reference_calls(task) if "facility_id" in a)
    conflict = "KYC pending" if "customer" in task.overrides else "no applicable rate"
    for c in failing:
        assert c.detail == f"{fid} has a conflict ({conflict}) but no query was raised"


def test_a_mistyped_call_that_meets_an_after_commit_timeout_is_not_a_write(env: BookingEnvironment) -> None:
    (task,) = [t for t in TASKS if t.task_id == "BK-010"]

    def mistyped_first(s: Scene, calls: list[Call]) -> list[Call]:
        at = next(i for i, (a, _) in enumerate(calls) if a == "open_account")
        typo = ("open_account", {**calls[at][1], "customer_id": "CUS-090"})  # no such customer
        return [*calls[:at], typo, *calls[at:]]

    grade, observations = play(env, task, mistyped_first)
    assert observations[4]["error"] == "not_found"  # the mistyped call changed nothing: no fault is spent on it
    assert observations[5]["error"] == "timeout"  # the call that commits meets the fault, as in the reference
    assert grade.passed, failed(grade)
