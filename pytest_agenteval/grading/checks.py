"""A check: one named, explained pass/fail fact about an episode."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_agenteval.printable import printable


@dataclass(frozen=True, kw_only=True)
class Check:
    name: str
    passed: bool
    detail: str
    failure_mode: str
    # Which grade component the check counts towards (state, frame, actions, routing, …).
    component: str

    def __post_init__(self) -> None:
        # A detail quotes what the agent sent (action names, arguments, its error): printed as text,
        # on one line (each failed check is one line under its task; a newline in a forbidden
        # action's name began lines of its own there: fake summaries, CI commands; red team 17).
        object.__setattr__(self, "detail", printable(self.detail, layout=False))


def check(
    name: str, passed: bool, *, failure_mode: str, component: str, ok: str, failed: str
) -> Check:
    """Build a check whose detail says ``ok`` when it passed and ``failed`` when it did not."""
    return Check(
        name=name,
        passed=passed,
        detail=ok if passed else failed,
        failure_mode=failure_mode,
        component=component,
    )
