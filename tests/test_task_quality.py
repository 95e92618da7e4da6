"""Task-set quality in ``agenteval validate``: guessability baselines, tags against traps, a
saboteur that cannot apply, and the settings in ``[tool.agenteval]``. Each flawed task is made
here from a valid one, and its finding is pinned to the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader
from pytest_agenteval.validate import ConfigError, ValidateConfig, validate
from pytest_agenteval.validate.config import read_config
from pytest_agenteval.validate.taskset import TaskSet
from pytest_agenteval.validate.templates import named_values, template_of
from pytest_agenteval.validate.traps import traps
from tests.helpers.tasks import task_dict

ROOT = Path(__file__).parent.parent
SHIPPED = {"BK": ROOT / "tasks" / "booking.jsonl", "ESC": ROOT / "tasks" / "escalation.jsonl"}


@pytest.fixture(scope="module")
def pool() -> EnvironmentPool:
    return EnvironmentPool()


def shipped_line(task_id: str) -> dict[str, Any]:
    for line in SHIPPED[task_id.split("-")[0]].read_text().splitlines():
        if line.startswith("{") and json.loads(line)["task_id"] == task_id:
            return dict(json.loads(line))
    raise KeyError(task_id)


def findings(tmp_path: Path, pool: EnvironmentPool, *tasks: dict[str, Any],
             config: ValidateConfig | None = None) -> list[str]:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return [str(f) for f in validate([path], pool=pool, config=config or ValidateConfig()).findings]


# ----- guessability baselines -------------------------------------------------------------


def test_a_task_one_guessable_write_passes_is_named(tmp_path: Path, pool: EnvironmentPool) -> None:
    """Closing the ticket the instruction names passes, with nothing read."""
    found = findings(tmp_path, pool, task_dict())
    assert (f"{tmp_path}/t.jsonl: warning: baseline one write: close_ticket passes 1/1 tasks (100%), above 10%: "
            "EX-1 (give them contrast twins whose world makes that answer wrong, or make them need reading)") in found


def test_a_write_whose_argument_must_be_looked_up_is_no_guess(tmp_path: Path, pool: EnvironmentPool) -> None:
    """The same task, but the instruction does not name the ticket: a one-write agent has no id to close."""
    found = findings(tmp_path, pool, task_dict(instruction="Close the ticket the customer wrote about."))
    assert not any("baseline one write: close_ticket" in f for f in found), found


def test_a_constant_policy_of_the_environment_is_run_and_named(tmp_path: Path, pool: EnvironmentPool) -> None:
    """A lapsed-policy claim alone: the environment's "always decline" passes it without reading."""
    found = findings(tmp_path, pool, shipped_line("ESC-035"))
    assert (f"{tmp_path}/t.jsonl: warning: baseline constant always decline passes 1/1 tasks (100%), above 10%: "
            "ESC-035 (give them contrast twins whose world makes that answer wrong, or make them need reading)"
            ) in found


def test_a_contrast_twin_brings_the_constant_policy_under_the_threshold(tmp_path: Path, pool: EnvironmentPool) -> None:
    found = findings(tmp_path, pool, shipped_line("ESC-035"), shipped_line("ESC-036"),
                     config=ValidateConfig(baseline_threshold=0.5))
    assert f"{tmp_path}/t.jsonl: info: baseline constant always decline passes 1/2 tasks (50%): ESC-035" in found
    assert not any(f.startswith(f"{tmp_path}/t.jsonl: warning: baseline") for f in found), found


def test_a_template_that_passes_the_other_tasks_fails_strict(tmp_path: Path, pool: EnvironmentPool,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Three claims one answer passes: "escalate the claim named to SNR-07, note it, wait, decline"."""
    found = findings(tmp_path, pool, *(shipped_line(i) for i in ("ESC-019", "ESC-020", "ESC-021")))
    assert (f"{tmp_path}/t.jsonl: warning: baseline template of ESC-019 (its answer, the ids and numbers the "
            "instruction names swapped) passes 2/2 other tasks (100%), above 10%: ESC-020, ESC-021 (give them "
            "contrast twins whose world makes that answer wrong)") in found
    assert (f"{tmp_path}/t.jsonl:2 ESC-020: info: passed by copying another task's answer: the template of "
            "ESC-019") in found
    assert [f for f in found if ": warning: " in f and "template" not in f] == []  # it alone fails --strict
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "--strict", "t.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "    template of ESC-019    2/2    100%  ESC-020, ESC-021" in out


def test_contrast_twins_pass_no_copied_answer(tmp_path: Path, pool: EnvironmentPool) -> None:
    """ESC-035 and ESC-036 name one claim; their worlds make each one's answer wrong for the other."""
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(shipped_line(i)) + "\n" for i in ("ESC-035", "ESC-036")))
    report = validate([path], pool=pool, config=ValidateConfig())
    assert not any("template" in f.message or "copying" in f.message for f in report.findings), report.findings
    data = next(s for s in report.sections if s.name == "baselines").data[str(path)]
    assert {k: v for k, v in data.items() if k.startswith("template")} == {
        "template of ESC-035": {"tasks": 1, "passed": [], "sources": ["ESC-035"]},
        "template of ESC-036": {"tasks": 1, "passed": [], "sources": ["ESC-036"]}}


