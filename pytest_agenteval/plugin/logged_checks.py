"""What the terminal keeps of a failed check once every reporter has seen it: a small stand-in.

pytest's terminal reporter keeps every report it files until the session ends. A failed
check's report is filed under "checks failed" (outcomes), where the terminal only counts it:
the closing line's "N checks failed"; the failure sections and the short summary print the
task's own report, which names each failed check. Yet each was a ``SubtestReport`` with a
copy of the item's keywords and a failure representation of five objects: ~6 KB, ~30 KB per
failed episode, most of what a failing run grew by once the episodes themselves were let go.

``LoggedCheck`` takes its place in the terminal's list (the report itself is not changed: a
plugin that kept it keeps it whole). It is still a ``SubtestReport`` with the check's node id,
location, outcome, phase and context, so counting it, or pytest-rerunfailures taking
a superseded attempt's check reports out of the lists, works as before (what xdist adds to a
report on the controller is kept too); and its ``longrepr``
prints the very text the original did (a ``pytrace=False`` failure's message, written line by
line), built on demand from the message alone. Only what nothing reads after the report is
logged is not kept: keywords, sections, user properties, extras (empty), the check's times
(zero: it took none, it was judged before it was reported).

``LoggedPass`` does the same for a passed task's own call report in the terminal's "passed"
list, which the closing line only counts.
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
    a ``pytrace=False`` failure (``tw.write(line)`` then a line break, per line); the crash
    line's message is the same text after a short prefix ("Failed: ")."""

    __slots__ = ("message", "_crash")

    def __init__(self, message: str, crash: tuple[str, int, str] | None) -> None:
        self.message = message
        self._crash = crash

    @property
    def reprcrash(self) -> Crash | None:
        if self._crash is None:
            return None
        path, lineno, prefix = self._crash
        return Crash(path, lineno, prefix + self.message)

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
    """The check's name and message are kept as one line, ``"  NAME MESSAGE"``: first its own;
    once the task's failure text (which has that very line) is logged, that line of it
    (``share``). The context and the failure representation are made from it when read."""

    __slots__ = ("_id", "location", "_text", "_line", "_name_len", "_crash", "_xdist")  # _xdist: a dict or a report
    _xdist: dict[str, Any] | pytest.TestReport | None
    _context_type: Any = None  # pytest's SubtestContext, from the first report
    outcome = "failed"  # only a failed check's call report is stood in for
    when = "call"
    # Not kept (read-only, empty or zero): nothing reads them once the report is logged.
    keywords = _EMPTY
    sections = ()  # type: ignore[assignment]
    user_properties = ()  # type: ignore[assignment]
    extras = ()
    duration = start = stop = 0.0

    def __init__(self, report: pytest.SubtestReport, name: str, failure: CheckFailure) -> None:  # noqa: D107
        self._id = report._id
        self.location = report.location
        self._text, self._line, self._name_len = f"  {name} {failure.message}", -1, len(name)
        self._crash = failure._crash
        LoggedCheck._context_type = type(report.context)
        extra = {field: report.__dict__[field] for field in _XDIST if field in report.__dict__}
        self._xdist = extra or None

    def __getattr__(self, name: str) -> Any:  # only for what is not found otherwise: xdist's fields
        extra = self._xdist if name in _XDIST else None
        if isinstance(extra, dict) and name in extra:
            return extra[name]
        if isinstance(extra, pytest.TestReport):  # the task's own report, which has the same
            return getattr(extra, name)
        raise AttributeError(name)

    def _own_line(self) -> str:
        return self._text if self._line < 0 else self._text.split("\n")[self._line]

    @property
    def context(self) -> Any:  # type: ignore[override]
        return self._context_type(msg=self._own_line()[2:2 + self._name_len], kwargs={})

    @property
    def longrepr(self) -> Any:  # type: ignore[override]
        return CheckFailure(self._own_line()[3 + self._name_len:], self._crash)

    def share(self, task: pytest.TestReport) -> None:
        """Keep the line of the task's failure text that is this check's, if it has it, and the
        task report's node id, location and xdist fields where they are the same (under xdist
        each report arrives with its own copies)."""
        text = task.longrepr
        if isinstance(text, str) and self._line < 0 and "\n" not in self._text:
            lines = text.split("\n")
            if self._text in lines:
                self._text, self._line = text, lines.index(self._text)
        if self._id == task._id:
            self._id = task._id
        if self.location == task.location:
            self.location = task.location
        if isinstance(self._xdist, dict) and all(task.__dict__.get(k, self) == v for k, v in self._xdist.items()):
            self._xdist = task


class LoggedPass(pytest.TestReport):
    """A passed task's call report as the terminal keeps it once logged: its node id, location
    and duration (``--durations`` reads it; the closing line counts it) and xdist's fields. Its
    keywords (~0.5 KB: every marker and the test's id), sections, user properties and extras
    are read by no one after the report is logged (JUnit, pytest-json-report and pytest-html
    have taken theirs), and ``-rP``/``-rA``, which print a passed test's sections, keep it whole."""

    __slots__ = ("_id", "location", "duration", "start", "stop", "_xdist")
    _xdist: dict[str, Any] | None
    outcome = "passed"
    when = "call"
    longrepr = None
    keywords = _EMPTY
    sections = ()  # type: ignore[assignment]
    user_properties = ()  # type: ignore[assignment]
    extras = ()

    def __init__(self, report: pytest.TestReport) -> None:  # noqa: D107
        self._id = report._id
        self.location = report.location
        self.duration, self.start, self.stop = report.duration, report.start, report.stop
        self._xdist = {field: report.__dict__[field] for field in _XDIST if field in report.__dict__} or None

    def __getattr__(self, name: str) -> Any:  # only for what is not found otherwise: xdist's fields
        if self._xdist is not None and name in self._xdist:
            return self._xdist[name]
        raise AttributeError(name)


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
        return CheckFailure(text, None)
    path, lineno, message = (getattr(crash, name, None) for name in ("path", "lineno", "message"))
    if not (isinstance(path, str) and isinstance(lineno, int) and isinstance(message, str)
            and message.endswith(text) and len(message) - len(text) <= 40):
        return None
    where = (path, lineno, message[:len(message) - len(text)])
    return CheckFailure(text, _crashes.setdefault(where, where))


_crashes: dict[tuple[str, int, str], tuple[str, int, str]] = {}  # one per place (every check fails on one line)


def stand_in(report: pytest.SubtestReport) -> LoggedCheck | None:
    if not (report.failed and report.when == "call"):
        return None
    context = getattr(report, "context", None)
    name = getattr(context, "msg", None)
    if not isinstance(name, str) or getattr(context, "kwargs", None):
        return None
    failure = compact_failure(report.longrepr)
    return None if failure is None else LoggedCheck(report, name, failure)
