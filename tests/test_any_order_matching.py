"""``any_order`` matching is polynomial: twenty interchangeable writes grade at once, and the
answer is the same as trying every order (checked against brute force on small paths)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from pytest_agenteval.tasks.paths import AnyOrder, PathOrder, PathStep


def group(*members: Any) -> AnyOrder:
    return AnyOrder.model_validate({"any_order": [m.model_dump() if isinstance(m, PathStep) else m
                                                   for m in members]})


def test_twenty_interchangeable_writes_that_cannot_all_match() -> None:
    # Every call matches every write but the last call matches none: an exhaustive search
    # visits all 2^20 subsets of writes before saying no (14 s); matching says no at once.
    writes = [PathStep(action="write", arguments={"n": k}) for k in range(20)]
    order = PathOrder.of([PathStep(action="look"), group(*writes)])
    calls = ["look", *["write"] * 19, "other"]
    compared: list[tuple[str, str]] = []

    def same(step: PathStep, call: str) -> bool:
        compared.append((step.action, call))
        return step.action == call

    assert order.allows(calls, same) is False
    assert order.allows(["look", *["write"] * 20], same) is True
    assert len(compared) < 5_000  # comparisons are cached and polynomial in number


def test_twenty_identical_steps_inside_a_sequence_member() -> None:
    same_steps = [PathStep(action="write") for _ in range(20)]
    order = PathOrder.of([group([PathStep(action="open"), PathStep(action="close")], *same_steps)])
    assert order.allows(["open", *["write"] * 19, "close", "x"], lambda s, c: s.action == c) is False
    assert order.allows(["write", "open", *["write"] * 19, "close"], lambda s, c: s.action == c) is True


def brute_force(order: PathOrder, calls: list[str]) -> bool:
    optional = [i for i, s in enumerate(order.steps) if s.optional]
    for skipped in itertools.chain.from_iterable(itertools.combinations(optional, r) for r in range(len(optional) + 1)):
        kept = order.only(lambda s, skip=skipped: not any(s is order.steps[i] for i in skip))
        for o in kept.orders(limit=10_000):
            if len(o) == len(calls) and all(kept.steps[i].action == c for i, c in zip(o, calls, strict=True)):
                return True
    return False


def random_path(rng: random.Random, depth: int = 0) -> list[Any]:
    out: list[Any] = []
    for _ in range(rng.randint(1, 3)):
        if depth < 2 and rng.random() < 0.4:
            out.append({"any_order": [random_path(rng, depth + 1) if rng.random() < 0.5 else random_step(rng)
                                      for _ in range(rng.randint(2, 3))]})
        else:
            out.append(random_step(rng))
    return out


def random_step(rng: random.Random) -> dict[str, Any]:
    return {"action": rng.choice("abc"), "optional": rng.random() < 0.25}


@pytest.mark.parametrize("seed", range(200))
def test_matching_agrees_with_trying_every_order(seed: int) -> None:
    rng = random.Random(seed)
    order = PathOrder.of([])
    while not 1 <= len(order.steps) <= 7:  # small enough to try every order
        path = random_path(rng)
        order = PathOrder.of([_element(e) for e in path])
    for _ in range(10):
        calls = [rng.choice("abc") for _ in range(rng.randint(0, len(order.steps)))]
        assert order.allows(calls, lambda s, c: s.action == c) == brute_force(order, calls), (path, calls)


def _element(value: Any) -> Any:
    return AnyOrder.model_validate(value) if "any_order" in value else PathStep.model_validate(value)
