"""The HTML report: its content, and the page in a real headless Chromium (system package)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.html import render_html, unpacked
from pytest_agenteval.report.merge import read_results_file
from tests.helpers.chromium import Chromium, chromium_path
from tests.helpers.tasks import write_ex1_and_ex3

AGENT = '''
class Agent:
    """Closes T-0001 whatever it is asked: passes EX-1, fails EX-3."""
    def run(self, episode):
        episode.call("get_ticket", {"ticket_id": "T-0001"})
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def results(pytester: pytest.Pytester) -> Path:
    """A real results file of two tasks x two runs, and the HTML report the plugin wrote."""
    pytester.makepyfile(closer=AGENT)
    write_ex1_and_ex3(pytester.path, failure_mode_tags=["wrong_ticket", "slow_close"])
    pytester.runpytest("--agent=closer:Agent", "--runs=2", "--agenteval-results=r.jsonl",
                       "--agenteval-html=report.html")
    return pytester.path / "r.jsonl"


def test_report_shows_charts_grid_and_every_episodes_facts(results: Path) -> None:
    grades = read_results_file(results).grades
    page = unpacked(render_html(grades, 2))
    assert page.count('<g class="bar">') == 3  # tags slow_close, wrong_ticket; environment example
    assert len(re.findall(r'<a class="cell (pass|fail)"', page)) == 4
    assert page.count('<details class="ep"') == 4
    assert "[wrong_final_state]" not in page and "ticket T-0003: status expected &#x27;closed&#x27;, got &#x27;open&#x27;" in page
    assert '&quot;T-0001&quot;' in page  # the actions' arguments
    assert not re.search(r'(src|href)="(https?:)?//', page) and "<link" not in page  # nothing fetched


def test_plugin_and_cli_write_the_report_with_instructions_and_observations(results: Path) -> None:
    written = unpacked((results.parent / "report.html").read_text())
    assert "Close ticket T-0003." in written and "&quot;ok&quot;: true" in written  # replayed observations
    out = results.parent / "cli.html"
    assert main(["report", str(results), "--html", str(out), "--tasks", str(results.parent / "tasks")]) == 0
    assert "Close ticket T-0003." in unpacked(out.read_text())


def test_report_finds_the_task_files_its_run_record_names(results: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(results.parent)  # the run record's paths are relative to the rootdir
    assert main(["report", "r.jsonl", "--html", "auto.html"]) == 0
    assert "Close ticket T-0003." in unpacked((results.parent / "auto.html").read_text())
    tasks = results.parent / "tasks" / "example.jsonl"
    tasks.write_text(tasks.read_text() + "\n")  # changed since the run: not used
    assert main(["report", "r.jsonl", "--html", "stale.html"]) == 0
    assert "Close ticket T-0003." not in unpacked((results.parent / "stale.html").read_text())


def chromium() -> Chromium:
    """The system's Chromium (never a download); CI must have it (.ci/run installs it)."""
    if chromium_path() is None:
        message = "no chromium: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return Chromium()


@pytest.fixture
def browser() -> Iterator[Chromium]:
    page = chromium()
    try:
        yield page
    finally:
        page.close()


def test_page_in_headless_chromium(results: Path, browser: Chromium) -> None:
    browser.get((results.parent / "report.html").as_uri())
    assert browser.problems == []
    widths = browser.js(
        "[...document.querySelectorAll('svg.chart:not(.counts) rect')].map(r => r.getBBox().width)")
    assert len(widths) == 3 and all(w > 0 for w in widths)
    # pass@1 of slow_close is 0 and of wrong_ticket 0.5: the drawn bars keep that order.
    assert widths[0] < widths[1]
    assert browser.js("document.querySelectorAll('a.cell.fail[href=\"#ep-EX-3-run2\"]').length") == 1
    episode = "document.getElementById('ep-EX-3-run2')"
    assert browser.js(f"{episode}.open") is False
    browser.click('a.cell.fail[href="#ep-EX-3-run2"]')
    assert browser.wait_for(f"{episode}.open") is True
    assert browser.js(f"{episode}.getClientRects().length > 0")  # displayed
    # The details load when the element opens (a toggle handler): wait for them, not for a clock.
    text = browser.wait_for(f"{episode}.innerText.includes('Close ticket T-0003.') && {episode}.innerText")
    assert "Close ticket T-0003." in text and "state.ticket.T-0003" in text and "close_ticket" in text
    assert browser.problems == []


