"""The loader: valid lines load, every problem class has its exact message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval import TaskFileError, load_tasks
from pytest_agenteval.domains.escalation.rules import EscalationTaskFields
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.tasks.model import task_json_schema
from tests.helpers.tasks import task_line

ROOT = Path(__file__).parent.parent


def load(tmp_path: Path, *lines: str, name: str = "t.jsonl") -> tuple[list, list[str]]:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tasks, problems = TaskLoader().load_file(path, display=name)
    return tasks, [str(p) for p in problems]


def test_valid_lines_load_with_line_numbers(tmp_path: Path) -> None:
    tasks, problems = load(tmp_path, "# comment", "", task_line(), task_line(task_id="EX-2"))
    assert problems == []
    assert [(t.task.task_id, t.line) for t in tasks] == [("EX-1", 3), ("EX-2", 4)]


def test_expected_end_state_alias_is_accepted(tmp_path: Path) -> None:
    line = json.loads(task_line())
    line["expected_end_state"] = line.pop("expected_final_state")
    tasks, problems = load(tmp_path, json.dumps(line))
    assert problems == [] and tasks[0].task.expected_final_state == {"ticket": {"T-0001": {"status": "closed"}}}


def test_bad_line_does_not_stop_the_others(tmp_path: Path) -> None:
    tasks, problems = load(tmp_path, task_line(), "{not json", task_line(task_id="EX-3"))
    assert [t.task.task_id for t in tasks] == ["EX-1", "EX-3"]
    assert problems == [
        "t.jsonl:2: <json>: not valid JSON: key must be a string at column 2 (write one complete JSON object per line)"
    ]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"scenario_seed": "1"}, "t.jsonl:1: scenario_seed: expected an integer, got a string '1' (write an integer)"),
        ({"instruction": None}, 't.jsonl:1: instruction: is required (add "instruction")'),
        ({"expected_state": {}}, "t.jsonl:1: expected_state: is not a known field (did you mean 'expected_end_state'?)"),
        ({"split": "test"}, "t.jsonl:1: split: 'test' is not allowed (use 'train' or 'eval')"),
        ({"scenario_seed": -1}, "t.jsonl:1: scenario_seed: -1 is out of range (use a value of at least 0)"),
        ({"allowed_actions": []}, "t.jsonl:1: allowed_actions: must not be empty (give at least one)"),
        ({"failure_mode_tags": ["bad tag"]}, "t.jsonl:1: failure_mode_tags: 'bad tag' cannot be a pytest marker (a failure-mode tag is letters, digits and underscores, starts with a letter or underscore, and is not and/or/not)"),
        ({"failure_mode_tags": ["not"]}, "t.jsonl:1: failure_mode_tags: 'not' cannot be a pytest marker (a failure-mode tag is letters, digits and underscores, starts with a letter or underscore, and is not and/or/not)"),
        ({"vary": ["updated_at"]}, "t.jsonl:1: vary: 'updated_at' is not table.field or *.field (write e.g. \"note.body\" or \"*.updated_at\")"),
        ({"faults": [{"action": "close_ticket", "error": "unavailable", "after_commit": True}]},
         "t.jsonl:1: faults[0]: after_commit is only meaningful for a timeout, not 'unavailable' (drop \"after_commit\" or use \"error\": \"timeout\")"),
        ({"faults": [{"action": "close_ticket", "error": "boom"}]},
         "t.jsonl:1: faults[0].error: 'boom' is not allowed (use 'timeout', 'unavailable' or 'stale_read')"),
        ({"checks": [{"kind": "sometimes", "name": "x", "failure_mode": "y"}]},
         "t.jsonl:1: checks[0]: unknown or missing check kind (set \"kind\" to called, order, count, judged or judged_conversation)"),
        ({"task_id": "has space"}, "t.jsonl:1: task_id: 'has space' is not a usable test id (use letters, digits and . _ : - only, starting with a letter or digit)"),
        ({"expected_final_state": {"ticket": {"+": {"status": "open"}}}},
         't.jsonl:1: expected_final_state: ticket.+ must be a list of row objects (write "+": [{"field": value, ...}] for each row the episode adds)'),
    ],
)
def test_model_problems_have_exact_messages(tmp_path: Path, changes: dict, expected: str) -> None:
    _, problems = load(tmp_path, task_line(**changes))
    assert problems[0] == expected


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"environment": "nowhere"}, "t.jsonl:1: environment: unknown environment 'nowhere' (use one of booking, escalation, example, or module:Class; list a module of your own under [tool.agenteval] environments in pyproject.toml)"),
        ({"allowed_actions": ["get_tiket"]}, "t.jsonl:1: allowed_actions[0]: 'get_tiket' is not an action of example (did you mean 'get_ticket'? use one of: add_comment, close_ticket, delete_ticket, find_tickets, get_ticket, say_to_user, set_priority)"),
        ({"acceptable_action_paths": [[{"action": "delete_ticket", "arguments": {"ticket_id": "T-0001"}}]]},
         "t.jsonl:1: acceptable_action_paths[0][0].action: 'delete_ticket' is not in allowed_actions (add it to allowed_actions or change the step)"),
        ({"acceptable_action_paths": [[{"action": "close_ticket", "arguments": {"ticket": "T-0001"}}]]},
         "t.jsonl:1: acceptable_action_paths[0][0].arguments.ticket: close_ticket has no argument 'ticket' (did you mean 'ticket_id'? use one of: ticket_id)"),
        ({"expected_final_state": {"tickets": {"T-0001": {"status": "closed"}}}},
         "t.jsonl:1: expected_final_state.tickets: example has no table 'tickets' (did you mean 'ticket'? use one of: comment, customer, ticket)"),
        ({"expected_final_state": {"ticket": {"T-9999": {"status": "closed"}}}},
         't.jsonl:1: expected_final_state.ticket.T-9999: ticket has no row \'T-9999\' in scenario 1 (use a primary key of the seeded scenario, or list new rows under "+")'),
        ({"expected_final_state": {"ticket": {"T-0001": {"state": "closed"}}}},
         "t.jsonl:1: expected_final_state.ticket.T-0001.state: table ticket has no field 'state' (did you mean 'status'? use one of: customer_id, id, priority, status, subject, updated_at)"),
        ({"overrides": {"ticket": {"T-0001": {"id": "T-1"}}}},
         "t.jsonl:1: overrides.ticket.T-0001.id: an override cannot change a primary key (override other fields only)"),
        ({"overrides": {"ticket": {"T-9999": {"status": "open"}}}},
         "t.jsonl:1: overrides.ticket.T-9999: ticket has no row 'T-9999' in scenario 1; overrides can only change rows the scenario seeds, not add rows (use a primary key of scenario 1's ticket rows, or another scenario_seed)"),
        ({"senior_policy": "approve"}, "t.jsonl:1: senior_policy: the example environment does not use senior_policy (remove it, or use an environment that does)"),
        ({"vary": ["ticket.colour"]}, "t.jsonl:1: vary[0]: table ticket has no field 'colour' (use one of: customer_id, id, priority, status, subject, updated_at)"),
        ({"faults": [{"action": "delete_ticket", "error": "timeout"}]}, "t.jsonl:1: faults[0].action: 'delete_ticket' is not in allowed_actions (add it to allowed_actions or change the step)"),
    ],
)
def test_environment_problems_have_exact_messages(tmp_path: Path, changes: dict, expected: str) -> None:
    _, problems = load(tmp_path, task_line(**changes))
    assert problems[0] == expected


def test_duplicate_ids_across_files_name_both_places(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(task_line() + "\n")
    (tmp_path / "b.jsonl").write_text("\n" + task_line() + "\n")
    loader = TaskLoader()
    loader.load_file(tmp_path / "a.jsonl", display="a.jsonl")
    tasks, problems = loader.load_file(tmp_path / "b.jsonl", display="b.jsonl")
    assert tasks == []
    assert [str(p) for p in problems] == [
        "b.jsonl:2: task_id: 'EX-1' is already used at a.jsonl:1 (give each task a unique task_id)"
    ]


def test_encoding_problems(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + task_line().encode() + b"\r\n" + b'{"task_id": "\xff"}\n')
    tasks, problems = TaskLoader().load_file(path, display="t.jsonl")
    assert [t.task.task_id for t in tasks] == ["EX-1"]  # BOM and CRLF are tolerated
    assert [str(p) for p in problems] == ["t.jsonl:2: <line>: not valid UTF-8 (byte 14) (save the file as UTF-8)"]


def test_load_tasks_raises_one_error_listing_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("[1]\n" + task_line(split="x") + "\n")
    with pytest.raises(TaskFileError) as info:
        load_tasks(path)
    assert [p.line for p in info.value.problems] == [1, 2]
    assert "a task line must be a JSON object, not a list" in str(info.value)


def test_task_json_schema_is_exportable() -> None:
    schema = task_json_schema()
    assert "task_id" in schema["properties"] and schema["additionalProperties"] is False
    assert "senior_policy" not in schema["properties"]
    with_escalation = task_json_schema(EscalationTaskFields)
    assert {"senior_policy", "senior_delay_steps"} <= set(with_escalation["properties"])


def test_domain_fields_are_validated_by_their_environment(tmp_path: Path) -> None:
    line = next(json.loads(raw) for raw in (ROOT / "tasks" / "escalation.jsonl").read_text().splitlines() if raw.startswith("{"))
    bad = [{**line, "senior_policy": "maybe"}, {**line, "task_id": "X-2", "senior_delay_steps": -1},
           {**line, "task_id": "X-3", "senior_polcy": "approve"}]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(b) + "\n" for b in bad))
    problems = [str(p) for p in TaskLoader().load_file(path)[1]]
    assert problems == [
        f"{path}:1: senior_policy: unknown senior policy 'maybe' (use approve, decline, return_for_info or amend_amount:<amount>)",
        f"{path}:2: senior_delay_steps: -1 is out of range (use a value of at least 0)",
        f"{path}:3: senior_polcy: is not a known field (did you mean 'senior_policy'?)",
    ]


def test_loading_restores_the_garbage_collectors_state(tmp_path: Path) -> None:
    import gc

    path = tmp_path / "t.jsonl"
    path.write_text(task_line() + "\n{broken\n")
    assert gc.isenabled()
    TaskLoader().load_file(path)
    assert gc.isenabled()
    gc.disable()
    try:
        TaskLoader().load_file(path)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()
