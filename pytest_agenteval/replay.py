"""Re-grade recorded episodes without their agent: after a grader fix, or for customers who run
agents in their own harness and only want our grading.

    agenteval replay grades.jsonl tasks/*.jsonl

Each grade in a results file carries the agent's actions; replaying them on a fresh reset gives
the same grade (and the same ``audit_digest``) unless the task, the environment or the grader
changed. What an agent did outside the actions (raising, running out of time) is carried over
from the recorded ``agent_completed`` check, and what it reported (``usage``, ``transcript``)
is copied from the record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import TaskProblem
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.taskfiles.files import read_task_file, resolved
from pytest_agenteval.taskfiles.loader import load_tasks
from pytest_agenteval.tasks.model import Task

IGNORED = frozenset({"nodeid", "duration"})


def replay(env: Environment, task: Task, actions: Iterable[Mapping[str, Any]], *, run: int = 1,
           agent_failure: tuple[str, str] | None = None) -> Grade:
    """Apply recorded actions to a fresh episode of ``task`` and grade it."""
    env.reset(task.scenario_seed, task=task)
    for step in actions:
        env.apply(step["action"], step.get("arguments"))
    return env.grade(run=run, agent_failure=agent_failure)


@dataclass(frozen=True, kw_only=True)
class Difference:
    task_id: str
    run: int
    fields: list[str]

    def __str__(self) -> str:
        return f"{self.task_id} run {self.run}: replay differs in {', '.join(self.fields)}"


@dataclass(frozen=True, kw_only=True)
class NotFound:
    """An episode whose task is in none of the given task files: not replayed, not compared."""

    task_id: str
    run: int

    def __str__(self) -> str:
        return (f"{self.task_id} run {self.run}: its task is not in the given task files "
                "(pass the task file it came from)")


@dataclass(frozen=True, kw_only=True)
class Replayed:
    grades: list[Grade]  # one per episode replayed (episodes whose task was found)
    different: list[Difference]
    not_found: list[NotFound]

    @property
    def identical(self) -> int:
        return len(self.grades) - len(self.different)

    @property
    def episodes(self) -> int:
        return len(self.grades) + len(self.not_found)

    def counts(self) -> str:
        return (f"replayed {self.episodes} episode(s): {self.identical} identical, {len(self.different)} different, "
                f"{len(self.not_found)} whose task was not found")


def changed_task_files(run_record: Mapping[str, Any] | None, task_paths: Iterable[Path]) -> list[str]:
    """A note for each given task file whose bytes differ from the same file in the recorded run."""
    notes = []
    # (a hand-edited record may hold anything: what is not a list of files records none; red team 49)
    listed = run_record.get("task_files") if isinstance(run_record, Mapping) else None
    recorded = [f for f in listed if isinstance(f, dict)] if isinstance(listed, list) else []
    for path in task_paths:
        shown = resolved(path).as_posix()
        same = [f for f in recorded if isinstance(f.get("path"), str)
                and (shown == f["path"] or shown.endswith("/" + f["path"].lstrip("/")))]
        read = read_task_file(path, shown=str(path))
        if isinstance(read, TaskProblem):
            continue  # (said where the tasks are loaded)
        now = hashlib.sha256(read).hexdigest()
        if same and all(f.get("sha256") != now for f in same):
            notes.append(f"note: {path} is not the file the run graded (sha256 {str(same[0].get('sha256'))[:12]} "
                         f"then, {now[:12]} now): a difference may come from the task, not the grader")
    return notes


def replay_results(records: Iterable[Mapping[str, Any]], task_paths: Iterable[str | PathLike[str]],
                   *, pool: EnvironmentPool | None = None) -> Replayed:
    """Replay every graded episode of a results file; report the ones whose grade differs."""
    pool = pool or EnvironmentPool()
    tasks = {t.task_id: t for t in load_tasks(*task_paths, pool=pool)}
    grades, differences, not_found = [], [], []
    for record in records:
        if "summary" in record or "run_record" in record:
            continue
        task = tasks.get(record["task_id"])
        if task is None:
            not_found.append(NotFound(task_id=record["task_id"], run=record["run"]))
            continue
        failed = next((c for c in record["checks"] if c["name"] == "agent_completed" and not c["passed"]), None)
        grade = replay(pool.get(task.environment), task, record.get("actions", []), run=record["run"],
                       agent_failure=(failed["failure_mode"], failed["detail"]) if failed else None)
        # What the agent reported (usage, transcript) and why it could not play (an errored
        # episode's error, docs/errors.md) are not the grader's to recompute: carried over.
        kept = {k: record[k] for k in ("usage", "transcript", "error") if record.get(k) is not None}
        grade = grade.model_copy(update=kept) if kept else grade
        grades.append(grade)
        again = grade.model_dump(mode="json")
        changed = sorted(k for k in again if k not in IGNORED and again[k] != record.get(k))
        if changed:
            differences.append(Difference(task_id=task.task_id, run=record["run"], fields=changed))
    return Replayed(grades=grades, different=differences, not_found=not_found)
