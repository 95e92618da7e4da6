"""What an episode looked like to its agent, for the HTML report's drill-down.

A grade records the agent's actions but not what each call returned. Given the task files,
``episode_details`` replays each episode's actions on a fresh reset and keeps every
observation; the replay is deterministic, and its audit digest is compared with the recorded
one so that a changed task or environment is said, not hidden.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_agenteval.engine.audit import digest
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import describe_exception
from pytest_agenteval.taskfiles.loader import TaskLoader


@dataclass(frozen=True, kw_only=True)
class Step:
    action: str
    arguments: Any
    observation: Any


@dataclass(frozen=True, kw_only=True)
class EpisodeDetail:
    instruction: str
    steps: list[Step]
    # Empty when the replay reproduced the recorded audit log; otherwise why it may not match.
    warning: str = ""


class Replayer:
    """Replays episodes of the tasks in ``task_paths`` one at a time (``detail``); ``close`` when done.

    Only the drill-down depends on it, so a task file that is missing or has bad lines costs
    those tasks their details and nothing else."""

    def __init__(self, task_paths: Iterable[str | os.PathLike[str]], *, pool: EnvironmentPool | None = None) -> None:
        self._own = pool is None
        self.pool = pool or EnvironmentPool()
        loader = TaskLoader(self.pool)
        self.tasks = {}
        for path in task_paths:
            files = sorted(Path(path).glob("*.jsonl")) if Path(path).is_dir() else [Path(path)]
            for file in files:
                if file.is_file():
                    self.tasks.update({t.task.task_id: t.task for t in loader.load_file(file)[0]})

    def detail(self, grade: Mapping[str, Any]) -> EpisodeDetail | None:
        """What the episode of ``grade`` looked like to its agent; None if its task is not known."""
        task = self.tasks.get(str(grade["task_id"]))
        if task is None:
            return None
        env = self.pool.get(task.environment)
        steps: list[Step] = []
        try:
            env.reset(task.scenario_seed, task=task)
            for a in grade.get("actions", []):
                steps.append(Step(action=a["action"], arguments=a.get("arguments"),
                                  observation=env.apply(a["action"], a.get("arguments"))))
            # The audit log's digest, not a grade: grading again asked the judge (a network call per
            # episode), and a judge that failed, as an agent can make it, ended the report after its
            # index, which showed only the episodes graded, all passed (red team 17).
            same = digest(env.audit_log()) == grade.get("audit_digest")
        except Exception as exc:  # noqa: BLE001 - one episode's drill-down, never the report
            return EpisodeDetail(instruction=task.instruction, steps=steps, warning=(
                f"replaying the recorded actions failed after {len(steps)} of them ({describe_exception(exc)}): "
                "the rest of the observations are not shown"))
        warning = "" if same else (
            "replaying the recorded actions gave a different audit log: the task or environment changed "
            "since this run, so these observations may not be the ones the agent saw")
        return EpisodeDetail(instruction=task.instruction, steps=steps, warning=warning)

    def close(self) -> None:
        if self._own:
            self.pool.close()


def episode_details(grades: Iterable[Mapping[str, Any]], task_paths: Iterable[str | os.PathLike[str]], *,
                    pool: EnvironmentPool | None = None) -> dict[tuple[str, int], EpisodeDetail]:
    """{(task_id, run): detail} for every grade whose task is in ``task_paths``."""
    replayer = Replayer(task_paths, pool=pool)
    try:
        details = {}
        for grade in grades:
            detail = replayer.detail(grade)
            if detail is not None:
                details[(str(grade["task_id"]), int(grade["run"]))] = detail
        return details
    finally:
        replayer.close()