def test_usage_and_transcript_are_shown_when_the_grade_has_them(results: Path) -> None:
    grades = read_results_file(results).grades
    grades[0] = {**grades[0], "usage": {"input_tokens": 1200, "output_tokens": 80},
                 "transcript": [{"role": "assistant", "content": "Closing <T-0001> now"}]}
    page = unpacked(render_html(grades, 2))
    assert "<h3>Usage</h3>" in page and "1200 input + 80 output tokens" in page  # a line, not raw JSON
    assert "<h3>Transcript</h3>" in page and "Closing &lt;T-0001&gt; now" in page  # escaped
    assert '<div class="msg assistant"><span class="role">assistant</span>Closing' in page  # a conversation
    assert page.count("<h3>Usage</h3>") == 1
    assert "&quot;input_tokens&quot;" not in page
    # Without the task files, the actions are listed and the page says how to get observations.
    assert "(not recorded)" in page and "--tasks tasks/*.jsonl" in page


def test_the_state_diff_is_a_table_per_database_table(results: Path) -> None:
    grades = read_results_file(results).grades
    grades[0] = {**grades[0], "final_state_diff": {
        "ticket": {"added": {}, "removed": {}, "changed": {"T-0001": {"status": {"old": "open", "new": "closed"}}}},
        "comment": {"added": {"C-9": {"body": "done"}}, "removed": {}, "changed": {}}}}
    page = unpacked(render_html(grades, 2))
    assert ('<tr class="changed"><td>T-0001</td><td>changed</td><td>status</td><td><pre>open</pre></td>'
            "<td><pre>closed</pre></td></tr>") in page
    assert '<tr class="added"><td>C-9</td><td>added</td><td></td><td><pre></pre></td>' in page
    assert "<caption" in page and "<b>comment</b>" in page and "<b>ticket</b>" in page


def test_under_xdist_the_controller_writes_the_report(results: Path, pytester: pytest.Pytester) -> None:
    pytester.runpytest_subprocess("--agent=closer:Agent", "--runs=2", "-n", "2", "--agenteval-html=par.html")
    page = unpacked((pytester.path / "par.html").read_text())
    assert page.count('<details class="ep"') == 4 and page.count("Close ticket T-0003.") == 2


PAYLOAD = '"\'><script>alert(1)</script><script type="application/gzip" id="page-0">H4sI</script><img src=x onerror=alert(2)>'


def test_strings_from_a_hostile_results_file_open_no_markup(results: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A results file may come from anyone (the red team): its task ids, environments, failure
    modes, checks, arguments, errors and transcripts are text in the report, and no page of
    details can be stood in for (the index's ids are escaped as well as its text)."""
    lines = results.read_text().splitlines()
    grade = json.loads(lines[1])
    grade.update(task_id=PAYLOAD, environment=PAYLOAD, failure_modes=[PAYLOAD],
                 checks=[{"name": PAYLOAD, "passed": False, "failure_mode": PAYLOAD, "detail": PAYLOAD}],
                 actions=[{"action": PAYLOAD, "arguments": {PAYLOAD: PAYLOAD}}],
                 transcript=[{"role": PAYLOAD, "content": PAYLOAD}], passed=False)
    errored = {**grade, "run": 9, "error": {"kind": PAYLOAD, "message": PAYLOAD, "traceback": PAYLOAD}}
    bad = results.parent / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(grade), json.dumps(errored)]) + "\n")
    monkeypatch.chdir(results.parent)
    assert main(["report", str(bad), "--html", "bad.html"]) == 0
    capsys.readouterr()
    page = (results.parent / "bad.html").read_text()
    assert re.findall(r"<script[^>]*>", page) == ["<script>", '<script type="application/gzip" id="page-0">']
    assert "<img" not in page and "alert(1)</script>" not in page
    inlined = unpacked(page)  # the details, as a browser shows them
    assert re.findall(r"<script[^>]*>", inlined) == ["<script>"] and "<img" not in inlined
