"""Red team 17: every output channel an agent's words reach (the terminal, a CI log, JUnit XML, the
HTML report, ``agenteval show``); each attack that got through pinned here.

A CI log is read by the CI runner as well as by people: GitHub Actions takes a line beginning
with ``::`` (after spaces) as a workflow command, and ``##[command]`` anywhere in a line as one
too (``actions/runner``'s ``ActionCommand.TryParseV2`` and ``TryParse``): ``add-mask`` hides a
word (``failed``) from the rest of the log, ``group`` folds the rest of it under a title of the
agent's, ``set-output`` sets a step's output, ``error`` and ``notice`` annotate the run."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.printable import printable
from pytest_agenteval.report.html import unpacked
from tests.helpers.choked_judge import choked_judge_project
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line, write_ex1_and_ex3

FAKE = "=== 92 passed in 1.00s ==="
PAYLOAD = f"\n::add-mask::failed\n::group::{FAKE}\n{FAKE}\nagenteval gate: passed: all pass@1 1.000 >= 0.7\n"
AGENTS = f'''
P = {PAYLOAD!r}


class Names:
    """Closes T-0001 (EX-1's answer), then calls an action whose name holds the payload."""

    def run(self, episode):
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})
        episode.call("x" + P, {{}})


class Raises:
    def run(self, episode):
        raise RuntimeError("boom" + P + "##[add-mask]failed")


class Legacy:
    def run(self, episode):
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})
        episode.call("x##[group]" + {FAKE!r}, {{}})
        raise RuntimeError("##[add-mask]failed")


class LongName:
    def run(self, episode):
        for n in range(5):
            episode.call(f"n{{n}}" + "x" * 100_000, {{}})


class Surrogates:
    """Passes EX-1, with a lone surrogate in what it reports of its model calls."""

    def run(self, episode):
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})
        episode.record_usage(model="m\\ud800", input_tokens=1, output_tokens=1)
        episode.attach_transcript([{{"role": "assistant", "content": "done", "k\\ud800": {{"n\\ud800": 1}}}}])


class RaisesSurrogate:
    def run(self, episode):
        raise RuntimeError("boom\\ud800")


class Escapes:
    def run(self, episode):
        e = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\r\\x08\\u202e"
        episode.call("close" + e, {{"ticket_id" + e: "x" + e}})
        episode.call("add_comment", {{"ticket_id": "T-0001", "body": "hi" + e}})
        episode.attach_transcript([{{"role": "assistant" + e, "content": "said" + e}}])


class Noncharacter:
    def run(self, episode):
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})
        episode.call("x\\uffff\\ufffe", {{}})
