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
        # A detail quotes what the agent sent (action names, arguments, its error): printed as text.
        object.__setattr__(self, "detail", printable(self.detail))


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
