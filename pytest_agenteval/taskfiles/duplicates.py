"""A key given twice in one JSON object of a task line.

JSON parsers (Python's, pydantic's) keep the last value silently, while a person reviewing the
line reads the first: a task whose ``expected_final_state`` is given twice is graded against
one its reviewer did not see. Checked once per new line (good lines are remembered).
"""

from __future__ import annotations

import json
from typing import Any


class _Twice(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _refuse_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Twice(key)
        seen.add(key)
    return dict(pairs)


def key_given_twice(text: str) -> str | None:
    """The first key given twice in one object of JSON ``text``, else None (also for bad JSON)."""
    try:
        json.loads(text, object_pairs_hook=_refuse_twice)
    except _Twice as twice:
        return twice.key
    except ValueError:
        return None
    return None
