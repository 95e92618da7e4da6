"""What a check may look at: the task, the diff, the audit log, and read-only state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.engine.tracking import StateDiff, TableDiff
from pytest_agenteval.grading.judge import Judge
from pytest_agenteval.patterns import lazy

if TYPE_CHECKING:
    from pytest_agenteval.engine.episode_state import EpisodeState
    from pytest_agenteval.engine.world import World
    from pytest_agenteval.tasks.model import Task


# Words of an instruction that may be record ids: they hold a digit (CLM-00042, FAC-5001).
_WORD = lazy(r"[A-Za-z0-9_]+(?:[-.:/][A-Za-z0-9_]+)*")


@dataclass(frozen=True, kw_only=True)
class GradeContext:
    task: Task
    env: World
    episode: EpisodeState
    diff: StateDiff
    events: list[AuditEvent]
    # (failure mode, detail) when the agent itself failed: raised, timed out, interrupted.
    agent_failure: tuple[str, str] | None = None
    # The judge of ``judged`` checks (docs/judge.md); None: they are left out of the grade.
    judge: Judge | None = None
    # Rows read while grading (nothing changes while grading, so each is read once).
    _rows: dict[tuple[str, Any], dict[str, Any] | None] = field(default_factory=dict)
    # What a rubric works out once per grading and reads many times (nothing changes meanwhile).
    memo: dict[Any, Any] = field(default_factory=dict)
    _agent_events: list[AuditEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        role = self.env.agent_role
        self._agent_events.extend(e for e in self.events if e.actor_role == role)

    def agent_events(self) -> list[AuditEvent]:
        """The agent's own audit rows (not scripted counterparties')."""
        return self._agent_events

    def succeeded(self, action: str) -> list[AuditEvent]:
        """Agent calls of ``action`` that took effect (ok, or a timeout after commit); worked out
        once per grading (every text check asks: a long log made it the costliest part)."""
        key = ("succeeded", action)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = [e for e in self.succeeded_any() if e.action == action]
        return list(found)

    def succeeded_any(self) -> list[AuditEvent]:
        """Every agent call that took effect, in order."""
        found = self.memo.get(("succeeded_any",))
        if found is None:
            found = self.memo[("succeeded_any",)] = [
                e for e in self.agent_events() if e.outcome == "ok" or e.fault == "timeout_after_commit"]
        return list(found)

    def written(self) -> list[AuditEvent]:
        """The agent's writing calls that took effect, in order."""
        actions = self.env.actions
        return [e for e in self.succeeded_any() if e.action in actions and actions[e.action].writes]

    def written_values(self, argument: str) -> list[Any]:
        """The values of ``argument`` in the agent's writes that took effect, first use first."""
        seen = (e.arguments.get(argument) for e in self.written() if isinstance(e.arguments, dict))
        return list(dict.fromkeys(v for v in seen if isinstance(v, (str, int)) and not isinstance(v, bool)))

    def task_keys(self, table: str) -> list[Any]:
        """Rows of ``table`` the task is about: named in its instruction (or by its simulated user),
        expected state or overrides.

        Rubrics judge these and the rows the agent wrote, never rows it only read: an agent
        that looks at a neighbouring record must not be failed for it.
        """
        task = self.task
        named = [k for k in task.expected_final_state.get(table, {}) if k not in ("+", "+?", "-")]
        named += task.expected_final_state.get(table, {}).get("-", [])
        named += list(task.overrides.get(table, {}))
        named += [w for w in _WORD.findall(task.briefing)
                  if any(c.isdigit() for c in w) and self.row(table, w) is not None]
        return list(dict.fromkeys(named))

    def table(self, name: str) -> TableDiff:
        return self.diff.get(name, TableDiff())

    def row(self, table: str, pk: Any) -> dict[str, Any] | None:
        """A row of the final state (read once per grading: nothing changes while grading)."""
        key = (table, pk)
        if key not in self._rows:
            self._rows[key] = self.env.row(table, pk)
        return self._rows[key]
