"""The ``judged`` rule check: a task's rubric for free text, read by the configured judge."""

from __future__ import annotations

from pytest_agenteval.errors import JudgeError, describe_exception
from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.grading.judge import Judge, JudgeRequest, Verdict, as_verdict, identity_of
from pytest_agenteval.tasks.model import JudgedCheck


def judged_check(ctx: GradeContext, rule: JudgedCheck, judge: Judge) -> Check:
    """Every text the agent wrote in ``rule.argument`` of a successful ``rule.action``, judged.

    No such text fails the check without asking the judge: a letter never sent is not a kind
    letter (and an agent that does nothing must not pass it).
    """
    texts = [e.arguments[rule.argument] for e in ctx.succeeded(rule.action)
             if isinstance(e.arguments, dict) and isinstance(e.arguments.get(rule.argument), str)]
    where = f"{rule.action}.{rule.argument}"
    if not texts:
        return check(rule.name, False, failure_mode=rule.failure_mode, component="judged", ok="",
                     failed=f"no successful {rule.action} wrote {rule.argument}: nothing to judge")
    who = identity_of(judge)
    unique = list(dict.fromkeys(texts))
    verdicts = []
    for text in unique:
        request = JudgeRequest(rubric=rule.rubric, text=text, action=rule.action, argument=rule.argument,
                               task_id=ctx.task.task_id)
        verdicts.append((text, _ask(judge, request, who)))
    failed = [(t, v) for t, v in verdicts if not v.passed]
    shown, verdict = failed[0] if failed else verdicts[0]
    count = f" ({len(failed)} of {len(unique)} texts)" if len(unique) > 1 and failed else ""
    reason = _line(verdict.reason, 300)  # a detail is one line, whatever the judge wrote
    return check(rule.name, not failed, failure_mode=rule.failure_mode, component="judged",
                 ok=f"judge passed {where} {_quote(shown)}: {reason}",
                 failed=f"judge failed {where} {_quote(shown)}{count}: {reason}")


def _ask(judge: Judge, request: JudgeRequest, who: str) -> Verdict:
    try:
        return as_verdict(judge(request), who)
    except JudgeError:
        raise
    except Exception as exc:  # noqa: BLE001 - a judge function's bug is the harness's failure, not the agent's
        raise JudgeError(f"judge {who} raised {describe_exception(exc)}; the episode is not graded") from exc


def _line(text: str, width: int) -> str:
    body = " ".join(text.split())
    return body if len(body) <= width else body[: width - 1] + "…"


def _quote(text: str, width: int = 60) -> str:
    return repr(_line(text, width))
