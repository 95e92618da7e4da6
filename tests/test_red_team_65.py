"""Red team 65: the newest rewrites (short answers, turns of phrase, quoted mail) and structure
that carries a lie. Fixed: short answers only when the answer ends its sentence, and of any state
word ("Paid? Of course not."); a negative question asserts only glad news; money "we sent for
senior review" is not paid; "I wish I could tell you in person that…" is glad; "can hardly refuse"
and "won't say no to" foretell a yes of the claim only; ", not the payment" is dropped after a
figure's name only; "Ruled SNR-12 out" is no absence; a table of steps ("| Step | Done |") reads
each row as "Payment: ❌"; "Approved: Yes, Paid: No" among commas; "ACTIVE → PENDING" is the
state now; a "Subject:" line is a line of its own. 113 attempts (106 of one step kept here), 70
broke before the fix. Lines marked "open" are told, not closed (docs/status.md): CSV and code
blocks read by column, "Was | Now" tables, signatures that tell, a chat answer split over two
messages, a quote of an internal note in a letter."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_65")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_65th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
