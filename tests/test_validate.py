"""Grader validation: the shipped tasks pass it; tasks broken on purpose are named with the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.validate import validate

ROOT = Path(__file__).parent.parent
SHIPPED = [ROOT / "tasks" / "booking.jsonl", ROOT / "tasks" / "escalation.jsonl"]


@pytest.fixture(scope="module")
def pool() -> EnvironmentPool:
    return EnvironmentPool()


def shipped_line(task_id: str) -> dict[str, Any]:
    for path in SHIPPED:
        for line in path.read_text().splitlines():
            if line.startswith("{") and json.loads(line)["task_id"] == task_id:
                return json.loads(line)
    raise KeyError(task_id)


def test_shipped_tasks_validate(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["validate", "--strict", *map(str, SHIPPED)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert " duplicate " not in out
    assert "information sufficiency: 84 reference path(s) replayed; 0 value(s) the agent could not have known" in out
    assert "instruction ↔ expectation: 0 contradiction(s), 0 record(s) named but never touched" in out
    assert "tasks: 84; reference passed 84/84; do-nothing failed 84/84" in out
    # the detection table (the baselines' rows, indented, end in a rate too)
    rows = [row for line in out.splitlines() if line.endswith("%") and not line.startswith((str(ROOT), " "))
            and len(row := line.split()) == 4 and row[1].isdigit()]
    assert len(rows) >= 16 and all(row[-1] == "100%" for row in rows), rows
    # Both ways: every generated valid variant passes, and no mutant survives (every one is killed).
    variants = next(line for line in out.splitlines() if line.startswith("valid variants: "))
    run, passed = (int(w) for w in variants.replace(",", "").split() if w.isdigit())
    assert run > 2000 and run == passed, variants
    # Every mutant, lying texts included, killed by a check carrying its own label.
    for path in SHIPPED:
        line = next(line for line in out.splitlines() if line.startswith(f"{path}: ") and " mutants, " in line)
        assert "(100%), 0 under another label, 0 survived; " in line, line
        texts = re.search(r"; (\d+) lying texts, (\d+) killed under their label", line)
        assert texts and int(texts[1]) > 0 and texts[1] == texts[2], line
    assert "survived: " not in out
    assert out.rstrip().endswith("OK")


def check(tmp_path: Path, pool: EnvironmentPool, *tasks: dict[str, Any]) -> list[str]:
    path = tmp_path / "broken.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    report = validate([path], pool=pool)
    assert not report.ok
    return [str(f) for f in report.findings]


def test_wrong_expected_value_fails_the_reference(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = shipped_line("BK-001")
    fid = next(iter(task["expected_final_state"]["facility"]))
    task["expected_final_state"]["facility"][fid]["rate_percent"] = 9.99
    findings = check(tmp_path, pool, task, {**shipped_line("BK-002")})
    assert any(f.startswith(f"{tmp_path}/broken.jsonl:1 BK-001: reference agent failed — state.facility.{fid}: ")
               and "rate_percent expected 9.99" in f for f in findings), findings


def test_task_passable_by_doing_nothing(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = {**shipped_line("BK-001"), "expected_final_state": {}, "acceptable_action_paths": [[]],
            "failure_mode_tags": []}
    findings = check(tmp_path, pool, task)
    assert f"{tmp_path}/broken.jsonl:1 BK-001: the do-nothing agent passed" in findings
    assert (f"{tmp_path}/broken.jsonl:1 BK-001: warning: expected_final_state is empty: what must change? "
            '(if nothing must, say so: "no_change": true)') in findings


def test_tag_no_check_can_trigger(tmp_path: Path, pool: EnvironmentPool) -> None:
    # A claim on an active policy: paying it is wrong in other ways, but never a lapsed policy.
    task = shipped_line("ESC-007")
    assert task["overrides"]["policy"] and all(p["status"] == "active" for p in task["overrides"]["policy"].values())
    task["failure_mode_tags"].append("lapsed_policy")
    findings = check(tmp_path, pool, task)
    assert any("ESC-007: saboteur lapsed_policy failed, but no failed check triggered lapsed_policy" in f
               for f in findings), findings


def test_missing_rule_check_is_found(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = shipped_line("BK-042")
    task["checks"] = []  # the only thing that makes its missed_query tag detectable
    findings = check(tmp_path, pool, task)
    assert any("BK-042: saboteur missed_query failed, but no failed check triggered missed_query" in f
               for f in findings), findings


def test_lint_warnings(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = shipped_line("BK-001")
    task["failure_mode_tags"] = ["made_up_mode"]
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(task) + "\n")
    report = validate([path], pool=pool)
    assert report.ok and report.warnings == 0  # info fails nothing, even under --strict
    assert f"{path}:1 BK-001: info: tag made_up_mode is used by this task only" in map(str, report.findings)
    assert ("environment booking: info: failure mode made_up_mode has no declared trap (Environment.traps), so "
            "its 1 task(s) are not checked against their world: BK-001") in [str(f) for f in report.findings]


def test_tags_without_a_saboteur_are_named_once_shown_unverified_and_fail_under_strict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = []
    for task_id in ("BK-001", "BK-002"):
        task = shipped_line(task_id)
        task["failure_mode_tags"] = [*task["failure_mode_tags"], "made_up_mode"]
        task["split"] = "train" if task_id == "BK-002" else "eval"  # both splits covered: no coverage warning
        lines.append(json.dumps(task))
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["validate", str(path)]) == 0  # a warning without --strict
    out = capsys.readouterr().out
    # its one line, its row in the detection table and in the coverage matrix; the info that no
    # trap is declared for it and its row in the traps table (validate/traps.py)
    assert out.count("made_up_mode") == 5, out
    assert "environment booking: info: failure mode made_up_mode has no declared trap" in out
    assert ("tag made_up_mode: warning: no saboteur in booking, so its 2 task(s) (BK-001, BK-002) are unverified "
            "(add one to the environment's saboteurs; see docs/environments.md)") in out
    assert "made_up_mode           2         -  unverified" in out
    assert main(["validate", "--strict", str(path)]) == 1
    out = capsys.readouterr().out
    assert "--strict: 1 tag(s) without a saboteur count as problems: write a saboteur for each, or drop the tag" in out
    report = validate([path])  # the tag, and any mutant killed under another label (tests/test_strictness.py)
    assert out.rstrip().endswith(f"FAILED: {1 + report.mislabelled + report.survivors} problem(s)")


def test_malformed_lines_are_reported_not_raised(tmp_path: Path, pool: EnvironmentPool) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("{oops\n")
    report = validate([path], pool=pool)
    assert [str(f) for f in report.findings] == [
        f"{path}:1: <json>: not valid JSON: key must be a string at column 2 "
        "(write one complete JSON object per line)"]
