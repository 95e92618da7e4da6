"""Checks from the audit log: forbidden actions, action paths, step budget, rule checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.engine.schema import quote
from pytest_agenteval.errors import JudgeError, describe_exception
from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.conversation import USER_ROLE
from pytest_agenteval.grading.freedoms import freed_writes, same_multiset
from pytest_agenteval.grading.judge import JudgeRequest, as_verdict, identity_of
from pytest_agenteval.grading.state import equal
from pytest_agenteval.tasks.model import SAY_TO_USER
from pytest_agenteval.tasks.paths import PathOrder, PathStep, mentions_of, mentions_ok
from pytest_agenteval.tasks.rules.base import call_text as _call
from pytest_agenteval.text import ENGLISH, Reader, reader_for
from pytest_agenteval.text.requirements import says_of, says_ok


def trace_checks(ctx: GradeContext) -> list[Check]:
    checks = [_agent(ctx), _forbidden(ctx), _budget(ctx)]
    if ctx.task.no_change:
        checks.append(_no_change(ctx))
    elif ctx.task.acceptable_action_paths and ctx.task.grade_by == "path":
        checks.append(_path(ctx))
    episode = _RuleEpisode(ctx)
    for rule in ctx.task.checks:  # each kind judges itself (tasks/rules/)
        if rule.needs_judge and ctx.judge is None:
            continue  # without a judge, left out (Grade.not_judged), never passed unread
        passed, detail = rule.outcome(episode)
        checks.append(Check(name=rule.name, passed=passed, detail=detail, failure_mode=rule.failure_mode,
                            component=rule.component))
    return checks


def _agent(ctx: GradeContext) -> Check:
    failure = ctx.agent_failure
    label, detail = failure if failure else ("agent_error", "")
    if label == "over_budget":  # its own check: the agent was stopped, by its usage budget
        return check("usage_budget", False, failure_mode=label, component="actions", ok="", failed=detail)
    return check("agent_completed", failure is None, failure_mode=label, component="actions",
                 ok="the agent returned normally", failed=detail)


# The most of a forbidden action's name its check shows: an isolated agent's names can be a
# megabyte each (29 of them made a 60 MB failure section and a 120 MB JUnit XML; red team 17).
NAME_SHOWN = 80


def _forbidden(ctx: GradeContext) -> Check:
    taken = [name if len(name) <= NAME_SHOWN else f"{name[:NAME_SHOWN - 1]}… ({len(name):,} characters)"
             for name in ctx.episode.forbidden]
    return check("no_forbidden_actions", not taken, failure_mode="forbidden_action",
                 component="actions", ok="only allowed actions were called",
                 failed=f"called action(s) outside allowed_actions: {', '.join(taken)}; "
                        f"allowed: {', '.join(ctx.task.allowed_actions)}")


def _budget(ctx: GradeContext) -> Check:
    ep = ctx.episode
    return check("step_budget", not ep.over_budget, failure_mode="step_limit", component="actions",
                 ok=f"{min(ep.steps, ep.max_steps)} of {ep.max_steps} steps used",
                 failed=f"the agent tried to go past its budget of {ep.max_steps} steps")


def effective_writes(ctx: GradeContext) -> list[AuditEvent]:
    """The agent's writing calls that took effect: what ``action_path`` compares with the paths.

    Refused calls (outside allowed_actions, past the budget), invalid arguments and calls the
    environment answered with an error changed nothing, and are judged by their own checks.
    """
    return ctx.written()


def _no_change(ctx: GradeContext) -> Check:
    """A task whose right answer is to change nothing: any write that took effect fails it."""
    trace = effective_writes(ctx)
    got = ", ".join(_call(e.action, e.arguments) for e in trace)
    return check("no_change", not trace, failure_mode="unwarranted_change", component="actions",
                 ok="no write took effect, as the task expects",
                 failed=f"the task expects no change, but these writes took effect: {got} "
                        "(refusing, or only looking, is the right answer here)")


def arguments_match(expected: dict[str, Any], args: Any, free_text: frozenset[str] = frozenset(),
                    reader: Reader | None = None, multisets: frozenset[str] = frozenset()) -> bool:
    """``expected`` as a subset of ``args``; free-text ones only where a ``mentions`` or ``says`` asks
    (``says`` is read with ``reader``, the environment's); ``multisets`` lists in any order."""
    if not isinstance(args, dict):
        return False
    for key, want in expected.items():
        terms = mentions_of(want)
        meanings = says_of(want)
        if terms is not None:
            if not mentions_ok(terms, args.get(key)):
                return False
        elif meanings is not None:
            if not says_ok(reader or reader_for(ENGLISH), meanings, args.get(key)):
                return False
        elif key in multisets and isinstance(want, list):
            if not same_multiset(want, args.get(key)):
                return False
        elif key not in free_text and not (key in args and equal(want, args[key])):
            return False
    return True


def step_matches(step: PathStep, event: AuditEvent, free_text: frozenset[str] = frozenset(),
                 reader: Reader | None = None, multisets: frozenset[str] = frozenset()) -> bool:
    """Same action, and the step's arguments (free text aside) as a subset of the call's."""
    return step.action == event.action and arguments_match(step.arguments, event.arguments, free_text, reader,
                                                           multisets)


def _path(ctx: GradeContext) -> Check:
    written = effective_writes(ctx)
    trace = freed_writes(ctx, written)
    actions = ctx.env.actions
    freedoms = ctx.task.path_freedoms
    orders = [o.only(lambda s: actions[s.action].writes and not s.no_effect) for o in ctx.task.path_orders()]
    reader = ctx.env.reader()
    ok = any(o.allows(trace, lambda s, e: step_matches(s, e, actions[s.action].free_text, reader,
                                                       freedoms.multiset_arguments(s.action))) for o in orders)
    got = ", ".join(_call(e.action, e.arguments) for e in written) or "nothing"
    if len(trace) < len(written):
        compared = ", ".join(_call(e.action, e.arguments) for e in trace) or "nothing"
        got += f" (compared, after path_freedoms: {compared})"
    want = " | ".join(_show_order(o) for o in orders)
    return check("action_path", ok, failure_mode="unexpected_path", component="actions",
                 ok=f"writes that took effect followed an acceptable path: {got}",
                 failed=f"writes that took effect: {got}; acceptable: {want}")


def _show_order(order: PathOrder) -> str:
    """The listed order, with ``~`` joining neighbours that may come in either order."""
    parts = []
    for i, s in enumerate(order.steps):
        sep = "" if i == 0 else (", " if i - 1 in order.before[i] else " ~ ")
        parts.append(sep + _call(s.action, s.arguments))
    return "".join(parts) or "nothing"


class _RuleEpisode:
    """The episode as a rule kind reads it (``tasks.rules.RuleEpisode``)."""

    def __init__(self, ctx: GradeContext) -> None:
        self._ctx = ctx

    def succeeded(self, action: str) -> list[AuditEvent]:
        return self._ctx.succeeded(action)

    def matches(self, expected: Mapping[str, Any], arguments: Any) -> bool:
        return arguments_match(dict(expected), arguments, reader=self._ctx.env.reader())

    def count(self, table: str, where: Mapping[str, Any]) -> int:
        info = self._ctx.env.tables[table]
        condition = " AND ".join(f"{quote(f)} IS ?" for f in where) or "1"
        row = self._ctx.env.db.execute(f"SELECT count(*) FROM {info.quoted} WHERE {condition}",
                                       list(where.values())).fetchone()
        return int(row[0])

    def conversation(self) -> list[tuple[str, str | None]]:
        turns: list[tuple[str, str | None]] = []
        for event in self._ctx.events:
            args = event.arguments if isinstance(event.arguments, dict) else {}
            if event.actor_role == self._ctx.env.agent_role and event.action == SAY_TO_USER and event.outcome == "ok":
                turns.append((str(args.get("message", "")), None))
            elif event.actor_role == USER_ROLE and turns and turns[-1][1] is None:
                turns[-1] = (turns[-1][0], str(args.get("text", "")))
        return turns

    def ask_judge(self, rubric: str, text: str, *, action: str, argument: str) -> tuple[bool, str]:
        judge = self._ctx.judge
        if judge is None:
            raise JudgeError("a judged check was read with no judge configured")
        who = identity_of(judge)
        request = JudgeRequest(rubric=rubric, text=text, action=action, argument=argument,
                               task_id=self._ctx.task.task_id)
        try:
            verdict = as_verdict(judge(request), who)
        except JudgeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a judge function's bug is the harness's failure, not the agent's
            raise JudgeError(f"judge {who} raised {describe_exception(exc)}; the episode is not graded") from exc
        return verdict.passed, verdict.reason
