"""The task line, as pydantic models: the one place a task file's shape is defined.

``Task.model_json_schema()`` exports it for editors and other tools.
"""

from __future__ import annotations

import typing
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar, Union

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks.fields import (
    NAME_RE,
    RESERVED_MARK_WORDS,
    SAY_TO_USER,
    Scalar,
    Strict,
    check_mark_name,
    problem,
)
from pytest_agenteval.tasks.paths import AnyOrder as AnyOrder  # re-exported
from pytest_agenteval.tasks.paths import Element, PathOrder
from pytest_agenteval.tasks.paths import PathStep as PathStep  # re-exported
from pytest_agenteval.tasks.rules import RULE_KINDS, CalledCheck, CountCheck, JudgedCheck, OrderCheck, RuleKind
from pytest_agenteval.text.requirements import says_of

TASK_ID_RE = lazy(r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
VARY_RE = lazy(r"^(\*|[A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_][A-Za-z0-9_]*$")
_Strict = Strict
# Re-exported: the names this module has always offered.
__all__ = ["NAME_RE", "RESERVED_MARK_WORDS", "RULE_KINDS", "SAY_TO_USER", "AnyOrder", "CalledCheck", "CountCheck",
           "Fault", "JudgedCheck", "OrderCheck", "PathFreedoms", "PathStep", "RuleCheck", "Scalar", "Task",
           "UserFact", "UserReplies", "UserScenario", "check_mark_name", "problem", "register_rule_kind",
           "task_json_schema"]


class Fault(_Strict):
    """Make ``action`` fail on its ``call``-th call (counting calls that reached execution)."""

    action: str
    call: Annotated[int, Field(ge=1)] = 1
    error: Literal["timeout", "unavailable", "stale_read"]
    after_commit: bool = False

    @model_validator(mode="after")
    def _after_commit_needs_timeout(self) -> Fault:
        if self.after_commit and self.error != "timeout":
            raise problem(
                f"after_commit is only meaningful for a timeout, not {self.error!r}",
                'drop "after_commit" or use "error": "timeout"',
            )
        return self


class PathFreedoms(_Strict):
    """What ``action_path`` lets differ from the listed paths (docs/grading-modes.md).

    ``repeat``: writing actions whose exact repeat (same arguments) is harmless; only the first
    counts. ``overwrite``: action -> the arguments naming what it writes (empty: any call); a
    call is replaced by a later call of the action with the same values there, so only the last
    counts. ``multiset``: ``action.argument`` lists compared as multisets (order ignored).
    The final state is graded as ever: a wrong last write still fails."""

    repeat: list[str] = Field(default_factory=list)
    overwrite: dict[str, list[str]] = Field(default_factory=dict)
    multiset: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$")]] = Field(
        default_factory=list)

    def multiset_arguments(self, action: str) -> frozenset[str]:
        return frozenset(m.split(".", 1)[1] for m in self.multiset if m.split(".", 1)[0] == action)

    def actions(self) -> set[str]:
        return {*self.repeat, *self.overwrite, *(m.split(".", 1)[0] for m in self.multiset)}


TermList = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]


class UserFact(_Strict):
    """Something the simulated user knows and tells when asked: ``about`` are the words that ask
    for it (lexicon terms: ``account number``, ``facilit*``), ``reply`` what the user then says."""

    about: TermList
    reply: Annotated[str, Field(min_length=1)]


class UserReplies(_Strict):
    """What the scripted user says in each case (docs/conversations.md)."""

    confirm: str = "Yes, please go ahead."
    decline: str = "No, please don't do that."
    unclear: str = "Before I agree, please tell me exactly what you will do."
    unknown: str = "Sorry, I don't know that."
    ack: str = "Okay."
    closing: str = "No, that's all. Thank you, goodbye."
    over: str = "(the user has left the conversation)"


