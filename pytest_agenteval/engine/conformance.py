"""``check_environment``: conformance of an environment, in the spirit of Gymnasium's checker.

Determinism is tested, not assumed: two independent builds of a seed must be identical
byte for byte, the conformance probe run twice from reset must leave identical diffs,
observations and audit rows (a wall clock, unseeded randomness or state kept on the instance
between episodes shows up as a difference), every look-up is called and must not write, a
reset after writes must give the snapshot back, and so on. Problems are returned, never
raised: a probe that fails or an action that crashes is one line naming it.

``environment_warnings`` lists what is legal but weak: an empty probe (then the checks of
writes and of reset after writes test nothing), and action parameters without a description
(the agent sees only their names).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from datetime import datetime, timezone
from typing import Any

from pytest_agenteval.engine.scenarios import data_paths
from pytest_agenteval.engine.schema import quote
from pytest_agenteval.engine.world import World
from pytest_agenteval.errors import EnvironmentBug

JSON_SCHEMA_TYPES = {"object", "array", "string", "number", "integer", "boolean", "null"}


def dump(env: World) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every domain row, ordered by primary key: a reset's observable state."""
    return [
        (name, env.db.execute(f"SELECT * FROM {t.quoted} ORDER BY {quote(t.pk)}").fetchall())
        for name, t in env.tables.items()
    ]


def _image(env: World) -> object:
    """The database image, byte for byte where Python can serialize it (3.11+)."""
    serialize = getattr(env.db, "serialize", None)
    return serialize() if serialize is not None else dump(env)


def check_environment(env: World, *, seeds: tuple[int, int] = (0, 1)) -> list[str]:
    """Return the problems found (an empty list means conformant)."""
    problems: list[str] = []
    a, b = seeds
    missing = [str(p) for p in data_paths(type(env)) if not p.is_file()]
    if missing:  # seed_rows would only fail on them, less clearly
        return [f"data_files: {', '.join(missing)} not found (data_files are relative to the environment's module; "
                "fix the path or ship the file)"]
    fresh = type(env)(population=env.population)
    try:
        problems += _determinism(env, fresh, a, b)
        problems += _probe(env, a)
        problems += _look_ups(env, a)
        env.reset(a)
        env.apply("__conformance_probe__", {})
        for statement in ("UPDATE audit_events SET outcome = 'ok'", "DELETE FROM audit_events"):
            try:
                env.db.execute(statement)
                problems.append(f"the audit log accepted: {statement}")
            except sqlite3.DatabaseError:
                pass
        problems += _schemas(env)
    except EnvironmentBug as exc:  # an action or after_step raised: reported, not raised
        problems.append(f"check_environment stopped: {exc}")
    except Exception as exc:  # noqa: BLE001 - the checker reports an environment's crash, it does not raise it
        problems.append(f"check_environment stopped: {type(exc).__name__}: {exc}")
    finally:
        fresh.close()
        with contextlib.suppress(Exception, EnvironmentBug):  # a crash here was reported above
            env.reset(a)
    return problems


def environment_warnings(env: World, *, descriptions: bool = True) -> list[str]:
    """What is legal but weak (see the module docstring). ``descriptions=False`` leaves out
    the parameters without a description (``agenteval validate`` does, so that its output on
    the shipped domains, whose parameters have none yet, stays as it was)."""
    found = []
    if not env.conformance_probe:
        found.append("conformance_probe is empty: check_environment cannot test that writes are deterministic "
                     "or that reset undoes them (list a few writing calls that succeed on scenario 0)")
    bare = [f"{name}.{prop}" for name, spec in env.actions.items()
            for prop, sub in spec.parameters.get("properties", {}).items() if descriptions and not _described(sub)]
    if bare:
        shown = ", ".join(bare[:4]) + (f", … {len(bare) - 4} more" if len(bare) > 4 else "")
        found.append(f"{len(bare)} action parameter(s) have no description ({shown}): the agent sees only their "
                     "names (use Annotated[T, Field(description=...)])")
    return found


def _described(schema: dict[str, Any]) -> bool:
    return bool(schema.get("description")) or any(_described(s) for s in schema.get("anyOf", ()))


