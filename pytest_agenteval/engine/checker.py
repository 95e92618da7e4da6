"""``check_environment``: conformance of an environment, in the spirit of Gymnasium's checker.

Determinism is tested, not assumed: two independent builds of a seed must be identical
byte for byte, a reset after writes must give the snapshot back, and so on.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.engine.schema import quote

JSON_SCHEMA_TYPES = {"object", "array", "string", "number", "integer", "boolean", "null"}


def dump(env: Environment) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every domain row, ordered by primary key: a reset's observable state."""
    return [
        (name, env.db.execute(f"SELECT * FROM {t.quoted} ORDER BY {quote(t.pk)}").fetchall())
        for name, t in env.tables.items()
    ]


def _image(env: Environment) -> object:
    """The database image, byte for byte where Python can serialize it (3.11+)."""
    serialize = getattr(env.db, "serialize", None)
    return serialize() if serialize is not None else dump(env)


def check_environment(env: Environment, *, seeds: tuple[int, int] = (0, 1)) -> list[str]:
    """Return the problems found (an empty list means conformant)."""
    problems: list[str] = []
    a, b = seeds
    fresh = type(env)(population=env.population)
    try:
        env.reset(a)
        fresh.reset(a)
        if _image(env) != _image(fresh):
            problems.append(f"two builds of scenario {a} differ (seed data must depend only on rng)")
        first = dump(env)
        env.reset(b)
        if dump(env) == first:
            problems.append(f"scenarios {a} and {b} are identical (seed data ignores the seed)")
        env.reset(a)
        _write_everything(env)
        env.reset(a)
        if dump(env) != first or env.audit_log():
            problems.append(f"reset({a}) after writes does not restore the scenario")
        env.apply("__conformance_probe__", {})
        for statement in ("UPDATE audit_events SET outcome = 'ok'", "DELETE FROM audit_events"):
            try:
                env.db.execute(statement)
                problems.append(f"the audit log accepted: {statement}")
            except sqlite3.DatabaseError:
                pass
        problems += _schemas(env)
    finally:
        fresh.close()
        env.reset(a)
    return problems


def _write_everything(env: Environment) -> None:
    """Run the domain's probe actions, which must really change the tables."""
    for action, arguments in env.conformance_probe:
        obs = env.apply(action, arguments)
        if not obs.get("ok"):
            raise AssertionError(f"conformance probe {action} failed: {obs}")
    if env.conformance_probe and not env.diff():
        raise AssertionError("the conformance probe actions changed nothing")


def _schemas(env: Environment) -> list[str]:
    problems = []
    for name, spec in env.actions.items():
        schema = spec.parameters
        if schema.get("type") != "object" or not isinstance(schema.get("properties", {}), dict):
            problems.append(f"action {name}: its argument schema is not a JSON object schema")
            continue
        for prop, sub in schema.get("properties", {}).items():
            kinds = {sub.get("type")} if "type" in sub else {s.get("type") for s in sub.get("anyOf", [])}
            if not kinds or not kinds <= JSON_SCHEMA_TYPES | {None}:
                problems.append(f"action {name}: argument {prop} has no valid JSON Schema type")
        if not spec.description:
            problems.append(f"action {name}: no description (write a docstring)")
    return problems
