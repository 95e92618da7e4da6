"""What a rule-check kind is: an entry of a task's ``checks`` that checks itself against its
environment when the task file loads (``problems``) and reads a finished episode (``outcome``).

A kind sees the environment and the episode only through the two small views below, so it
lives here, with the task format, and knows nothing of the layers that implement them
(``taskfiles/consistency.py`` and ``grading/trace.py``). docs/tasks.md, "Add a rule kind".
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from pydantic import field_validator

from pytest_agenteval.tasks.fields import Strict, check_mark_name

# (field, what is wrong, how to fix): one problem of a task line, as the loader reports it (not
# validate.report.Finding, a finding about the task set).
Problem = tuple[str, str, str]


class Event(Protocol):
    """One successful call of the agent's, as a rule reads it (an ``AuditEvent``)."""

    @property
    def seq(self) -> int: ...  # its place in the audit log
    @property
    def step(self) -> int: ...  # the agent's step it came in
    @property
    def arguments(self) -> Any: ...  # as sent (a dict, unless the agent sent something else)


class ActionShape(Protocol):
    """What a rule may know of an action's arguments (an ``ActionSpec``)."""

    @property
    def argument_names(self) -> tuple[str, ...]: ...
    @property
    def free_text(self) -> frozenset[str]: ...


class RuleWorld(Protocol):
    """The task's environment, as a kind checks itself against it while the file loads."""

    def action(self, field: str, name: str) -> list[Problem]:
        """Problems if the environment has no action ``name`` (it need not be allowed)."""
        ...

    def action_shape(self, name: str) -> ActionShape | None: ...

    def arguments(self, field: str, action: str, arguments: Mapping[str, Any]) -> list[Problem]:
        """Problems of expected arguments of ``action`` (names, mentions/says on free text only)."""
        ...

    def table(self, field: str, table: str) -> list[Problem]: ...

    def fields(self, field: str, table: str, names: Iterable[str]) -> list[Problem]:
        """Problems if ``table`` (which exists) lacks a field of ``names``."""
        ...


class RuleEpisode(Protocol):
    """A finished episode, as a kind reads it: read-only, nothing changes while grading."""

    def succeeded(self, action: str) -> Sequence[Event]:
        """The agent's calls of ``action`` that took effect, in order."""
        ...

    def matches(self, expected: Mapping[str, Any], arguments: Any) -> bool:
        """``expected`` as a subset of a call's ``arguments`` (mentions/says read as on a path)."""
        ...

    def count(self, table: str, where: Mapping[str, Any]) -> int:
        """Rows of ``table`` in the final state whose fields are (SQL ``IS``) ``where``'s values."""
        ...

    def ask_judge(self, rubric: str, text: str, *, action: str, argument: str) -> tuple[bool, str]:
        """The configured judge's verdict on ``text`` (passed, reason); only for ``needs_judge`` kinds."""
        ...

    def conversation(self) -> Sequence[tuple[str, str | None]]:
        """Each message the agent said to the simulated user, with the user's reply (None: none)."""
        ...


class Outcome(NamedTuple):
    passed: bool
    detail: str


def outcome(passed: bool, *, ok: str, failed: str) -> Outcome:
    """An outcome whose detail says ``ok`` when it passed and ``failed`` when it did not."""
    return Outcome(passed, ok if passed else failed)


def one_of(value: str, choices: Iterable[str]) -> str:
    """The fix for a name not among ``choices``: the closest one, then all of them."""
    choices = sorted(choices)
    close = difflib.get_close_matches(value, choices, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"{hint}use one of: {', '.join(choices)}"


def call_text(action: str, arguments: Any) -> str:
    """A call as a detail shows it: ``action(name='value', ...)``."""
    if not isinstance(arguments, dict) or not arguments:
        return f"{action}()"
    return f"{action}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


class RuleKind(Strict):
    """The base of every kind: a named check, tied to the failure mode it catches.

    A kind adds its ``kind: Literal["..."]`` and its fields, and overrides ``problems`` and
    ``outcome``; the table in ``tasks/rules/__init__.py`` (or ``register_rule_kind``) makes it
    a kind task files may use."""

    name: str
    failure_mode: str

    # The grade component its check counts towards.
    component: ClassVar[str] = "rules"
    # True: read by a judge; with none configured it is left out of the grade (Grade.not_judged).
    needs_judge: ClassVar[bool] = False

    @field_validator("name", "failure_mode")
    @classmethod
    def _names(cls, value: str) -> str:
        return check_mark_name(value, "check name or failure mode")

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        """What is wrong with this check against the task's environment (``where``: ``checks[i]``)."""
        raise NotImplementedError

    def outcome(self, episode: RuleEpisode) -> Outcome:
        """Whether the episode passed this check, and a one-line detail saying what was seen."""
        raise NotImplementedError
