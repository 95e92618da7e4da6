"""Red team 70: this session's rewrites attacked (146 attempts, 138 kept, 87 broke before the fix).
Fixed: every honest text the new rewrites failed ("well over half of the £16,000", "settled the
matter", "the decision on your £12,500 came from SNR-01", "wrote to Holder 89 once more", "two
emails to SNR-04", "looks to be out of my authority", "who sent the claim form in March", "before
SNR-07 answered, I sent SNR-07 a chaser", "I had approved and paid it just before", "half my
team", "the entire 2026 policy year", "the account we set up back in 2019", "declined it once the
decline came in"), and lies on lines broken inside a sentence (a hard wrap, a Markdown soft
break). Lines marked "open" are told, not closed (docs/status.md)."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_70")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_70th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
