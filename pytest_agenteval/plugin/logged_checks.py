"""What the terminal keeps of a failed check once every reporter has seen it: a small stand-in.

pytest's terminal reporter keeps every report it files until the session ends. A failed
check's report is filed under "checks failed" (outcomes), where the terminal only counts it:
the closing line's "N checks failed"; the failure sections and the short summary print the
task's own report, which names each failed check. Yet each was a ``SubtestReport`` with a
copy of the item's keywords and a failure representation of five objects: ~6 KB, ~30 KB per
failed episode, most of what a failing run grew by once the episodes themselves were let go.

``LoggedCheck`` takes its place in the terminal's list (the report itself is not changed: a
plugin that kept it keeps it whole). It is still a ``SubtestReport`` with the check's node id,
location, outcome, phase, context and times, so counting it, or pytest-rerunfailures taking
a superseded attempt's check reports out of the lists, works as before (what xdist adds to a
report on the controller is kept too); and its ``longrepr``
prints the very text the original did (a ``pytest.fail(..., pytrace=False)`` message, written
line by line), built on demand from the message alone. Only what nothing reads after the
report is logged is not kept: keywords, sections, user properties, extras (empty here).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, NamedTuple

import pytest


class Crash(NamedTuple):
    """Where the failure was raised and its one-line message, as ``longrepr.reprcrash``."""

    path: str
    lineno: int
    message: str

    def toterminal(self, out: Any) -> None:
        out.line(f"{self.path}:{self.lineno}: {self.message}")


class CheckFailure:
    """A failed check's failure representation: its message lines, written as pytest writes
    a ``pytrace=False`` failure (``tw.write(line)`` then a line break, per line). The crash
    line's message is the same text after a short prefix ("Failed: "), kept once."""

    __slots__ = ("message", "_path", "_lineno", "_prefix")

    def __init__(self, message: str, path: str | None = None, lineno: int = 0, prefix: str = "") -> None:
        self.message = message
        self._path, self._lineno, self._prefix = path, lineno, prefix

    @property
    def reprcrash(self) -> Crash | None:
        return None if self._path is None else Crash(self._path, self._lineno, self._prefix + self.message)

    def toterminal(self, out: Any) -> None:
        for line in self.message.split("\n"):
            out.write(line)
            out.write("\n")

    def __str__(self) -> str:  # as pytest's TerminalRepr: what toterminal writes, stripped
        return self.message.strip()


_EMPTY: MappingProxyType[str, Any] = MappingProxyType({})


# What xdist adds to a worker's report on the controller (the worker's node, printed before the
# failure; its id and the item's index, which pytest-rerunfailures matches): copied when present.
_XDIST = ("node", "worker_id", "item_index", "testrun_uid")


class LoggedCheck(pytest.SubtestReport):
    __slots__ = ("_id", "location", "outcome", "when", "context", "longrepr", "duration", "start", "stop", *_XDIST)
    # Not kept (read-only, empty): nothing reads them once the report is logged.
    keywords = _EMPTY
    sections = ()  # type: ignore[assignment]
    user_properties = ()  # type: ignore[assignment]
    extras = ()

    def __init__(self, report: pytest.SubtestReport, longrepr: CheckFailure) -> None:  # noqa: D107
        self._id = report._id
        self.location = report.location
        self.outcome = report.outcome
        self.when = report.when
        self.context = report.context
        self.longrepr = longrepr  # type: ignore[assignment]
        self.duration, self.start, self.stop = report.duration, report.start, report.stop
        for name in _XDIST:
            if name in report.__dict__:
                setattr(self, name, report.__dict__[name])


def compact_failure(longrepr: Any) -> CheckFailure | None:
    """The same text as a small object, when ``longrepr`` is what a failed check makes: one
    exception, one ``value``-style entry (the message lines), nothing else; else None."""
    chain = getattr(longrepr, "chain", None)
    if not isinstance(chain, list) or len(chain) != 1 or getattr(longrepr, "sections", None):
        return None
    trace, crash, description = chain[0]
    entries = getattr(trace, "reprentries", None)
    if (description is not None or getattr(trace, "extraline", None) is not None
            or getattr(trace, "style", None) != "value" or not isinstance(entries, list) or len(entries) != 1):
        return None
    entry = entries[0]
    lines = getattr(entry, "lines", None)
    if (getattr(entry, "style", None) != "value" or not lines or not all(isinstance(line, str) for line in lines)
            or any(getattr(entry, name, None) is not None for name in ("reprfuncargs", "reprlocals", "reprfileloc"))):
        return None
    text = "\n".join(lines)
    if crash is None:
        return CheckFailure(text)
    path, lineno, message = (getattr(crash, name, None) for name in ("path", "lineno", "message"))
    if not (isinstance(path, str) and isinstance(lineno, int) and isinstance(message, str)
            and message.endswith(text) and len(message) - len(text) <= 40):
        return None
    return CheckFailure(text, _shared(path), lineno, _shared(message[:len(message) - len(text)]))


_paths: dict[str, str] = {}


def _shared(path: str) -> str:
    """One string per path (every failed check is raised from the same line)."""
    return _paths.setdefault(path, path)


def stand_in(report: pytest.SubtestReport) -> LoggedCheck | None:
    failure = compact_failure(report.longrepr)
    return None if failure is None else LoggedCheck(report, failure)
