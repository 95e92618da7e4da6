"""Bounds a task line must keep before it is parsed: JSON nesting depth and integer size.

Python's JSON parser recurses once per level (a line nested 1,000 deep raises RecursionError),
and SQLite stores integers in 64 bits (a 30-digit override raises OverflowError when bound).
Both are refused here as one problem naming the line, before anything else parses it.
"""

from __future__ import annotations

import json
from typing import Any

from pytest_agenteval.patterns import lazy

MAX_DEPTH = 64
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1
_STRING_OR_BRACKET = lazy(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_LONG_DIGITS = lazy(r"\d{19}")  # every integer out of range has 19 digits or more


class _Big:
    def __init__(self, digits: str) -> None:
        self.digits = digits


def line_bounds(text: str) -> tuple[str, str, str] | None:
    """``(field, message, fix)`` for a line past a bound, else None (the common case costs two scans)."""
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = json_depth(text)
        if depth > MAX_DEPTH:
            return ("<json>", f"nested {depth:,} levels deep; the limit is {MAX_DEPTH}",
                    "flatten the value; a task needs only a few levels")
    if _LONG_DIGITS.search(text) is None:
        return None
    try:
        data = json.loads(text, parse_int=_integer)
    except ValueError:
        return None  # not JSON: the parser says so in its own words
    found = _find_big(data, "")
    if found is None:
        return None
    field, digits = found
    shown = digits if len(digits) <= 24 else f"{digits[:20]}... ({len(digits.lstrip('-'))} digits)"
    return (field or "<json>", f"{shown} is out of range for a 64-bit integer",
            f"use a whole number from {INT_MIN} to {INT_MAX}")


def json_depth(text: str) -> int:
    """How deep brackets nest in JSON ``text``, outside strings."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _integer(digits: str) -> int | _Big:
    if len(digits.lstrip("-")) > 19:
        return _Big(digits)  # also spares int() its 4,300-digit limit
    value = int(digits)
    return value if INT_MIN <= value <= INT_MAX else _Big(digits)


def _find_big(value: Any, where: str) -> tuple[str, str] | None:
    if isinstance(value, _Big):
        return where, value.digits
    if isinstance(value, dict):
        items: Any = ((f"{where}.{k}" if where else str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for inner, child in items:
        found = _find_big(child, inner)
        if found is not None:
            return found
    return None
