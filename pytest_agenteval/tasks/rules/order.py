"""The ``order`` kind: every successful ``then`` comes after a successful ``first``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleKind, RuleWorld, outcome


class OrderCheck(RuleKind):
    """Every successful ``then`` comes after a successful ``first``."""

    kind: Literal["order"]
    first: str
    then: str

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        yield from world.action(f"{where}.first", self.first)
        yield from world.action(f"{where}.then", self.then)

    def outcome(self, episode: RuleEpisode) -> Outcome:
        first_steps = [e.seq for e in episode.succeeded(self.first)]
        early = [e for e in episode.succeeded(self.then) if not any(s < e.seq for s in first_steps)]
        return outcome(not early, ok=f"every {self.then} came after a {self.first}",
                       failed=f"{self.then} at step {early[0].step if early else '?'} came before any "
                              f"successful {self.first}")
