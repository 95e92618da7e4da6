"""Scripted agents that test a task's grading both ways (``agenteval validate`` runs them).

*Valid variants* do the job another correct way and must pass: extra look-ups of unrelated
records with every allowed look-up action, every read done twice, every order the paths
allow, and a mistyped or invalid call corrected. *Mutants* change the reference path in one
way that should matter and must fail: drop or repeat a write, change a compared argument to
another valid value, swap two writes whose order the path constrains, or make a declared text
lie (``text_mutants``: its decision negated, an amount or a record swapped, sent too early, a
required meaning left out). Each mutant carries its label (``Script.expect``): the failure
modes a check must carry to fail it for the right reason.

Everything is derived from the task and its scenario, so it works for any environment.
Unrelated records are found by value: an argument whose value is a primary key of some
table is varied over other rows of that table: its neighbours, and one row for each value of
each column with few values (a pending record, a closed one, …).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.saboteurs import Call
from pytest_agenteval.agents.scripts import Script
from pytest_agenteval.agents.text_mutants import lying_texts
from pytest_agenteval.engine.schema import quote
from pytest_agenteval.tasks.model import SAY_TO_USER, CalledCheck
from pytest_agenteval.tasks.paths import PathOrder, PathStep, first_order, mentions_of, mentions_ok
from pytest_agenteval.text.requirements import Meaning, example, says_of, unmet

if TYPE_CHECKING:
    from pytest_agenteval.environments.base import Environment
    from pytest_agenteval.tasks.model import Task

MAX_ORDERS = 12  # orders tried per path (spread over all it allows)
OTHER_ROWS = 8  # unrelated rows tried per look-up argument
FEW_VALUES = 8  # a column with at most this many values is a category worth one row each
UNMENTIONED = ("n/a", "-", "?")  # texts to try where a mention is required: the first that misses one


def _some_value(prop: dict[str, Any]) -> Any:
    """A value a number, integer or boolean argument's schema accepts."""
    if prop["type"] == "boolean":
        return False
    low = prop.get("minimum", prop.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in prop else 1)
    return int(low) if prop["type"] == "integer" else float(low)


def describe(action: str, arguments: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items() if not isinstance(v, str) or len(v) <= 40)
    return f"{action}({shown})"


