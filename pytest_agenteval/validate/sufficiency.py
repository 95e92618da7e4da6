"""Information sufficiency: could an agent that reads have known what the reference path does?

The reference path is replayed and each observation recorded. Before each step, what the agent
knows is the instruction plus every earlier observation (and those of later look-ups the path
lets come first); each id and number the step's
arguments carry (``facts.needed``: the argument itself, or the ids and amounts a free text
names) must be among them, numbers normalised (4200 == 4200.0 == "4,200"). A ``says``
requirement (docs/text.md) must be told too: the instruction or an earlier observation holds a
word of each required meaning's topic (``kyc:problem`` — "KYC", or the ``kyc_status`` a look-up
returns) — best effort: that the subject came up, not that its state was said.

Each decision fact the environment declares (``World.decision_facts``: a lapsed policy, a KYC
flag) must be readable: an observation of the path, or of an allowed look-up called with the
fact's key, shows its value under its column's name (or a name ending ``_<column>``).
"""

from __future__ import annotations

from typing import Any

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.engine.tracking import same_value
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.tasks.model import Task
from pytest_agenteval.tasks.paths import PathOrder, mentions_of
from pytest_agenteval.text.lexicon import word_matches
from pytest_agenteval.text.mail import shown
from pytest_agenteval.text.requirements import says_of
from pytest_agenteval.validate.facts import Known, Replay, needed, replayed
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import TaskSet, at


def _told(env: Environment, topic: str, known: Known) -> bool:
    words = set(known.text.replace("_", " ").replace("-", " ").split())
    terms = [topic, *env.lexicon.classes.get(topic, ())]
    return any(all(any(word_matches(p, w) for w in words) for p in term.lower().split()) for term in terms)


def _shows(observation: Any, pk: Any, column: str, value: Any, *, asked: bool) -> bool:
    """Whether an observation holds the value under the column's name (or a name ending
    ``_<column>``) in a record of ``pk``: one that holds the key, or the answer to a call that
    was given it (``asked``)."""
    if isinstance(observation, list):
        return any(_shows(o, pk, column, value, asked=asked) for o in observation)
    if not isinstance(observation, dict):
        return False
    if asked or any(same_value(v, pk) for v in observation.values()):
        for key, item in observation.items():
            if (key == column or key.endswith(f"_{column}")) and (same_value(item, value) or item is value):
                return True
    return any(isinstance(item, dict | list) and _shows(item, pk, column, value, asked=asked)
               for item in observation.values())


class _Probe:
    """Calls each allowed look-up whose one required argument can be the fact's key."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls
        self.seen: list[Any] = []

    def run(self, episode: Any) -> None:
        self.seen = [episode.call(action, arguments) for action, arguments in self.calls]


def _probe_calls(env: Environment, task: Task, table: str, pk: Any) -> list[tuple[str, dict[str, Any]]]:
    calls = []
    for name in task.allowed_actions:
        spec = env.actions.get(name)
        if spec is None or spec.writes:
            continue
        needs = spec.parameters.get("required", [])
        if len(needs) == 1 and needs[0] in (f"{table}_id", "id"):
            calls.append((name, {needs[0]: pk}))
        elif not needs:
            calls.append((name, {}))
    return calls


def _unreadable(env: Environment, task: Task, replay: Replay) -> list[tuple[str, Any, str, Any]]:
    out = []
    for table, pk, column, value in replay.facts:
        if any(not s.writes and _shows(s.observation, pk, column, value, asked=pk in s.arguments.values())
               for s in replay.seen):
            continue
        probe = _Probe(_probe_calls(env, task, table, pk))
        if probe.calls:
            run_episode(env, task, lambda p=probe: p, time_limit=None)  # type: ignore[misc]
            if any(_shows(o, pk, column, value, asked=True) for o in probe.seen):
                continue
        out.append((table, pk, column, value))
    return out


def _task_findings(taskset: TaskSet, item: LoadedTask) -> list[str]:
    task = item.task
    env = taskset.pool.get(task.environment)
    replay = replayed(taskset, item)
    before = PathOrder.of(task.acceptable_action_paths[0]).before
    known = Known.of(task.instruction)
    messages = []
    for n, seen in enumerate(replay.seen, 1):
        # Look-ups listed later that the path lets come first (any_order) count as readable too.
        known_here = known | Known.of(*(later.observation for i, later in enumerate(replay.seen[n:], n)
                                        if not later.writes and n - 1 not in before[i]))
        for name, raw in seen.step.arguments.items():
            if (meanings := says_of(raw)) is not None:
                for meaning in meanings:
                    alternatives = [meaning] if isinstance(meaning, str) else list(meaning)
                    if not any(_told(env, alt.partition(":")[0], known_here) for alt in alternatives):
                        messages.append(f"step {n} {seen.step.action}: {name} must say {' or '.join(alternatives)}, "
                                        "but neither the instruction nor an earlier look-up mentions it "
                                        "(tell the agent what the text must say)")
                continue
            value = " ".join(t[0] for t in terms) if (terms := mentions_of(raw)) is not None else (
                shown(raw) if isinstance(raw, str) and "<" in raw else raw)  # (a style sheet's numbers are no facts)
            for wanted in needed(value):
                if not known_here.has(wanted):
                    messages.append(f"step {n} {seen.step.action}: {name} = {wanted!r} is in neither the instruction "
                                    "nor an earlier observation (state it in the instruction, or add the look-up "
                                    "that shows it before this step)")
        known = known | Known.of(seen.observation)
    for table, pk, column, value in _unreadable(env, task, replay):
        messages.append(f"decision fact {table} {pk} {column} = {value!r} is shown by no allowed look-up "
                        "(allow the look-up that shows it)")
    return messages


def check_sufficiency(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    findings = [Finding(where=at(item), message=m) for item in taskset.loaded if item.task.acceptable_action_paths
                for m in _task_findings(taskset, item)]
    lines = [f"information sufficiency: {len(taskset.loaded)} reference path(s) replayed; "
             f"{len(findings)} value(s) the agent could not have known"]
    return Section(name="sufficiency", lines=lines, data={"unknown": [f.as_dict() for f in findings]}), findings
