"""A failed task's reports cost about what a passed one's do (issue #28), with the same text.

Not timed: what is counted is the work that made failures dear. Each failed check's subtest
report was a copy of the test's report through its JSON form (``dataclasses.asdict`` over the
whole failure representation, then a rebuild); the failure summary looked up each failed
test's teardown sections by a scan of every report filed under "" (every passed check's).
"""

from __future__ import annotations

import pytest

from tests.helpers.tasks import task_line

COUNTING = '''
import pytest
from _pytest.terminal import TerminalReporter

COUNTS = {"to_json": 0, "scans": 0}
_to_json = pytest.TestReport._to_json
_getreports = TerminalReporter.getreports


def counting_to_json(self):
    COUNTS["to_json"] += 1
    return _to_json(self)


def counting_getreports(self, name):
    COUNTS["scans"] += name == ""
    return _getreports(self, name)


pytest.TestReport._to_json = counting_to_json
TerminalReporter.getreports = counting_getreports


@pytest.fixture(autouse=True)
def says_at_teardown():
    yield
    print("TEARDOWN-SAYS")


def pytest_sessionstart(session):  # from here on: the plugin's start-up self-test makes one copy
    COUNTS["to_json"] = 0


def pytest_unconfigure(config):
    print(f"COUNTS to_json={COUNTS['to_json']} scans={COUNTS['scans']}")
'''


def test_failed_checks_are_not_copied_through_json_and_teardown_sections_still_print(
        pytester: pytest.Pytester) -> None:
    (pytester.path / "tasks").mkdir()
    path = [[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]
    (pytester.path / "tasks" / "f.jsonl").write_text(
        "\n".join(task_line(task_id=f"EX-{i}", acceptable_action_paths=path) for i in range(3)) + "\n")
    pytester.makeconftest(COUNTING)
    result = pytester.runpytest_subprocess("--agent=noop", "-p", "no:randomly", "-p", "no:cacheprovider",
                                           "-rN")
    result.assert_outcomes(failed=3)
    # The failure sections as pytest prints them: each failed task, then its teardown output.
    for i in range(3):
        result.stdout.fnmatch_lines([f"*_ EX-{i} _*", "*checks failed*",
                                     "*Captured stdout teardown*", "TEARDOWN-SAYS"])
    result.stdout.fnmatch_lines(["COUNTS to_json=0 scans=0"])
