"""Whether a sequence of calls is one order of a path's steps: polynomial where it can be.

The order is cut into series blocks: steps ``[a, b)`` such that every later step must come
after all of them. Each block takes a contiguous run of the calls. A block whose steps are
mutually unordered (an ``any_order`` of single steps, however many) is a bipartite matching
between its steps and its calls, solved by augmenting paths; only a block with order inside it
(an ``any_order`` holding sequences) is searched step by step, and there identical steps with
the same place in the order are tried once, not in every permutation. Twenty interchangeable
writes cost a few hundred comparisons, not the 2^20 states an exhaustive search visits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

def allows(steps: Sequence[Any], before: Sequence[frozenset[int]], calls: Sequence[T],
           same: Callable[[Any, T], bool]) -> bool:
    """``calls``, in order, are one order of ``steps`` (``before[i]``: the steps that must come
    before step i, transitively closed), each call matching its step; optional steps may be left out."""
    n, m = len(steps), len(calls)
    if not sum(not s.optional for s in steps) <= m <= n:
        return False
    if m == n and _is_chain(before):  # the common path, one step after another: compare pairwise
        return all(same(s, c) for s, c in zip(steps, calls, strict=True))
    memo: dict[tuple[int, int], bool] = {}

    def match(i: int, at: int) -> bool:
        key = (i, at)
        if key not in memo:
            memo[key] = same(steps[i], calls[at])
        return memo[key]

    reachable = {0}
    for start, end in _blocks(before, n):
        block = range(start, end)
        flat = all(not (before[i] & set(block)) for i in block)
        required = sum(not steps[i].optional for i in block)
        nxt: set[int] = set()
        for at in sorted(reachable):
            for stop in range(at + required, min(at + len(block), m) + 1):
                fits = _flat_fits if flat else _ordered_fits
                if fits(steps, before, block, at, stop, match):
                    nxt.add(stop)
        reachable = nxt
        if not reachable:
            return False
    return m in reachable


def _is_chain(before: Sequence[frozenset[int]]) -> bool:
    """Every step comes after all the steps listed before it (``before`` is transitively closed)."""
    return all(len(b) == i and (i == 0 or max(b) == i - 1) for i, b in enumerate(before))  # b == {0..i-1}


def _blocks(before: Sequence[frozenset[int]], n: int) -> list[tuple[int, int]]:
    """Series blocks in listed order: a cut at c when every step from c on comes after all before c."""
    cuts = [0]
    for c in range(1, n):
        if all(len(before[k] & frozenset(range(c))) == c for k in range(c, n)):
            cuts.append(c)
    cuts.append(n)
    return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if a < b]


def _flat_fits(steps: Sequence[Any], before: Sequence[frozenset[int]], block: range, at: int, stop: int,
               match: Callable[[int, int], bool]) -> bool:
    """Calls ``[at, stop)`` matched one to one with the block's steps, every required step used.

    A matching covering every call and one covering every required step exist together exactly
    when one matching covers both (Mendelsohn-Dulmage), so two maximum matchings decide it."""
    calls = range(at, stop)
    every_call = _matching_size(list(calls), list(block), lambda c, s: match(s, c))
    if every_call < len(calls):
        return False
    required = [i for i in block if not steps[i].optional]
    return _matching_size(required, list(calls), match) == len(required)


def _matching_size(left: list[int], right: list[int], edge: Callable[[int, int], bool]) -> int:
    owner: dict[int, int] = {}  # right vertex -> the left vertex matched to it

    def augment(u: int, seen: set[int]) -> bool:
        for v in right:
            if v not in seen and edge(u, v):
                seen.add(v)
                if v not in owner or augment(owner[v], seen):
                    owner[v] = u
                    return True
        return False

    return sum(augment(u, set()) for u in left)


def _ordered_fits(steps: Sequence[Any], before: Sequence[frozenset[int]], block: range, at: int, stop: int,
                  match: Callable[[int, int], bool]) -> bool:
    """Calls ``[at, stop)`` are one order of the block's steps: a search over (steps done, next call)."""
    members = list(block)
    # A step identical to an earlier one with the same place in the order is tried only after
    # the nearest such one: identical steps are done in listed order, one way instead of k! ways.
    twin: dict[int, int] = {}
    for k, i in enumerate(members):
        for j in reversed(members[:k]):
            if steps[j] == steps[i] and before[j] == before[i] and _after(before, members, j) == _after(
                    before, members, i):
                twin[i] = j
                break
    full = (1 << len(members)) - 1
    bit = {i: 1 << k for k, i in enumerate(members)}
    failed: set[tuple[int, int]] = set()

    def fits(done: int, pos: int) -> bool:
        if done == full:
            return pos == stop
        if (done, pos) in failed:
            return False
        for i in members:
            if done & bit[i] or (i in twin and not done & bit[twin[i]]):
                continue
            if not all(done & bit[j] for j in before[i] if j in bit):
                continue
            if pos < stop and match(i, pos) and fits(done | bit[i], pos + 1):
                return True
            if steps[i].optional and fits(done | bit[i], pos):
                return True
        failed.add((done, pos))
        return False

    return fits(0, at)


def _after(before: Sequence[frozenset[int]], members: list[int], i: int) -> frozenset[int]:
    return frozenset(k for k in members if i in before[k])
