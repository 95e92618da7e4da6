"""Regular expressions compiled when first used, not when their module is imported.

The text reader and the domains' judges define ~530 patterns at module level; compiling them
took ~0.2 s of every process's start-up (each xdist worker's, before its first episode could
start). ``lazy`` returns a stand-in that compiles on first use and then keeps the compiled
pattern's methods on itself, so every later call is the compiled pattern's own (no Python
frame in between). A run compiles only what its tasks' texts need, when they are first graded.
A match's ``.re`` is the compiled pattern, not the stand-in: tell patterns apart by what they
are, never by identity (``m.re is PATTERN`` is never true).
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy"]

# What a compiled pattern offers; all of it is copied onto the stand-in once compiled.
_ATTRIBUTES = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
               "flags", "groups", "groupindex")


class _Later:
    """A pattern compiled on first use; ``.pattern`` is known without compiling."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what is not on the instance yet
        if name.startswith("__") or name not in _ATTRIBUTES:
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def compiled(self) -> re.Pattern[str]:
        done = re.compile(self.pattern, self._flags)
        for name in _ATTRIBUTES:  # idempotent: two threads racing here set the same values
            setattr(self, name, getattr(done, name))
        return done

    def __repr__(self) -> str:
        return f"re.compile({self.pattern!r}, {self._flags})"

    def __copy__(self) -> _Later:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Later:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (re.compile, (self.pattern, self._flags))


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile``, deferred until the pattern is first used."""
    return cast("re.Pattern[str]", _Later(pattern, flags))
