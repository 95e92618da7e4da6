"""Replay: a recorded episode re-graded without its agent gives the same grade."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_agenteval.cli import main

ROOT = Path(__file__).parent.parent


@pytest.fixture
def recorded(pytester: pytest.Pytester) -> Path:
    (pytester.path / "tasks").mkdir()
    for name in ("booking.jsonl", "escalation.jsonl"):
        shutil.copy(ROOT / "tasks" / name, pytester.path / "tasks" / name)
    shutil.copy(ROOT / "examples" / "rule_agent.py", pytester.path / "rule_agent.py")
    pytester.runpytest("--agent=rule_agent:Agent", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    return pytester.path


def test_replay_gives_the_same_grades(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = [str(recorded / "tasks" / n) for n in ("booking.jsonl", "escalation.jsonl")]
    assert main(["replay", str(recorded / "r.jsonl"), *tasks, "--out", str(recorded / "again.jsonl")]) == 0
    assert "replayed 84 episode(s): 84 identical, 0 different, 0 whose task was not found" in capsys.readouterr().out
    original = {(g["task_id"], g["run"]): g for g in map(json.loads, (recorded / "r.jsonl").read_text().splitlines())
                if "task_id" in g}
    for line in (recorded / "again.jsonl").read_text().splitlines():
        again = json.loads(line)
        assert again["audit_digest"] == original[(again["task_id"], again["run"])]["audit_digest"]


def test_replay_notices_a_changed_grader_or_a_tampered_record(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_record, *lines = (recorded / "r.jsonl").read_text().splitlines()
    verdict, actions = json.loads(lines[0]), json.loads(lines[1])
    verdict["passed"] = not verdict["passed"]  # a tampered verdict
    actions["actions"] = actions["actions"][:-1]  # a record that lost its last action
    (recorded / "r.jsonl").write_text("\n".join([run_record, json.dumps(verdict), json.dumps(actions), *lines[2:]]) + "\n")
    tasks = [str(recorded / "tasks" / n) for n in ("booking.jsonl", "escalation.jsonl")]
    assert main(["replay", str(recorded / "r.jsonl"), *tasks]) == 1
    out = capsys.readouterr().out
    assert f"{verdict['task_id']} run 1: replay differs in passed\n" in out
    assert f"{actions['task_id']} run 1: replay differs in audit_digest," in out
    assert "replayed 84 episode(s): 82 identical, 2 different, 0 whose task was not found" in out
