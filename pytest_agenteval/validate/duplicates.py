"""Duplicates and leakage: tasks that grade the same episode the same way.

A task's *fingerprint* is what grading depends on: environment, scenario seed, overrides, the
environment's own task fields (a reviewer's policy), expected final state, ``vary``, the
acceptable paths, the rule checks, and the faults. Two tasks are

- *exact duplicates* when their fingerprints are equal (the instruction's wording and the tags
  are not in it: an agent is graded the same whatever they say);
- *near duplicates* when the world and the answer are the same — environment, seed, overrides,
  task fields, expected state, ``vary`` and the writes of each path in order — whatever the
  faults, the look-ups and the rule checks: one of them may have a retry fault and a look-up
  more on the way, but its answer is still the other's.

A duplicate across train and eval is an error — the eval answer is in train (leakage); one
inside a split is a warning (the set counts one task twice).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection
from typing import Any

from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.tasks.model import Task
from pytest_agenteval.tasks.paths import first_order
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import TaskSet, at


def fingerprint(task: Task, writes: Collection[str] | None = None) -> str:
    """The exact fingerprint; given the environment's writing actions, the near one."""
    dumped = task.model_dump(mode="json")
    data: dict[str, Any] = {k: dumped[k] for k in ("environment", "scenario_seed", "overrides",
                                                   "expected_final_state")}
    data["domain"] = task.domain_fields
    data["vary"] = sorted(task.vary)
    if writes is None:
        data["paths"] = dumped["acceptable_action_paths"]
        data["checks"] = dumped["checks"]
        data["faults"] = sorted(json.dumps(f, sort_keys=True) for f in dumped["faults"])
    else:
        data["paths"] = sorted(json.dumps([[s.action, s.arguments] for s in first_order(path)
                                           if s.action in writes and not s.no_effect], sort_keys=True)
                               for path in task.acceptable_action_paths)
    return json.dumps(data, sort_keys=True, default=str)


def _groups(taskset: TaskSet, *, near: bool) -> list[list[LoadedTask]]:
    by: dict[str, list[LoadedTask]] = defaultdict(list)
    for item in taskset.loaded:
        writes = None
        if near:
            actions = taskset.pool.get(item.environment).actions
            writes = {name for name, spec in actions.items() if spec.writes}
        by[fingerprint(item.task, writes)].append(item)
    return [group for group in by.values() if len(group) > 1]


def check_duplicates(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    findings: list[Finding] = []
    pairs: list[dict[str, Any]] = []
    exact = _groups(taskset, near=False)
    exact_pairs = {(a.where, b.where) for group in exact for a in group for b in group}
    for kind, groups in (("exact", exact), ("near", _groups(taskset, near=True))):
        for group in groups:
            first = group[0]
            for other in group[1:]:
                if kind == "near" and (first.where, other.where) in exact_pairs:
                    continue
                leak = first.split != other.split
                what = ("duplicate" if kind == "exact" else "near duplicate (the same world and answer)")
                message = (f"{what} of {first.task_id} ({first.where}), "
                           + ("one in train, one in eval: the eval answer is in train (leakage); "
                              "change the world or the answer of one, or drop it" if leak else
                              f"both in {other.split}: the set counts one task twice; "
                              "change the world or the answer of one, or drop it"))
                findings.append(Finding(where=at(other), message=message, level="error" if leak else "warning"))
                pairs.append({"kind": kind, "leak": leak, "tasks": [first.task_id, other.task_id],
                              "where": [first.where, other.where], "splits": [first.split, other.split]})
    lines = [f"duplicates: {sum(p['kind'] == 'exact' for p in pairs)} exact, "
             f"{sum(p['kind'] == 'near' for p in pairs)} near; {sum(p['leak'] for p in pairs)} across train/eval"]
    lines += [f"  {'leak' if p['leak'] else 'repeat'} ({p['kind']}): {' = '.join(p['tasks'])}" for p in pairs]
    return Section(name="duplicates", lines=lines, data={"pairs": pairs}), findings
