"""Red team 47 (3 of 13 broke): an isolated agent's call named by a 15 MiB string was kept whole
(2 GB of the harness's memory for 12 calls, a 377 MB results line, JUnit XML written in time
growing with the square of it); red team 46's cap on a frame's values counted the commas of a
string (an honest document argument broke the protocol); variation selectors and other
invisible characters still reached the terminal ("get_claim\\ufe0f")."""

from __future__ import annotations

import json

from pytest_agenteval.agents.sandbox import MAX_NAME, MAX_VALUES, frame
from pytest_agenteval.printable import printable


def _line(message: dict[str, object]) -> bytes:
    return (json.dumps(message) + "\n").encode()


def test_an_action_name_longer_than_a_name_breaks_the_protocol() -> None:
    message, wrong = frame(_line({"call": "x" * (MAX_NAME + 1), "arguments": {}}), 16 << 20)
    assert message is None and f"longer than {MAX_NAME} characters" in (wrong or "")
    assert frame(_line({"call": "add_note", "arguments": {}}), 16 << 20)[0] is not None


def test_commas_inside_a_string_are_no_values() -> None:
    document = "a, " * (MAX_VALUES + 10)
    message, wrong = frame(_line({"call": "add_note", "arguments": {"body": document}}), 16 << 20)
    assert wrong is None and message is not None


def test_variation_selectors_are_escaped_but_an_emojis() -> None:
    assert printable("get_claim\ufe0f") == "get_claim\\ufe0f"
    assert printable("x\ufe01 y\U000e0101 z\u034f") == "x\\ufe01 y\\U000e0101 z\\u034f"
    assert printable("next \u27a1\ufe0f done \U0001f44d") == "next \u27a1\ufe0f done \U0001f44d"  # (shown as emoji)
