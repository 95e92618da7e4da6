"""Injected faults (the task's ``faults`` field): deterministic, keyed by the Nth call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_agenteval.tasks.model import Task


@dataclass(frozen=True, kw_only=True)
class ActiveFault:
    error: str
    after_commit: bool

    @property
    def label(self) -> str:
        return f"{self.error}_after_commit" if self.after_commit else self.error


_MESSAGES = {
    "timeout": "the service did not answer in time; the outcome is unknown",
    "unavailable": "the service is unavailable; nothing was done",
}


def lookup(task: Task | None, action: str, call: int) -> ActiveFault | None:
    if task is None:
        return None
    for fault in task.faults:
        if fault.action == action and fault.call == call:
            return ActiveFault(error=fault.error, after_commit=fault.after_commit)
    return None


def observation(fault: ActiveFault) -> dict[str, Any]:
    # The agent sees the same observation whether or not a timeout committed: that is the trap.
    return {"ok": False, "error": fault.error, "detail": _MESSAGES[fault.error]}
