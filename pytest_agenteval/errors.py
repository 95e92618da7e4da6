"""Exception types. Each is one line of meaning; messages say what and how to fix."""

from __future__ import annotations

import sysconfig
import traceback
from dataclasses import dataclass

__all__ = ["ActionError", "AgentEvalError", "AgentSpecError", "EnvironmentBug", "EnvironmentSpecError", "EpisodeOver",
           "JudgeError", "JudgeSpecError", "ProviderError", "TaskFileError", "TaskProblem", "describe_exception"]


@dataclass(frozen=True, kw_only=True)
class TaskProblem:
    """One thing wrong with one task line: where, which field, what, and the fix."""

    path: str
    line: int
    field: str
    message: str
    fix: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message} ({self.fix})"


class AgentEvalError(Exception):
    """Base class of every error this package raises on purpose."""


class TaskFileError(AgentEvalError):
    """One or more task lines are malformed; ``problems`` lists each of them."""

    def __init__(self, problems: list[TaskProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class ActionError(AgentEvalError):
    """Raised by an action when the business rules refuse it; the agent sees it as data."""

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}")


class EpisodeOver(BaseException):
    """Raised from ``episode.call`` once the episode has ended (step budget or time limit).

    A ``BaseException``, like ``asyncio.CancelledError``: an agent's ``except Exception``
    retry loop does not swallow it, so the agent stops instead of spinning.
    """


class EnvironmentBug(BaseException):
    """An action raised something other than ``ActionError``: a bug in the environment, not
    the agent's doing, so the episode is not graded (grading raises it again).

    A ``BaseException``, like ``EpisodeOver``: an agent's ``except Exception`` cannot hide it.
    """


class JudgeError(EnvironmentBug):
    """The model judge (docs/judge.md) could not give a verdict: unreachable, refused, or two
    malformed answers. Like an environment's bug it is the harness's failure, not the agent's,
    so it is an ``EnvironmentBug``: the episode is not graded and counts in no pass rate."""


class JudgeSpecError(AgentEvalError):
    """``--agenteval-judge`` names something that cannot be used as a judge."""


class AgentSpecError(AgentEvalError):
    """``--agent`` names something that cannot be loaded."""


class ProviderError(AgentEvalError):
    """The model provider failed the agent: unreachable, refused its credentials, or kept
    answering with a rate limit or a server error after the retries. The episode is *errored*
    (docs/errors.md), not failed. ``reason``: ``connection``, ``auth``, ``rate_limit``, ``server``."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class EnvironmentSpecError(AgentEvalError):
    """A task names an environment that is not registered or cannot be imported."""


_STDLIB = sysconfig.get_paths()["stdlib"]
# Installed packages: under the standard library's folder in some layouts (pyenv, conda, distros).
_SITE = tuple({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})


def describe_exception(exc: BaseException) -> str:
    """``ValueError: boom (at myagent.py:12)``: the exception and the last line of the user's
    own code it passed through (not this package's, not the standard library's)."""
    # (no source line is read: an agent that used up its open files is still described; red team 39)
    frames = traceback.StackSummary.extract(traceback.walk_tb(exc.__traceback__), lookup_lines=False)
    ours = [f for f in frames if "pytest_agenteval" not in f.filename.replace("\\", "/")
            and (f.filename.startswith(_SITE) or not f.filename.startswith(_STDLIB))]
    where = f" (at {ours[-1].filename.rsplit('/', 1)[-1]}:{ours[-1].lineno})" if ours else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}{where}"[:500]
