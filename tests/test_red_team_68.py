"""Red team 68: this session's rewrites attacked (158 attempts kept, 78 broke before the fix).
Fixed: regressions they caused ("the latter part of the review" is no reference back, a letter
may count itself among the letters sent, "transfer of the £12,500 was made by us" credits no
reviewer, "did not change the approved amount" neither approves nor denies, "paid it once SNR-07
approves" is a condition, "does not really have a rate" is missing), and lies dressed past them
("Of HOC-1 and SNR-01, the latter…" across kinds, a pair of figures nearer than the ids, "looked at
by two senior reviewers", "as you may know, two senior reviewers…", ", and paid the claimant
directly", "wired the money", "just over half of the sum insured" as a share). Lines marked
"open" are told, not closed (docs/status.md)."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_68")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_68th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
