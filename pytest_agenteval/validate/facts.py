"""The ids and numbers a text or a value holds, and the reference path replayed with what each
step saw: the shared vocabulary of the sufficiency, agreement and difficulty checks.

An *id* is a token of letters, digits, ``-`` and ``_`` holding both a letter and a digit
(``FAC-5260``, ``CLM-00001``); a *number* is normalised so that 4200, 4200.0, "4200" and
"4,200" are one value. Plain words (``overdraft``, ``approval``) are neither: they are choices
a tool's schema offers, not information the agent must be given.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pytest_agenteval.agents.builtin import ScriptedAgent
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.patterns import lazy
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.tasks.model import PathStep, Task
from pytest_agenteval.tasks.paths import first_order
from pytest_agenteval.validate.taskset import TaskSet

_ID = lazy(r"\b(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*\d)[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+\b")
# A number not glued to an id: "4,200", "5.04", "70000"; not the 5260 of FAC-5260.
_NUMBER = lazy(r"(?<![\w.-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.,-])\d+(?:\.\d+)?(?![\w-])")
_DATE = lazy(r"\b\d{4}-\d{2}-\d{2}\b")


def number(value: Any) -> float | None:
    """The value as a number (4200 == 4200.0 == "4,200"), else None. Booleans are not numbers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return round(float(value), 6)
    if isinstance(value, str) and re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?", value.strip()):
        return round(float(value.strip().replace(",", "")), 6)
    return None


def ids_in(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(0) for m in _ID.finditer(text)))


def numbers_in(text: str) -> list[tuple[str, float]]:
    """(as written, value) of each number in a text, dates and ids left out."""
    text = _DATE.sub(" ", text)
    return [(m.group(0), float(m.group(0).replace(",", ""))) for m in _NUMBER.finditer(text)]


def dates_in(text: str) -> list[str]:
    return _DATE.findall(text)


def scalars(value: Any) -> Iterator[Any]:
    """Every scalar inside a JSON value, keys of mappings included (a table's primary keys)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from scalars(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from scalars(item)
    else:
        yield value


@dataclass(frozen=True)
class Known:
    """What is known at some point: ids (upper-cased) and numbers, from texts and values."""

    ids: frozenset[str] = frozenset()
    numbers: frozenset[float] = frozenset()
    text: str = ""

    @classmethod
    def of(cls, *values: Any) -> Known:
        ids: set[str] = set()
        nums: set[float] = set()
        texts: list[str] = []
        for value in values:
            for scalar in scalars(value):
                if (n := number(scalar)) is not None:
                    nums.add(n)
                elif isinstance(scalar, str):
                    ids.add(scalar.upper())  # an observed value, whatever its shape
                    ids.update(i.upper() for i in ids_in(scalar))
                    nums.update(v for _, v in numbers_in(scalar))
                    texts.append(scalar)
        return cls(frozenset(ids), frozenset(nums), " ".join(texts).lower())

    def __or__(self, other: Known) -> Known:
        return Known(self.ids | other.ids, self.numbers | other.numbers, f"{self.text} {other.text}")

    def has(self, value: Any) -> bool:
        if (n := number(value)) is not None:
            return n in self.numbers
        return isinstance(value, str) and value.upper() in self.ids


def needed(value: Any) -> list[Any]:
    """The ids and numbers an argument carries: itself if it is one, or those a free text names."""
    if number(value) is not None:
        return [value]
    if isinstance(value, str):
        if " " not in value.strip() and ids_in(value) == [value]:
            return [value]
        return [*ids_in(value), *(written for written, _ in numbers_in(value))]
    return []


@dataclass(frozen=True)
class Seen:
    """One step of the reference path as replayed: what was called and what came back."""

    step: PathStep
    arguments: dict[str, Any]
    observation: Any
    writes: bool


class _Recorder(ScriptedAgent):
    def __init__(self, steps: list[PathStep]) -> None:
        super().__init__(steps)
        self.seen: list[tuple[PathStep, dict[str, Any], Any]] = []

    def run(self, episode: Any) -> None:
        for step in self.steps:
            arguments = step.call_arguments()
            self.seen.append((step, arguments, episode.call(step.action, arguments)))


@dataclass(frozen=True)
class Replay:
    seen: list[Seen]
    # (table, primary key, column, starting value) of each decision fact the environment declares
    facts: list[tuple[str, Any, str, Any]]


def replay_reference(env: Environment, task: Task) -> Replay:
    """Replay the task's first path (the reference agent's) and record each observation."""
    env.reset(task.scenario_seed, task=task)
    facts = []
    for table, pk, column in env.decision_facts(task):
        row = env.row(table, pk)
        facts.append((table, pk, column, None if row is None else row.get(column)))
    steps = first_order(task.acceptable_action_paths[0]) if task.acceptable_action_paths else []
    recorder = _Recorder(steps)
    run_episode(env, task, lambda: recorder, time_limit=None)
    seen = [Seen(step, args, obs, env.actions[step.action].writes if step.action in env.actions else True)
            for step, args, obs in recorder.seen]
    return Replay(seen, facts)


def replayed(taskset: TaskSet, item: LoadedTask) -> Replay:
    """The reference path of ``item`` replayed, once per validation."""
    if item.where not in taskset.replays:
        taskset.replays[item.where] = replay_reference(taskset.pool.get(item.task.environment), item.task)
    replay: Replay = taskset.replays[item.where]
    return replay
