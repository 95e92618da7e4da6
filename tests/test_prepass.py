"""What the reader takes out of a text before reading it (``text.prepass``), and what it leaves."""

from __future__ import annotations

import pytest

from pytest_agenteval.text.prepass import prepared


@pytest.mark.parametrize(("text", "read"), [
    ("Unless I'm misreading it, the sheet stops at £5m.", "the sheet stops at £5m."),
    ("If I'm not mistaken, KYC is pending.", "KYC is pending."),
    ("KYC is pending - sorry, I mean it failed.", "KYC is pending  - it failed."),
    ("£5,000, make that £6,000.", "£6,000."),  # (a figure taken back at once: the one meant; 64th audit)
])
def test_doubts_and_corrections_are_taken_out(text: str, read: str) -> None:
    assert prepared(text) == read


@pytest.mark.parametrize("text", [
    "We will make that payment next week.",  # no break or apology before "make that"
    "I mean to pay you soon.",
    "If I read the sheet, the rate is 5.1%.",  # a condition of the writer's, not a doubt
    "Unless you send the invoice, we cannot pay.",
])
def test_ordinary_words_are_left_alone(text: str) -> None:
    assert prepared(text) == text


def test_a_long_run_of_spaces_before_a_cue_is_left_alone() -> None:
    """The correction pattern once began with whitespace: tried at every position of 40,000
    spaces before a cue it took 28 s (0.006 s now, measured by hand; no test here is timed).
    Run here so such a regression shows as a suite that stalls."""
    text = " " * 40_000 + "I mean"
    assert prepared(text) == text


@pytest.mark.parametrize("text", ["you said " * 8_000, "the claimant thinks that " * 4_000,
                                  "you said x and it was " * 3_000, "| a | b |\n" * 5_000])
def test_long_runs_of_report_cues_are_read_in_linear_time(text: str) -> None:
    """The endorsement look-ahead once began with lazy runs: 8,000 "you said" took 15 s (0.13 s
    now, measured by hand; no test here is timed). Run so a regression shows as a stalled suite."""
    assert prepared(text)


@pytest.mark.parametrize(("text", "read_as"), [
    ("You said the claim was declined, but it was approved.",
     "You said reportedly the claim was declined, but it was approved."),
    ("As you said, it was declined.", "As you said, it was declined."),
    ("You said it was declined, and it was.", "You said it was declined, and it was."),
    ("Our records show that KYC is pending.", "KYC is pending."),
    ("Once approved - which it has been - you'll get £5.", "it has been approved - - you'll get £5."),
    ("| Claim | Paid |\n|---|---|\n| CLM-1 | nil |", "Claim: CLM-1; Paid: nil."),
    ("| Check | Status |\n|---|---|\n| KYC | done |", "KYC: done."),
])
def test_what_the_prepass_makes_of_reports_asides_and_tables(text: str, read_as: str) -> None:
    assert prepared(text) == read_as


@pytest.mark.parametrize(("text", "read"), [
    # The quoted history under a reply is an earlier message; above one too.
    ("Approved.\n\nOn Fri, 6 Mar 2026, 09:00, Kim wrote:\n> still pending\n", "Approved.\n\n"),
    ("> still pending\nApproved now.", "Approved now."),
    ("Approved.\n-----Original Message-----\nStill under review.", "Approved.\n"),
    ("Approved.\nFrom: Kim\nSent: Friday\nStill under review.", "Approved.\n"),
    # …unless the reply points to it as its answer; "ignore the note below" does not.
    ("Decision below.\n> Declined.", "Decision below.\n\nDeclined."),
    ("Kindly ignore the request below.\n> Send the invoice.", "Kindly ignore the request below.\n"),
    # Signatures and the legal footer; markup.
    ("Paid.\n-- \nKim, Claims\nRegistered office: 1 Road", "Paid.\n"),
    ("Paid. If you are not the intended recipient, delete this.", "Paid."),
    ("<div>Paid</div><i>today</i>&nbsp;", "\nPaid\ntoday\xa0"),
    # A condition said false by a counterfactual; two negatives; the emphatic "did".
    ("Had the claim been settled, we would have written.", "the claim was not settled."),
    ("We would have written if it had been settled.", "it was not settled."),
    ("It isn't unreasonable.", "It is reasonable."),
    ("We did approve it.", "We approved it."),
    ("I really did pay it.", "I paid it."),
])
def test_what_mail_carries_and_what_grammar_presupposes(text: str, read: str) -> None:
    assert prepared(text) == read


@pytest.mark.parametrize("text", [
    "On 3 March we spoke about the claim. It is approved.",  # no quoted history follows
    "Please reply to this email with the invoice.",  # speaks of the message, but is no disclaimer
    "Approved -- paid today.",
    "You would have had the money sooner, but the bank was slow.",  # no condition
    "Did you approve it?",
    "Not until the invoice arrives.",
])
def test_mail_and_grammar_passes_leave_ordinary_words_alone(text: str) -> None:
    assert prepared(text) == text
