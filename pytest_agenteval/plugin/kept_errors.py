"""Task-file errors outlive ``-m``, ``-k`` and ``--deselect``: a selection picks tasks, and a task
file with a bad line still fails the run (docs/ci.md). Red team 69: ``-m wrong_rate`` deselected
the error items (they carry no task's marks), "4 passed, 2 deselected", and the gate passed."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from pytest_agenteval.plugin.collect import TaskLineError


class KeptErrors:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.dropped: list[pytest.Item] = []

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.dropped += [item for item in items if isinstance(item, TaskLineError)]

    @pytest.hookimpl(wrapper=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> Generator[None, Any, Any]:
        result = yield
        kept, self.dropped = [item for item in self.dropped if item not in items], []
        if kept:
            items += kept
            terminal = self.config.pluginmanager.get_plugin("terminalreporter")
            if terminal is not None and "deselected" in terminal.stats:  # (not counted as deselected)
                left = [item for item in terminal.stats["deselected"] if item not in kept]
                if left:
                    terminal.stats["deselected"] = left
                else:
                    del terminal.stats["deselected"]
        return result
