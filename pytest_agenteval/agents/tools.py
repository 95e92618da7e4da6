"""One action definition, exported in the tool formats agents use.

    neutral            {"name", "description", "parameters", "read_only"} (episode.tools)
    openai             Chat Completions: {"type": "function", "function": {...}}
    openai-responses   Responses API, strict mode (see ``strict_schema``)
    anthropic          {"name", "description", "input_schema"}
    mcp                {"name", "description", "inputSchema", "annotations": {"readOnlyHint"}}

and the episode's system prompt and policy as the system text an agent opens with
(``system_text``, ``prompt_messages``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

FORMATS = ("neutral", "openai", "openai-responses", "anthropic", "mcp")
# JSON Schema keywords OpenAI's strict mode does not accept; our own validation still applies them.
# Those that limit what is valid are not lost: they move into the description, as
# ``(maxLength=40)``, the way pydantic-ai and the Anthropic SDK do, so the model still reads them.
STRICT_DESCRIBED = ("minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems",
                    "patternProperties", "propertyNames", "contains", "minContains", "maxContains",
                    "unevaluatedProperties", "unevaluatedItems", "default")
STRICT_UNSUPPORTED = frozenset({"title", "x-free-text", *STRICT_DESCRIBED})


def system_text(default: str, system_prompt: str = "", policy: str = "") -> str:
    """What an agent is told before its instruction: the episode's system prompt (else
    ``default``, the agent's own), then the policy it must follow, under a heading."""
    text = system_prompt or default
    if policy:
        text = f"{text}\n\n# Policy\n{policy}" if text else f"# Policy\n{policy}"
    return text


def prompt_messages(system: str, instruction: str) -> list[dict[str, str]]:
    """The opening messages of a chat (OpenAI Chat Completions, LangChain): system, then user.
    (Anthropic's API takes the system text apart: pass ``system_text(...)`` as ``system``.)"""
    return [*([{"role": "system", "content": system}] if system else []), {"role": "user", "content": instruction}]


def export(tools: Iterable[Mapping[str, Any]], fmt: str) -> list[dict[str, Any]]:
    """``tools`` in the neutral format (``episode.tools``), converted to ``fmt``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown tool format {fmt!r} (use one of: {', '.join(FORMATS)})")
    return [_one(copy.deepcopy(dict(tool)), fmt) for tool in tools]


def _one(tool: dict[str, Any], fmt: str) -> dict[str, Any]:
    name, description, parameters = tool["name"], tool["description"], _plain(tool["parameters"])
    if fmt == "neutral":
        return tool
    if fmt == "openai":
        return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}
    if fmt == "openai-responses":
        return {"type": "function", "name": name, "description": description,
                "parameters": strict_schema(tool["parameters"]), "strict": True}
    if fmt == "anthropic":
        return {"name": name, "description": description, "input_schema": parameters}
    return {"name": name, "description": description, "inputSchema": parameters,
            "annotations": {"readOnlyHint": bool(tool["read_only"])}}


def with_observations(exported: Iterable[Mapping[str, Any]], env_class: type, fmt: str) -> list[dict[str, Any]]:
    """Exported tools, each with the JSON Schema of its observation beside its arguments'.

    MCP has a field for it (``outputSchema``, describing ``structuredContent``, which is the
    observation); the other formats have none, so it goes under ``observation``, for harnesses
    and docs rather than for the provider's API.
    """
    from pytest_agenteval.engine.observations import observation_schema

    key = "outputSchema" if fmt == "mcp" else "observation"
    out = []
    for tool in exported:
        name = tool["function"]["name"] if fmt == "openai" else tool["name"]
        out.append({**tool, key: observation_schema(env_class, env_class.actions[name])})  # type: ignore[attr-defined]
    return out


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema without our private keywords."""
    return _walk_schema(schema, lambda node: {k: v for k, v in node.items() if k != "x-free-text"})


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """OpenAI strict mode: every object closed, every property required (optional ones nullable,
    null meaning "not given"), no unsupported keywords; the limits among them are described."""

    def tighten(node: dict[str, Any]) -> dict[str, Any]:
        notes = [f"{k}={_note(node[k])}" for k in STRICT_DESCRIBED
                 if k in node and not (k == "default" and node[k] is None)]
        node = {k: v for k, v in node.items() if k not in STRICT_UNSUPPORTED}
        if notes:
            said = node.get("description")
            node["description"] = f"{said} ({', '.join(notes)})" if said else ", ".join(notes)
        if node.get("type") == "object":
            props = node.get("properties", {})
            required = set(node.get("required", []))
            node["properties"] = {k: (v if k in required else _nullable(v)) for k, v in props.items()}
            node["required"] = list(props)
            node["additionalProperties"] = False
        return node

    return _walk_schema(dict(schema), tighten)


def _note(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    if "anyOf" in schema:
        if {"type": "null"} in schema["anyOf"]:
            return schema
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


def from_strict_arguments(arguments: Mapping[str, Any], tool: Mapping[str, Any]) -> dict[str, Any]:
    """Strict mode's nulls for optional arguments removed, at any depth.

    Not needed with ``episode.call``, which already reads such a null as "not given"; kept for
    harnesses that validate arguments themselves. ``tool`` is the neutral tool (``episode.tools``):
    the strict export marks every property required, so it no longer says which are optional.
    """
    from pytest_agenteval.engine.actions import given

    if tool.get("strict") is True or "parameters" not in tool:
        raise ValueError("from_strict_arguments needs the tool as episode.tools gives it, not the strict export "
                         "(which marks every argument required); episode.call needs neither")
    return dict(given(dict(arguments), tool["parameters"]))


def _walk_schema(schema: dict[str, Any], change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    walked: dict[str, Any] = _walk(schema, change)
    return walked


def _walk(node: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    if isinstance(node, dict):
        node = change({k: _walk(v, change) for k, v in node.items()})
    elif isinstance(node, list):
        node = [_walk(v, change) for v in node]
    return node
