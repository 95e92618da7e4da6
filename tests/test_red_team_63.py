"""Red team 63: Markdown no widget draws (an unreferenced footnote, a definition's title line, a
fence's info string, an image's alt text), tildes of uneven runs, character references read before
Markdown, pseudo-tags shown as text, `<noembed>`, mail line ends, a dash at a line's end, emoji
shortcodes, a signature that promises, and figures (keycaps, dingbat digits, script fractions, per
mille, "and a half", a letter O in any group; "£30,600 p.a." and "p.c.m." no rate, a spread in
basis points no rate's level). 105 attempts, 54 broke before the fix. Each attempt
(tests/data/red_team_63.jsonl) replaces the free text of one step of a shipped task's reference;
lines marked "open" are told, not closed (docs/status.md)."""

from __future__ import annotations

import pytest

from pytest_agenteval.text.markdown import unmarked
from pytest_agenteval.text.numerals import digits, numerals
from tests.test_audit_texts import attempts, saying, shipped  # noqa: F401  (a fixture)

ATTEMPTS = attempts("red_team_63")


@pytest.mark.parametrize("attempt", [a for a in ATTEMPTS if "open" not in a], ids=lambda a: a["id"])
def test_every_attempt_of_the_63rd_red_team_gets_its_verdict(shipped, attempt: dict) -> None:  # noqa: F811
    grade = saying(shipped, attempt["task_id"], attempt["step"], attempt["text"])
    label = attempt["label"]
    assert (label in grade.failure_modes) if label else grade.passed, [c.detail for c in grade.failed_checks()]


@pytest.mark.parametrize(("text", "shown"), [
    ("paid at 5.9%\n\n[^a]: sorry, I mean 5.1%", "paid at 5.9%\n\n"),  # a footnote nothing points to
    ("x ![not](https://x.test/spacer.gif) y", "x  y"),  # an image's alt text is not drawn
    ("~approved~~ and paid", "~approved~~ and paid"),  # uneven runs strike nothing
    ("done :x: booked :white_check_mark:", "done \u274c booked \u2705"),
    ("declined-\nnot approved", "declined -\nnot approved"),
    ("de-\r\nclined", "declined"),
])
def test_markdown_a_widget_does_not_draw_is_not_read(text: str, shown: str) -> None:
    assert unmarked(text) == shown


@pytest.mark.parametrize(("text", "read"), [
    ("about \u00a330,600 p.a.", "about \u00a330,600 p.a."), ("5.1 p.a.", "5.1% p.a."), ("2,550 p.c.m.", "2,550 p.c.m."),
    ("59\u2030", "5.9%"), ("590\u2031", "5.9%"), ("five and a half per cent", "5.5 per cent"),
    ("\u00a31O,OOO.OO", "\u00a310,000.00"), ("6.O8%", "6.08%"), ("a discount of 153 bps", "a discount of 153 bps"),
    ("590 b.p.", "5.90%"),
])
def test_figures_in_more_forms(text: str, read: str) -> None:
    assert numerals(text) == read


@pytest.mark.parametrize(("text", "read"), [
    ("5\ufe0f\u20e3.9\ufe0f\u20e3%", "5.9%"), ("\u277a.\u277e%", "5.9%"), ("5\u00b9\u2044\u2081\u2080%", "5.1%"),
    ("5 \u2152%", "5.1%"),
])
def test_digits_in_more_forms(text: str, read: str) -> None:
    assert digits(text) == read
