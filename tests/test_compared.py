"""Two figures a text compares: the comparison must hold whatever the records say."""

from __future__ import annotations

import pytest

from pytest_agenteval.text import false_comparison


@pytest.mark.parametrize(("text", "holds"), [
    ("48,000 motor claim; above the 50,000 first tier", False),
    ("48,000 motor claim; above my 10,000 limit", True),
    ("505,000 is within SNR-03's 500,000 tier", False),
    ("The claim of 48,000 is within the 50,000 limit", True),
    ("assessed 90k which is above my 10k limit", True),
    ("assessed 9k which is above my 10k limit", False),
    ("SNR-10 limit 50000 is too low for 38000", False),
    ("SNR-10 limit 50000 is too low for 138000", True),
    ("SNR-07 limit 50k is enough for 180,000", False),
    ("5.94% is above the 6.1% band", False),
    ("£8,000 above my £10,000 limit", True),  # no link: the gap, not a side
    ("This was over 2 weeks ago", True),
    ("It is above 2019 levels", True),  # a year is not an amount
    ("5.94% is above the 5,000 limit", True),  # a rate and an amount are not compared
])
def test_a_comparison_of_two_stated_figures(text: str, holds: bool) -> None:
    assert (false_comparison(text) is None) is holds


@pytest.mark.parametrize("text", [
    "The assessed amount of two lots of £9,000 is above my limit of £10,000.",
    "The assessed £19,000 less £1,000 is above my limit of £10,000.",
])
def test_an_operand_of_a_sum_is_not_compared(text: str) -> None:
    assert false_comparison(text) is None


@pytest.mark.parametrize(("text", "holds"), [
    # red team 31: a claim's id is no figure; the low end of a range is no side; symbols and codes
    ("Claim CLM-00049 is above my £10,000 limit, so I escalated it.", True),
    ("£4,200 is within the £420-£42,000 range.", True),
    ("£4,200 is within the £420 to £42,000 range.", True),
    ("18000 GBP is greater than 50000 GBP.", False),
    ("£18,000 is > £50,000.", False),
    ("£18,000 is outwith the £50,000 limit.", False),
    ("£18,000 is < £50,000.", True),
])
def test_ids_ranges_and_symbols(text: str, holds: bool) -> None:
    assert (false_comparison(text) is None) is holds
