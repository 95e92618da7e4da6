"""An agent's text never reaches a terminal or a report as escape sequences.

Its exception message, what it prints, the names and arguments of its calls are the agent's to
choose; raw, ``ESC ] 0 ; … BEL`` retitles the user's terminal, ``ESC [ 2 J`` clears it and a
carriage return overwrites a failure with whatever follows. Before: all of these arrived raw in
the terminal, JUnit XML and the HTML report, and ``agenteval show`` printed them raw too."""

from __future__ import annotations

import json
import re

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.printable import printable
from tests.helpers.tasks import task_line

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m\r\x08\u202e"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
AGENTS = f'''
E = {ESCAPES!r}

class Raises:
    def run(self, episode):
        import sys
        print("stdout" + E)
        sys.stderr.write("stderr" + E + "\\n")
        raise RuntimeError("boom" + E)


class Calls:
    def run(self, episode):
        episode.call("close" + E, {{"ticket_id" + E: "x" + E}})
        episode.call("add_comment", {{"ticket_id": "T-0001", "body": "hi" + E}})
'''


def test_printable_escapes_controls_and_keeps_layout_where_asked() -> None:
    assert printable("a\x1b[2Jb\tc\nd\x7f\x85\u202e") == "a\\x1b[2Jb\tc\nd\\x7f\\x85\\u202e"
    assert printable("a\tb\nc", layout=False) == "a\\x09b\\x0ac"
    assert printable("ünïcode – fine") == "ünïcode – fine"


@pytest.mark.parametrize("agent", ["Raises", "Calls"])
@pytest.mark.parametrize("isolate", ["", "--agenteval-isolate=process"], ids=["in-process", "isolated"])
def test_no_escape_of_the_agent_reaches_terminal_junit_html_results_or_show(
        pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], agent: str, isolate: str) -> None:
    pytester.makepyfile(evil=AGENTS)
    pytester.makefile(".jsonl", t=task_line())
    result = pytester.runpytest("t.jsonl", f"--agent=evil:{agent}", *([isolate] if isolate else []), "-rA",
                                "--agenteval-results=r.jsonl", "--junitxml=j.xml", "--agenteval-html=h.html")
    assert result.ret == 1
    shown = "\n".join(result.outlines + result.errlines)
    assert "pwned" in shown + (pytester.path / "j.xml").read_text()  # said, as text
    for where, text in [("terminal", shown), ("junit", (pytester.path / "j.xml").read_text()),
                        ("html", (pytester.path / "h.html").read_text())]:
        assert not RAW.findall(text), (where, RAW.findall(text))
    grades = [json.loads(line) for line in (pytester.path / "r.jsonl").read_text().splitlines()]
    said = [c["detail"] for g in grades if "checks" in g for c in g["checks"]]
    said += [str(g["error"]) for g in grades if g.get("error")]
    assert not RAW.findall("\n".join(said).replace("\n", ""))
    capsys.readouterr()
    main(["show", str(pytester.path / "r.jsonl"), "EX-1"])
    out = capsys.readouterr().out
    assert "pwned" in out and not RAW.findall(out)


def test_line_separators_and_invisible_characters_are_escaped() -> None:
    """A terminal may start a new line at U+2028: an agent's text forged a line of its own (red
    team 45); a zero-width space or a byte-order mark hides what a line holds."""
    assert printable("ok\u2028=== 1 passed ===\u200b\ufeff") == "ok\\u2028=== 1 passed ===\\u200b\\ufeff"
    assert printable("\U0001f468\u200d\U0001f469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0645") == (
        "\U0001f468\u200d\U0001f469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0645")  # (joiners: emoji and scripts)
