"""Errored episodes in pytest: reported as pytest's own ``error`` outcome, never as ``failed``.

An errored episode (docs/errors.md) is one the agent could not play: the provider failed or
the agent's code raised. Its test's call report fails (so the exit status is 1 and ``-x``
stops), carries the agent's own traceback rendered by pytest's ``--tb`` style, and its status
is ``error`` (``E``, ``ERROR``, "1 error" in the closing line, ``error`` in the JSON report,
``<error>`` in JUnit). ``--agenteval-max-errors N`` stops the run after N of them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Generator
from typing import Any

import pytest

from pytest_agenteval.printable import printable

# The kind of error, as a user property: the controller tells an errored report from a failed
# one without decoding the grade, also under xdist (a plain str travels).
ERRORED_PROPERTY = "agenteval_errored"
# The agent's exception, on the item that played the episode in this process.
EXCEPTION = pytest.StashKey[BaseException]()
# The grade's error object on that item, for the traceback's text when there is no exception.
ERROR = pytest.StashKey[dict[str, str]]()


def errored_kind(report: Any) -> str | None:
    """The error kind of a task's errored call report, or None."""
    if getattr(report, "when", None) != "call":
        return None
    for name, value in getattr(report, "user_properties", ()):
        if name == ERRORED_PROPERTY:
            return str(value)
    return None


def mark_errored(item: pytest.Item, error: dict[str, str], exception: BaseException | None) -> None:
    """Before the runner fails the test: what the report of its call needs."""
    item.user_properties[:] = [p for p in item.user_properties if p[0] != ERRORED_PROPERTY]
    item.user_properties.append((ERRORED_PROPERTY, error["kind"]))
    item.stash[ERROR] = error
    if exception is not None:
        item.stash[EXCEPTION] = exception


def add_options(group: Any) -> None:
    group.addoption("--agenteval-max-errors", metavar="N", type=int, default=0,
                    help="stop the run after N errored episodes (the provider failed or the agent's code "
                         "raised; see docs/errors.md); 0, the default, never stops")


def printable_repr(value: Any, depth: int = 0) -> Any:
    """pytest's rendering of the agent's exception with every string in it ``printable``
    (its message, the source lines, locals): the structure is kept, so ``--tb`` styles, colour
    and the short summary's message work as before."""
    if isinstance(value, str):
        return printable(value)
    if depth > 12:
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(printable_repr(v, depth + 1) for v in value)
    if hasattr(value, "__dict__") and type(value).__module__.startswith("_pytest"):
        for name, item in vars(value).items():
            object.__setattr__(value, name, printable_repr(item, depth + 1))
    return value


class Errored:
    """Registered in every process: renders the agent's traceback where the episode was played,
    files the report as ``error`` and counts errored episodes where reports arrive."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.max_errors: int = config.getoption("agenteval_max_errors")
        if self.max_errors < 0:
            raise pytest.UsageError(f"--agenteval-max-errors={self.max_errors}: must be 0 (never stop) or more")
        self.count = 0
        self.session: pytest.Session | None = None
        # (kind, message) -> the task whose report showed that error's traceback first
        self.shown: dict[tuple[str, str], str] = {}

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if getattr(item, "plays_an_agent", False):  # what an in-process agent printed: text, not terminal commands
            report.sections = [(title, printable(text)) for title, text in report.sections]
        error = item.stash.get(ERROR, None)
        if call.when == "call" and error is not None and report.failed:
            report.longrepr = self._longrepr(item, error)
            report.sections.append(("agenteval: errored, not counted in any pass rate",
                                    f"{error['kind']}: {error['message']}"))
            del item.stash[ERROR]
            if EXCEPTION in item.stash:  # the exception holds the agent's frames: let them go
                del item.stash[EXCEPTION]
        return report

    def _longrepr(self, item: pytest.Item, error: dict[str, str]) -> Any:
        """The agent's traceback, once per error: a dead endpoint raises the same error in every
        episode, hundreds of lines each. Under the default --tb a repeat is one line (the results
        file keeps every traceback); an explicit --tb=long or short shows each."""
        key = (error["kind"], error["message"])
        first = self.shown.setdefault(key, item.name)
        if first != item.name and self.config.getoption("tbstyle", "auto") == "auto":
            return f"{error['message']} (the same error as {first}, whose traceback is above; --tb=long shows each)"
        exception = item.stash.get(EXCEPTION, None)
        if exception is not None:  # pytest renders it: --tb, --full-trace, --showlocals apply
            return printable_repr(item.repr_failure(pytest.ExceptionInfo.from_exception(exception)))
        style = self.config.getoption("tbstyle", "auto")
        if style in ("no", "line") or not error.get("traceback"):
            return error["message"]
        # From an isolated agent's process, all of it the agent's to write: indented, as pytest sets
        # off an exception's lines with "E", so none of its lines reads as the run's own (a
        # "=== 92 passed in 1.0s ===" or a gate line at the start of a line; red team 17).
        return f"{error['message']}\n\n{textwrap.indent(error['traceback'].rstrip(), '    ', lambda line: True)}"

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report: Any, config: pytest.Config) -> tuple[str, str, str] | None:
        if errored_kind(report) is not None and report.failed:
            return "error", "E", "ERROR"
        return None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Counted wherever reports arrive: a worker stops itself at N of its own, the controller
        (or a serial run) at N in all; the first to get there stops the run."""
        if errored_kind(report) is None or not report.failed or str(getattr(report, "outcome", "")) == "rerun":
            return
        self.count += 1
        if not self.max_errors or self.count < self.max_errors:
            return
        why = (f"agenteval: stopping after {self.count} errored episodes (--agenteval-max-errors="
               f"{self.max_errors}); see the errors above")
        dsession = self.config.pluginmanager.getplugin("dsession")
        if dsession is not None and hasattr(dsession, "shouldstop"):  # xdist's controller
            if not dsession.shouldstop:
                dsession.shouldstop = why
        elif self.session is not None and not self.session.shouldstop:
            self.session.shouldstop = why
