"""Assemble the grade: task-data checks, then the environment's rubric."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from pytest_agenteval.engine.audit import digest
from pytest_agenteval.grading.checks import Check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.state import state_checks
from pytest_agenteval.grading.trace import trace_checks

if TYPE_CHECKING:
    from pytest_agenteval.engine.environment import Environment, EpisodeState


def grade_episode(env: Environment, episode: EpisodeState, *, run: int = 1) -> Grade:
    task = episode.task
    assert task is not None
    diff = env.diff()
    events = env.audit_log()
    ctx = GradeContext(task=task, env=env, episode=episode, diff=diff, events=events)
    checks = trace_checks(ctx) + state_checks(ctx) + env.rubric(ctx)
    _require_unique_names(checks, task.task_id)
    by_component: dict[str, list[bool]] = defaultdict(list)
    for c in checks:
        by_component[c.component].append(c.passed)
    passed = sum(c.passed for c in checks)
    # Built from our own typed values: model_construct skips re-validating them.
    return Grade.model_construct(
        task_id=task.task_id,
        run=run,
        environment=env.name,
        scenario_seed=task.scenario_seed,
        passed=passed == len(checks),
        score=round(passed / len(checks), 4),
        components={k: round(sum(v) / len(v), 4) for k, v in sorted(by_component.items())},
        checks=checks,
        failure_modes=sorted({c.failure_mode for c in checks if not c.passed}),
        failure_mode_tags=list(task.failure_mode_tags),
        split=task.split,
        forbidden_actions_taken=list(episode.forbidden),
        steps_used=episode.steps,
        final_state_diff={t: d.to_json() for t, d in sorted(diff.items())},
        audit_digest=digest(events),
        actions=[{"action": e.action, "arguments": e.arguments} for e in ctx.agent_events()],
    )


def _require_unique_names(checks: list[Check], task_id: str) -> None:
    seen: set[str] = set()
    for c in checks:
        if c.name in seen:
            raise ValueError(f"task {task_id}: two checks are named {c.name!r}; rename one")
        seen.add(c.name)
