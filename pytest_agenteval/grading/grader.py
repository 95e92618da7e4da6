"""Judge an episode from outside: task-data checks, then the environment's rubric, into a Grade.

A function of its inputs: the world as the episode left it, the rubric, and what the harness
saw of the agent (its failure, if any). The world is read, never changed, and never told.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pytest_agenteval.engine.audit import AuditEvent, digest
from pytest_agenteval.errors import EnvironmentBug
from pytest_agenteval.grading.checks import Check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.conversation import conversation_checks
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.judge import Judge
from pytest_agenteval.grading.state import state_checks
from pytest_agenteval.grading.texts import own_words
from pytest_agenteval.grading.trace import trace_checks

if TYPE_CHECKING:
    from pytest_agenteval.engine.episode_state import EpisodeState
    from pytest_agenteval.engine.world import World

Rubric = Callable[[GradeContext], Sequence[Check]]


def grade_episode(world: World, *, rubric: Rubric | None = None, task_id: str | None = None, run: int = 1,
                  agent_failure: tuple[str, str] | None = None, judge: Judge | None = None) -> Grade:
    """Grade the world's current episode against its task (``task_id``, if given, must be it).

    ``judge`` reads the task's ``judged`` checks (docs/judge.md); without one they are left out
    of the grade and named in ``not_judged``. A judge that fails raises ``JudgeError``."""
    with world.read_only("grading") as episode:
        task = episode.task
        if task is None:
            raise ValueError("grade() needs an episode started with reset(seed, task=...)")
        if task_id is not None and task_id != task.task_id:
            raise ValueError(f"the running episode is task {task.task_id}, not {task_id}")
        if episode.crash is not None:
            raise EnvironmentBug(f"{world.name}: {episode.crash}; the episode is not graded (a bug in the "
                                 "environment, not the agent's doing: fix it, and run check_environment)")
        _check_failure(agent_failure)
        return _grade(world, episode, rubric, run, agent_failure, judge)


def _grade(world: World, episode: EpisodeState, rubric: Rubric | None, run: int,
           agent_failure: tuple[str, str] | None, judge: Judge | None) -> Grade:
    task = episode.task
    assert task is not None
    diff = world.diff()
    logged = world.audit_log()
    events = own_words(as_applied(logged, world), world.texts, task.instruction, world.agent_role)
    ctx = GradeContext(task=task, env=world, episode=episode, diff=diff, events=events, agent_failure=agent_failure,
                       judge=judge)
    not_judged = [r.name for r in task.checks if r.needs_judge] if judge is None else []
    checks = trace_checks(ctx) + state_checks(ctx) + conversation_checks(ctx) + _rubric_checks(rubric, ctx)
    _require_unique_names(checks, task.task_id)
    by_component: dict[str, list[bool]] = defaultdict(list)
    for c in checks:
        by_component[c.component].append(c.passed)
    passed = sum(c.passed for c in checks)
    # Built from our own typed values: model_construct skips re-validating them.
    return Grade.model_construct(
        task_id=task.task_id,
        run=run,
        environment=world.name,
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
        audit_digest=digest(logged),
        actions=[{"action": e.action, "arguments": e.arguments} for e in logged if e.actor_role == world.agent_role],
        not_judged=not_judged or None,
        conversation=[t.to_json() for t in episode.conversation] if task.user is not None else None,
    )


def as_applied(events: list[AuditEvent], world: World) -> list[AuditEvent]:
    """The log as the checks read it: each of the agent's calls that took effect with the arguments
    its action received (``ActionSpec.applied``: a default for what was left out or sent as null).
    A ``called`` rule bounding ``{"notify": true}`` missed a call that sent ``"notify": null`` and
    notified by default, and a path step naming the default failed a model in strict mode."""
    specs, role = world.actions, world.agent_role
    if not any(spec.optional for spec in specs.values()):
        return events
    return [e._replace(arguments=specs[e.action].applied(e.arguments))
            if e.actor_role == role and e.action in specs and (e.outcome == "ok" or e.fault == "timeout_after_commit")
            else e for e in events]


def _require_unique_names(checks: list[Check], task_id: str) -> None:
    seen: set[str] = set()
    for c in checks:
        if c.name in seen:
            raise ValueError(f"task {task_id}: two checks are named {c.name!r}; rename one")
        seen.add(c.name)


# agent_protocol_violation, agent_resource_limit: an isolated agent's child sent a malformed or
# oversized frame, or the OS stopped it at one of its resource limits (agents/sandbox.py);
# over_budget: the agent reported usage past its token or cost budget (agents/budget.py).
AGENT_FAILURES = ("agent_error", "agent_timeout", "interrupted", "agent_protocol_violation", "agent_resource_limit",
                  "over_budget")


def _check_failure(agent_failure: object) -> None:
    if agent_failure is None:
        return
    if not (isinstance(agent_failure, tuple) and len(agent_failure) == 2
            and agent_failure[0] in AGENT_FAILURES and isinstance(agent_failure[1], str)):
        raise ValueError(f"agent_failure must be None or (mode, detail) with mode one of "
                         f"{', '.join(AGENT_FAILURES)}; got {agent_failure!r}")


def _rubric_checks(rubric: Rubric | None, ctx: GradeContext) -> list[Check]:
    checks = list(rubric(ctx)) if rubric is not None else []
    for c in checks:
        if not isinstance(c, Check):
            raise TypeError(f"the rubric of {ctx.env.name} returned {c!r}, not a Check: build checks with check(...)")
    return checks
