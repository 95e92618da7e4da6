"""Red team 74: the 91st audit's fixes attacked (100 attempts, 68 broke before the fix). Lines marked
"open" are told, not closed (docs/status.md); "disputed" ones are the author's mislabels."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_74")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a and "disputed" not in a],
                         ids=lambda a: a["id"])
def test_every_attempt_of_the_74th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
