"""The run so far: a progress line every so many episodes, and the per-run usage budget.

Counted on the controller (or a serial run) from each graded episode's report, so it holds
under xdist. The line is written between test reports by episode count, never by time, so
``-q``, ``-v`` and the final summary line stay as pytest prints them.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from pytest_agenteval.plugin.compat import write_own_line
from pytest_agenteval.plugin.integrations import xdist

AUTO_FROM = 50  # with the default, runs of fewer episodes print no progress line
AUTO_FROM_UNPRICED = 500  # ... nor runs of fewer whose agent has reported no model usage (seconds long)
AUTO_LINES = 10  # ... and longer ones about this many


def add_option(group: pytest.OptionGroup) -> None:
    group.addoption("--agenteval-progress", metavar="N", type=int, default=None,
                    help=f"print a progress line every N episodes (done/total, errored, elapsed, tokens, cost; "
                         f"default: about {AUTO_LINES} lines in runs of {AUTO_FROM} episodes or more "
                         f"whose agent reports model usage, or of {AUTO_FROM_UNPRICED} or more; 0: none)")


class Progress:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.every: int | None = config.getoption("agenteval_progress")
        if self.every is not None and self.every < 0:
            raise pytest.UsageError(f"--agenteval-progress={self.every}: must be 0 (no progress line) or more")
        self.max_tokens: int | None = config.getoption("agenteval_run_max_tokens")
        self.max_cost: float | None = config.getoption("agenteval_run_max_cost")
        self.total = 0
        self.done = self.errored = self.tokens = 0
        self.cost = 0.0
        self.started = time.monotonic()
        self.session: pytest.Session | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session
        self.started = time.monotonic()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.total = sum(1 for item in session.items if "agenteval_case" in getattr(item, "fixturenames", ()))

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.total = self.total or len(ids)  # every worker collects the same items

    def pytest_agenteval_episode_graded(self, grade: dict[str, Any], counted: bool) -> None:
        if not counted:  # a superseded attempt: the final one is counted
            return
        self.done += 1
        self.errored += grade.get("error") is not None  # the errored outcome: a non-null error object
        usage = grade.get("usage") or {}
        self.tokens += usage.get("input_tokens", 0) + usage.get("output_tokens", 0)
        self.cost += usage.get("cost_usd") or 0.0
        every = self._every()
        if every and self.done % every == 0:
            self._write(self.line())
        self._check_run_budget()

    def _every(self) -> int:
        if self.every is not None:
            return self.every
        long = self.total >= AUTO_FROM_UNPRICED or (self.total >= AUTO_FROM and (self.tokens or self.cost))
        return max(self.total // AUTO_LINES, 1) if long else 0

    def line(self) -> str:
        total = f"/{self.total}" if self.total else ""
        used = f", {self.tokens} tokens, ${self.cost:.4f}" if self.tokens or self.cost else ""  # none: no model
        return (f"agenteval: {self.done}{total} episodes done, {self.errored} errored, "
                f"{time.monotonic() - self.started:.1f} s elapsed{used} so far")

    def _write(self, line: str) -> None:
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            write_own_line(tr, line)

    def _check_run_budget(self) -> None:
        why = None
        if self.max_tokens is not None and self.tokens > self.max_tokens:
            why = f"the run's episodes used {self.tokens} tokens, over its budget of {self.max_tokens}"
        elif self.max_cost is not None and self.cost > self.max_cost:
            why = f"the run's episodes cost ${self.cost:.6g}, over its budget of ${self.max_cost:g}"
        if why is None or self.session is None or self.session.shouldstop:
            return
        reason = f"agenteval: {why}; stopped after {self.done} episodes"
        self.session.shouldstop = reason
        xdist.stop_workers(self.config, reason)
