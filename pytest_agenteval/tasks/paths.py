"""Acceptable action paths: steps, order freedom, and free-text requirements.

A path is a list of elements, done in the order listed. An element is a step
(``{"action", "arguments"}``) or a group ``{"any_order": [member, ...]}`` whose members are
independent: their steps may interleave in any way. A member is a step, a group, or a list
(a sub-sequence that keeps its own order). So ``[A, {"any_order": [B, [C, D]]}, E]`` allows
A B C D E, A C B D E and A C D B E: B anywhere between A and E, C before D.

Each path is turned into a partial order over its steps (``PathOrder``): the steps in listed
order (the reference agent's order) and, for each step, the steps that must come before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator
from pydantic_core import PydanticCustomError

from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks.matching import allows
from pytest_agenteval.text.requirements import SAYS, example, says_of

MENTIONS = "mentions"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _problem(message: str, fix: str) -> PydanticCustomError:
    return PydanticCustomError("agenteval", message, {"fix": fix})


def mentions_of(value: Any) -> list[list[str]] | None:
    """The terms a free-text requirement ``{"mentions": [...]}`` asks for, else None.

    Each term is a string or a list of alternatives; every term must appear.
    """
    if not (isinstance(value, dict) and set(value) == {MENTIONS}):
        return None
    return [[t] if isinstance(t, str) else list(t) for t in value[MENTIONS]]


def mentions_ok(terms: list[list[str]], text: Any) -> bool:
    """Every term (one of its alternatives) starts a word of ``text``, ignoring case, spacing
    and hyphens: "expir" matches "expires", "due diligence" matches "due-diligence", "rate"
    matches "rates" but not "corporate"."""
    if not isinstance(text, str):
        return False
    haystack = _plain(text)
    return all(any(_word_start(alt).search(haystack) for alt in term) for term in terms)


def _plain(text: str) -> str:
    return " ".join(_JOINERS.sub(" ", text.casefold()).split())


_JOINERS = lazy(r"[-_/]")


@lru_cache(maxsize=1024)
def _word_start(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(_plain(term)))


def check_arguments(value: dict[str, Any]) -> dict[str, Any]:
    """Shape-check any ``{"mentions": ...}`` or ``{"says": ...}`` requirement among step or check arguments."""
    for name, arg in value.items():
        if isinstance(arg, dict) and SAYS in arg:
            meanings = arg[SAYS]
            if not (set(arg) == {SAYS} and isinstance(meanings, list) and meanings
                    and all((isinstance(m, str) and m.strip())
                            or (isinstance(m, list) and m and all(isinstance(a, str) and a.strip() for a in m))
                            for m in meanings)):
                raise _problem(f"{name}: a meaning requirement is {{\"says\": [meaning, ...]}}",
                               'write e.g. {"says": ["invoice", "photos"]}, {"says": ["kyc:problem"]} '
                               'or {"says": [["exception", "rate"]]}')
            continue
        if not (isinstance(arg, dict) and MENTIONS in arg):
            continue
        terms = arg[MENTIONS]
        well_formed = set(arg) == {MENTIONS} and isinstance(terms, list) and terms and all(
            (isinstance(t, str) and t.strip())
            or (isinstance(t, list) and t and all(isinstance(a, str) and a.strip() for a in t))
            for t in terms
        )
        if not well_formed:
            raise _problem(
                f"{name}: a free-text requirement is {{\"mentions\": [term, ...]}}",
                'write e.g. {"mentions": ["KYC"]} or {"mentions": [["KYC", "know your customer"]]}',
            )
    return value


class PathStep(_Strict):
    """One step of an acceptable action path; ``arguments`` match as a subset.

    ``no_effect``: the call is expected to change nothing (an injected fault answers it), so
    the reference agent makes it but ``action_path`` does not expect it among the writes.
    ``optional``: a harmless extra (a file note, an update letter) that may be left out; the
    reference agent makes it.
    """

    action: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    no_effect: bool = False
    optional: bool = False

    @field_validator("arguments")
    @classmethod
    def _requirements(cls, value: dict[str, Any]) -> dict[str, Any]:
        return check_arguments(value)

    def call_arguments(self) -> dict[str, Any]:
        """Arguments to call with: a ``mentions`` or ``says`` requirement becomes a text that meets it."""
        out = {}
        for k, v in self.arguments.items():
            if (terms := mentions_of(v)) is not None:
                v = " ".join(t[0] for t in terms)
            elif (meanings := says_of(v)) is not None:
                v = example(meanings)
            out[k] = v
        return out


def _kind(value: Any) -> str:
    """Which member a value is: raw JSON while validating, a model while serialising."""
    if isinstance(value, list):
        return "sequence"
    if isinstance(value, AnyOrder) or (isinstance(value, dict) and "any_order" in value):
        return "any_order"
    return "step"


class AnyOrder(_Strict):
    """Members whose steps may interleave in any order (each nested list keeps its own).

    One member is allowed (a generator's group that happens to hold one step, or a list kept
    in order); it means just that member. Only an empty group is refused."""

    any_order: Annotated[list[Member], Field(min_length=1)]


Element = Annotated[
    Union[Annotated[PathStep, Tag("step")], Annotated[AnyOrder, Tag("any_order")]],  # noqa: UP007
    Discriminator(_kind),
]
Member = Annotated[
    Union[  # noqa: UP007
        Annotated[PathStep, Tag("step")],
        Annotated[AnyOrder, Tag("any_order")],
        Annotated[list[Element], Tag("sequence")],
    ],
    Discriminator(_kind),
]
AnyOrder.model_rebuild()
Path = list[Element]
# Names pydantic adds to an error's location for these unions; the loader leaves them out.
UNION_TAGS = frozenset({"step", "any_order", "sequence"})


@dataclass(frozen=True)
class PathOrder:
    """A path's steps in listed order and, per step, the indices of the steps before it."""

    steps: tuple[PathStep, ...]
    before: tuple[frozenset[int], ...]

    @classmethod
    def of(cls, path: Sequence[PathStep | AnyOrder]) -> PathOrder:
        steps: list[PathStep] = []
        before: list[frozenset[int]] = []

        def add(item: Any, after: frozenset[int]) -> frozenset[int]:
            """Lay out ``item`` after ``after``; return the steps that end it."""
            if isinstance(item, PathStep):
                steps.append(item)
                before.append(after)
                return frozenset({len(steps) - 1})
            if isinstance(item, AnyOrder):
                ends: frozenset[int] = frozenset()
                for member in item.any_order:
                    ends |= add(member, after)
                return ends or after
            for element in item:  # a sequence
                after = add(element, after)
            return after

        add(list(path), frozenset())
        # Close transitively, so a restriction to some steps keeps every constraint.
        closed: list[frozenset[int]] = []
        for direct in before:
            closed.append(frozenset(direct).union(*(closed[i] for i in direct)))
        return cls(tuple(steps), tuple(closed))

    def only(self, keep: Callable[[PathStep], bool]) -> PathOrder:
        """The same order over the steps ``keep`` accepts (e.g. writing steps only)."""
        kept = [i for i, s in enumerate(self.steps) if keep(s)]
        index = {old: new for new, old in enumerate(kept)}
        return PathOrder(tuple(self.steps[i] for i in kept),
                         tuple(frozenset(index[j] for j in self.before[i] if j in index) for i in kept))

    def constrained_pairs(self) -> list[tuple[int, int]]:
        """Pairs (a, b), a listed right before b, where a must come first."""
        return [(i - 1, i) for i in range(1, len(self.steps)) if i - 1 in self.before[i]]

    def orders(self, limit: int) -> Iterator[list[int]]:
        """Every order the path allows (listed order first), at most ``limit`` of them."""
        count = 0
        n = len(self.steps)

        def walk(done: int, prefix: list[int]) -> Iterator[list[int]]:
            nonlocal count
            if count >= limit:
                return
            if len(prefix) == n:
                count += 1
                yield list(prefix)
                return
            for i in range(n):
                if not done >> i & 1 and all(done >> j & 1 for j in self.before[i]):
                    prefix.append(i)
                    yield from walk(done | 1 << i, prefix)
                    prefix.pop()

        yield from walk(0, [])

    def allows(self, calls: Sequence[T], same: Callable[[PathStep, T], bool]) -> bool:
        """Whether ``calls``, in order, are one order of these steps, each matching its step
        (optional steps may be left out)."""
        return allows(self.steps, self.before, calls, same)  # polynomial for any_order groups


T = TypeVar("T")


def located_steps(path: Sequence[Any], where: str = "") -> Iterator[tuple[str, PathStep]]:
    """Every step of a path with its location, e.g. ``[1].any_order[0][2]``."""
    for i, item in enumerate(path):
        here = f"{where}[{i}]"
        if isinstance(item, PathStep):
            yield here, item
        elif isinstance(item, AnyOrder):
            yield from located_steps(item.any_order, f"{here}.any_order")
        else:
            yield from located_steps(item, here)


def first_order(path: Sequence[PathStep | AnyOrder]) -> list[PathStep]:
    """The path's steps in the order they are listed: what the reference agent does."""
    return list(PathOrder.of(path).steps)