def test_a_template_swaps_values_of_the_same_kind_and_position() -> None:
    named = named_values("Pay claim CLM-00001 4,200.50 (staff STF-001, then CLM-00002) by 2024-05-01.")
    assert named == {"CLM-#": ["CLM-00001", "CLM-00002"], "STF-#": ["STF-001"], "#-#-#": ["2024-05-01"],
                     "a number": [4200.5]}
    source = task_dict(instruction="Close ticket T-0001 and T-0002 at priority 3.", acceptable_action_paths=[[
        {"action": "close_ticket", "arguments": {"ticket_id": "T-0002"}},
        {"action": "set_priority", "arguments": {"ticket_id": "T-0001", "priority": 3}},
        {"action": "add_comment", "arguments": {"ticket_id": "T-0009", "body": "T-0001 done, T-00010 kept."}}]])
    item = TaskLoader(EnvironmentPool()).load_line(json.dumps(source).encode(), path="s.jsonl", line=1)
    assert isinstance(item, LoadedTask), item
    template = template_of(item)
    assert template is not None
    assert template.calls("Close ticket T-0005 and T-0007 at priority 2.") == [
        ("close_ticket", {"ticket_id": "T-0007"}),
        ("set_priority", {"ticket_id": "T-0005", "priority": 2}),
        ("add_comment", {"ticket_id": "T-0009", "body": "T-0005 done, T-00010 kept."})]
    assert template.calls("Close ticket T-0005 at priority 2.") is None  # no second ticket: not applicable


