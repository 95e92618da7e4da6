"""The ``called`` kind: an action succeeded between ``min`` and ``max`` times."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from pytest_agenteval.tasks.paths import check_arguments
from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleKind, RuleWorld, call_text, outcome


class CalledCheck(RuleKind):
    """``action`` succeeded between ``min`` and ``max`` times (arguments as a subset)."""

    kind: Literal["called"]
    action: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    min: Annotated[int, Field(ge=0)] = 1
    max: Annotated[int, Field(ge=0)] | None = None

    @field_validator("arguments")
    @classmethod
    def _requirements(cls, value: dict[str, Any]) -> dict[str, Any]:
        return check_arguments(value)

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        yield from world.action(f"{where}.action", self.action)
        yield from world.arguments(f"{where}.arguments", self.action, self.arguments)

    def outcome(self, episode: RuleEpisode) -> Outcome:
        n = sum(1 for e in episode.succeeded(self.action) if episode.matches(self.arguments, e.arguments))
        bound = f"at least {self.min}" + (f" and at most {self.max}" if self.max is not None else "")
        what = call_text(self.action, self.arguments)
        return outcome(n >= self.min and (self.max is None or n <= self.max),
                       ok=f"{what} succeeded {n} time(s)", failed=f"{what} succeeded {n} time(s); expected {bound}")
