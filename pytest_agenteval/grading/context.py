"""What a check may look at: the task, the diff, the audit log, and read-only state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.engine.tracking import StateDiff, TableDiff

if TYPE_CHECKING:
    from pytest_agenteval.engine.environment import Environment, EpisodeState
    from pytest_agenteval.tasks.model import Task


@dataclass(frozen=True, kw_only=True)
class GradeContext:
    task: Task
    env: Environment
    episode: EpisodeState
    diff: StateDiff
    events: list[AuditEvent]

    @cached_property
    def _agent_events(self) -> list[AuditEvent]:
        return [e for e in self.events if e.actor_role == self.env.agent_role]

    def agent_events(self) -> list[AuditEvent]:
        """The agent's own audit rows (not scripted counterparties'), computed once."""
        return self._agent_events

    def succeeded(self, action: str) -> list[AuditEvent]:
        """Agent calls of ``action`` that took effect (ok, or a timeout after commit)."""
        return [
            e for e in self.agent_events()
            if e.action == action and (e.outcome == "ok" or e.fault == "timeout_after_commit")
        ]

    def table(self, name: str) -> TableDiff:
        return self.diff.get(name, TableDiff())

    @cached_property
    def _rows(self) -> dict[tuple[str, Any], dict[str, Any] | None]:
        return {}

    def row(self, table: str, pk: Any) -> dict[str, Any] | None:
        """A row of the final state (read once per grading: nothing changes while grading)."""
        key = (table, pk)
        if key not in self._rows:
            self._rows[key] = self.env.row(table, pk)
        return self._rows[key]
