"""Coverage: failure mode × environment × split, with how many tasks probe each and how often
the reference (and each guessability baseline, when ``TaskSet.baseline_passes`` holds them)
passes them.

A failure mode of an environment with tasks in one split only cannot be both learnt and
measured: warning. So is an environment with no task in one of the splits — unless the whole
set is of one split (a train file validated alone), which is only info.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import TaskSet

SPLITS = ("train", "eval")


def _rate(items: list[LoadedTask], passes: dict[str, bool]) -> float | None:
    known = [passes[i.where] for i in items if i.where in passes]
    return sum(known) / len(known) if known else None


def check_coverage(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    cells: dict[tuple[str, str, str], list[LoadedTask]] = defaultdict(list)
    per_env: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(SPLITS, 0))
    for item in taskset.loaded:
        per_env[item.environment][item.split] += 1
        for tag in item.failure_mode_tags:
            cells[(tag, item.environment, item.split)].append(item)
    reference = {where: grade.passed for where, grade in taskset.references.items()}
    findings: list[Finding] = []
    # A set of one split (a train file validated on its own) says nothing of the other: info.
    one_split = len({item.split for item in taskset.loaded}) == 1
    for env, counts in sorted(per_env.items()):
        for split in SPLITS:
            if not counts[split]:
                findings.append(Finding(where=f"environment {env}", level="info" if one_split else "warning",
                                        message=f"no {split} task: add {split} tasks (split: {split!r})"))
    modes = sorted({(tag, env) for tag, env, _ in cells})
    for tag, env in modes:
        for split in SPLITS:
            if not cells.get((tag, env, split)) and per_env[env][split]:
                other = cells[(tag, env, SPLITS[1 - SPLITS.index(split)])]
                findings.append(Finding(
                    where=f"environment {env}", level="warning",
                    message=f"failure mode {tag} has no {split} task ({len(other)} in the other split: "
                            f"{', '.join(i.task_id for i in other[:3])}{'…' if len(other) > 3 else ''}); "
                            f"tag a {split} task that holds its trap"))
    rows: list[dict[str, Any]] = []
    for (tag, env), split in ((m, s) for m in modes for s in SPLITS):
        items = cells.get((tag, env, split), [])
        rows.append({"failure_mode": tag, "environment": env, "split": split, "tasks": len(items),
                     "reference": _rate(items, reference),
                     "baselines": {name: _rate(items, passes) for name, passes in
                                   sorted(taskset.baseline_passes.items())}})
    width = max([len(tag) for tag, _ in modes] + [12])
    lines = ["coverage: failure mode × environment × split (tasks, reference pass rate, best baseline's; "
             "each baseline's in the JSON report)",
             f"{'failure mode'.ljust(width)}  {'environment':<12} {'train':>16} {'eval':>16}"]
    for tag, env in modes:
        shown = []
        for split in SPLITS:
            row = next(r for r in rows if (r["failure_mode"], r["environment"], r["split"]) == (tag, env, split))
            best = max((r for r in row["baselines"].values() if r is not None), default=None)
            shown.append(f"{row['tasks']:3d} " + "/".join("-" if r is None else f"{r:.0%}"
                                                          for r in (row["reference"], best)))
        lines.append(f"{tag.ljust(width)}  {env:<12} {shown[0]:>16} {shown[1]:>16}")
    return Section(name="coverage", lines=lines, data={"cells": rows, "splits": dict(per_env)}), findings