class UserScenario(_Strict):
    """A simulated user the agent talks to through ``say_to_user`` (docs/conversations.md).

    The scripted user (the default) answers from these rules alone, so the same messages always
    get the same replies. ``persona`` and ``goal`` are for a model-driven user and the transcript.
    ``confirmation``: ``each_write`` (every write that takes effect needs a confirmation given
    since the previous write) or ``per_message`` (a confirmation covers the writes made before the
    agent's next message); None: writes need none. ``must_tell``: label -> ``{"says": [...]}``
    that some message to the user must meet (check ``told.<label>``)."""

    persona: str = ""
    goal: str = ""
    facts: list[UserFact] = Field(default_factory=list)
    confirms: bool = True
    confirm_requires: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    confirmation: Literal["each_write", "per_message"] | None = None
    must_tell: dict[Annotated[str, Field(pattern=NAME_RE.pattern)], dict[str, Any]] = Field(default_factory=dict)
    max_turns: Annotated[int, Field(ge=1, le=200)] = 12
    replies: UserReplies = Field(default_factory=UserReplies)

    @field_validator("must_tell")
    @classmethod
    def _says(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for label, requirement in value.items():
            if says_of(requirement) is None:
                raise problem(f"{label!r} is not a says requirement",
                              f'write "{label}": {{"says": ["meaning", ...]}} (docs/text.md)')
        return value


def _rule_union() -> Any:
    """The checks a task line may hold: a union of the kinds in the table, told apart by ``kind``."""
    return Annotated[Union[tuple(RULE_KINDS.values())], Field(discriminator="kind")]  # noqa: UP007


if TYPE_CHECKING:
    RuleCheck = RuleKind
else:
    RuleCheck = _rule_union()


# Checked by pydantic's own (Rust) regex engine: far cheaper than a Python validator per
# line. The loader turns a mismatch into the message and fix in PATTERN_PROBLEMS.
TaskId = Annotated[str, Field(pattern=TASK_ID_RE.pattern)]
TagName = Annotated[str, Field(pattern=NAME_RE.pattern)]
VaryName = Annotated[str, Field(pattern=VARY_RE.pattern)]
PATTERN_PROBLEMS = {
    "task_id": ("{value!r} is not a usable test id",
                "use letters, digits and . _ : - only, starting with a letter or digit"),
    "failure_mode_tags": ("{value!r} cannot be a pytest marker",
                          "a failure-mode tag is letters, digits and underscores, starts with a letter or "
                          "underscore, and is not and/or/not"),
    "vary": ("{value!r} is not table.field or *.field", 'write e.g. "note.body" or "*.updated_at"'),
    "path_freedoms": ("{value!r} is not action.argument", 'write e.g. "exchange_items.item_ids"'),
}


class Task(BaseModel):
    """One line of a task file. Unknown keys are an error, so typos cannot pass silently.

    Keys beyond these fields belong to the task's environment (``Environment.task_fields``,
    a pydantic model); the loader validates them there, and refuses those no model declares.
    """

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    task_id: TaskId
    environment: str
    scenario_seed: Annotated[int, Field(ge=0)]
    instruction: Annotated[str, Field(min_length=1)]
    allowed_actions: Annotated[list[str], Field(min_length=1)]
    expected_final_state: dict[str, dict[str, Any]] = Field(
        validation_alias=AliasChoices("expected_final_state", "expected_end_state")
    )
    vary: list[VaryName] = Field(default_factory=list)
    # Each path a list of steps and {"any_order": [...]} groups (see tasks/paths.py).
    acceptable_action_paths: list[list[Element]] = Field(default_factory=list)
    failure_mode_tags: list[TagName] = Field(default_factory=list)
    split: Literal["train", "eval"] = "eval"
    overrides: dict[str, dict[str, dict[str, Scalar]]] = Field(default_factory=dict)
    faults: list[Fault] = Field(default_factory=list)
    checks: list[RuleCheck] = Field(default_factory=list)
    max_steps: Annotated[int, Field(ge=1, le=10_000)] = 30
    # How the paths grade (docs/grading-modes.md): "path" (default) checks the writes against
    # them (``action_path``); "outcome" makes the first path the reference solution only, so
    # the episode is judged by final state, rubric and rule checks.
    grade_by: Literal["path", "outcome"] = "path"
    path_freedoms: PathFreedoms = Field(default_factory=PathFreedoms)
    # Refusing is the right answer: nothing may change (expected_final_state must be {}).
    no_change: bool = False
    # Given to the agent with the instruction (over the environment's own, if any).
    policy: str | None = None
    system_prompt: str | None = None
    # A simulated user the agent talks to (docs/conversations.md); the task must allow say_to_user.
    user: UserScenario | None = Field(default=None, validate_default=True)

    @field_validator("failure_mode_tags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        for tag in value:
            if tag in RESERVED_MARK_WORDS:
                check_mark_name(tag, "failure-mode tag")
        if len(set(value)) != len(value):
            raise problem("a tag is listed twice", "list each failure-mode tag once")
        return value

    @field_validator("expected_final_state")
    @classmethod
    def _expected_shape(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for table, clauses in value.items():
            for key, clause in clauses.items():
                where = f"{table}.{key}"
                if key in ("+", "+?"):
                    if not isinstance(clause, list) or not all(isinstance(r, dict) and r for r in clause):
                        raise problem(
                            f'{where} must be a list of row objects',
                            f'write "{key}": [{{"field": value, ...}}] for each row the episode '
                            + ("adds" if key == "+" else "may add"),
                        )
                elif key == "-":
                    if not isinstance(clause, list) or not all(
                        isinstance(k, (str, int)) and not isinstance(k, bool) for k in clause
                    ):
                        raise problem(
                            f"{where} must be a list of primary keys",
                            'write "-": ["ID-1", ...] for the rows the episode deletes',
                        )
                elif not isinstance(clause, dict) or not clause:
                    raise problem(
                        f"{where} must be a non-empty object of field values",
                        f'write "{key}": {{"field": value}}',
                    )
        return value

    # Field validators, not a model one, so an error names its field (they run in field order).
    @field_validator("path_freedoms")
    @classmethod
    def _freedoms(cls, value: PathFreedoms, info: ValidationInfo) -> PathFreedoms:
        freed = value.actions()
        if info.data.get("grade_by") == "outcome" and freed:
            raise problem('path_freedoms loosen action_path, which grade_by "outcome" does not apply',
                          'drop "path_freedoms", or grade by "path"')
        unknown = sorted(freed - set(info.data.get("allowed_actions") or ()))
        if unknown:
            raise problem(f"names {', '.join(unknown)}, not in allowed_actions", "free only actions the task allows")
        return value

    @field_validator("no_change")
    @classmethod
    def _no_change(cls, value: bool, info: ValidationInfo) -> bool:
        if value and info.data.get("expected_final_state"):
            raise problem("says nothing may change, but expected_final_state names changes",
                          'set "expected_final_state": {} or drop "no_change"')
        return value

    @field_validator("user")
    @classmethod
    def _user(cls, value: UserScenario | None, info: ValidationInfo) -> UserScenario | None:
        allowed = info.data.get("allowed_actions") or ()
        if value is not None and SAY_TO_USER not in allowed:
            raise problem(f"a user scenario needs the {SAY_TO_USER} action to talk to it",
                          f'add "{SAY_TO_USER}" to allowed_actions')
        if value is None and SAY_TO_USER in allowed:
            raise problem(f"allowed_actions has {SAY_TO_USER} but the task has no user to talk to",
                          f'add a "user" scenario (docs/conversations.md) or drop {SAY_TO_USER}')
        return value

    def path_orders(self) -> list[PathOrder]:
        """Each acceptable path as a partial order over its steps."""
        paths, orders = self._path_orders
        if paths is not self.acceptable_action_paths:  # a model_copy(update=...) carried the cache over
            del self.__dict__["_path_orders"]
            paths, orders = self._path_orders
        return list(orders)

    @cached_property
    def _path_orders(self) -> tuple[Any, tuple[PathOrder, ...]]:  # laid out once per task, not per grade
        return self.acceptable_action_paths, tuple(PathOrder.of(p) for p in self.acceptable_action_paths)

    @property
    def briefing(self) -> str:
        """What the task tells the agent of its records: the instruction and, with a simulated
        user, what the user tells when asked (rubrics find the records a task is about here)."""
        if self.user is None:
            return self.instruction
        return " ".join([self.instruction, *(f.reply for f in self.user.facts)])

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.failure_mode_tags)

    @property
    def domain_fields(self) -> dict[str, Any]:
        """The line's keys beyond the common fields: its environment's own task fields,
        validated by the loader against ``Environment.task_fields`` (read them typed with
        ``env.task_fields_of(task)``)."""
        return dict(self.model_extra or {})


def task_json_schema(fields: type[BaseModel] | None = None) -> dict[str, Any]:
    """The JSON Schema of a task line, with an environment's ``task_fields`` model if given.
    (``Task.model_json_schema()`` alone allows any extra key: domain fields are checked later.)"""
    schema = Task.model_json_schema()
    if fields is not None:
        extra = fields.model_json_schema()
        schema["properties"].update(extra.get("properties", {}))
        schema.setdefault("$defs", {}).update(extra.get("$defs", {}))
    schema["additionalProperties"] = False
    return schema


_Kind = TypeVar("_Kind", bound=type[RuleKind])


def register_rule_kind(kind: _Kind) -> _Kind:
    """Make ``kind`` (a ``RuleKind`` subclass with its ``kind: Literal["name"]``) a kind task files
    may use, from outside the package: before task files load, e.g. in a conftest.py. Returns it,
    so it serves as a class decorator. docs/tasks.md, "Add a rule kind"."""
    fields = kind.__pydantic_fields__ if issubclass(kind, RuleKind) else {}
    names = typing.get_args(fields["kind"].annotation) if "kind" in fields else ()
    if len(names) != 1 or not isinstance(names[0], str):
        raise TypeError(f"{kind!r} is no rule kind: subclass RuleKind and declare kind: Literal['name']")
    (name,) = names
    if RULE_KINDS.get(name, kind) is not kind:
        raise ValueError(f"there is a rule kind {name!r} already: {RULE_KINDS[name].__qualname__}")
    RULE_KINDS[name] = kind
    checks: Any = list[_rule_union()]  # type: ignore[misc]  # a union made at run time
    Task.model_fields["checks"].annotation = checks
    Task.model_rebuild(force=True)
    return kind
