"""Tool export: every action of every shipped environment, in every format, checked against its rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import pytest
from pydantic import BaseModel, Field

from pytest_agenteval import load_tasks
from pytest_agenteval.agents.tools import STRICT_DESCRIBED, STRICT_UNSUPPORTED, export, from_strict_arguments
from pytest_agenteval.cli import main
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.engine import action
from pytest_agenteval.tasks.paths import first_order

ROOT = Path(__file__).parent.parent
NAME = r"^[a-zA-Z0-9_-]{1,64}$"
OPENAI_CHAT_TOOL = {
    "type": "object", "additionalProperties": False, "required": ["type", "function"],
    "properties": {"type": {"const": "function"}, "function": {
        "type": "object", "additionalProperties": False, "required": ["name", "description", "parameters"],
        "properties": {"name": {"type": "string", "pattern": NAME}, "description": {"type": "string", "minLength": 1},
                       "parameters": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}}}},
}
ANTHROPIC_TOOL = {
    "type": "object", "additionalProperties": False, "required": ["name", "description", "input_schema"],
    "properties": {"name": {"type": "string", "pattern": NAME}, "description": {"type": "string", "minLength": 1},
                   "input_schema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}},
}
RESPONSES_TOOL = {
    "type": "object", "additionalProperties": False, "required": ["type", "name", "description", "parameters", "strict"],
    "properties": {"type": {"const": "function"}, "name": {"type": "string", "pattern": NAME},
                   "description": {"type": "string"}, "parameters": {"type": "object"}, "strict": {"const": True}},
}


class Optional_(ExampleEnvironment):
    name = "optional_example"

    @action
    def reassign(self, ticket_id: str, team: Annotated[str | None, Field(max_length=20)] = None,
                 urgent: bool = False) -> dict[str, Any]:
        """Reassign a ticket, optionally to a team."""
        return {"ticket_id": ticket_id, "team": team, "urgent": urgent}


ENVS = [BookingEnvironment, EscalationEnvironment, ExampleEnvironment, Optional_]
TOOLS = [(cls.__name__, spec.tool()) for cls in ENVS for spec in cls.actions.values()]


@pytest.fixture(params=TOOLS, ids=[f"{env}.{tool['name']}" for env, tool in TOOLS])
def tool(request: pytest.FixtureRequest) -> dict[str, Any]:
    return dict(request.param[1])


def test_the_argument_schema_is_valid_json_schema(tool: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(tool["parameters"])
    assert tool["parameters"]["type"] == "object" and tool["parameters"]["additionalProperties"] is False


def test_openai_chat_completions(tool: dict[str, Any]) -> None:
    (got,) = export([tool], "openai")
    jsonschema.validate(got, OPENAI_CHAT_TOOL)
    jsonschema.Draft202012Validator.check_schema(got["function"]["parameters"])


def test_anthropic(tool: dict[str, Any]) -> None:
    (got,) = export([tool], "anthropic")
    jsonschema.validate(got, ANTHROPIC_TOOL)


def assert_strict(schema: dict[str, Any], where: str = "parameters") -> None:
    """OpenAI strict mode's rules, checked explicitly and recursively."""
    assert not STRICT_UNSUPPORTED & set(schema), f"{where}: unsupported keyword(s) {STRICT_UNSUPPORTED & set(schema)}"
    if schema.get("type") == "object":
        assert schema.get("additionalProperties") is False, f"{where}: not closed"
        assert sorted(schema.get("required", [])) == sorted(schema.get("properties", {})), f"{where}: not all required"
    for key, sub in schema.get("properties", {}).items():
        assert_strict(sub, f"{where}.{key}")
    for sub in schema.get("anyOf", []):
        assert_strict(sub, f"{where}.anyOf")
    if isinstance(schema.get("items"), dict):
        assert_strict(schema["items"], f"{where}.items")


def test_openai_responses_strict(tool: dict[str, Any]) -> None:
    (got,) = export([tool], "openai-responses")
    jsonschema.validate(got, RESPONSES_TOOL)
    jsonschema.Draft202012Validator.check_schema(got["parameters"])
    assert_strict(got["parameters"])


def test_mcp(tool: dict[str, Any]) -> None:
    types = pytest.importorskip("mcp.types")
    (got,) = export([tool], "mcp")
    parsed = types.Tool.model_validate(got)
    assert parsed.input_schema["type"] == "object"
    assert parsed.annotations.read_only_hint is tool["read_only"]


def test_optional_arguments_become_nullable_in_strict_mode() -> None:
    tool = Optional_.actions["reassign"].tool()
    (strict,) = export([tool], "openai-responses")
    props = strict["parameters"]["properties"]
    assert strict["parameters"]["required"] == ["ticket_id", "team", "urgent"]
    assert props["urgent"] == {"type": ["boolean", "null"], "description": "default=false"}
    assert {"type": "null"} in props["team"]["anyOf"]
    sent = {"ticket_id": "T-1", "team": None, "urgent": None}
    jsonschema.validate(sent, strict["parameters"])
    assert from_strict_arguments(sent, tool) == {"ticket_id": "T-1"}
    for arguments in (sent, from_strict_arguments(sent, tool)):  # no call needed: validation knows
        args, reason = Optional_.actions["reassign"].validate(arguments)
        assert reason is None and args == {"ticket_id": "T-1", "team": None, "urgent": False}


SPECS = [(cls, name) for cls in ENVS for name in cls.actions]


