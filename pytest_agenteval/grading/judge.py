"""The optional judge of free text: what it is asked, what it answers, how it is named.

A judge is any callable ``(JudgeRequest) -> Verdict``: a Python function of the user's, or a
model behind an OpenAI-compatible endpoint (``grading.model_judge``), usually wrapped in a
verdict cache (``grading.verdict_cache``) so a rerun asks nothing. It is off by default: with
no judge, a task's ``judged`` checks are left out of the grade and named in
``Grade.not_judged``; they are never passed unread. The deterministic checks always run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_agenteval.errors import JudgeError

# Part of every cache key: a change to how the question is put changes every verdict's key.
PROMPT_VERSION = "2"  # 2: the fence around the text is named by its hash (model_judge.marker)


@dataclass(frozen=True, kw_only=True)
class JudgeRequest:
    """One text to judge. ``task_id`` is for the judge's logs only: it is not in the cache key,
    so a verdict must follow from the rubric, the text, the action and the argument alone."""

    rubric: str
    text: str
    action: str
    argument: str
    task_id: str = ""


@dataclass(frozen=True, kw_only=True)
class Verdict:
    passed: bool
    reason: str


Judge = Callable[[JudgeRequest], Verdict]


def identity_of(judge: Any) -> str:
    """What names a judge in the cache key: its ``identity`` attribute (the model judge's is its
    endpoint and model), else ``module:qualname`` plus an optional ``judge_version`` attribute
    (bump it when the function's verdicts change, or clear the cache)."""
    named = getattr(judge, "identity", None)
    if isinstance(named, str) and named:
        return named
    base = f"{getattr(judge, '__module__', '?')}:{getattr(judge, '__qualname__', type(judge).__qualname__)}"
    version = getattr(judge, "judge_version", None)
    return f"{base}@{version}" if version is not None else base


def cache_key(identity: str, request: JudgeRequest) -> str:
    """sha256 of everything a verdict may depend on, as canonical JSON."""
    parts = [PROMPT_VERSION, identity, request.rubric, request.action, request.argument, request.text]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def as_verdict(answer: object, who: str) -> Verdict:
    """A function judge may return a ``Verdict``, ``{"passed", "reason"}`` or ``(passed, reason)``."""
    if isinstance(answer, Verdict):
        return answer
    if isinstance(answer, dict) and isinstance(answer.get("passed"), bool) and isinstance(answer.get("reason"), str):
        return Verdict(passed=answer["passed"], reason=answer["reason"])
    if (isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], bool)
            and isinstance(answer[1], str)):
        return Verdict(passed=answer[0], reason=answer[1])
    raise JudgeError(f"judge {who} returned {answer!r:.80}, not a Verdict (return Verdict(passed=..., reason=...), "
                     '{"passed": bool, "reason": str} or (bool, str)); the episode is not graded')
