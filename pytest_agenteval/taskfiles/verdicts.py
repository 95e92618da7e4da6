"""Remembered verdicts: a task line that passed need not be validated again.

Validating a line (parse it, then check its rows, fields and override values against the
seeded scenario) costs ~0.15 ms, so a 10,000-line file took pytest longer to load than to
collect. A verdict depends only on the line's text, on its environment's code, population
and SQLite version (``Environment.cache_key``), and on the validating code (``CODE``), so
good lines are remembered under those, one JSON file per task file in pytest's cache
folder, sealed with this machine's cache key (``engine/sealing.py``): a file there that is not
sealed with it is ignored, with a one-line warning, and every line validated afresh. Problems
are never remembered: bad lines are rare and are always checked afresh, so their messages stay
current. ``--cache-clear`` or ``-p no:cacheprovider`` switch it off.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic_core

from pytest_agenteval.engine.scenarios import write_atomically
from pytest_agenteval.engine.sealing import UNSEALED, NotAnEntry, cache_key, distrusted, read_entry, seal, unseal

# What a remembered line gives back without parsing it: enough to make its test item.
Summary = tuple[str, str, tuple[str, ...], str]  # task_id, environment, failure_mode_tags, split


def _code() -> str:
    digest = hashlib.sha256(pydantic_core.__version__.encode())
    package = Path(__file__).parent.parent
    # The task format (its rule kinds too), its checks against an environment, and the argument validation they use.
    rules = sorted(str(p.relative_to(package)) for p in (package / "tasks" / "rules").glob("*.py"))
    for name in ("tasks/model.py", "tasks/fields.py", "tasks/paths.py", *rules, "taskfiles/loader.py",
                 "taskfiles/duplicates.py", "taskfiles/consistency.py", "taskfiles/verdicts.py", "engine/actions.py"):
        digest.update((package / name).read_bytes())
    return digest.hexdigest()[:16]


CODE = _code()


def line_key(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


ENTRY_LIMIT = 256 << 20  # remembered lines of one task file: far less than this


class Verdicts:
    """The remembered good lines of one task file; ``save`` keeps only the lines still in it."""

    def __init__(self, folder: Path, task_file: str) -> None:
        self._path = folder / f"{line_key(task_file)}.json"
        self._old: dict[str, list[Any]] = {}
        self._kept: dict[str, list[Any]] = {}
        self._key = cache_key()  # None: nothing remembered
        try:
            sealed = read_entry(self._path, ENTRY_LIMIT) if self._key is not None else b""
        except NotAnEntry:
            distrusted(self._path, "not a regular file of a sane size")
            sealed = b""
        except OSError:
            sealed = b""  # none yet: everything is validated afresh
        data = unseal(self._key, self._path.name, sealed) if self._key is not None and sealed else None
        if sealed and data is None:
            distrusted(self._path, UNSEALED)
        try:
            stored = json.loads(data) if data is not None else {}
            if stored.get("code") == CODE and isinstance(stored["lines"], dict):
                self._old = stored["lines"]
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # from an older version: everything is validated afresh

    def recall(self, key: str, env_key: Callable[[str], str | None]) -> Summary | None:
        """The summary of a line that passed before against the same environment, or None."""
        entry = self._old.get(key)
        if not (isinstance(entry, list) and len(entry) == 5):
            return None
        task_id, environment, tags, split, passed_on = entry
        if not (isinstance(task_id, str) and isinstance(environment, str) and isinstance(split, str)
                and isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
            return None
        if passed_on is None or env_key(environment) != passed_on:
            return None
        self._kept[key] = entry
        return task_id, environment, tuple(tags), split

    def remember(self, key: str, summary: Summary, env_key: str | None) -> None:
        if env_key is not None:
            self._kept[key] = [*summary[:2], list(summary[2]), summary[3], env_key]

    def save(self) -> None:
        if self._kept != self._old and self._key is not None:
            data = json.dumps({"code": CODE, "lines": self._kept}).encode()
            write_atomically(self._path, seal(self._key, self._path.name, data))
