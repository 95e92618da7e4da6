"""A scripted agent: one list of calls played as written (``agenteval validate``'s variants and
mutants, and ``--agent=replay:`` through ``agents/loading.py``), with what each call answered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.saboteurs import Call

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.tasks.model import Task


@dataclass(frozen=True, kw_only=True)
class Script:
    """A named list of calls. ``expect_refused``: calls that must change nothing (a mistyped
    id); when one took effect after all, the variant tells nothing and is dropped."""

    name: str
    calls: list[Call]
    expect_refused: frozenset[int] = frozenset()
    # Mutants only: a repeated write (its index) that the environment may refuse, and
    # whether the change is to free text, which paths never compare.
    repeat_at: int | None = None
    free_text: bool = False
    # Mutants only: the failure modes that are its label (a check carrying one must fail to
    # kill it; empty: any but the path's and the state's, see validate), whether it is a
    # lying text, and its lying write (the text, or the text moved early), which the
    # environment may refuse: then the mistake cannot be made and the mutant tells nothing.
    expect: frozenset[str] = frozenset()
    text: bool = False
    lie_at: int | None = None
    # "drop" for a write left out (the expected state's label names it too); "repeat" and
    # "swap", which a task graded by outcome allows when the grade passes.
    kind: str = ""


@dataclass
class ScriptedCalls:
    """An agent (and its own factory) that makes the script's calls, keeping the answers."""

    script: Script
    answers: list[dict[str, Any]] = field(default_factory=list)

    def for_task(self, task: Task) -> ScriptedCalls:
        return self

    def run(self, episode: Episode) -> None:
        for action, arguments in self.script.calls:
            self.answers.append(episode.call(action, dict(arguments)))

    def applicable(self) -> bool:
        return not any(self._ok(i) for i in self.script.expect_refused)

    def refused_repeat(self) -> bool:
        """The repeated write was refused: the mistake could not be made at all."""
        return self._refused(self.script.repeat_at)

    def refused_lie(self) -> bool:
        """The lying write was refused: the mistake could not be made at all."""
        return self._refused(self.script.lie_at)

    def _refused(self, at: int | None) -> bool:
        return at is not None and at < len(self.answers) and not self._ok(at)

    def _ok(self, i: int) -> bool:
        return i < len(self.answers) and bool(self.answers[i].get("ok"))
