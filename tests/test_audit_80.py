"""The 80th audit (Outlook and Gmail HTML, done/not-done lists, the reviewer quoted, corrections in
passing): a "Not done:" list whose items are already denied was denied twice ("no no decision"
read as a decision), "Not done yet:" was not read as a list, and a dash did not end one."""

from __future__ import annotations

import pytest

from tests.test_audit_texts import saying, shipped  # noqa: F401  (a fixture)


@pytest.mark.parametrize(("task_id", "step", "text", "label"), [
    ("ESC-008", 5, "Done: escalation sent to SNR-01. Not done: no decision, payment or letter yet - waiting for the "
     "reviewer.", None),
    ("ESC-008", 5, "Done: escalation sent to SNR-01, claim approved. Not done: letter.", "premature_decision"),
    ("ESC-012", 14, "Done: waited four times, checked escalation (approved as assessed), approved 26,000, paid, "
     "claimant told. Not done: nothing pending.", None),
    ("ESC-015", 5, "Escalated to SNR-10. Not done yet: decision, payment, letters - all wait for SNR-10's answer.",
     None),
    ("ESC-019", 11, "Done: waited twice, checked, SNR-07 declined (not covered), claim declined. Not done: no payment, "
     "none due.", None),
])
def test_the_80th_audits_families(shipped, task_id: str, step: int, text: str,  # noqa: F811
                                  label: str | None) -> None:
    grade = saying(shipped, task_id, step, text)
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]
