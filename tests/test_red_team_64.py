"""Red team 64: language a person reads plainly that the judge misread. Conditionals that assert
("If you're wondering, your claim has been approved"), negative questions and short answers that
assert ("Isn't it great news that…?", "Declined? Of course not!"), an auxiliary answering a
question told just before ("You asked if we would pay your claim. We have!"), negation idioms ("It
would be wrong to say…", "anything but pending", "decided against declining", "declined to
reject"), glad turns read as denials ("I couldn't be happier to confirm…", "no hesitation in
confirming"), the whole claim in other words ("every penny you claimed", "the lot"), money said
paid inside a clause ("If the £33,000 we paid you hasn't arrived…"), a yes foretold ("they'll
rubber-stamp it"). 120 attempts, 75 broke before the fix. Each attempt
(tests/data/red_team_64.jsonl) replaces the free text of one step of a shipped task's reference;
lines marked "open" are told, not closed (docs/status.md): references back to a list ("the
former", "the second one"), sarcasm, implication, amounts told relative to another."""

from __future__ import annotations

import pytest

from pytest_agenteval.text.answers import answered
from pytest_agenteval.text.idioms import turns
from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_64")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_64th_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]


def _words(text: str) -> set[str]:
    return set(__import__("re").findall(r"[a-z]+", text.lower()))


@pytest.mark.parametrize(("text", "plain"), [
    ("Declined? Of course not!", "Not Declined."),
    ("Approved? Absolutely.", "Approved."),
    ("You asked if we would pay your claim. We have!", "You asked if we would pay your claim. We have paid your claim!"),
    ("You asked if we would pay your claim. We won't, I'm afraid.",
     "You asked if we would pay your claim. We will not pay your claim, I'm afraid."),
    ("You were worried we would decline your claim. We didn't.",
     "You were worried we would decline your claim. We did not decline your claim."),
    ("Isn't it great news that your claim has been approved?", "It is great news that your claim has been approved."),
    ("If the £33,000 we paid you hasn't arrived yet, call us.",
     "If the £33,000 we paid you hasn't arrived yet, call us.\nWe paid you £33,000."),
    ("KYC verified? No - pending.", "KYC verified? No - pending."),  # a plain "No" is the notes' to read
])
def test_statements_that_lean_on_their_neighbours_are_told_in_full(text: str, plain: str) -> None:
    assert answered(text, _words(text)) == plain


@pytest.mark.parametrize(("text", "plain"), [
    ("It would be wrong to say your claim was declined.", "it is not the case that your claim was declined."),
    ("If you're wondering, your claim is approved.", "your claim is approved."),
    ("KYC is anything but pending.", "KYC is not pending."),
    ("KYC is hardly pending.", "KYC is not pending."),
    ("I couldn't be happier to confirm it.", "I am very happy to confirm it."),
    ("We decided against declining your claim.", "We decided not to decline your claim."),
    ("They'll rubber-stamp it.", "They'll rubber-stamp it."),  # a lexicon phrase, not a rewrite
    ("SNR-10 can hardly refuse it.", "SNR-10 will surely approve it."),
    ("Not paid in full - paid the amended 24k.", "paid in part - paid the amended 24k."),
    ("Amended to 12,800; 3,200 not approved.", "Amended to 12,800; a reduction of 3,200."),
    ("£45,000 not approved yet.", "£45,000 not approved yet."),  # no amendment told: a plain denial
])
def test_turns_of_phrase_are_read_as_what_they_say(text: str, plain: str) -> None:
    assert turns(text, _words(text)) == plain