def sample(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A small valid value for the schemas our actions use (asserted valid by the tests)."""
    if "$ref" in schema:
        return sample(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        return sample(next(b for b in schema["anyOf"] if b.get("type") != "null"), defs)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {k: sample(v, defs) for k, v in schema.get("properties", {}).items() if k in schema.get("required", [])}
    if kind in ("number", "integer"):
        return schema.get("minimum", 1)
    return {"string": "x", "boolean": False, "array": []}[kind]


@pytest.mark.parametrize(("cls", "name"), SPECS, ids=[f"{c.__name__}.{n}" for c, n in SPECS])
def test_a_null_for_an_optional_argument_means_not_given(cls: type, name: str) -> None:
    """Strict-mode clients send null for every optional argument they leave out; required ones stay required."""
    spec = cls.actions[name]
    params = spec.parameters
    minimal = sample(params, params.get("$defs", {}))
    expected, reason = spec.validate(minimal)
    assert reason is None, reason
    optional = [k for k in params.get("properties", {}) if k not in params.get("required", [])]
    with_nulls = {**minimal, **dict.fromkeys(optional)}
    (strict,) = export([spec.tool()], "openai-responses")
    jsonschema.validate(with_nulls, strict["parameters"])  # what a strict-mode model sends
    assert spec.validate(with_nulls) == (expected, None)
    for key in params.get("required", []):
        args, why = spec.validate({**minimal, key: None})
        assert args is None and why is not None and why.startswith(f"{key}: "), why


def test_nulls_mean_not_given_at_every_depth_and_through_an_episode() -> None:
    assert any(c.actions[n].parameters.get("required") != list(c.actions[n].parameters.get("properties", {}))
               for c, n in SPECS), "no action with an optional argument: the test above could not fail"
    with Optional_() as env:
        env.reset(0)
        obs = env.apply("reassign", {"ticket_id": "T-0001", "team": None, "urgent": None})
        assert obs == {"ok": True, "result": {"ticket_id": "T-0001", "team": None, "urgent": False}}
        assert env.apply("reassign", {"ticket_id": None})["error"] == "invalid_arguments"


def _notes(schema: Any) -> list[str]:
    found = []
    if isinstance(schema, dict):
        found += [f"{k}={json.dumps(schema[k], sort_keys=True)}" for k in STRICT_DESCRIBED
                  if k in schema and not (k == "default" and schema[k] is None)]
        for v in schema.values():
            found += _notes(v)
    elif isinstance(schema, list):
        for v in schema:
            found += _notes(v)
    return found


def _descriptions(schema: Any) -> str:
    if isinstance(schema, dict):
        own = schema.get("description") if isinstance(schema.get("description"), str) else ""
        return own + " ".join(_descriptions(v) for k, v in schema.items() if k != "description")
    if isinstance(schema, list):
        return " ".join(_descriptions(v) for v in schema)
    return ""


def test_limits_strict_mode_cannot_express_move_into_the_description(tool: dict[str, Any]) -> None:
    (strict,) = export([tool], "openai-responses")
    for key, prop in tool["parameters"].get("properties", {}).items():
        said = _descriptions(strict["parameters"]["properties"][key])
        for note in _notes(prop):
            assert note in said, f"{tool['name']}.{key}: {note} dropped without a word ({said!r})"


def test_every_shipped_limit_is_described() -> None:
    """Guard for the test above: the shipped actions do carry such limits."""
    assert any(_notes(t["parameters"]) for _, t in TOOLS)


def test_from_strict_arguments_refuses_the_strict_export() -> None:
    tool = Optional_.actions["reassign"].tool()
    (strict,) = export([tool], "openai-responses")
    with pytest.raises(ValueError, match="needs the tool as episode.tools gives it"):
        from_strict_arguments({"ticket_id": "T-1", "team": None}, strict)


def test_exported_schemas_accept_every_reference_call() -> None:
    """The schemas describe what our validation accepts: every shipped reference step validates."""
    envs = {"booking": BookingEnvironment, "escalation": EscalationEnvironment}
    for path in ("booking", "escalation"):
        for task in load_tasks(ROOT / "tasks" / f"{path}.jsonl"):
            for step in first_order(task.acceptable_action_paths[0]):
                params = envs[task.environment].actions[step.action].tool()["parameters"]
                jsonschema.validate(step.arguments, params)


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown tool format 'gemini'"):
        export([], "gemini")


def test_cli_prints_a_tasks_tools(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", str(ROOT / "tasks" / "booking.jsonl"), "--task", "BK-001", "--format", "mcp"]) == 0
    tools = json.loads(capsys.readouterr().out)
    task = next(t for t in load_tasks(ROOT / "tasks" / "booking.jsonl") if t.task_id == "BK-001")
    assert [t["name"] for t in tools] == task.allowed_actions
    assert main(["tools", str(ROOT / "tasks" / "booking.jsonl"), "--task", "NOPE"]) == 2


class Contact(BaseModel):
    name: str
    phone: str | None = None
    primary: bool = False


class Nested(ExampleEnvironment):
    name = "nested_example"

    @action
    def add_contacts(self, ticket_id: str, contacts: list[Contact], main: Contact | None = None) -> dict[str, Any]:
        """Add contacts to a ticket."""
        return {}


def test_nulls_for_optional_fields_of_nested_objects_mean_not_given_too() -> None:
    spec = Nested.actions["add_contacts"]
    (strict,) = export([spec.tool()], "openai-responses")
    sent = {"ticket_id": "T-1", "contacts": [{"name": "A", "phone": None, "primary": None}],
            "main": {"name": "B", "phone": "1", "primary": None}}
    jsonschema.validate(sent, strict["parameters"])  # what a strict-mode model may send
    args, reason = spec.validate(sent)
    assert reason is None, reason
    assert args == {"ticket_id": "T-1", "contacts": [{"name": "A", "phone": None, "primary": False}],
                    "main": {"name": "B", "phone": "1", "primary": False}}
    assert spec.validate({**sent, "contacts": [{"name": None}]})[1] == "contacts.0.name: Input should be a valid string"
