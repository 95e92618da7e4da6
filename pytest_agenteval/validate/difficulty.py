"""Difficulty spread: how many writes and look-ups each task's reference path requires (its
optional steps left out), as a histogram per file; and, given agents (``validate(agents=...)``,
``agenteval validate --agents a:A,b:B``), which tasks each passes — a task every agent passes,
or none does, tells agents apart no more than a task that is not there.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from pytest_agenteval.tasks.paths import first_order
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import TaskSet


def required(taskset: TaskSet) -> dict[str, tuple[int, int]]:
    """where -> (writes, look-ups) the reference path requires."""
    out = {}
    for item in taskset.loaded:
        task = item.task
        actions = taskset.pool.get(task.environment).actions
        steps = [s for s in first_order(task.acceptable_action_paths[0]) if not s.optional] \
            if task.acceptable_action_paths else []
        writes = sum(s.action not in actions or actions[s.action].writes for s in steps)
        out[item.where] = (writes, len(steps) - writes)
    return out


def check_difficulty(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    counts = required(taskset)
    files: dict[str, list[str]] = defaultdict(list)
    for item in taskset.loaded:
        files[item.path].append(item.where)
    lines = ["difficulty: tasks by the writes (w) and look-ups (r) their reference path requires"]
    data: dict[str, Any] = {"tasks": {}, "files": {}, "agents": sorted(taskset.agent_passes)}
    for item in taskset.loaded:
        w, r = counts[item.where]
        passed = {a: p.get(item.where) for a, p in sorted(taskset.agent_passes.items())}
        data["tasks"][item.task_id] = {"where": item.where, "writes": w, "reads": r, "passed": passed}
    for path, wheres in files.items():
        writes = Counter(counts[w][0] for w in wheres)
        reads = Counter(counts[w][1] for w in wheres)
        data["files"][path] = {"writes": {str(n): c for n, c in sorted(writes.items())},
                               "reads": {str(n): c for n, c in sorted(reads.items())}}  # JSON keys
        lines.append(f"{path}: " + ", ".join(f"{n}w {c}" for n, c in sorted(writes.items()))
                     + "; " + ", ".join(f"{n}r {c}" for n, c in sorted(reads.items())))
    if taskset.agent_passes:
        agents = sorted(taskset.agent_passes)
        lines.append("pass matrix (" + ", ".join(f"{chr(65 + i)} = {a}" for i, a in enumerate(agents))
                     + "; + passed, . failed)")
        separating = 0
        for item in taskset.loaded:
            marks = ["+" if taskset.agent_passes[a].get(item.where) else "." for a in agents]
            separating += len(set(marks)) > 1
            lines.append(f"  {item.task_id:<12} {''.join(marks)}")
        lines.append(f"{separating} of {len(taskset.loaded)} task(s) separate the agents; "
                     f"{len(taskset.loaded) - separating} give every agent the same verdict")
        data["separating"] = separating
    return Section(name="difficulty", lines=lines, data=data), []
