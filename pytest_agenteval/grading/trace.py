"""Checks from the audit log: forbidden actions, action paths, step budget, rule checks."""

from __future__ import annotations

from typing import Any

from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.engine.schema import quote
from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.state import equal, show
from pytest_agenteval.tasks.model import CalledCheck, CountCheck, OrderCheck, PathStep


def trace_checks(ctx: GradeContext) -> list[Check]:
    checks = [_agent(ctx), _forbidden(ctx), _budget(ctx)]
    if ctx.task.acceptable_action_paths:
        checks.append(_path(ctx))
    checks += [_rule(ctx, rule) for rule in ctx.task.checks]
    return checks


def _agent(ctx: GradeContext) -> Check:
    failure = ctx.episode.agent_failure
    label, detail = failure if failure else ("agent_error", "")
    return check("agent_completed", failure is None, failure_mode=label, component="actions",
                 ok="the agent returned normally", failed=detail)


def _forbidden(ctx: GradeContext) -> Check:
    taken = ctx.episode.forbidden
    return check("no_forbidden_actions", not taken, failure_mode="forbidden_action",
                 component="actions", ok="only allowed actions were called",
                 failed=f"called action(s) outside allowed_actions: {', '.join(taken)}; "
                        f"allowed: {', '.join(ctx.task.allowed_actions)}")


def _budget(ctx: GradeContext) -> Check:
    ep = ctx.episode
    return check("step_budget", not ep.over_budget, failure_mode="step_limit", component="actions",
                 ok=f"{min(ep.steps, ep.max_steps)} of {ep.max_steps} steps used",
                 failed=f"the agent tried to go past its budget of {ep.max_steps} steps")


def attempted_writes(ctx: GradeContext) -> list[AuditEvent]:
    """Writing calls that reached execution (refused and invalid calls are graded elsewhere)."""
    return [
        e for e in ctx.agent_events()
        if e.outcome != "refused" and e.error != "invalid_arguments"
        and e.action in ctx.env.actions and ctx.env.actions[e.action].writes
    ]


def step_matches(step: PathStep, event: AuditEvent, free_text: frozenset[str] = frozenset()) -> bool:
    """Same action, and the step's arguments (free text aside) as a subset of the call's."""
    if step.action != event.action:
        return False
    args = event.arguments
    return isinstance(args, dict) and all(
        k in free_text or (k in args and equal(v, args[k])) for k, v in step.arguments.items()
    )


def _path(ctx: GradeContext) -> Check:
    trace = attempted_writes(ctx)
    writes = ctx.env.actions
    paths = [[s for s in path if writes[s.action].writes] for path in ctx.task.acceptable_action_paths]
    ok = any(
        len(path) == len(trace)
        and all(step_matches(s, e, writes[s.action].free_text) for s, e in zip(path, trace, strict=True))
        for path in paths
    )
    got = ", ".join(_call(e.action, e.arguments) for e in trace) or "nothing"
    want = " | ".join(", ".join(_call(s.action, s.arguments) for s in p) or "nothing" for p in paths)
    return check("action_path", ok, failure_mode="unexpected_path", component="actions",
                 ok=f"writing actions followed an acceptable path: {got}",
                 failed=f"writing actions were: {got}; acceptable: {want}")


def _call(action: str, arguments: Any) -> str:
    if not isinstance(arguments, dict) or not arguments:
        return f"{action}()"
    return f"{action}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


def _rule(ctx: GradeContext, rule: CalledCheck | OrderCheck | CountCheck) -> Check:
    if isinstance(rule, CalledCheck):
        n = sum(
            1 for e in ctx.succeeded(rule.action)
            if all(k in e.arguments and equal(v, e.arguments[k]) for k, v in rule.arguments.items())
        )
        ok = n >= rule.min and (rule.max is None or n <= rule.max)
        bound = f"at least {rule.min}" + (f" and at most {rule.max}" if rule.max is not None else "")
        what = _call(rule.action, rule.arguments)
        return check(rule.name, ok, failure_mode=rule.failure_mode, component="rules",
                     ok=f"{what} succeeded {n} time(s)",
                     failed=f"{what} succeeded {n} time(s); expected {bound}")
    if isinstance(rule, OrderCheck):
        first_steps = [e.seq for e in ctx.succeeded(rule.first)]
        early = [e for e in ctx.succeeded(rule.then) if not any(s < e.seq for s in first_steps)]
        return check(rule.name, not early, failure_mode=rule.failure_mode, component="rules",
                     ok=f"every {rule.then} came after a {rule.first}",
                     failed=f"{rule.then} at step {early[0].step if early else '?'} came before any "
                            f"successful {rule.first}")
    info = ctx.env.tables[rule.table]
    where = " AND ".join(f"{quote(f)} IS ?" for f in rule.where) or "1"
    n = ctx.env.db.execute(
        f"SELECT count(*) FROM {info.quoted} WHERE {where}", list(rule.where.values())
    ).fetchone()[0]
    return check(rule.name, n == rule.equals, failure_mode=rule.failure_mode, component="rules",
                 ok=f"{n} {rule.table} row(s) match {show(rule.where)}",
                 failed=f"{n} {rule.table} row(s) match {show(rule.where)}; expected {rule.equals}")
