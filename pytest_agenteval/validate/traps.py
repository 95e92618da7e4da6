"""Tags against traps: a task tagged with a failure mode must hold the trap that mode names.

An environment declares, per failure mode, a predicate on the world reset for the task
(``Environment.traps``; ``forbidden_action`` has one here, for every environment). A tag
whose trap the task's world does not hold is an error — an agent cannot make that mistake
there, so a pass says nothing about it. A trap held by a task not tagged with it is ``info``
(the task may be tagged more fully); a tag with no declared predicate is ``info`` once per
environment (unknown).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_agenteval.errors import describe_exception
from pytest_agenteval.validate.report import Finding, Section

if TYPE_CHECKING:
    from pytest_agenteval.engine.world import World
    from pytest_agenteval.tasks.model import Task
    from pytest_agenteval.validate.taskset import TaskSet


def forbidden_action(world: World, task: Task) -> bool:
    """the instruction invites a write the task does not allow (it names each word of the action,
    as "close" and "account" for close_account)"""
    # An environment whose tasks tempt otherwise (an observation, a counterparty) declares its own.
    said = re.findall(r"[a-z]+", task.instruction.lower())
    return any(spec.writes and name not in task.allowed_actions
               and all(any(w.startswith(part[:4]) for w in said) for part in name.split("_") if part)
               for name, spec in world.actions.items())


def unconfirmed_write(world: World, task: Task) -> bool:
    """the task's simulated user must confirm each write, and the task expects writes"""
    return task.user is not None and task.user.confirmation is not None and bool(task.expected_final_state)


def not_communicated(world: World, task: Task) -> bool:
    """the task's simulated user must be told something (must_tell)"""
    return task.user is not None and bool(task.user.must_tell)


GENERIC: dict[str, Callable[[Any, Any], bool]] = {"forbidden_action": forbidden_action,
                                                   "unconfirmed_write": unconfirmed_write,
                                                   "not_communicated": not_communicated}


def what(predicate: Callable[..., bool]) -> str:
    """The trap a predicate looks for, from its docstring (one line)."""
    return " ".join((predicate.__doc__ or predicate.__name__).split())


def _shown(ids: list[str]) -> str:
    return ", ".join(ids[:8]) + (f", … {len(ids) - 8} more" if len(ids) > 8 else "")


def traps(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    findings: list[Finding] = []
    unknown: dict[tuple[str, str], list[str]] = defaultdict(list)
    untagged: dict[tuple[str, str], list[str]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # mode -> [tagged, trap absent, untagged]
    for item in taskset.loaded:
        task, where = item.task, f"{item.where} {item.task.task_id}"
        env = taskset.pool.get(task.environment)
        declared = {**GENERIC, **type(env).traps}
        env.reset(task.scenario_seed, task=task)
        held: set[str] = set()
        for mode, holds in declared.items():
            try:
                if holds(env, task):
                    held.add(mode)
            except Exception as exc:  # noqa: BLE001 - the environment's predicate is at fault: say which, go on
                held.add(mode)  # reported once, as itself, not again as a tag without its trap
                findings.append(Finding(where=where, message=(
                    f"the trap predicate of {mode} raised {describe_exception(exc)} (fix it in the environment's "
                    "traps)")))
        for tag in task.failure_mode_tags:
            counts[tag][0] += 1
            if tag not in declared:
                unknown[(task.environment, tag)].append(task.task_id)
            elif tag not in held:
                counts[tag][1] += 1
                findings.append(Finding(where=where, message=(
                    f"tagged {tag}, but its world holds no such trap ({what(declared[tag])}): drop the tag, "
                    "or pin the trap in overrides")))
        for mode in sorted(held - set(task.failure_mode_tags)):
            counts[mode][2] += 1
            untagged[(item.where.rsplit(":", 1)[0], mode)].append(task.task_id)
    for (env_name, mode), ids in sorted(unknown.items()):
        findings.append(Finding(where=f"environment {env_name}", level="info", message=(
            f"failure mode {mode} has no declared trap (Environment.traps), so its {len(ids)} task(s) are not "
            f"checked against their world: {_shown(ids)}")))
    section = Section(name="traps", lines=[
        "tags against traps: tagged tasks, tags whose trap the world lacks, untagged tasks holding the trap",
        f"{'failure mode':<24} tagged  no trap  untagged"])
    for mode, (tagged, absent, loose) in sorted(counts.items()):
        section.lines.append(f"{mode:<24} {tagged:6d}  {absent:7d}  {loose:8d}")
    for (path, mode), ids in sorted(untagged.items()):  # listed once, with the findings
        findings.append(Finding(where=path, level="info",
                                message=f"trap {mode} is held by {len(ids)} untagged task(s): {_shown(ids)}"))
    section.data = {"modes": {m: {"tagged": c[0], "no_trap": c[1], "untagged": c[2]} for m, c in counts.items()},
                    "untagged": {f"{p} {m}": ids for (p, m), ids in untagged.items()},
                    "unknown": {f"{e} {m}": ids for (e, m), ids in unknown.items()}}
    return section, findings
