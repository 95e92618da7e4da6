"""One action definition, exported in the tool formats agents use.

    neutral            {"name", "description", "parameters", "read_only"} (episode.tools)
    openai             Chat Completions: {"type": "function", "function": {...}}
    openai-responses   Responses API, strict mode (see ``strict_schema``)
    anthropic          {"name", "description", "input_schema"}
    mcp                {"name", "description", "inputSchema", "annotations": {"readOnlyHint"}}
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

FORMATS = ("neutral", "openai", "openai-responses", "anthropic", "mcp")
# JSON Schema keywords OpenAI's strict mode does not accept; our own validation still applies them.
STRICT_UNSUPPORTED = frozenset({"default", "title", "minLength", "maxLength", "x-free-text"})


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


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema without our private keywords."""
    return _walk(schema, lambda node: {k: v for k, v in node.items() if k != "x-free-text"})


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """OpenAI strict mode: every object closed, every property required (optional ones nullable),
    no unsupported keywords."""

    def tighten(node: dict[str, Any]) -> dict[str, Any]:
        node = {k: v for k, v in node.items() if k not in STRICT_UNSUPPORTED}
        if node.get("type") == "object":
            props = node.get("properties", {})
            required = set(node.get("required", []))
            node["properties"] = {k: (v if k in required else _nullable(v)) for k, v in props.items()}
            node["required"] = list(props)
            node["additionalProperties"] = False
        return node

    return _walk(dict(schema), tighten)


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
    """Undo strict mode's nulls: an optional argument sent as null means 'not given'."""
    required = set(tool["parameters"].get("required", []))
    return {k: v for k, v in arguments.items() if v is not None or k in required}


def _walk(node: Any, change: Any) -> Any:
    if isinstance(node, dict):
        node = change({k: _walk(v, change) for k, v in node.items()})
    elif isinstance(node, list):
        node = [_walk(v, change) for v in node]
    return node
