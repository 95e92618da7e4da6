"""The task-set checks of ``agenteval validate``: each flaw, built here, named in one line."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.validate import validate
from pytest_agenteval.validate.agreement import check_agreement
from pytest_agenteval.validate.coverage import check_coverage
from pytest_agenteval.validate.duplicates import check_duplicates
from pytest_agenteval.validate.facts import ids_in, number, numbers_in
from pytest_agenteval.validate.sufficiency import check_sufficiency
from pytest_agenteval.validate.taskset import SetCheck, TaskSet
from tests.helpers.chromium import Chromium, chromium_path
from tests.helpers.tasks import task_dict

ROOT = Path(__file__).parent.parent
CLOSE = {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}
LOOK = {"action": "get_ticket", "arguments": {"ticket_id": "T-0001"}}


@pytest.fixture(scope="module")
def pool() -> EnvironmentPool:
    return EnvironmentPool()


def write(tmp_path: Path, *tasks: dict[str, Any], name: str = "set.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return path


def found(check: SetCheck, tmp_path: Path, pool: EnvironmentPool, *tasks: dict[str, Any]) -> list[str]:
    loaded, problems = TaskLoader(pool).load_file(write(tmp_path, *tasks))
    assert problems == []
    return [str(f) for f in check(TaskSet(loaded=loaded, pool=pool))[1]]


def shipped(fits: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first shipped task that fits (whichever it is: the shipped tasks are regenerated)."""
    for path in sorted((ROOT / "tasks").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.startswith("{") and fits(task := json.loads(line)):
                return dict(task)
    raise LookupError("no shipped task fits")


def lapsed(task: dict[str, Any]) -> bool:
    return "lapsed" in json.dumps(task.get("overrides", {})) and "decline_claim" in json.dumps(task)


def test_numbers_are_one_value_however_written() -> None:
    assert number(4200) == number(4200.0) == number("4,200") == number("4200") == 4200.0
    assert number(True) is None and number("FAC-5260") is None
    assert numbers_in("Pay 4,200.50 on FAC-5260 by 2026-02-01, at 5.04%.") == [("4,200.50", 4200.5), ("5.04", 5.04)]
    assert ids_in("Book FAC-5260 for CUS-1309, not ACC-E001's twin.") == ["FAC-5260", "CUS-1309", "ACC-E001"]


# ----- duplicates and leakage -------------------------------------------------------------

def test_a_copy_in_the_other_split_is_leakage_and_in_the_same_split_a_repeat(
        tmp_path: Path, pool: EnvironmentPool) -> None:
    assert found(check_duplicates, tmp_path, pool,
                 task_dict(),
                 task_dict(task_id="EX-2", split="eval", instruction="Please close T-0001.", failure_mode_tags=[]),
                 task_dict(task_id="EX-3", split="eval")) == [
        f"{tmp_path}/set.jsonl:2 EX-2: duplicate of EX-1 ({tmp_path}/set.jsonl:1), one in train, one in eval: "
        "the eval answer is in train (leakage); change the world or the answer of one, or drop it",
        f"{tmp_path}/set.jsonl:3 EX-3: duplicate of EX-1 ({tmp_path}/set.jsonl:1), one in train, one in eval: "
        "the eval answer is in train (leakage); change the world or the answer of one, or drop it",
    ]
    assert found(check_duplicates, tmp_path, pool, task_dict(split="eval"), task_dict(task_id="EX-2", split="eval")) \
        == [f"{tmp_path}/set.jsonl:2 EX-2: warning: duplicate of EX-1 ({tmp_path}/set.jsonl:1), both in eval: the "
            "set counts one task twice; change the world or the answer of one, or drop it"]


def test_a_fault_and_a_look_up_more_still_give_the_same_answer(tmp_path: Path, pool: EnvironmentPool) -> None:
    faulted = task_dict(task_id="EX-2", split="eval", faults=[{"action": "get_ticket", "error": "unavailable"}],
                        acceptable_action_paths=[[LOOK, LOOK, CLOSE]])
    assert found(check_duplicates, tmp_path, pool, task_dict(), faulted) == [
        f"{tmp_path}/set.jsonl:2 EX-2: near duplicate (the same world and answer) of EX-1 ({tmp_path}/set.jsonl:1), "
        "one in train, one in eval: the eval answer is in train (leakage); change the world or the answer of one, "
        "or drop it"]
    other_world = task_dict(task_id="EX-2", split="eval", scenario_seed=2)
    assert found(check_duplicates, tmp_path, pool, task_dict(), other_world) == []


# ----- information sufficiency --------------------------------------------------------------

def test_an_id_the_agent_cannot_know_is_named_with_its_step(tmp_path: Path, pool: EnvironmentPool) -> None:
    vague = task_dict(instruction="Close the ticket about the wrong invoice.")
    assert found(check_sufficiency, tmp_path, pool, vague) == [
        f"{tmp_path}/set.jsonl:1 EX-1: step 1 get_ticket: ticket_id = 'T-0001' is in neither the instruction nor "
        "an earlier observation (state it in the instruction, or add the look-up that shows it before this step)"]
    # Told, or read first: known. 4200 == "4,200" and a number read earlier counts.
    assert found(check_sufficiency, tmp_path, pool, task_dict()) == []


def test_a_look_up_the_path_lets_come_first_counts(tmp_path: Path, pool: EnvironmentPool) -> None:
    find = {"action": "find_tickets", "arguments": {"customer_id": "C-0001"}}
    listed_late = task_dict(instruction="Close customer C-0001's ticket about the invoice.",
                            allowed_actions=["get_ticket", "find_tickets", "close_ticket"],
                            acceptable_action_paths=[[{"any_order": [LOOK, find]}, CLOSE]])
    assert found(check_sufficiency, tmp_path, pool, listed_late) == []
    forced_late = {**listed_late, "acceptable_action_paths": [[LOOK, find, CLOSE]]}
    assert found(check_sufficiency, tmp_path, pool, forced_late) == [
        f"{tmp_path}/set.jsonl:1 EX-1: step 1 get_ticket: ticket_id = 'T-0001' is in neither the instruction nor "
        "an earlier observation (state it in the instruction, or add the look-up that shows it before this step)"]


def test_a_number_never_told_nor_read_is_an_error(tmp_path: Path, pool: EnvironmentPool) -> None:
    priority = task_dict(instruction="Close ticket T-0001 and give it the right priority.",
                         expected_final_state={"ticket": {"T-0001": {"status": "closed", "priority": 1}}},
                         acceptable_action_paths=[[LOOK, {"action": "set_priority", "arguments": {
                             "ticket_id": "T-0001", "priority": 1}}, CLOSE]])
    assert found(check_sufficiency, tmp_path, pool, priority) == [
        f"{tmp_path}/set.jsonl:1 EX-1: step 2 set_priority: priority = 1 is in neither the instruction nor an "
        "earlier observation (state it in the instruction, or add the look-up that shows it before this step)"]
    told = {**priority, "instruction": "Close ticket T-0001 and set its priority to 1.0."}
    assert found(check_sufficiency, tmp_path, pool, told) == []


def test_a_says_requirement_nobody_told_the_agent(tmp_path: Path, pool: EnvironmentPool) -> None:
    comment = task_dict(expected_final_state={"ticket": {"T-0001": {"status": "closed"}},
                                              "comment": {"+": [{"ticket_id": "T-0001"}]}},
                        vary=["ticket.updated_at", "comment.body"],
                        acceptable_action_paths=[[LOOK, {"action": "add_comment", "arguments": {
                            "ticket_id": "T-0001", "body": {"says": ["declined"]}}}, CLOSE]])
    assert found(check_sufficiency, tmp_path, pool, comment) == [
        f"{tmp_path}/set.jsonl:1 EX-1: step 2 add_comment: body must say declined, but neither the instruction nor "
        "an earlier look-up mentions it (tell the agent what the text must say)"]
    told = {**comment, "instruction": "Close ticket T-0001 and comment that the refund is declined."}
    assert found(check_sufficiency, tmp_path, pool, told) == []


def test_a_decision_fact_no_allowed_look_up_shows(tmp_path: Path, pool: EnvironmentPool) -> None:
    # A claim declined on a lapsed policy: without get_policy nothing shows the lapse.
    task = shipped(lapsed)
    policy = next(iter(task["overrides"]["policy"]))
    task["allowed_actions"].remove("get_policy")
    task["acceptable_action_paths"] = [[step for step in path if not (isinstance(step, dict)
                                        and step.get("action") == "get_policy")]
                                       for path in json.loads(json.dumps(task["acceptable_action_paths"]).replace(
                                           json.dumps({"action": "get_policy", "arguments": {"policy_id": policy}})
                                           + ", ", ""))]
    assert found(check_sufficiency, tmp_path, pool, task) == [
        f"{tmp_path}/set.jsonl:1 {task['task_id']}: decision fact policy {policy} status = 'lapsed' is shown by no allowed "
        "look-up (allow the look-up that shows it)"]
    assert found(check_sufficiency, tmp_path, pool, shipped(lapsed)) == []


# ----- instruction and expectation ------------------------------------------------------------

def test_an_amount_the_expected_state_contradicts(tmp_path: Path, pool: EnvironmentPool) -> None:
    wrong = task_dict(instruction="Close ticket T-0001 and set its priority to 4.5.",
                      expected_final_state={"ticket": {"T-0001": {"status": "closed", "priority": 1}}},
                      acceptable_action_paths=[[LOOK, {"action": "set_priority", "arguments": {
                          "ticket_id": "T-0001", "priority": 1}}, CLOSE]])
    assert found(check_agreement, tmp_path, pool, wrong) == [
        f"{tmp_path}/set.jsonl:1 EX-1: the instruction states 4.5, but neither the expected state nor a path nor a "
        "record the reference path reads has it (the expected state's numbers: 1); make them agree"]
    counts = {**wrong, "instruction": "Close ticket T-0001 within 30 days, with 2 comments at most."}
    assert found(check_agreement, tmp_path, pool, counts) == []


def test_a_record_named_but_never_touched(tmp_path: Path, pool: EnvironmentPool) -> None:
    stray = task_dict(instruction="Close ticket T-0001; ticket T-0002 says the same.")
    assert found(check_agreement, tmp_path, pool, stray) == [
        f"{tmp_path}/set.jsonl:1 EX-1: warning: the instruction names T-0002, which the task never touches (in no "
        "path, not in the expected state); drop it, or declare it a deliberate distractor (Environment.distractors)"]


def test_booking_declares_the_account_a_forbidden_action_tempts(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = shipped(lambda t: t["environment"] == "booking")
    task["instruction"] += " The customer also asked us to close account ACC-99999; not by you."
    task["failure_mode_tags"] = ["forbidden_action"]
    assert found(check_agreement, tmp_path, pool, task) == []
    task["failure_mode_tags"] = ["collateral_change"]
    assert found(check_agreement, tmp_path, pool, task) == [
        f"{tmp_path}/set.jsonl:1 {task['task_id']}: warning: the instruction names ACC-99999, which the task never "
        "touches (in no path, not in the expected state); drop it, or declare it a deliberate distractor "
        "(Environment.distractors)"]


# ----- coverage ---------------------------------------------------------------------------------

def test_a_mode_or_a_split_without_tasks(tmp_path: Path, pool: EnvironmentPool) -> None:
    assert found(check_coverage, tmp_path, pool, task_dict(failure_mode_tags=["wrong_ticket", "slow_close"]),
                 task_dict(task_id="EX-2", scenario_seed=2, split="eval")) == [
        "environment example: warning: failure mode slow_close has no eval task (1 in the other split: EX-1); "
        "tag a eval task that holds its trap"]
    booking = {**shipped(lambda t: t["environment"] == "booking"), "split": "eval"}
    assert found(check_coverage, tmp_path, pool, task_dict(), task_dict(task_id="EX-2", scenario_seed=2,
                                                                        split="eval"), booking) == [
        "environment booking: warning: no train task: add train tasks (split: 'train')"]
    # A set of one split (a train file validated alone) says nothing of the other: only info.
    assert found(check_coverage, tmp_path, pool, task_dict()) == [
        "environment example: info: no eval task: add eval tasks (split: 'eval')"]


# ----- difficulty, --agents and --report ---------------------------------------------------------

AGENT = '''
class Agent:
    """Closes T-0001 whatever it is asked."""
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "closer.py").write_text(AGENT)
    monkeypatch.chdir(tmp_path)
    write(tmp_path, task_dict(), task_dict(
        task_id="EX-2", split="eval", scenario_seed=2, instruction="Close ticket T-0003.",
        expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
        acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0003"}}]]),
        name="tasks.jsonl")
    return tmp_path


def test_agents_give_a_pass_matrix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["validate", "tasks.jsonl", "--agents", "closer:Agent,noop"])
    out = capsys.readouterr().out
    assert "pass matrix (A = closer:Agent, B = noop; + passed, . failed)\n  EX-1         +.\n  EX-2         ..\n" \
           "1 of 2 task(s) separate the agents; 1 give every agent the same verdict" in out
    assert "tasks.jsonl: 1w 2; 0r 1, 1r 1" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--agents", "nosuchmod:Agent"], "agenteval validate: --agents: nosuchmod:Agent: no module named 'nosuchmod' "
                                      "(it must be importable from the rootdir {project} or an installed package: the rootdir "
                                      "is where pytest.ini or pyproject.toml is, or else the task paths' common "
                                      "folder; check the spelling)"),
    (["--agents", ","], "agenteval validate: --agents: no agent named (give MODULE:ATTR[,MODULE:ATTR…], e.g. "
                        "mymod:Agent,other:Agent)"),
    (["--report", "r.txt"], "agenteval validate: --report r.txt: unknown format '.txt' (name a .json or .html file)"),
    (["--report", "missing/r.json"], "agenteval validate: --report missing/r.json: folder 'missing' does not exist "
                                     "(create it first)"),
])
def test_a_bad_agents_or_report_value_is_one_line(project: Path, capsys: pytest.CaptureFixture[str],
                                                  argv: list[str], message: str) -> None:
    assert main(["validate", "tasks.jsonl", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == message.format(project=project) and captured.out == ""


def test_report_json_is_the_whole_report(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "tasks.jsonl", "--report", "r.json"]) == 0
    data = json.loads((project / "r.json").read_text())
    assert data == json.loads(json.dumps(validate(["tasks.jsonl"]).as_dict()))
    assert set(data["sections"]) == {"agreement", "baselines", "coverage", "difficulty", "duplicates", "sufficiency",
                                     "traps"}


def test_report_html_in_headless_chromium(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = project / "tasks.jsonl"
    tasks.write_text(tasks.read_text() + json.dumps(task_dict(task_id="EX-3", split="eval")) + "\n")  # a leak
    assert main(["validate", "--strict", "tasks.jsonl", "--report", "r.html", "--agents", "closer:Agent,noop"]) == 1
    page = (project / "r.html").read_text()
    assert not re.search(r'(src|href)="(https?:)?//', page) and "<link" not in page and "<script" not in page
    if chromium_path() is None:
        message = "no chromium: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    browser = Chromium()
    try:
        browser.get((project / "r.html").as_uri())
        assert browser.problems == []
        assert browser.js("document.querySelector('h1').innerText") == "agenteval validate: failed"
        errors = browser.js("[...document.querySelectorAll('li.error')].map(e => e.innerText)")
        assert errors == ["tasks.jsonl:3 EX-3: duplicate of EX-1 (tasks.jsonl:1), one in train, one in eval: the eval "
                          "answer is in train (leakage); change the world or the answer of one, or drop it"]
        headings = browser.js("[...document.querySelectorAll('h2')].map(e => e.id)")
        assert headings == ["", "baselines", "traps", "coverage", "duplicates", "difficulty", "strictness"]
        # The pass matrix: closer passes EX-1 and EX-3 only; noop passes nothing.
        cells = browser.js("[...document.querySelectorAll('#difficulty ~ table td.pass')].length")
        assert cells == 2
        assert browser.js("document.querySelector('table').getBoundingClientRect().width") > 0
    finally:
        browser.close()
