"""``agenteval validate`` both ways, on any environment: valid variants that must pass, and
mutants whose survival says the success criteria are too loose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field

from pytest_agenteval.agents.variants import Planner
from pytest_agenteval.cli import main
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.engine import action
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.grading import Check, GradeContext, check
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.validate import validate
from tests.helpers.tasks import task_dict


class ReadsAreJudged(ExampleEnvironment):
    """A rubric with the audit's defect: it judges every ticket the agent so much as looked at."""

    name = "reads_are_judged"

    def rubric(self, ctx: GradeContext) -> list[Check]:
        seen = {e.arguments.get("ticket_id") for e in ctx.agent_events() if isinstance(e.arguments, dict)}
        urgent = [t for t in seen if (ctx.row("ticket", t) or {}).get("status") not in ("closed", None)
                  and (ctx.row("ticket", t) or {}).get("priority") == 1]
        return [check("urgent_tickets_closed", not urgent, failure_mode="left_open", component="desk",
                      ok="no urgent ticket left open", failed=f"urgent tickets left open: {sorted(urgent)}")]


# Named as module:Class, not registered: a registration would leak into other tests' messages.
READS_ARE_JUDGED = f"{__name__}:ReadsAreJudged"


def write(tmp_path: Path, *tasks: dict[str, Any]) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return path


def test_a_rubric_that_judges_reads_is_caught_by_the_valid_variants(tmp_path: Path) -> None:
    # T-0001 closed; some neighbouring ticket is urgent and open: reading it must not fail the task.
    with ReadsAreJudged() as env:
        env.reset(1)
        urgent = env.db.execute("SELECT id FROM ticket WHERE priority = 1 AND status != 'closed' ORDER BY id").fetchall()
    assert urgent, "the scenario needs an urgent open ticket for this test"
    report = validate([write(tmp_path, task_dict(environment=READS_ARE_JUDGED, failure_mode_tags=[]))])
    failures = [str(f) for f in report.findings if f.error]
    assert failures and all("valid variant failed (extra look-up get_ticket(ticket_id=" in f for f in failures)
    assert "urgent_tickets_closed: urgent tickets left open" in failures[0]
    # The same task on the example environment (no such rubric) has no false failure.
    assert validate([write(tmp_path, task_dict(failure_mode_tags=[]))]).ok


LOOSE = task_dict(
    failure_mode_tags=[],
    instruction="Set ticket T-0001 to priority 1, then close it.",
    vary=["ticket.updated_at", "ticket.priority"],  # the priority is not graded at all
    acceptable_action_paths=[[
        {"action": "get_ticket", "arguments": {"ticket_id": "T-0001"}},
        {"action": "set_priority", "arguments": {"ticket_id": "T-0001", "priority": 1}},
        {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}},
    ]],
)


def test_loose_criteria_leave_named_survivors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, LOOSE)
    assert main(["validate", str(path)]) == 0  # survivors are reported...
    out = capsys.readouterr().out
    assert "  survived: drop set_priority(ticket_id='T-0001', priority=1) (only action_path noticed)" in out
    assert "  survived: change set_priority.priority 1 -> 2 (only action_path noticed)" in out
    # Dropping or repeating the close is caught by the expected state: killed.
    assert "drop close_ticket" not in out and "repeat close_ticket" not in out
    assert (f"{path}: 7 mutants, 2 killed under their label (29%), 0 under another label, 5 survived; "
            "0 lying texts, 0 killed under their label") in out
    assert main(["validate", "--strict", str(path)]) == 1  # ...and fail the run under --strict
    assert capsys.readouterr().out.rstrip().endswith(
        "--strict: 5 surviving mutant(s) count as problems: tighten the expected state or checks, "
        "or free a harmless change in the path\nFAILED: 5 problem(s)")


def test_tight_criteria_kill_every_mutant(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the close, or close another ticket: both killed. Repeating the close is refused by the
    environment (already closed), so it is a valid variant, not a mutant."""
    path = write(tmp_path, task_dict(failure_mode_tags=[]))
    # One write closes the ticket the instruction names: guessable (tests/test_task_quality.py).
    # Only strictness is judged here, so the baselines' threshold is lifted.
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nvalidate_baseline_threshold = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "--strict", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: 2 mutants, 2 killed under their label (100%), 0 under another label, 0 survived" in out
    report = validate([path], pool=EnvironmentPool())
    assert report.variants >= 10 and report.ok


def test_an_order_the_path_frees_is_a_valid_variant_not_a_survivor(tmp_path: Path) -> None:
    freed = {**LOOSE, "acceptable_action_paths": [[LOOSE["acceptable_action_paths"][0][0], {"any_order": [
        LOOSE["acceptable_action_paths"][0][1], LOOSE["acceptable_action_paths"][0][2]]}]]}
    report = validate([write(tmp_path, freed)], pool=EnvironmentPool())
    assert not any("swap" in name for name in report.strictness[0].survived)
    assert report.ok


def test_a_required_mention_is_mutated_and_its_check_kills_it(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    comment = {"action": "add_comment", "arguments": {"ticket_id": "T-0001", "body": "Refunded."}}
    task = task_dict(
        failure_mode_tags=[], vary=["ticket.updated_at", "comment.body", "comment.created_at"],
        expected_final_state={"ticket": {"T-0001": {"status": "closed"}}, "comment": {"+": [{"ticket_id": "T-0001"}]}},
        acceptable_action_paths=[[{"any_order": [comment, {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]}]],
        checks=[{"kind": "called", "name": "comment_names_the_refund", "action": "add_comment",
                 "arguments": {"body": {"mentions": ["refund"]}}, "failure_mode": "vague_comment"}])
    path = write(tmp_path, task)
    assert main(["validate", "--strict", str(path)]) == 0
    # The path ignores the free text; the check does not: the text mutant is a mutant, and killed
    # under the label of the check that requires the mention.
    assert f"{path}: 6 mutants, 6 killed under their label (100%), 0 under another label, 0 survived" in \
        capsys.readouterr().out
    pool = EnvironmentPool()
    (loaded,), _ = TaskLoader(pool).load_file(path)
    unmentioned = [s for s in Planner(pool.get("example"), loaded.task).mutants() if s.free_text]
    assert [(s.name, s.expect) for s in unmentioned] == [
        ("change add_comment.body 'Refunded.' -> 'n/a'", frozenset({"vague_comment"}))]


class WithSearch(ExampleEnvironment):
    name = "with_search"

    @action(writes=False)
    def search(self, text: Annotated[str, Field(max_length=40)]) -> list[str]:
        """Search ticket subjects."""
        return [r[0] for r in self.db.execute("SELECT id FROM ticket WHERE subject LIKE ?", (f"%{text}%",))]


def test_a_look_up_no_arguments_can_be_built_for_is_named(tmp_path: Path) -> None:
    task = task_dict(environment=f"{__name__}:WithSearch", failure_mode_tags=[],
                     allowed_actions=["get_ticket", "close_ticket", "search"])
    report = validate([write(tmp_path, task)])
    assert report.ok
    assert [f.message for f in report.findings if "search" in f.message] == [
        "look-up search was not tried on unrelated records: no arguments could be built for it "
        "(name its id argument <table>_id, or use it in the reference path)"]
