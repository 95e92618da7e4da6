"""Acceptable paths: order freedom, what action_path counts, free-text requirements."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.tasks.paths import PathOrder, first_order, mentions_ok
from tests.helpers.tasks import make_task, task_line
from tests.test_grading import episode, failed

LOOK = ("get_ticket", {"ticket_id": "T-0001"})
CLOSE = ("close_ticket", {"ticket_id": "T-0001"})
URGENT = ("set_priority", {"ticket_id": "T-0001", "priority": 1})
NOTE = ("add_comment", {"ticket_id": "T-0001", "body": "Closed after the customer confirmed."})


def step(call: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"action": call[0], "arguments": call[1]}


# Priority and comment in either order, both before the close; the comment may come anywhere.
FREE = {
    "expected_final_state": {"ticket": {"T-0001": {"status": "closed", "priority": 1}},
                             "comment": {"+": [{"ticket_id": "T-0001"}]}},
    "vary": ["ticket.updated_at", "comment.body", "comment.created_at"],
    "acceptable_action_paths": [[step(LOOK), {"any_order": [step(NOTE), [step(URGENT), step(CLOSE)]]}]],
}


def orders(path: list[Any]) -> list[list[str]]:
    order = PathOrder.of(make_task(acceptable_action_paths=[path]).acceptable_action_paths[0])
    return [[order.steps[i].action[:3] for i in o] for o in order.orders(limit=100)]


def test_any_order_members_interleave_and_keep_their_own_order() -> None:
    got = orders(FREE["acceptable_action_paths"][0])
    assert got == [["get", "add", "set", "clo"], ["get", "set", "add", "clo"], ["get", "set", "clo", "add"]]


def test_listed_order_is_the_reference_order() -> None:
    task = make_task(**FREE)
    assert [s.action for s in first_order(task.acceptable_action_paths[0])] == [
        "get_ticket", "add_comment", "set_priority", "close_ticket"]


@pytest.mark.parametrize("calls", [
    [LOOK, NOTE, URGENT, CLOSE], [URGENT, NOTE, CLOSE], [URGENT, CLOSE, NOTE], [NOTE, LOOK, URGENT, LOOK, CLOSE],
])
def test_every_order_the_path_allows_passes(example_env: ExampleEnvironment, calls: list[Any]) -> None:
    grade = episode(example_env, calls, **FREE)
    assert grade.passed, failed(grade)


def test_an_order_the_path_constrains_fails_action_path(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [NOTE, CLOSE, URGENT], **FREE)
    assert failed(grade) == {"action_path": "unexpected_path"}
    detail = next(c.detail for c in grade.checks if c.name == "action_path")
    assert detail.endswith("acceptable: add_comment(ticket_id='T-0001', body='Closed after the customer "
                           "confirmed.') ~ set_priority(ticket_id='T-0001', priority=1), close_ticket(ticket_id='T-0001')")


def test_action_path_counts_only_writes_that_took_effect(example_env: ExampleEnvironment) -> None:
    """A mistyped id (refused by the environment) and invalid arguments, each corrected, pass."""
    typo = ("close_ticket", {"ticket_id": "T-9999"})
    invalid = ("close_ticket", {"ticket": "T-0001"})
    grade = episode(example_env, [LOOK, typo, invalid, CLOSE])
    assert grade.passed, failed(grade)
    # A write refused as forbidden is still judged, by its own check.
    forbidden = episode(example_env, [LOOK, ("delete_ticket", {"ticket_id": "T-0002"}), CLOSE],
                        allowed_actions=["get_ticket", "close_ticket"])
    assert failed(forbidden) == {"no_forbidden_actions": "forbidden_action"}


def test_a_no_effect_step_is_made_by_the_reference_but_not_expected(example_env: ExampleEnvironment) -> None:
    task = {"faults": [{"action": "close_ticket", "call": 1, "error": "unavailable"}],
            "acceptable_action_paths": [[step(LOOK), {**step(CLOSE), "no_effect": True}, step(CLOSE)]]}
    assert episode(example_env, [LOOK, CLOSE, CLOSE], **task).passed
    # Without the outage the first close takes effect; the second is refused: still one close.
    assert episode(example_env, [LOOK, CLOSE, CLOSE], **{**task, "faults": []}).passed


MENTIONS = {"acceptable_action_paths": [[{"any_order": [
                step(CLOSE), {"action": "add_comment", "arguments": {"ticket_id": "T-0001"}}]}]],
            "expected_final_state": {"ticket": {"T-0001": {"status": "closed"}},
                                     "comment": {"+": [{"ticket_id": "T-0001"}]}},
            "vary": ["ticket.updated_at", "comment.body", "comment.created_at"],
            "checks": [{"kind": "called", "name": "comment_names_the_refund", "action": "add_comment",
                        "arguments": {"ticket_id": "T-0001", "body": {"mentions": [["refund", "money back"], "Invoice"]}},
                        "failure_mode": "vague_comment"}]}


@pytest.mark.parametrize(("body", "ok"), [
    ("Refund issued for the INVOICE.", True), ("money  back on the invoice", True),
    ("Refund issued.", False), ("Closed.", False),
])
def test_free_text_requirements(example_env: ExampleEnvironment, body: str, ok: bool) -> None:
    grade = episode(example_env, [CLOSE, ("add_comment", {"ticket_id": "T-0001", "body": body})], **MENTIONS)
    assert grade.passed is ok
    if not ok:
        assert failed(grade) == {"comment_names_the_refund": "vague_comment"}


def test_free_text_requirement_in_a_path_step(example_env: ExampleEnvironment) -> None:
    path = [[step(LOOK), {"action": "add_comment", "arguments": {"ticket_id": "T-0001", "body": {"mentions": ["refund"]}}},
             step(CLOSE)]]
    spec = {**MENTIONS, "checks": [], "acceptable_action_paths": path}
    assert episode(example_env, [("add_comment", {"ticket_id": "T-0001", "body": "refund"}), CLOSE], **spec).passed
    vague = episode(example_env, [("add_comment", {"ticket_id": "T-0001", "body": "done"}), CLOSE], **spec)
    assert failed(vague) == {"action_path": "unexpected_path"}
    # The reference agent writes a text that meets the requirement.
    assert first_order(make_task(**spec).acceptable_action_paths[0])[1].call_arguments()["body"] == "refund"


def load(tmp_path: Path, **changes: Any) -> list[str]:
    path = tmp_path / "t.jsonl"
    path.write_text(task_line(**changes) + "\n")
    _, problems = TaskLoader(EnvironmentPool()).load_file(path, display="t.jsonl")
    return [str(p) for p in problems]


@pytest.mark.parametrize(("paths", "message"), [
    ([[{"any_order": []}]],
     "t.jsonl:1: acceptable_action_paths[0][0].any_order: must not be empty (give at least one)"),
    ([[{"any_order": [step(LOOK), {"action": "close_tickets"}]}]],
     "t.jsonl:1: acceptable_action_paths[0][0].any_order[1].action: 'close_tickets' is not an action of example "
     "(did you mean 'close_ticket'? use one of: add_comment, close_ticket, delete_ticket, find_tickets, get_ticket, "
     "say_to_user, set_priority)"),
    ([[{"any_order": [step(LOOK), [{"action": "close_ticket", "arguments": {"ticket": "T-0001"}}]]}]],
     "t.jsonl:1: acceptable_action_paths[0][0].any_order[1][0].arguments.ticket: close_ticket has no argument "
     "'ticket' (did you mean 'ticket_id'? use one of: ticket_id)"),
    ([[{"action": "close_ticket", "arguments": {"ticket_id": {"mentions": ["x"]}}}]],
     "t.jsonl:1: acceptable_action_paths[0][0].arguments.ticket_id: ticket_id is not free text, so it cannot take "
     '{"mentions": ...} (give the exact value; mentions is for free-text arguments)'),
    ([[{"action": "add_comment", "arguments": {"body": {"mentions": []}}}]],
     "t.jsonl:1: acceptable_action_paths[0][0].arguments: body: a free-text requirement is {\"mentions\": [term, ...]} "
     '(write e.g. {"mentions": ["KYC"]} or {"mentions": [["KYC", "know your customer"]]})'),
    ([[{"any_order": [step(LOOK), step(CLOSE)], "then": 1}]],
     "t.jsonl:1: acceptable_action_paths[0][0].then: is not a known field (remove it; the task format is in the README)"),
])
def test_bad_paths_are_one_line_each(tmp_path: Path, paths: list[Any], message: str) -> None:
    assert load(tmp_path, acceptable_action_paths=paths) == [message]


def test_a_one_member_any_order_means_that_member(tmp_path: Path, example_env: ExampleEnvironment) -> None:
    assert load(tmp_path, acceptable_action_paths=[[step(LOOK), {"any_order": [step(CLOSE)]}]]) == []
    spec = {"acceptable_action_paths": [[step(LOOK), {"any_order": [[step(CLOSE)]]}]]}
    assert orders(spec["acceptable_action_paths"][0]) == [["get", "clo"]]
    assert failed(episode(example_env, [LOOK, CLOSE], **spec)) == {}


def test_plain_list_paths_load_and_grade_as_before(tmp_path: Path) -> None:
    assert load(tmp_path) == []
    line = json.loads(task_line())
    assert line["acceptable_action_paths"] == [[step(LOOK), step(CLOSE)]]


@pytest.mark.parametrize(("text", "ok"), [
    ("No applicable rate.", True), ("Rates missing for this band", True), ("(rate) unknown", True),
    ("A corporate customer", False), ("see get_rate", True), ("", False), ("no-rate band", True),
])
def test_a_term_must_start_a_word(text: str, ok: bool) -> None:
    assert mentions_ok([["rate"]], text) is ok


def test_paths_round_trip_through_json_without_warnings() -> None:
    import warnings

    task = make_task(**FREE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dumped = task.model_dump_json()
    assert type(task).model_validate_json(dumped) == task


OPTIONAL = {
    "expected_final_state": {"ticket": {"T-0001": {"status": "closed"}},
                             "comment": {"+?": [{"ticket_id": "T-0001"}]}},
    "vary": ["ticket.updated_at", "comment.body", "comment.created_at"],
    "acceptable_action_paths": [[step(LOOK), {"any_order": [{**step(NOTE), "optional": True}, step(CLOSE)]}]],
}


@pytest.mark.parametrize("calls", [[CLOSE], [NOTE, CLOSE], [CLOSE, NOTE], [LOOK, CLOSE, LOOK]])
def test_an_optional_step_and_row_may_be_there_or_not(example_env: ExampleEnvironment, calls: list[Any]) -> None:
    grade = episode(example_env, calls, **OPTIONAL)
    assert grade.passed, failed(grade)


def test_optional_extras_are_still_bounded(example_env: ExampleEnvironment) -> None:
    # A note on another ticket is like no allowed row: collateral, and no path lists it.
    other = ("add_comment", {"ticket_id": "T-0002", "body": "x"})
    assert failed(episode(example_env, [CLOSE, other], **OPTIONAL)) == {
        "frame": "collateral_change", "action_path": "unexpected_path"}
    # The required step cannot be left out.
    assert "state.ticket.T-0001" in failed(episode(example_env, [NOTE], **OPTIONAL))