class Planner:
    """Builds the variants and mutants of one task, reading its scenario for other rows."""

    def __init__(self, env: Environment, task: Task) -> None:
        self.env, self.task = env, task
        env.reset(task.scenario_seed, task=task)
        path = task.acceptable_action_paths[0] if task.acceptable_action_paths else []
        self.steps: list[PathStep] = first_order(path)
        self.reference: list[Call] = [(s.action, s.call_arguments()) for s in self.steps]
        self.faulted = {f.action for f in task.faults}
        self.related = {v for _, args in self.reference for v in args.values() if isinstance(v, str)}
        self._tables: dict[Any, str | None] = {}
        self._diverse: dict[str, list[Any]] = {}
        # Allowed look-ups no unrelated-record arguments could be built for (validate says so).
        self.unprobed: list[str] = []

    # ----- what the scenario holds ----------------------------------------------------

    def writes(self, action: str) -> bool:
        return self.env.actions[action].writes

    def table_of(self, value: Any) -> str | None:
        """The table whose primary key ``value`` is, in this task's scenario."""
        if not isinstance(value, str) or not value:
            return None
        if value not in self._tables:
            self._tables[value] = next((t for t in self.env.tables if self.env.row(t, value) is not None), None)
        return self._tables[value]

    def other_rows(self, table: str, near: Any, n: int) -> list[Any]:
        """Up to ``n`` primary keys of ``table`` the task does not use: the neighbours of
        ``near`` (the audit's case: the next record, which may well have a conflict), then one
        row for each value of each column with few values (a pending one, a closed one, …)."""
        info = self.env.tables[table]
        db, pk = self.env.db, quote(info.pk)
        found: list[Any] = []
        if near is not None:
            found += [r[0] for r in db.execute(f"SELECT {pk} FROM {info.quoted} WHERE {pk} > ? "
                                               f"ORDER BY {pk} LIMIT 2", (near,))]
            found += [r[0] for r in db.execute(f"SELECT {pk} FROM {info.quoted} WHERE {pk} < ? "
                                               f"ORDER BY {pk} DESC LIMIT 1", (near,))]
        found += self._diverse_rows(table)
        others = [v for v in dict.fromkeys(found) if v != near and v not in self.related]
        return others[:n]

    def _diverse_rows(self, table: str) -> list[Any]:
        if table not in self._diverse:
            info = self.env.tables[table]
            db, pk = self.env.db, quote(info.pk)
            rows: list[Any] = []
            for column in info.columns:
                if column == info.pk:
                    continue
                col = quote(column)
                if db.execute(f"SELECT count(DISTINCT {col}) FROM {info.quoted}").fetchone()[0] <= FEW_VALUES:
                    rows += [r[0] for r in db.execute(
                        f"SELECT min({pk}) FROM {info.quoted} GROUP BY {col} ORDER BY {col}")]
            self._diverse[table] = list(dict.fromkeys(rows))
        return self._diverse[table]

    # ----- valid variants ---------------------------------------------------------------

    def variants(self) -> list[Script]:
        found = [*self._orders(), *self._look_ups(), *self._reread(), *self._corrected(), *self._bare(),
                 *self._freed()]
        return [s for s in found if len(s.calls) <= self.task.max_steps]

    def _orders(self) -> Iterator[Script]:
        for p, path in enumerate(self.task.acceptable_action_paths):
            order = PathOrder.of(path)
            every = list(order.orders(limit=50 * MAX_ORDERS))
            picked = every[:: max(1, len(every) // MAX_ORDERS)][:MAX_ORDERS]
            for k, indices in enumerate(picked):
                calls = [(order.steps[i].action, order.steps[i].call_arguments()) for i in indices]
                if calls == self.reference:
                    continue
                shown = ", ".join(a for a, _ in calls if self.writes(a)) or "no writes"
                yield Script(name=f"path {p + 1}, order {k + 1}: {shown}", calls=calls)

    def _look_ups(self) -> Iterator[Script]:
        """Each allowed look-up of unrelated records, at the start, after the first write, at the end."""
        first_write = next((i + 1 for i, (a, _) in enumerate(self.reference) if self.writes(a)), 0)
        for action in self.task.allowed_actions:
            spec = self.env.actions.get(action)
            if spec is None or spec.writes or action in self.faulted or action == SAY_TO_USER:
                continue  # a word to the user is a turn of the conversation, not a look-up
            found = self._look_up_arguments(action)
            if not found:
                self.unprobed.append(action)
            for arguments in found:
                call = (action, arguments)
                ref = self.reference
                calls = [call, *ref[:first_write], call, *ref[first_write:], call]
                yield Script(name=f"extra look-up {describe(*call)}", calls=calls)

    def _look_up_arguments(self, action: str) -> list[dict[str, Any]]:
        declared = self.env.look_up_arguments(action, self.task)
        if declared is not None:  # the environment knows how (docs/environments.md)
            return declared
        if action in self.env.unscoped_look_ups:  # not about a record: as the reference calls it
            return [args for a, args in self.reference if a == action] or [{}]
        spec = self.env.actions[action]
        props: dict[str, Any] = spec.parameters.get("properties", {})
        if not props:
            return [{}]
        seen = [args for a, args in self.reference if a == action]
        out: list[dict[str, Any]] = []
        made = None if seen else self._made_up(action)
        for base in seen or ([made] if made is not None else []):
            for name, value in base.items():
                out += [{**base, name: v} for v in self._alternatives(props.get(name, {}), value, OTHER_ROWS)]
            if not any(self.table_of(v) for v in base.values()) and base not in out:
                out.append(base)
        unique = {json.dumps(a, sort_keys=True, default=str): a for a in out}
        return list(unique.values())

    def _made_up(self, action: str) -> dict[str, Any] | None:
        """Arguments for a look-up the reference never makes: enums, or values of the same
        name elsewhere in the reference, or rows of the table the argument is named after."""
        spec = self.env.actions[action]
        props: dict[str, Any] = spec.parameters.get("properties", {})
        made: dict[str, Any] = {}
        for name in spec.parameters.get("required", []):
            prop = props.get(name, {})
            used = [args[name] for _, args in self.reference if name in args]
            table = name.removesuffix("_id")
            if "enum" in prop:
                made[name] = prop["enum"][0]
            elif used:
                made[name] = used[0]
            elif table in self.env.tables:
                rows = self.other_rows(table, None, 1)
                if not rows:
                    return None
                made[name] = rows[0]
            elif prop.get("type") in ("number", "integer", "boolean"):
                made[name] = _some_value(prop)
            elif name in spec.free_text:
                made[name] = "As requested."
            else:
                return None
        return made

    def _alternatives(self, prop: dict[str, Any], value: Any, n: int) -> list[Any]:
        """Other valid values for an argument: other rows of its table, or other enum values."""
        if "enum" in prop:
            return [v for v in prop["enum"] if v != value][:n]
        table = self.table_of(value)
        return self.other_rows(table, value, n) if table else []

    def _reread(self) -> Iterator[Script]:
        calls: list[Call] = []
        for call in self.reference:
            calls.append(call)
            if not self.writes(call[0]) and call[0] not in self.faulted and call[0] != SAY_TO_USER:
                calls.append(call)
        if len(calls) > len(self.reference):
            yield Script(name="every read done twice", calls=calls)

    def _bare(self) -> Iterator[Script]:
        """The reference without its optional steps."""
        calls = [c for c, s in zip(self.reference, self.steps, strict=True) if not s.optional]
        if len(calls) < len(self.reference):
            yield Script(name="without the optional steps", calls=calls)

    def _freed(self) -> Iterator[Script]:
        """What the task's ``path_freedoms`` allow, once per freed write: repeated exactly,
        first done with another value and then overwritten, its list arguments reversed."""
        freedoms = self.task.path_freedoms
        ref = self.reference
        for i, (action, arguments) in enumerate(ref):
            if not self.writes(action) or self.steps[i].no_effect:
                continue
            what = describe(action, arguments)
            if action in freedoms.repeat:
                yield Script(name=f"{what} repeated (path_freedoms.repeat)", calls=[*ref[:i + 1], *ref[i:]])
            if action in freedoms.overwrite:
                yield from self._overwritten(i, set(freedoms.overwrite[action]))
            for name in sorted(freedoms.multiset_arguments(action)):
                value = arguments.get(name)
                if isinstance(value, list) and len(value) > 1 and value[::-1] != value:
                    permuted = (action, {**arguments, name: value[::-1]})
                    yield Script(name=f"{what} with {name} in another order (path_freedoms.multiset)",
                                 calls=[*ref[:i], permuted, *ref[i + 1:]])

    def _overwritten(self, i: int, keys: set[str]) -> Iterator[Script]:
        """The write at ``i`` first made with another value of an argument outside ``keys``."""
        action, arguments = self.reference[i]
        spec = self.env.actions[action]
        changes = [(n, v) for n, v, _ in self._changes(action, arguments)]
        changes += [(n, f"{v} (draft)") for n, v in arguments.items() if isinstance(v, str)]
        for name, new in changes:
            if name in keys or name in spec.free_text or spec.validate({**arguments, name: new})[0] is None:
                continue
            ref, wrong = self.reference, (action, {**arguments, name: new})
            yield Script(name=f"{describe(action, arguments)} first with {name}={new!r}, then overwritten "
                              "(path_freedoms.overwrite)", calls=[*ref[:i], wrong, *ref[i:]])
            return

    def writing_saboteurs(self) -> list[list[Script]]:
        """For a task whose right answer is to change nothing: per allowed write, the reference
        then one call of it, on the record the task names and then on a few others (validate
        keeps the first that takes effect; its label is ``unwarranted_change``)."""
        out = []
        for action in self.task.allowed_actions:
            spec = self.env.actions.get(action)
            made = self._made_up(action) if spec is not None and spec.writes else None
            if spec is None or made is None:
                continue
            tries = [made]
            for name, value in made.items():
                tries += [{**made, name: v} for v in self._alternatives(spec.parameters["properties"][name], value, 3)]
            out.append([Script(name=f"write {describe(action, a)} anyway", calls=[*self.reference, (action, a)],
                               expect=frozenset({"unwarranted_change"})) for a in tries])
        return out

    def _corrected(self) -> Iterator[Script]:
        """A write first called wrongly, then right: with a mistyped id, and with a bad argument."""
        invalid: list[Call] = []
        for i, (action, arguments) in enumerate(self.reference):
            step = self.steps[i]
            if self.writes(action) and not step.no_effect:
                invalid.append((action, {**arguments, "not_an_argument": 1}))
                if action not in self.faulted:
                    yield from self._typo(i, action, arguments)
            invalid.append((action, arguments))
        if len(invalid) > len(self.reference):
            yield Script(name="an invalid call before each write", calls=invalid)

    def _typo(self, i: int, action: str, arguments: dict[str, Any]) -> Iterator[Script]:
        for name, value in arguments.items():
            if self.table_of(value):
                wrong = (action, {**arguments, name: f"{value}-TYPO"})
                calls = [*self.reference[:i], wrong, *self.reference[i:]]
                yield Script(name=f"mistyped {name} in {describe(action, arguments)}, then corrected",
                             calls=calls, expect_refused=frozenset({i}))
                return

    # ----- mutants ------------------------------------------------------------------------

    def mutants(self) -> list[Script]:
        """The path mutants (drop, repeat, change, swap) and the lying texts, each with its label.

        Two mutants with the same calls are one: the lying text's (its label is the more exact).
        Other rows are looked up in the scenario as the last run left it (validate runs the
        valid variants first), so a row the reference path creates (``ACC-E001``) is found too."""
        ref = self.reference
        out: list[Script] = []
        for i, (action, arguments) in enumerate(ref):
            # Optional steps are extras the task welcomes, in any form: nothing to mutate.
            if self.steps[i].no_effect or self.steps[i].optional:
                continue
            if not self.writes(action):  # a message to the user writes nothing, but may be a declared text
                if action == SAY_TO_USER:
                    out += self._lying_texts(i)
                continue
            what = describe(action, arguments)
            out.append(Script(name=f"drop {what}", calls=ref[:i] + ref[i + 1:], expect=self._declared("drop", action),
                              kind="drop"))
            if action not in self.task.path_freedoms.repeat:  # freed: a valid variant (_freed)
                out.append(Script(name=f"repeat {what}", calls=ref[:i + 1] + ref[i:], repeat_at=i + 1,
                                  expect=self._declared("repeat", action), kind="repeat"))
            for name, new, expect in self._changes(action, arguments):
                changed = (action, {**arguments, name: new})
                out.append(Script(name=f"change {action}.{name} {arguments[name]!r} -> {new!r}",
                                  calls=[*ref[:i], changed, *ref[i + 1:]],
                                  free_text=name in self.env.actions[action].free_text,
                                  expect=expect or self._declared("change", action, name)))
            out += self._lying_texts(i)
        out += self._swaps()
        unique: dict[str, Script] = {}
        for script in out:
            key = json.dumps(script.calls, sort_keys=True, default=str)
            if key not in unique or script.text:
                unique[key] = script
        return list(unique.values())

    def _declared(self, kind: str, action: str, argument: str | None = None) -> frozenset[str]:
        """The label the environment declares for this kind of mutant (``mutant_failure_modes``)."""
        declared = self.env.mutant_failure_modes
        keys = [f"{kind} {action}.{argument}" if argument else "", f"{kind} {action}", action, kind]
        return next((frozenset(declared[k]) for k in keys if k and k in declared), frozenset())

    def _changes(self, action: str, arguments: dict[str, Any]) -> Iterator[tuple[str, Any, frozenset[str]]]:
        """Each compared argument (free text only where a task requires mentions) changed once,
        with the failure modes of the ``called`` checks the change fails."""
        spec = self.env.actions[action]
        props: dict[str, Any] = spec.parameters.get("properties", {})
        required = self._requirements(action)
        for name, value in arguments.items():
            if name in spec.free_text:
                needs = [(r.mentions, r.failure_mode) for r in required if r.argument == name and r.mentions]
                text = next((t for t in UNMENTIONED if not all(mentions_ok(terms, t) for terms, _ in needs)), None)
                if needs and text is not None:
                    yield name, text, frozenset(mode for terms, mode in needs if mode and not mentions_ok(terms, text))
                continue
            candidates: list[Any]
            if isinstance(value, bool):
                candidates = [not value]
            elif isinstance(value, (int, float)):
                candidates = [round(value * 0.9, 2), round(value * 1.1, 2), value + 1]
            else:
                candidates = self._alternatives(props.get(name, {}), value, 1)
            for new in candidates:
                if new != value and spec.validate({**arguments, name: new})[0] is not None:
                    yield name, new, frozenset()
                    break

    def _requirements(self, action: str) -> list[Requirement]:
        """The free-text requirements (``mentions``, ``says``) a path step or ``called`` check
        puts on ``action``'s arguments; a check's with its failure mode."""
        holders: list[tuple[PathStep | CalledCheck, str | None]] = [
            *((s, None) for p in self.task.path_orders() for s in p.steps if s.action == action),
            *((r, r.failure_mode) for r in self.task.checks if isinstance(r, CalledCheck) and r.action == action)]
        found: list[Requirement] = []
        for holder, mode in holders:
            for name, value in holder.arguments.items():
                terms, meanings = mentions_of(value), says_of(value)
                if terms is not None or meanings is not None:
                    found.append(Requirement(name, terms, meanings, mode))
        return found

    def _lying_texts(self, i: int) -> Iterator[Script]:
        """The write at ``i`` with each declared text made to lie (``text_mutants``), moved before
        the write it must follow, or saying all but one meaning a ``says`` requirement asks for."""
        action, arguments = self.reference[i]
        spec = self.env.actions[action]
        reader = self.env.reader()
        ref = self.reference
        early = self._early(i)
        for name in spec.free_text:
            value = arguments.get(name)
            if not isinstance(value, str):
                continue
            mode = self.env.texts.get((action, name))
            head = f"text {action}.{name}:"
            if mode is not None:
                for change in lying_texts(reader, value, self._other_record):
                    yield Script(name=f"{head} {change.what}", text=True, free_text=True, expect=frozenset({mode}),
                                 calls=[*ref[:i], (action, {**arguments, name: change.text}), *ref[i + 1:]], lie_at=i)
                if early is not None and reader.read(value).decision() is not None:
                    calls = [*ref[:early], ref[i], *ref[early:i], *ref[i + 1:]]
                    yield Script(name=f"{head} announced before {describe(*ref[early])}", calls=calls, text=True,
                                 expect=self.env.early_text_failure_modes or frozenset({mode}), lie_at=early)
            yield from self._dropped_facts(i, name, value, mode, head)

    def _dropped_facts(self, i: int, name: str, value: str, mode: str | None, head: str) -> Iterator[Script]:
        action, arguments = self.reference[i]
        reader = self.env.reader()
        required = [r for r in self._requirements(action) if r.argument == name and r.says is not None]
        groups = (tuple(m if isinstance(m, str) else tuple(m) for m in r.says or ()) for r in required)
        for meanings in dict.fromkeys(groups):  # alternatives as tuples, so a requirement is hashable
            if unmet(reader.read(value), list(meanings)):
                continue  # the reference does not say them all: nothing to drop
            for dropped in dict.fromkeys(meanings):
                rest: list[Meaning] = [m for m in meanings if m != dropped]
                text = example(rest) if rest else UNMENTIONED[0]
                if dropped not in unmet(reader.read(text), [*meanings]) or unmet(reader.read(text), rest):
                    continue
                fails = {r.failure_mode for r in required if r.failure_mode and unmet(reader.read(text), r.says or [])}
                expect = frozenset(fails) or (frozenset({mode}) if mode else self._declared("change", action, name))
                yield Script(name=f"{head} says all but {dropped}", text=True, free_text=True, expect=expect,
                             calls=[*self.reference[:i], (action, {**arguments, name: text}), *self.reference[i + 1:]],
                             lie_at=i)

    def _early(self, i: int) -> int | None:
        """Where the write at ``i`` comes too early: just before the last write the path puts before it."""
        if not self.task.acceptable_action_paths:
            return None
        order = PathOrder.of(self.task.acceptable_action_paths[0])
        before = [j for j in order.before[i] if self.writes(self.steps[j].action)
                  and not self.steps[j].no_effect and not self.steps[j].optional]
        return max(before) if before else None

    def _other_record(self, value: str) -> str | None:
        table = self.table_of(value)
        others = self.other_rows(table, value, 1) if table else []
        return str(others[0]) if others else None

    def _swaps(self) -> Iterator[Script]:
        """Two writes the path orders, listed next to each other, done the other way round."""
        if not self.task.acceptable_action_paths:
            return
        order = PathOrder.of(self.task.acceptable_action_paths[0])
        positions = [i for i, s in enumerate(order.steps) if self.writes(s.action) and not s.no_effect]
        writes = order.only(lambda s: self.writes(s.action) and not s.no_effect)
        for a, b in writes.constrained_pairs():
            i, j = positions[a], positions[b]
            calls = list(self.reference)
            calls[i], calls[j] = calls[j], calls[i]
            first, second = self.reference[i][0], self.reference[j][0]
            yield Script(name=f"swap {describe(*self.reference[i])} and {describe(*self.reference[j])}", calls=calls,
                         expect=self._declared("swap", f"{first} {second}"), kind="swap")


@dataclass(frozen=True)
class Requirement:
    """A free-text requirement on an argument: its terms or meanings, and the failure mode of the
    ``called`` check that makes it (None: a path step's)."""

    argument: str
    mentions: list[list[str]] | None
    says: list[Meaning] | None
    failure_mode: str | None
