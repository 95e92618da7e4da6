"""An episode's time limit inside a test item that pytest-timeout may stop.

pytest-timeout's limit covers the whole item (or only its function, with ``func_only``). Its
signal method raises in the middle of whatever runs; its thread method ends the process with
``os._exit``, so nothing after it is recorded. The agent therefore gets the item's remaining
time less a margin to grade and report the episode, and runs into *our* limit first: the
episode is graded as a ``timeout`` and the item ends before pytest-timeout fires. We learn an
item's limit from pytest-timeout's own ``pytest_timeout_set_timer`` hook, so its marker, ini
and option settings are all honoured.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass(frozen=True, kw_only=True)
class ItemDeadline:
    at: float  # time.monotonic() when pytest-timeout fires
    timeout: float


DEADLINE = pytest.StashKey[ItemDeadline]()


def grading_margin(timeout: float) -> float:
    """Time kept back from pytest-timeout's limit to grade the episode and report its checks."""
    return min(max(timeout / 4, 0.5), 5.0)


def note_deadline(item: pytest.Item, settings: Any) -> None:
    """From ``pytest_timeout_set_timer``: when pytest-timeout will stop this item, if it will."""
    timeout = getattr(settings, "timeout", None)
    if timeout:
        item.stash[DEADLINE] = ItemDeadline(at=time.monotonic() + timeout, timeout=float(timeout))


def drop_deadline(item: pytest.Item) -> None:
    """From ``pytest_timeout_cancel_timer``."""
    if DEADLINE in item.stash:
        del item.stash[DEADLINE]


def episode_time_limit(item: pytest.Item, own: float | None) -> tuple[float | None, str | None]:
    """(time limit, what to say when it is hit): ours, or what pytest-timeout leaves."""
    deadline = item.stash.get(DEADLINE, None)
    if deadline is None:
        return own, None
    margin = grading_margin(deadline.timeout)
    left = max(deadline.at - time.monotonic() - margin, 0.01)
    if own is not None and own <= left:
        return own, None
    return left, (f"the agent ran into pytest-timeout's limit of {deadline.timeout:g} s for this test "
                  f"(less {margin:g} s kept to grade the episode)")
