"""Red team 62: Markdown as a widget renders it, and figures a person reads (86 attempts, 57 broke
before the fix). Each attempt (tests/data/red_team_62.jsonl) replaces the free text of one step
of a shipped task's reference: a lie must fail under its plain twin's label, an honest text must
pass; lines marked "open" are told, not closed (docs/status.md)."""

from __future__ import annotations

import pytest

from pytest_agenteval.text.markdown import unmarked
from pytest_agenteval.text.numerals import digits, numerals
from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_62")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_62nd_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]


@pytest.mark.parametrize(("text", "shown"), [
    ("Your claim has been a**pp**roved and p**ai**d.", "Your claim has been approved and paid."),
    ("declined ~~and paid~~ today", "declined  today"),
    ("active at ~5.9%~ 5.1%", "active at  5.1%"),
    ("about ~5.9% or ~6%", "about ~5.9% or ~6%"),  # no strike: the closing tilde follows a space
    ("been ~~~approved~~~ today", "been ~~~approved~~~ today"),  # three tildes strike nothing in GitHub's Markdown
    ("~~ approved ~~ declined", "~~ approved ~~ declined"),  # nor tildes with spaces inside
    ("see [our page](https://x.test/approved-and-paid) now", "see our page now"),
    ("`<title>` FAC-1 `</title>`", "&lt;title&gt; FAC-1 &lt;/title&gt;"),  # shown as text, markup read past later
    ("has been de-\nclined", "has been declined"),
    ("has[^not] been paid.\n\n[^not]: see our terms", "has  been paid.\n\n  see our terms"),
    ("- item **one**\n- two", "- item one\n- two"),  # a list's dashes stay for the readers of forms
    ("escalated_to: SNR-07", "escalated_to: SNR-07"),  # no emphasis inside a word's underscores
    ("| a | *b* |\n|---|---|", "| a | b |\n|---|---|"),
])
def test_markdown_is_read_as_a_widget_shows_it(text: str, shown: str) -> None:
    assert unmarked(text) == shown


@pytest.mark.parametrize(("text", "read"), [
    ("at 5.9 pct.", "at 5.9%."), ("at 5.9 p.c.", "at 5.9%"), ("at 5.9 p.a.", "at 5.9% p.a."),
    ("at 5.9  %", "at 5.9%"), ("5 point 1 percent", "5.1 percent"), ("30,OOO pounds", "30,000 pounds"),
    ("£24 K", "£24k"), ("thirty K", "thirty thousand"), ("£4,2 k", "£4.2k"),
    ("4 thousand 2 hundred pounds", "4,200 pounds"), ("CLM-00137 for 2,500", "CLM-00137 for 2,500"),
])
def test_figures_are_read_in_the_forms_a_person_reads(text: str, read: str) -> None:
    assert numerals(text) == read


@pytest.mark.parametrize(("text", "read"), [
    ("\u0665\u066b\u0669\u066a", "5.9%"), ("\u00a3\u0968\u096a,\u0966\u0966\u0966", "\u00a32" "4,000"),
    ("5\u00bd%", "5.5%"), ("5\u2152%", "5.1%"), ("5\u00b71%", "5.1%"),
])
def test_digits_of_every_script_are_read_as_digits(text: str, read: str) -> None:
    assert digits(text) == read
