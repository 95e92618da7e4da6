"""What an action answers: the observation's JSON Schema, and the error codes it can carry.

Every call returns ``{"ok": true, "result": …}`` (the result as the action's return hint
declares it) or ``{"ok": false, "error": CODE, "detail": "one line"}``. The codes come from
two places: the engine, which answers some for every action before or around the domain code
(``ENGINE_ERRORS``), and the action's own code, read from its source: each
``ActionError("code", …)`` it or a method of its class it calls raises with a literal code,
and ``not_found`` when it calls ``self.require``.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from pytest_agenteval.engine.actions import ActionSpec

# (code, when the engine answers it), for every action unless ``writes_only``.
ENGINE_ERRORS: tuple[tuple[str, str, bool], ...] = (
    ("invalid_arguments", "the arguments do not match the schema (the detail names the field)", False),
    ("forbidden_action", "the task's `allowed_actions` does not list the action (`unknown_action`: no such action)",
     False),
    ("step_limit", "the step budget (`max_steps`) is used up; the next call raises `EpisodeOver`", False),
    ("timeout", "an injected fault (a task's `faults`): no answer in time; the change may have happened", False),
    ("unavailable", "an injected fault: the service is down and nothing was done", False),
    ("constraint", "the database refused the write (a CHECK or foreign key); nothing was done", True),
)


def raised_codes(env_class: type, spec: ActionSpec) -> tuple[str, ...]:
    """The error codes the action's own code raises (sorted), following ``self.method()`` calls."""
    codes: set[str] = set()
    seen: set[str] = set()
    pending: list[Callable[..., Any]] = [spec.function]
    while pending:
        fn = pending.pop()
        if fn.__name__ in seen:
            continue
        seen.add(fn.__name__)
        tree = _parse(fn)
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id == "ActionError" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
            elif (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                  and node.func.value.id == "self"):
                if node.func.attr == "require":
                    codes.add("not_found")
                    continue
                method = getattr(env_class, node.func.attr, None)
                if inspect.isfunction(method) and method.__module__ not in _ENGINE_MODULES:
                    pending.append(method)
    return tuple(sorted(codes))


_ENGINE_MODULES = frozenset({"pytest_agenteval.engine.world", "pytest_agenteval.environments.base"})


def _parse(fn: Callable[..., Any]) -> ast.AST | None:
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):  # no source (built in a REPL): only the engine's codes are known
        return None


def error_codes(env_class: type, spec: ActionSpec) -> tuple[str, ...]:
    """Every code an observation of this action can carry: the action's own, then the engine's."""
    engine = [code for code, _, writes_only in ENGINE_ERRORS if spec.writes or not writes_only]
    own = [c for c in raised_codes(env_class, spec) if c not in engine]
    return (*own, *engine)


def observation_schema(env_class: type, spec: ActionSpec) -> dict[str, Any]:
    """The JSON Schema of what ``episode.call(spec.name, …)`` returns."""
    result = dict(spec.returns)
    defs = result.pop("$defs", None)
    schema: dict[str, Any] = {
        "type": "object",
        "oneOf": [
            {"type": "object", "required": ["ok", "result"], "additionalProperties": False,
             "properties": {"ok": {"const": True}, "result": result}},
            {"type": "object", "required": ["ok", "error", "detail"], "additionalProperties": False,
             "properties": {"ok": {"const": False}, "error": {"enum": list(error_codes(env_class, spec))},
                            "detail": {"type": "string"}}},
        ],
    }
    if defs:
        schema["$defs"] = defs
    return schema
