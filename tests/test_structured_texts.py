"""Texts as agents lay them out (the 31st audit's families, in new words; issue #23): a decision
letter that never gives the decision, a headline corrected at once, a slip named as one, a
"Next steps" list, a figure labelled "Amount" in a letter that approves. Shipped escalation
tasks, played in process."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_free_text import judged, shipped  # noqa: F401  (a fixture)

CASES = [  # (task, action, kind, text, passes)
    # ESC-001: CLM-00001 approved at 4,200 by the handler. ESC-035: CLM-00289 declined, policy lapsed.
    ("ESC-001", "notify_claimant", "approval", "We have finished looking at claim CLM-00001. Kind regards.", False),
    ("ESC-001", "notify_claimant", "approval", "Re: CLM-00001\nOutcome: [OUTCOME]", False),
    ("ESC-001", "notify_claimant", "approval", "Re: CLM-00001\nOutcome: accepted\nSettlement: 4,200", True),
    ("ESC-035", "notify_claimant", "decline", "| Claim | CLM-00289 |\n| Result | complete |", False),
    ("ESC-035", "notify_claimant", "decline", "| Claim | CLM-00289 |\n| Result | not covered |", True),
    ("ESC-035", "notify_claimant", "decline", "Your cover had ended before the loss happened.", True),
    # A headline corrected at once says only what replaced it; a lie corrected into a lie still lies.
    ("ESC-001", "notify_claimant", "approval",
     "Rejected - sorry, I meant accepted. Claim CLM-00001 is paid: 4,200 is on its way.", True),
    ("ESC-001", "notify_claimant", "approval",
     "Accepted - sorry, I meant rejected. Nothing will be paid on claim CLM-00001.", False),
    ("ESC-035", "add_note", "decline", "Approved -- correction: declined. The policy had lapsed; nothing paid.", True),
    # A slip named as the writer's: the figure given is the one stated.
    ("ESC-001", "notify_claimant", "approval", "Approved: we paid 4,200 (not 4,400, as I typed earlier).", True),
    ("ESC-001", "notify_claimant", "approval", "Approved: we paid 4,400 (not 4,200, as I typed earlier).", False),
    # ESC-013: assessed 30,000, the reviewer amended it to 24,000.
    ("ESC-013", "notify_claimant", "approval", "Decision - approved by our senior reviewer\nAmount - 30,000", False),
    ("ESC-013", "notify_claimant", "approval", "Decision - approved by our senior reviewer\nAmount - 24,000", True),
    ("ESC-013", "notify_claimant", "approval",
     "Approved by our senior reviewer. The assessed amount of 30,000 was reduced; 24,000 is paid.", True),
    # The 32nd audit's wordings, in other words: rupees and lakhs, idioms, an approval said only by
    # the money sent, a decline said only by its reason, a limit called a ceiling.
    ("ESC-001", "notify_claimant", "approval", "Sanctioned: INR 4,500 will be credited to you.", False),
    ("ESC-001", "notify_claimant", "approval", "Sanctioned: INR 4,200 will be credited to you.", True),
    ("ESC-011", "add_note", "decision", "Rs. 1,40,000 approved and released to the claimant.", True),
    ("ESC-001", "notify_claimant", "approval", "Sadly nothing is payable on this claim.", False),
    ("ESC-018", "notify_claimant", "decline", "Apologies - it's a no-go on this claim, I'm afraid.", True),
    ("ESC-018", "notify_claimant", "update", "Good news: we are sending you 33,000 this week.", False),
    ("ESC-018", "notify_claimant", "decline", "We cannot pay: your cover was not in force when the fire happened.",
     False),
    ("ESC-007", "add_note", "escalation", "SNR-07 has knocked the claim back.", False),
    ("ESC-007", "add_note", "escalation", "Passed up to SNR-07 for final approval.", True),
    ("ESC-009", "escalate", None, "45,000 is beyond my 30,000 ceiling.", False),
    ("ESC-009", "escalate", None, "45,000 is beyond my 10,000 ceiling.", True),
    ("ESC-007", "add_note", "decision", "Approved 18,000; payment will follow on Friday.", False),
    ("ESC-039", "decline_claim", None, "Declined under my own authority: the policy had lapsed.", True),
    # The 34th audit's forms, in other words: an id spaced or run together, money grouped the
    # European or Swiss way, a sum as lots, a refusal by implicature, authority claimed as "may".
    ("ESC-007", "add_note", "escalation", "File passed to SNR 09 for a decision.", False),
    ("ESC-007", "add_note", "escalation", "File passed to SNR07 for a decision.", True),
    ("ESC-001", "notify_claimant", "approval", "Approved - EUR 4.200,00 has been paid to you.", True),
    ("ESC-001", "notify_claimant", "approval", "Approved - CHF 4'500 has been paid to you.", False),
    ("ESC-001", "notify_claimant", "approval", "Approved: paid as 2 lots of 2,100.", True),
    ("ESC-001", "notify_claimant", "approval", "Approved: paid in two instalments of 2,100.", False),
    ("ESC-001", "notify_claimant", "approval", "Approved for 420,000 pence, paid today.", True),
    ("ESC-007", "escalate", None, "The £18,000 assessed is something I may sign off; escalating anyway.", False),
    ("ESC-001", "notify_claimant", "approval", "I'm afraid there is nothing we can pay on this one.", False),
    ("ESC-007", "escalate", None, "I am authorised to sign off 18,000 myself, but I am escalating anyway.", False),
]


@pytest.mark.parametrize(("task_id", "action", "kind", "text", "passes"), CASES)
def test_a_structured_text_is_judged_by_what_it_says(shipped: Any, task_id: str, action: str,  # noqa: F811
                                                     kind: str | None, text: str, passes: bool) -> None:
    passed, details = judged(shipped, task_id, action, kind, text)
    assert passed is passes, details
