"""Red team 75: the 92nd audit's fixes attacked (88 attempts, 59 broke before the fix; 95 kept with
variants). Lines marked "open" are told, not closed (docs/status.md)."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_75")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a and "disputed" not in a],
                         ids=lambda a: a["id"])
def test_every_attempt_of_the_75th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
