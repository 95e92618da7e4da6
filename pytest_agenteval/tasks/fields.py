"""What every model of the task format shares: strictness, problems that carry their fix, and
names pytest's ``-m`` accepts. (Here, not in model.py, so the rule kinds can use them.)"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticCustomError

from pytest_agenteval.patterns import lazy

Scalar = str | int | float | bool | None

# A name pytest's -m expression parser accepts as one identifier.
NAME_RE = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
RESERVED_MARK_WORDS = frozenset({"and", "or", "not"})
SAY_TO_USER = "say_to_user"  # the action through which the agent talks to a task's simulated user


def problem(message: str, fix: str, **values: Any) -> PydanticCustomError:
    """A validation error whose context carries the fix, so the loader can print it."""
    return PydanticCustomError("agenteval", message, {"fix": fix, **values})


def check_mark_name(value: str, what: str) -> str:
    if not NAME_RE.match(value) or value in RESERVED_MARK_WORDS:
        raise problem(
            f"{value!r} cannot be a pytest marker",
            f"a {what} is letters, digits and underscores, starts with a letter or underscore, "
            "and is not and/or/not",
        )
    return value


class Strict(BaseModel):
    """A part of a task line: unknown keys are an error, values are not coerced, nothing changes."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
