"""Observation shapes: declared by the actions, true of what agents see, documented and exported."""

from __future__ import annotations

import importlib.util
import json
import sys
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytest_agenteval import ActionError, Environment, EnvironmentPool, action, load_tasks
from pytest_agenteval.agents.builtin import Reference
from pytest_agenteval.cli import main
from pytest_agenteval.engine.observations import error_codes, observation_schema, raised_codes

ROOT = Path(__file__).resolve().parent.parent


def _page_module() -> Any:
    spec = importlib.util.spec_from_file_location("observations_page", ROOT / "scripts" / "observations_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_page_is_current() -> None:
    page = _page_module()
    assert page.PAGE.read_text() == page.render(), "docs/observations.md is stale: run python scripts/observations_page.py"


@pytest.fixture(scope="module")
def observed() -> list[tuple[type, str, dict[str, Any]]]:
    """(environment class, action, observation) for every call the reference agent makes on the shipped tasks."""
    pool = EnvironmentPool()
    seen = []
    for path in sorted((ROOT / "tasks").glob("*.jsonl")):
        for task in load_tasks(path, pool=pool):
            env = pool.get(task.environment)
            env.reset(task.scenario_seed, task=task)
            for step in Reference().for_task(task).steps:
                seen.append((type(env), step.action, env.apply(step.action, step.call_arguments())))
    return seen


def test_every_result_the_reference_agent_reads_has_its_declared_shape(observed: list[Any]) -> None:
    checked: set[str] = set()
    validators: dict[tuple[type, str], Any] = {}  # one per action: checking the schema itself is slow
    for cls, name, obs in observed:
        spec = cls.actions[name]  # type: ignore[attr-defined]
        if (cls, name) not in validators:
            schema = observation_schema(cls, spec)
            jsonschema.Draft202012Validator.check_schema(schema)
            validators[cls, name] = jsonschema.Draft202012Validator(schema)
        validators[cls, name].validate(obs)
        if obs["ok"]:
            assert spec.returns, f"{name} declares no result"
            checked.add(name)
    # Every look-up and write the shipped paths use was seen succeeding at least once.
    assert {"get_facility", "list_accounts", "book_facility", "get_claim", "check_escalation", "issue_payment"} <= checked


def test_every_action_of_the_example_domain_answers_its_declared_shape() -> None:
    pool = EnvironmentPool()
    env = pool.get("example")
    env.reset(1)
    calls = [("get_ticket", {"ticket_id": "T-0001"}), ("find_tickets", {"customer_id": "C-0001"}),
             ("set_priority", {"ticket_id": "T-0001", "priority": 2}), ("add_comment", {"ticket_id": "T-0001",
             "body": "Looking into it."}), ("close_ticket", {"ticket_id": "T-0001"}),
             ("close_ticket", {"ticket_id": "T-0001"}), ("delete_ticket", {"ticket_id": "T-0002"})]
    for name, arguments in calls:
        spec = type(env).actions[name]  # type: ignore[attr-defined]
        obs = env.apply(name, arguments)
        jsonschema.Draft202012Validator(observation_schema(type(env), spec)).validate(obs)
        assert spec.returns and (obs["ok"] or obs["error"] == "already_closed"), (name, obs)


def test_an_undeclared_error_code_fails_the_schema(observed: list[Any]) -> None:
    cls, name, _ = observed[0]
    schema = observation_schema(cls, cls.actions[name])  # type: ignore[attr-defined]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"ok": False, "error": "made_up", "detail": "x"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"ok": True, "result": {"wrong": "shape"}}, schema)


def test_errors_seen_by_agents_are_declared() -> None:
    env = EnvironmentPool().get("booking")
    env.reset(1)
    schema = observation_schema(type(env), env.actions["book_facility"])
    for obs in (env.apply("book_facility", {"facility_id": "FAC-0", "account_id": "ACC-0"}),
                env.apply("book_facility", {"facility_id": 7})):
        assert not obs["ok"]
        jsonschema.validate(obs, schema)


class Desk(Environment):
    name = "desk-observations"
    schema = "CREATE TABLE ticket (id TEXT PRIMARY KEY, status TEXT NOT NULL);"

    def seed_rows(self, rng: Any, scenario_seed: int) -> dict[str, list[tuple[str, str]]]:
        return {"ticket": [("T-1", "open")]}

    def _open(self, ticket_id: str) -> None:
        if self.require("ticket", ticket_id)["status"] != "open":
            raise ActionError("not_open", ticket_id)

    @action
    def close(self, ticket_id: str) -> dict[str, Any]:
        """Close a ticket."""
        self._open(ticket_id)
        code = "computed"
        if ticket_id == "T-2":
            raise ActionError(code, "a code the scan cannot read")
        return {}

    @action(writes=False)
    def ping(self) -> None:
        """Nothing to raise."""


def test_raised_codes_follow_helper_methods_and_require() -> None:
    assert raised_codes(Desk, Desk.actions["close"]) == ("not_found", "not_open")
    assert raised_codes(Desk, Desk.actions["ping"]) == ()
    # Look-ups are never refused by the database: no `constraint` for them.
    assert "constraint" in error_codes(Desk, Desk.actions["close"])
    assert "constraint" not in error_codes(Desk, Desk.actions["ping"])


class PlainTypedDictRow(typing.TypedDict):  # typing's, not typing_extensions': pydantic refuses it before 3.12
    id: str


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="typing.TypedDict is accepted from Python 3.12")
def test_a_return_hint_pydantic_cannot_read_is_an_error_naming_the_action() -> None:
    def get_row(self: Any) -> PlainTypedDictRow:
        return {"id": "x"}

    with pytest.raises(TypeError, match="action get_row: its return type hint cannot be described"):
        type("Bad", (Environment,), {"name": "bad-hint", "schema": "CREATE TABLE t (id TEXT PRIMARY KEY);",
                                     "get_row": action(writes=False)(get_row)})


@pytest.mark.parametrize(("fmt", "key"), [("mcp", "outputSchema"), ("openai", "observation")])
def test_agenteval_tools_exports_observations_beside_arguments(
    fmt: str, key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_task = tmp_path / "one.jsonl"  # one line: the command reads and checks the whole file
    lines = (ROOT / "tasks" / "booking.jsonl").read_text().splitlines()
    one_task.write_text(next(line for line in lines if line.startswith("{")) + "\n")
    assert main(["tools", str(one_task), "--format", fmt, "--observations"]) == 0
    tools = json.loads(capsys.readouterr().out)
    by_name = {(t["function"]["name"] if fmt == "openai" else t["name"]): t for t in tools}
    success, failure = by_name["get_facility"][key]["oneOf"]
    assert success["properties"]["result"]["properties"]["status"]["enum"][0] == "PENDING"
    assert "not_found" in failure["properties"]["error"]["enum"]
    assert main(["tools", str(one_task), "--format", fmt]) == 0
    assert all(key not in t for t in json.loads(capsys.readouterr().out))  # only on request
