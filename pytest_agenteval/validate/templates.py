"""Template policies: another task's answer, with the ids and numbers the instruction names swapped.

A file's tasks often share one instruction shape ("handle claim CLM-00001 …"). An agent that
reads nothing can still copy one task's answer onto every other: escalate the claim the
instruction names to the same reviewer, approve the same amount, send the same letter. Each
task's reference path (its first acceptable path, in the order the reference agent plays it)
becomes such a **template**: every argument value the task's instruction names (an id or a
number: ``named_in``) becomes a slot, "the n-th value of that kind the instruction names",
and every other argument is kept verbatim (a staff id looked up, an amount read from a record,
an enum, a free text — in which the ids it names are swapped too). The kind of a value is its
shape with its digits blanked (``CLM-00001`` and ``CLM-00289`` are one kind, ``SNR-07``
another) or "a number"; a value without digits (an enum word) is kept as it is.

On another task of the same environment in the same file, a template fills each slot with the
value of that kind and position the target's instruction names; if it names none, the
template does not apply there. Look-ups are replayed (a policy that reads nothing may call
them) but nothing they return is used; a call that fails is passed over, as by the reference
agent. Templates are deduplicated by their writes, played only on tasks that allow all of
them, and a concrete call sequence is played once per task.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.environments.registry import environment_class
from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks.paths import first_order

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.taskfiles.loader import LoadedTask
    from pytest_agenteval.validate.taskset import TaskSet

# An id-like token (letters, digits, hyphens, underscores) and a number standing alone (not the
# digits of an id: CLM-00001 names no number 1).
TOKEN = lazy(r"(?<![\w-])[\w-]*\d[\w-]*(?<!-)")
NUMBER = lazy(r"(?<![\w.-])\d[\d,]*(?:\.\d+)?(?![\w-]|\.\d)")
NUMBER_KIND = "a number"


def kind_of(value: Any) -> str | None:
    """The kind of a named value, or None if it cannot be a slot (no digits, not a number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return NUMBER_KIND
    if isinstance(value, str) and any(c.isdigit() for c in value):
        return re.sub(r"\d+", "#", value)
    return None


def named_values(instruction: str) -> dict[str, list[Any]]:
    """Kind -> the distinct values of that kind the instruction names, in the order it names them."""
    out: dict[str, list[Any]] = defaultdict(list)
    for m in TOKEN.finditer(instruction):
        if not NUMBER.fullmatch(m.group()) and m.group() not in out[kind := re.sub(r"\d+", "#", m.group())]:
            out[kind].append(m.group())
    for m in NUMBER.finditer(instruction):
        n = float(m.group().replace(",", ""))
        if n not in out[NUMBER_KIND]:
            out[NUMBER_KIND].append(n)
    return out


@dataclass(frozen=True)
class Slot:
    """The ``pos``-th value of ``kind`` the instruction names."""

    kind: str
    pos: int
    integer: bool = False  # the source's value was an int: fill with an int where the target's is whole


@dataclass(frozen=True)
class Text:
    """A free text with the ids the source instruction names swapped: (id, its slot) pairs."""

    text: str
    swaps: tuple[tuple[str, Slot], ...]


class NotApplicable(Exception):
    """The target's instruction names no value for a slot."""


def _slot(value: Any, named: dict[str, list[Any]]) -> Slot | None:
    kind = kind_of(value)
    if kind is None:
        return None
    values = named.get(kind, [])
    key = float(value) if kind == NUMBER_KIND else value
    if key not in values:
        return None
    return Slot(kind, values.index(key), integer=isinstance(value, int))


def _templated(value: Any, named: dict[str, list[Any]]) -> Any:
    if (slot := _slot(value, named)) is not None:
        return slot
    if isinstance(value, str):
        swaps = tuple((v, Slot(k, i)) for k, vs in named.items() if k != NUMBER_KIND for i, v in enumerate(vs)
                      if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", value))
        return Text(value, swaps) if swaps else value
    return value


def _filled(value: Any, named: dict[str, list[Any]]) -> Any:
    if isinstance(value, Slot):
        values = named.get(value.kind, [])
        if value.pos >= len(values):
            raise NotApplicable(value.kind)
        got = values[value.pos]
        return int(got) if value.integer and float(got).is_integer() else got
    if isinstance(value, Text):
        swapped = {old: str(_filled(slot, named)) for old, slot in value.swaps}  # in one pass: no swap of a swap
        either = "|".join(re.escape(old) for old in sorted(swapped, key=len, reverse=True))

        def swap(m: re.Match[str]) -> str:
            return swapped[m.group()]

        return re.sub(rf"(?<![\w-])(?:{either})(?![\w-])", swap, value.text)
    return value


@dataclass(kw_only=True)
class Template:
    """One task's reference path with its named values as slots; ``sources``: the tasks that give it."""

    environment: str
    sources: list[str]
    where: str  # the first source's path:line
    steps: list[tuple[str, dict[str, Any]]]
    writes: frozenset[str]
    key: str
    passed: list[str] = field(default_factory=list)
    tasks: int = 0

    @property
    def name(self) -> str:
        return f"template of {self.sources[0]}"

    def calls(self, instruction: str) -> list[tuple[str, dict[str, Any]]] | None:
        named = named_values(instruction)
        try:
            return [(action, {k: _filled(v, named) for k, v in args.items()}) for action, args in self.steps]
        except NotApplicable:
            return None


def template_of(item: LoadedTask) -> Template | None:
    task = item.task
    if not task.acceptable_action_paths:
        return None
    actions = environment_class(task.environment).actions
    named = named_values(task.instruction)
    steps = [(s.action, {k: _templated(v, named) for k, v in s.call_arguments().items()})
             for s in first_order(task.acceptable_action_paths[0])]
    writes = [(a, args) for a, args in steps if (spec := actions.get(a)) is None or spec.writes]
    if not writes:
        return None  # doing nothing: the do-nothing agent's business
    key = json.dumps([task.environment, writes], sort_keys=True, default=repr)
    return Template(environment=task.environment, sources=[task.task_id], where=item.where, steps=steps,
                    writes=frozenset(a for a, _ in writes), key=key)


class Replay:
    """Makes the given calls in order, whatever each returns (and reads none of it)."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls

    def run(self, episode: Episode) -> None:
        for action, args in self.calls:
            episode.call(action, dict(args))


def file_templates(taskset: TaskSet, items: list[LoadedTask]) -> list[Template]:
    """The file's distinct templates, each played on the file's other tasks of its environment."""
    templates: dict[str, Template] = {}
    for item in items:
        made = template_of(item)
        if made is None:
            continue
        if made.key in templates:
            templates[made.key].sources.append(item.task.task_id)
        else:
            templates[made.key] = made
    played: dict[tuple[str, str], bool] = {}  # (target where, concrete calls) -> passed
    for template in templates.values():
        for item in items:
            task = item.task
            if task.environment != template.environment or item.where == template.where:
                continue
            template.tasks += 1
            if not template.writes <= set(task.allowed_actions):
                continue
            calls = template.calls(task.instruction)
            if calls is None:
                continue
            key = (item.where, json.dumps(calls, sort_keys=True, default=repr))
            if key not in played:
                env = taskset.pool.get(task.environment)
                played[key] = run_episode(env, task, partial(Replay, calls), time_limit=None).passed
            if played[key]:
                template.passed.append(task.task_id)
    return list(templates.values())
