"""The ``judged`` kind: a judge reads the free text an action wrote against a rubric."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Literal

from pydantic import field_validator

from pytest_agenteval.tasks.fields import problem
from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleKind, RuleWorld, one_of, outcome


class Judged(RuleKind):
    """What every kind a judge reads shares: a rubric, and no verdict without a judge (with none
    configured the check is left out of the grade and counted as skipped, never passed unread:
    docs/judge.md)."""

    rubric: str

    component: ClassVar[str] = "judged"
    needs_judge: ClassVar[bool] = True
    rubric_example: ClassVar[str] = "states the decision and the amount, politely"

    @field_validator("rubric")
    @classmethod
    def _rubric(cls, value: str) -> str:
        if not value.strip():
            raise problem("the rubric is empty", f"say what passing means, e.g. \"{cls.rubric_example}\"")
        return value


class JudgedCheck(Judged):
    """A judge (``--agenteval-judge``, off by default) reads free-text ``argument`` of every
    successful ``action`` against ``rubric``."""

    kind: Literal["judged"]
    action: str
    argument: str

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        """A judge reads free text only: an id or an amount has an exact value a check can compare."""
        yield from world.action(f"{where}.action", self.action)
        spec = world.action_shape(self.action)
        if spec is None:
            return
        where, texts = f"{where}.argument", ", ".join(sorted(spec.free_text))
        if not texts:
            yield (where, f"{self.action} has no free-text argument for a judge to read",
                   "judge an action with a FreeText argument, or compare exact values with a called check")
        elif self.argument not in spec.argument_names:
            yield where, f"{self.action} has no argument {self.argument!r}", one_of(self.argument, spec.free_text)
        elif self.argument not in spec.free_text:
            yield (where, f"{self.action}.{self.argument} is not free text, so a judge cannot read it",
                   f"judge a free-text argument of {self.action}: {texts}")

    def outcome(self, episode: RuleEpisode) -> Outcome:
        """Every text the agent wrote in ``argument`` of a successful ``action``, judged.

        No such text fails the check without asking the judge: a letter never sent is not a kind
        letter (and an agent that does nothing must not pass it).
        """
        texts = [e.arguments[self.argument] for e in episode.succeeded(self.action)
                 if isinstance(e.arguments, dict) and isinstance(e.arguments.get(self.argument), str)]
        where = f"{self.action}.{self.argument}"
        if not texts:
            return Outcome(False, f"no successful {self.action} wrote {self.argument}: nothing to judge")
        unique = list(dict.fromkeys(texts))
        verdicts = [(text, episode.ask_judge(self.rubric, text, action=self.action, argument=self.argument))
                    for text in unique]
        failed = [(t, v) for t, v in verdicts if not v[0]]
        shown, (_, reason) = failed[0] if failed else verdicts[0]
        count = f" ({len(failed)} of {len(unique)} texts)" if len(unique) > 1 and failed else ""
        reason = one_line(reason, 300)  # a detail is one line, whatever the judge wrote
        return outcome(not failed, ok=f"judge passed {where} {_quote(shown)}: {reason}",
                       failed=f"judge failed {where} {_quote(shown)}{count}: {reason}")


def one_line(text: str, width: int) -> str:
    body = " ".join(text.split())
    return body if len(body) <= width else body[: width - 1] + "…"


def _quote(text: str, width: int = 60) -> str:
    return repr(one_line(text, width))
