"""The ``count`` kind: exactly ``equals`` rows of a table match in the final state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import Field

from pytest_agenteval.tasks.fields import Scalar
from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleKind, RuleWorld, outcome


def _show(mapping: dict[str, Scalar]) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" for k, v in mapping.items()) + "}"


class CountCheck(RuleKind):
    """Exactly ``equals`` rows of ``table`` match ``where`` in the final state."""

    kind: Literal["count"]
    table: str
    where: dict[str, Scalar]
    equals: Annotated[int, Field(ge=0)]

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        problems = world.table(f"{where}.table", self.table)
        yield from problems
        if not problems:
            yield from world.fields(f"{where}.where", self.table, self.where)

    def outcome(self, episode: RuleEpisode) -> Outcome:
        n = episode.count(self.table, self.where)
        seen = f"{n} {self.table} row(s) match {_show(self.where)}"
        return outcome(n == self.equals, ok=seen, failed=f"{seen}; expected {self.equals}")
