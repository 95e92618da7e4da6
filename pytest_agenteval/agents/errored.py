"""An *errored* episode: one the agent could not play, for a reason outside its behaviour.

A model endpoint that is down, refuses the key or keeps rate-limiting, or the agent's own code
raising, says nothing about how well the agent acts; grading such an episode as failed would
score an outage as a regression. So the grade carries an ``error`` object
(``{"kind", "message", "traceback"}``, see docs/errors.md) and the reports leave the episode
out of every pass rate. A results line is errored if and only if its ``error`` is a non-null
object.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from pytest_agenteval.errors import ProviderError, describe_exception
from pytest_agenteval.printable import printable

PROVIDER = "provider"  # the model endpoint: connection, auth, rate limit, server error
AGENT_CODE = "agent_code"  # the agent's own code raised (or its process died)
KINDS = (PROVIDER, AGENT_CODE)
MAX_TRACEBACK = 64 * 1024  # characters kept of a traceback (the end, where the error is)

# Exception class names the OpenAI and Anthropic SDKs (and frameworks wrapping them), httpx and
# requests use; ``ConnectionError`` is also the builtin one (refused, reset) and its subclasses.
_REASONS = {
    "ConnectionError": "connection",
    "APIConnectionError": "connection", "APITimeoutError": "connection", "ConnectError": "connection",
    "ConnectTimeout": "connection", "AuthenticationError": "auth", "PermissionDeniedError": "auth",
    "RateLimitError": "rate_limit", "InternalServerError": "server", "OverloadedError": "server",
    "ServiceUnavailableError": "server",
}
# The harness's own frames above the agent's code: not the agent's traceback.
_HARNESS = str(Path(__file__).parent)


@dataclass(frozen=True, kw_only=True)
class AgentError:
    """Why an episode is errored; ``exception`` (in process only) lets pytest render it."""

    kind: str
    message: str
    traceback: str
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The agent's own text: no escape sequence of it reaches a terminal or a report.
        object.__setattr__(self, "message", printable(self.message, layout=False))
        object.__setattr__(self, "traceback", printable(self.traceback))

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message, "traceback": self.traceback}

    def as_failure(self) -> tuple[str, str]:
        """The ``agent_completed`` check's failure, as before errored episodes existed."""
        return "agent_error", self.message


def provider_reason(exc: BaseException) -> str | None:
    """``connection``, ``auth``, ``rate_limit`` or ``server`` when ``exc`` (or what it wraps) is
    a model provider's failure; None when it is anything else."""
    for found in exception_chain(exc):
        if isinstance(found, ProviderError):
            return found.reason
        for cls in type(found).__mro__:
            if cls.__name__ in _REASONS:
                return _REASONS[cls.__name__]
        status = getattr(found, "status_code", None)
        if isinstance(status, int) and type(found).__module__.split(".")[0] != "builtins":
            if status in (401, 403):
                return "auth"
            if status == 429:
                return "rate_limit"
            if status >= 500:
                return "server"
    return None


def errored_by(exc: BaseException) -> AgentError:
    """The errored outcome of an agent that raised ``exc``, with its traceback from its own code."""
    exc.__traceback__ = _agent_frames(exc.__traceback__)
    reason = provider_reason(exc)
    message = describe_exception(exc)
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return AgentError(kind=PROVIDER if reason else AGENT_CODE,
                      message=f"{reason}: {message}" if reason else message,
                      traceback=text[-MAX_TRACEBACK:], exception=exc)


def errored_from_child(message: str, text: str = "") -> AgentError:
    """An isolated agent's error, as its process reported it (a message and a traceback's text)."""
    kind = PROVIDER if message.split(":", 1)[0] in ("connection", "auth", "rate_limit", "server") else AGENT_CODE
    return AgentError(kind=kind, message=message[:500], traceback=text[-MAX_TRACEBACK:])


def _agent_frames(tb: TracebackType | None) -> TracebackType | None:
    """The traceback from the first frame outside the harness's agent-driving code."""
    start = tb
    while start is not None and start.tb_frame.f_code.co_filename.startswith(_HARNESS):
        start = start.tb_next
    return start or tb


def exception_chain(exc: BaseException, seen: set[int] | None = None) -> Iterator[BaseException]:
    """``exc``, its group members, causes and contexts, each once (a cycle ends the walk)."""
    seen = set() if seen is None else seen
    if id(exc) in seen:
        return
    seen.add(id(exc))
    yield exc
    inner: Any
    for inner in getattr(exc, "exceptions", ()) or ():
        if isinstance(inner, BaseException):
            yield from exception_chain(inner, seen)
    for linked in (exc.__cause__, exc.__context__):
        if linked is not None:
            yield from exception_chain(linked, seen)
