"""Helpers every test module may use: small valid tasks for the example environment, and
results files read back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_agenteval import Task


def task_dict(**changes: Any) -> dict[str, Any]:
    """A valid example task (close T-0001), with ``changes`` applied; None deletes a key."""
    base: dict[str, Any] = {
        "task_id": "EX-1",
        "environment": "example",
        "scenario_seed": 1,
        "instruction": "Close ticket T-0001.",
        "allowed_actions": ["get_ticket", "close_ticket", "add_comment", "set_priority"],
        "expected_final_state": {"ticket": {"T-0001": {"status": "closed"}}},
        "vary": ["ticket.updated_at"],
        "acceptable_action_paths": [[
            {"action": "get_ticket", "arguments": {"ticket_id": "T-0001"}},
            {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}},
        ]],
        "failure_mode_tags": ["wrong_ticket"],
        "split": "train",
    }
    for key, value in changes.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def task_line(**changes: Any) -> str:
    return json.dumps(task_dict(**changes))


def write_ex1_and_ex3(folder: Path, **ex3: Any) -> None:
    """``tasks/example.jsonl`` with EX-1 (close T-0001) and EX-3 (close T-0003): an agent that
    closes T-0001 whatever it is asked passes one and fails the other."""
    (folder / "tasks").mkdir(exist_ok=True)
    (folder / "tasks" / "example.jsonl").write_text("\n".join([
        task_line(),
        task_line(task_id="EX-3", instruction="Close ticket T-0003.",
                  expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
                  acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0003"}}]], **ex3),
    ]) + "\n")


def episode_grades(path: Any) -> list[dict[str, Any]]:
    """The grades of a results file, without durations (which vary), in node-id order."""
    from pytest_agenteval.report.results import read_results

    grades, _ = read_results(path)
    for grade in grades:
        grade.pop("duration")
    return sorted(grades, key=lambda g: g["nodeid"])


def make_task(**changes: Any) -> Task:
    return Task.model_validate(task_dict(**changes))


def result_lines(path: Any) -> list[dict[str, Any]]:
    """A results file's lines as JSON, without the run record it opens with (grades, then the summary)."""
    lines = [json.loads(line) for line in Path(path).read_text().splitlines()]
    return [line for line in lines if set(line) != {"run_record"}]


def interruptible() -> None:
    """``preexec_fn`` for a child pytest that a test stops with SIGINT: Ctrl-C acts in it whatever
    the worker running the test did to SIGINT (an ignored or blocked SIGINT is inherited)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
