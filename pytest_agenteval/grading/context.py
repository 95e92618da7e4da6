"""What a check may look at: the task, the diff, the audit log, and read-only state."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    # Rows read while grading (nothing changes while grading, so each is read once).
    _rows: dict[tuple[str, Any], dict[str, Any] | None] = field(default_factory=dict)
    _agent_events: list[AuditEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        role = self.env.agent_role
        self._agent_events.extend(e for e in self.events if e.actor_role == role)

    def agent_events(self) -> list[AuditEvent]:
        """The agent's own audit rows (not scripted counterparties')."""
        return self._agent_events

    def succeeded(self, action: str) -> list[AuditEvent]:
        """Agent calls of ``action`` that took effect (ok, or a timeout after commit)."""
        return [
            e for e in self.agent_events()
            if e.action == action and (e.outcome == "ok" or e.fault == "timeout_after_commit")
        ]

    def table(self, name: str) -> TableDiff:
        return self.diff.get(name, TableDiff())

    def row(self, table: str, pk: Any) -> dict[str, Any] | None:
        """A row of the final state (read once per grading: nothing changes while grading)."""
        key = (table, pk)
        if key not in self._rows:
            self._rows[key] = self.env.row(table, pk)
        return self._rows[key]