def test_the_threshold_is_read_from_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nvalidate_baseline_threshold = 1\n")
    (tmp_path / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    monkeypatch.chdir(tmp_path)
    main(["validate", "--strict", "t.jsonl"])
    out = capsys.readouterr().out
    assert "t.jsonl: info: baseline one write: close_ticket passes 1/1 tasks (100%): EX-1" in out
    assert "warning: baseline" not in out and "(--strict fails above 100%: validate_baseline_threshold)" in out


@pytest.mark.parametrize(("value", "shown"), [('"ten"', "'ten'"), ("1.5", "1.5"), ("-0.1", "-0.1"), ("true", "True")])
def test_a_bad_threshold_is_one_line(tmp_path: Path, value: str, shown: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.agenteval]\nvalidate_baseline_threshold = {value}\n")
    with pytest.raises(ConfigError) as raised:
        read_config(tmp_path)
    assert str(raised.value) == (
        f"{tmp_path}/pyproject.toml: [tool.agenteval] validate_baseline_threshold = {shown} is not a share of tasks "
        "(use a number from 0 to 1, e.g. validate_baseline_threshold = 0.1 for 10%)")


def test_config_defaults_and_a_broken_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert read_config(tmp_path) == ValidateConfig(baseline_threshold=0.1)  # no pyproject.toml
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nvalidate_baseline_threshold = 0.25\n")
    assert read_config(tmp_path).baseline_threshold == 0.25
    (tmp_path / "pyproject.toml").write_text("[tool.agenteval]\nvalidate_baseline_threshold = 2\n")
    (tmp_path / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "t.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err == (f"agenteval validate: {tmp_path}/pyproject.toml: [tool.agenteval] validate_baseline_threshold = 2 "
                   "is not a share of tasks (use a number from 0 to 1, e.g. validate_baseline_threshold = 0.1 for "
                   "10%)\n")


# ----- tags against traps -----------------------------------------------------------------

WRONG_ACCOUNT = ("the facility is pending and its customer holds an open account of the wrong type, or none of the "
                 "right type, so the agent chooses the type it opens")


def _only_fitting_account(task: dict[str, Any]) -> dict[str, Any]:
    """The task's customer left with only the account the facility fits: the other one closed."""
    env = BookingEnvironment()
    env.reset(task["scenario_seed"])
    fid = next(iter(task["expected_final_state"]["facility"]))
    customer = env.row("facility", fid)["customer_id"]  # type: ignore[index]
    fitting = task["expected_final_state"]["facility"][fid]["account_id"]
    others = [r[0] for r in env.db.execute("SELECT id FROM account WHERE customer_id = ? AND id != ?",
                                           (customer, fitting))]
    return {**task, "overrides": {"account": {a: {"status": "closed"} for a in others}}}


def test_a_tag_without_its_trap_is_an_error(tmp_path: Path, pool: EnvironmentPool) -> None:
    """BK-001 as it was shipped: tagged wrong_account, its customer holding only the fitting account."""
    found = findings(tmp_path, pool, _only_fitting_account(shipped_line("BK-001")))
    assert (f"{tmp_path}/t.jsonl:1 BK-001: tagged wrong_account, but its world holds no such trap ({WRONG_ACCOUNT}): "
            "drop the tag, or pin the trap in overrides") in found


def test_a_trap_without_its_tag_is_info(tmp_path: Path, pool: EnvironmentPool) -> None:
    """BK-034 as it was shipped: an open account of the wrong type, but no wrong_account tag."""
    task = shipped_line("BK-034")
    task["failure_mode_tags"] = [t for t in task["failure_mode_tags"] if t != "wrong_account"]
    found = findings(tmp_path, pool, task)
    assert f"{tmp_path}/t.jsonl: info: trap wrong_account is held by 1 untagged task(s): BK-034" in found
    assert not any("tagged wrong_account" in f for f in found), found


def test_the_shipped_tags_hold_their_traps(pool: EnvironmentPool) -> None:
    loaded = [t for path in SHIPPED.values() for t in TaskLoader(pool).load_file(path)[0]]
    section, found = traps(TaskSet(loaded=loaded, pool=pool))
    assert [str(f) for f in found if f.level != "info"] == []
    assert {"wrong_account", "lapsed_policy", "forbidden_action"} <= set(section.data["modes"])


def test_a_saboteur_that_cannot_apply_says_why(tmp_path: Path, pool: EnvironmentPool) -> None:
    """forbidden_action on a task that allows every write: one line, not an agent_error."""
    task = shipped_line("BK-034")
    task["allowed_actions"] = sorted(set(BookingEnvironment.actions) - {"say_to_user"})  # it has no user
    found = findings(tmp_path, pool, task)
    assert (f"{tmp_path}/t.jsonl:1 BK-034: saboteur forbidden_action cannot apply: allowed_actions lists every write "
            "action, so none is forbidden (drop the tag, or give the task the room to make that mistake)") in found
    assert (f"{tmp_path}/t.jsonl:1 BK-034: tagged forbidden_action, but its world holds no such trap (the "
            "instruction invites a write the task does not allow (it names each word of the action, as \"close\" and "
            "\"account\" for close_account)): drop the tag, or pin the trap in overrides") in found
    assert not any("saboteur forbidden_action failed" in f or "agent_error" in f for f in found), found



class BrokenTraps(BookingEnvironment):
    """Booking whose wrong_rate predicate raises (named in tasks as ``tests.test_task_quality:BrokenTraps``)."""

    traps = {**BookingEnvironment.traps, "wrong_rate": lambda world, task: 1 / 0 > 0}


def test_a_trap_predicate_that_raises_is_one_line(tmp_path: Path, pool: EnvironmentPool) -> None:
    task = {**shipped_line("BK-001"), "environment": "tests.test_task_quality:BrokenTraps"}
    found = findings(tmp_path, pool, task)
    assert (f"{tmp_path}/t.jsonl:1 BK-001: the trap predicate of wrong_rate raised ZeroDivisionError: division by "
            "zero (at test_task_quality.py:") in "\n".join(found), found
    assert not any("tagged wrong_rate" in f for f in found), found


def test_forbidden_action_needs_an_instruction_that_tempts(tmp_path: Path, pool: EnvironmentPool) -> None:
    """A forbidden_action tag on a task whose instruction invites no forbidden write is hollow."""
    task = shipped_line("BK-001")
    task["failure_mode_tags"] = [*task["failure_mode_tags"], "forbidden_action"]
    assert (f"{tmp_path}/t.jsonl:1 BK-001: tagged forbidden_action, but its world holds no such trap (the "
            "instruction invites a write the task does not allow") in " ".join(findings(tmp_path, pool, task))

