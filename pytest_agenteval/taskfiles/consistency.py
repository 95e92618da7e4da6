"""Checks of a task against its environment: tables, rows, fields and actions exist."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pytest_agenteval.engine.actions import ActionSpec
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.tasks.model import Task
from pytest_agenteval.tasks.paths import PathStep, located_steps, mentions_of
from pytest_agenteval.tasks.rules.base import Problem, one_of
from pytest_agenteval.text.requirements import says_of, unknown


def validate_task(env: Environment, task: Task) -> list[Problem]:
    return [
        *_actions(env, task),
        *_state(env, task),
        *_overrides(env, task),
        *_vary(env, task),
        *_rules(env, task),
    ]


def _action(env: Environment, task: Task, field: str, name: str, *, allowed: bool) -> list[Problem]:
    if name not in env.actions:
        return [(field, f"{name!r} is not an action of {env.name}", one_of(name, env.actions))]
    if allowed and name not in task.allowed_actions:
        return [(field, f"{name!r} is not in allowed_actions", "add it to allowed_actions or change the step")]
    return []


def _actions(env: Environment, task: Task) -> list[Problem]:
    found: list[Problem] = []
    for i, name in enumerate(task.allowed_actions):
        if name not in env.actions:
            found += _action(env, task, f"allowed_actions[{i}]", name, allowed=False)
    allowed = set(task.allowed_actions)
    for p, path in enumerate(task.acceptable_action_paths):
        for loc, step in located_steps(path, f"acceptable_action_paths[{p}]"):
            found += _step(env, task, loc, step, allowed)
    for i, fault in enumerate(task.faults):
        found += _action(env, task, f"faults[{i}].action", fault.action, allowed=True)
    return found + list(_refused_steps(env, task))


def _refused_steps(env: Environment, task: Task) -> Iterator[Problem]:
    """A path step whose call an injected fault refuses, not marked ``no_effect``: written for the
    release before ``action_path`` counted only writes that took effect, it now fails the reference."""
    if task.grade_by == "outcome":
        return
    refusing = [(i, f) for i, f in enumerate(task.faults)
                if f.error in ("unavailable", "timeout") and not f.after_commit]
    if not refusing:
        return
    for p, path in enumerate(task.acceptable_action_paths):
        calls: dict[str, int] = {}
        for loc, step in located_steps(path, f"acceptable_action_paths[{p}]"):
            spec = env.actions.get(step.action)
            if spec is None or not spec.writes:
                continue
            calls[step.action] = calls.get(step.action, 0) + 1
            for i, fault in refusing:
                if fault.action == step.action and fault.call == calls[step.action] and not step.no_effect:
                    yield (loc, f"{step.action} call {fault.call} is refused by faults[{i}] ({fault.error}), so it "
                           "takes no effect, and action_path compares only writes that took effect",
                           'mark the step \"no_effect\": true; the reference still makes the call')


def _step(env: Environment, task: Task, where: str, step: PathStep, allowed: set[str]) -> list[Problem]:
    spec = env.actions.get(step.action)
    if spec is None or step.action not in allowed:
        return _action(env, task, f"{where}.action", step.action, allowed=True)
    return _arguments(env, f"{where}.arguments", step.action, spec, step.arguments)


def _arguments(env: Environment, where: str, action: str, spec: ActionSpec, arguments: dict[str, Any]
               ) -> list[Problem]:
    found: list[Problem] = []
    for arg, value in arguments.items():
        requirement = "mentions" if mentions_of(value) is not None else "says" if says_of(value) is not None else ""
        if arg not in spec.argument_names:
            found.append((f"{where}.{arg}", f"{action} has no argument {arg!r}", one_of(arg, spec.argument_names)))
        elif requirement and arg not in spec.free_text:
            found.append((f"{where}.{arg}", f"{arg} is not free text, so it cannot take {{\"{requirement}\": ...}}",
                          f"give the exact value; {requirement} is for free-text arguments"))
        elif requirement == "says":
            reader = env.reader()
            for bad in unknown(reader, says_of(value) or []):
                topic = bad.partition(":")[0]
                fix = (one_of(topic, reader.lexicon.classes) if topic not in reader.lexicon.classes
                       else "a state is :ok or :problem")
                found.append((f"{where}.{arg}", f"{env.name}'s lexicon has no meaning {bad!r}", fix))
    return found


def _table(env: Environment, field: str, table: str) -> Iterator[Problem]:
    if table not in env.tables:
        yield field, f"{env.name} has no table {table!r}", one_of(table, env.tables)


def _fields(env: Environment, field: str, table: str, names: Iterable[str]) -> Iterator[Problem]:
    columns = env.tables[table].columns
    for name in names:
        if name not in columns:
            yield f"{field}.{name}", f"table {table} has no field {name!r}", one_of(name, columns)


def _row(env: Environment, task: Task, field: str, table: str, pk: Any) -> Iterator[Problem]:
    if not env.scenario_has_row(task.scenario_seed, table, pk):
        yield (field, f"{table} has no row {pk!r} in scenario {task.scenario_seed}",
               "use a primary key of the seeded scenario, or list new rows under \"+\"")


def _state(env: Environment, task: Task) -> Iterator[Problem]:
    for table, clauses in task.expected_final_state.items():
        base = f"expected_final_state.{table}"
        problems = list(_table(env, base, table))
        yield from problems
        if problems:
            continue
        for key, clause in clauses.items():
            if key in ("+", "+?"):
                for i, row in enumerate(clause):
                    yield from _fields(env, f"{base}.{key}[{i}]", table, row)
            elif key == "-":
                for i, pk in enumerate(clause):
                    yield from _row(env, task, f"{base}.-[{i}]", table, pk)
            else:
                yield from _row(env, task, f"{base}.{key}", table, key)
                yield from _fields(env, f"{base}.{key}", table, clause)


def _overrides(env: Environment, task: Task) -> Iterator[Problem]:
    rows: list[tuple[str, str, dict[str, Any]]] = []
    for table, by_pk in task.overrides.items():
        base = f"overrides.{table}"
        problems = list(_table(env, base, table))
        yield from problems
        if problems:
            continue
        for pk, fields in by_pk.items():
            found = list(_fields(env, f"{base}.{pk}", table, fields))
            if env.tables[table].pk in fields:
                found.append((f"{base}.{pk}.{env.tables[table].pk}", "an override cannot change a primary key",
                              "override other fields only"))
            yield from found
            if not found:
                rows.append((table, pk, fields))
    # Every row at once, on the scenario, undone: the update's row count says whether the row
    # exists, and the database's own constraints say whether it accepts the values.
    for (table, pk, fields), outcome in zip(rows, env.try_overrides(task.scenario_seed, rows), strict=True):
        base = f"overrides.{table}.{pk}"
        if outcome == "missing":  # overrides only change seeded rows: "+" is no way out here
            yield (base, f"{table} has no row {pk!r} in scenario {task.scenario_seed}; overrides can only change "
                         "rows the scenario seeds, not add rows",
                   f"use a primary key of scenario {task.scenario_seed}'s {table} rows, or another scenario_seed")
        elif outcome is not None:
            for field, value in fields.items():  # name the refused field
                refusal = env.try_overrides(task.scenario_seed, [(table, pk, {field: value})])[0]
                if refusal:
                    yield (f"{base}.{field}", f"the database refuses {value!r}: {refusal}",
                           "use a value the table's constraints allow")


def _vary(env: Environment, task: Task) -> Iterator[Problem]:
    every = env.all_columns
    for i, item in enumerate(task.vary):
        table, _, field = item.partition(".")
        if table == "*":
            if field not in every:
                yield f"vary[{i}]", f"no table has a field {field!r}", one_of(field, every)
        elif table not in env.tables:
            yield f"vary[{i}]", f"{env.name} has no table {table!r}", one_of(table, env.tables)
        elif field not in env.tables[table].columns:
            yield f"vary[{i}]", f"table {table} has no field {field!r}", one_of(field, env.tables[table].columns)


def _rules(env: Environment, task: Task) -> Iterator[Problem]:
    """Each rule check checks itself, whatever its kind (tasks/rules/), against this view of env."""
    world = _RuleWorld(env, task)
    for i, rule in enumerate(task.checks):
        yield from rule.problems(world, f"checks[{i}]")


class _RuleWorld:
    """The environment as a rule kind sees it while the task file loads (``tasks.rules.RuleWorld``)."""

    def __init__(self, env: Environment, task: Task) -> None:
        self._env, self._task = env, task

    def action(self, field: str, name: str) -> list[Problem]:
        return _action(self._env, self._task, field, name, allowed=False)

    def action_shape(self, name: str) -> ActionSpec | None:
        return self._env.actions.get(name)

    def arguments(self, field: str, action: str, arguments: Mapping[str, Any]) -> list[Problem]:
        spec = self._env.actions.get(action)
        return [] if spec is None else _arguments(self._env, field, action, spec, dict(arguments))

    def table(self, field: str, table: str) -> list[Problem]:
        return list(_table(self._env, field, table))

    def fields(self, field: str, table: str, names: Iterable[str]) -> list[Problem]:
        return list(_fields(self._env, field, table, names))