'''
LEVELS = [pytest.param([], id="in-process"), pytest.param(["--agenteval-isolate=process"], id="process"),
          pytest.param(["--agenteval-isolate=bwrap"], id="bwrap", marks=needs_bwrap)]


def _run(pytester: pytest.Pytester, agent: str, level: list[str], *args: str) -> pytest.RunResult:
    pytester.makepyfile(evil=AGENTS)
    pytester.makefile(".jsonl", t=task_line())
    return pytester.runpytest("t.jsonl", f"--agent=evil:{agent}", *level, "-rA", "-p", "no:randomly",
                              "-p", "no:cacheprovider", "--agenteval-results=r.jsonl", "--junitxml=j.xml",
                              "--agenteval-html=h.html", *args)


def _commands(lines: list[str]) -> list[str]:
    """The lines a GitHub Actions runner would take as commands."""
    return [line for line in lines if line.lstrip().startswith("::") or "##[" in line]


def _junit_lines(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [line for el in root.iter() if el.tag in ("failure", "error")
            for text in (el.text or "", el.get("message", "")) for line in text.splitlines()]


def _show(capsys: pytest.CaptureFixture[str], results: Path) -> list[str]:
    capsys.readouterr()
    main(["show", str(results), "EX-1"])
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("level", LEVELS)
def test_a_newline_in_an_action_name_starts_no_line_in_the_terminal_junit_or_show(
        pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], level: list[str]) -> None:
    """The forbidden action's name went raw into its check's message, newlines and all: in the
    failure section, the short summary, the JUnit XML and `agenteval show` the agent's lines began
    at column 0 (`::add-mask::failed`, `::group::…`, a fake closing line and gate line)."""
    result = _run(pytester, "Names", level)
    assert result.ret == 1
    for where, lines in [("terminal", result.outlines), ("junit", _junit_lines(pytester.path / "j.xml")),
                         ("show", _show(capsys, pytester.path / "r.jsonl"))]:
        assert not _commands(lines), (where, _commands(lines))
        assert FAKE not in lines and not any(line.startswith("agenteval gate: passed") for line in lines), where
    assert any("outside allowed_actions: x\\x0a::add-mask::failed" in line for line in result.outlines)


@pytest.mark.parametrize("level", LEVELS[1:])
def test_an_isolated_agents_traceback_holds_no_ci_command_and_no_line_of_the_runs_own(
        pytester: pytest.Pytester, level: list[str]) -> None:
    """An isolated agent's traceback is text from its own process, printed line by line: each of
    its lines is now set off (indented) and a CI command in it is escaped."""
    result = _run(pytester, "Raises", level)
    assert result.ret == 1
    assert not _commands(result.outlines), _commands(result.outlines)
    assert FAKE not in result.outlines and not any(line.startswith("agenteval gate: passed")
                                                   for line in result.outlines)
    assert f"    {FAKE}" in result.outlines  # said, as the agent's text
    assert not _commands(_junit_lines(pytester.path / "j.xml"))


@pytest.mark.parametrize("level", LEVELS)
def test_a_github_command_in_the_middle_of_a_line_is_escaped(pytester: pytest.Pytester, level: list[str]) -> None:
    """`##[add-mask]failed` is a command wherever it is in a line: in pytest's `E   RuntimeError: …`,
    in a check's message after `outside allowed_actions: `."""
    result = _run(pytester, "Legacy", level)
    assert result.ret == 1
    assert not _commands(result.outlines) and not _commands(_junit_lines(pytester.path / "j.xml"))
    assert any("\\x23#[add-mask]failed" in line for line in result.outlines)


def test_printable_escapes_ci_commands_and_what_no_utf8_or_xml_file_holds() -> None:
    assert printable("a\n  ::add-mask::x\n::g::") == "a\n  \\x3a:add-mask::x\n\\x3a:g::"
    assert printable("x ##[group]y ##vso[task.complete] ##teamcity[m]") == (
        "x \\x23#[group]y \\x23#vso[task.complete] \\x23#teamcity[m]")
    assert printable("a ::b, C++ a::b, ## Heading, #[x]") == "a ::b, C++ a::b, ## Heading, #[x]"
    assert printable("x\ud800\uffff\ufffe") == "x\\ud800\\uffff\\ufffe"
    assert printable(printable("::a ##[b]\ud800")) == printable("::a ##[b]\ud800")


@pytest.mark.parametrize("level", LEVELS[:2])
def test_a_lone_surrogate_in_a_model_name_or_a_transcript_key_leaves_the_episode_graded(
        pytester: pytest.Pytester, level: list[str]) -> None:
    """Its grade could not be serialized: the task item failed with the harness's UnicodeEncodeError,
    its episode in no results line, no table and no HTML report."""
    result = _run(pytester, "Surrogates", level)
    assert result.ret == 0, result.outlines[-30:]
    [grade] = [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g]
    assert grade["passed"] and "m\\ud800" in grade["usage"]["models"]
    assert (pytester.path / "h.html").is_file()


@pytest.mark.parametrize("level", LEVELS[:2])
def test_a_lone_surrogate_in_an_exception_leaves_the_html_report_whole(
        pytester: pytest.Pytester, level: list[str]) -> None:
    """Writing the HTML report failed on it: INTERNALERROR (exit 3), the report cut short."""
    result = _run(pytester, "RaisesSurrogate", level)
    assert result.ret == 1
    assert (pytester.path / "h.html").read_text().rstrip().endswith("</html>")


@pytest.mark.parametrize("level", LEVELS[:2])
def test_noncharacters_in_an_agents_text_leave_the_junit_xml_well_formed(
        pytester: pytest.Pytester, level: list[str]) -> None:
    """U+FFFF in a forbidden action's name went raw into the rewritten JUnit XML: not well-formed,
    so a CI parser read none of its failures."""
    result = _run(pytester, "Noncharacter", level)
    assert result.ret == 1
    suite = ET.parse(pytester.path / "j.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"


@pytest.mark.parametrize("level", LEVELS[:2])
def test_no_escape_of_the_agent_reaches_the_html_reports_drill_down(pytester: pytest.Pytester,
                                                                     level: list[str]) -> None:
    """The threat model says an agent's escapes are shown as text in the HTML report; its episode's
    drill-down (calls, observations, transcript, state diff) held them raw: the test read the page
    with its drill-downs still packed."""
    _run(pytester, "Escapes", level)
    page = unpacked((pytester.path / "h.html").read_text())
    assert "pwned" in page
    assert not re.findall("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", page)


def test_a_forbidden_actions_name_is_shown_cut(pytester: pytest.Pytester) -> None:
    """Each name was shown whole in the check's message, twice in the terminal and twice in the
    JUnit XML: 29 names of 1 MiB made 60 MB of terminal output and a 120 MB JUnit XML. (Since red
    team 47 a name longer than 200 characters from an isolated agent breaks the protocol: it was
    kept whole in the grade, 2 GB for 12 names of 15 MiB.)"""
    result = _run(pytester, "LongName", ["--agenteval-isolate=process"])
    assert result.ret == 1
    assert len("\n".join(result.outlines)) < 20_000
    assert any("the action's name is longer than 200 characters" in line for line in result.outlines)


def test_the_html_report_names_the_task_items_not_graded(pytester: pytest.Pytester,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 13's agent makes the judge fail on the tasks it was failing: they go ungraded and
    the run fails on them, but the HTML report (the plugin's and `agenteval report --html`) showed
    the one graded episode, passed: pass@1 1.00, no failed episode, nothing said of the others."""
    judge = choked_judge_project(pytester, 3)
    with judge() as server:
        run = pytester.runpytest("tasks/", "--agent=choker:Agent", f"--agenteval-judge={server.url}",
                                 "--agenteval-judge-model=j", "--agenteval-isolate=process", "-p", "no:randomly",
                                 "-p", "no:cacheprovider", "--agenteval-results=r.jsonl", "--agenteval-html=h.html")
    assert run.ret == 1
    said = ("Not graded: 2 task items failed before their episode was graded (tasks/t.jsonl::test_task[EX-2], "
            "tasks/t.jsonl::test_task[EX-3]); they are in no rate and not on this page, and the run failed on them.")
    page = (pytester.path / "h.html").read_text()
    assert said in page
    assert page.rstrip().endswith("</html>")  # replaying EX-1 for its drill-down asked the judge again: it failed
    capsys.readouterr()
    main(["report", str(pytester.path / "r.jsonl"), "--html", str(pytester.path / "merged.html")])
    assert "Not graded: 2 task items failed before their episode was graded" in (
        pytester.path / "merged.html").read_text()


def test_the_html_report_is_written_when_no_episode_was_graded(pytester: pytest.Pytester) -> None:
    """Every task item failed before its episode was graded: no report was written, and one left
    at that path by an earlier run (all passed, say) stood as this run's."""
    write_ex1_and_ex3(pytester.path)
    pytester.makeconftest('''
import pytest


@pytest.fixture(autouse=True)
def broken_environment():
    raise RuntimeError("the environment failed")
''')
    (pytester.path / "h.html").write_text("<p>an earlier run: all passed</p>")
    result = pytester.runpytest("tasks/", "--agent=reference", "-p", "no:randomly", "-p", "no:cacheprovider",
                                "--agenteval-html=h.html")
    assert result.ret == 1
    page = (pytester.path / "h.html").read_text()
    assert "an earlier run" not in page and "Not graded: 2 task items" in page