def _determinism(env: World, fresh: World, a: int, b: int) -> list[str]:
    problems = []
    env.reset(a)
    fresh.reset(a)
    if _image(env) != _image(fresh):
        problems.append(f"two builds of scenario {a} differ (seed data must depend only on rng)")
    first = dump(env)
    env.reset(b)
    if dump(env) == first and not env.fixed_scenario:  # a fixed data set is the same on purpose
        problems.append(f"scenarios {a} and {b} are identical (seed data ignores the seed; for one fixed data "
                        "set, set fixed_scenario = True)")
    return problems


def _run_probe(env: World, seed: int) -> tuple[list[dict[str, Any]], object, list[Any]] | str:
    """The probe from a reset: (observations, diff, audit rows), or the problem that stopped it."""
    env.reset(seed)
    observations = []
    for i, (action, arguments) in enumerate(env.conformance_probe):
        try:
            obs = env.apply(action, arguments)
        except EnvironmentBug as exc:  # reported, not raised
            return f"conformance_probe[{i}]: {exc}"
        if not obs.get("ok"):
            return (f"conformance_probe[{i}] {action} failed on scenario {seed}: {obs.get('error')}: "
                    f"{obs.get('detail')} (the probe's calls must succeed)")
        observations.append(obs)
    return observations, env.diff(), env.audit_log()


def _probe(env: World, a: int) -> list[str]:
    if not env.conformance_probe:
        return []
    env.reset(a)
    before = dump(env)
    first = _run_probe(env, a)
    if isinstance(first, str):
        return [first]
    problems = []
    if not first[1]:
        problems.append("the conformance probe's actions changed nothing (list calls that write)")
    problems += _wall_clock(first[1])
    second = _run_probe(env, a)
    if isinstance(second, str):
        return [*problems, f"on a second run from reset({a}): {second}"]
    for what, x, y in zip(("observations", "state diffs", "audit rows"), first, second, strict=True):
        if x != y:
            problems.append(f"the conformance probe run twice from reset({a}) gave different {what} (a wall "
                            "clock, unseeded randomness, or state kept on the instance across episodes: use "
                            "self.now(), self.new_id() and reset what on_reset prepares)")
    env.reset(a)
    if dump(env) != before or env.audit_log():
        problems.append(f"reset({a}) after writes does not restore the scenario")
    return problems


def _wall_clock(diff: Any) -> list[str]:
    """Values the probe wrote that look like the real current time."""
    today = datetime.now(timezone.utc).date().isoformat()
    local = datetime.now().date().isoformat()
    now = time.time()
    hits = []
    for table, tdiff in diff.items():
        rows = [*tdiff.added.items(), *((k, {f: v[1] for f, v in c.items()}) for k, c in tdiff.changed.items())]
        for pk, row in rows:
            for name, value in row.items():
                if (isinstance(value, str) and (today in value or local in value)) or (
                        isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value - now) < 86400):
                    hits.append(f"{table}.{pk}.{name} = {value!r}")
    if not hits:
        return []
    return [f"the conformance probe wrote the real current time ({', '.join(hits[:3])}): use self.now(), the "
            "simulated clock, so grades do not depend on when they ran"]


def _look_ups(env: World, seed: int) -> list[str]:
    """Call every look-up with arguments taken from the probe (by parameter name), from reset
    and again after the probe's writes (a look-up may write only in some states); none may write."""
    values: dict[str, Any] = {}
    for _, arguments in env.conformance_probe:
        for name, value in arguments.items():
            values.setdefault(name, value)
    problems = []
    for name, spec in env.actions.items():
        if spec.writes:
            continue
        props = spec.parameters.get("properties", {})
        if not all(r in values for r in spec.parameters.get("required", [])):
            continue
        for after_probe in (False, True):
            env.reset(seed)
            if after_probe and not _probe_ran(env):
                break  # the probe's own problem is reported by _probe
            try:
                env.apply(name, {k: values[k] for k in props if k in values})
            except EnvironmentBug as exc:
                when = " after the conformance probe's writes" if after_probe else ""
                if "changed the database" in str(exc):
                    problems.append(f"look-up {name} changed the database{when}: an action marked writes=False "
                                    "must only read (drop writes=False if it writes)")
                else:
                    problems.append(f"look-up {name}{when}: {exc}")
                break
    return problems


def _probe_ran(env: World) -> bool:
    try:
        return bool(env.conformance_probe) and all(env.apply(a, args).get("ok") for a, args in env.conformance_probe)
    except EnvironmentBug:
        return False


def _schemas(env: World) -> list[str]:
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
