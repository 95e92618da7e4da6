"""The plugin's own hooks (plugin/hookspecs.py): docs/hooks.md's SQLite example, run for real, and
the lifecycle it states (once per counted episode, on the controller; reruns; errored episodes)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.tasks import result_lines, write_ex1_and_ex3

DOC = Path(__file__).parent.parent / "docs" / "hooks.md"

AGENT = '''
class Agent:
    """Closes T-0001 whatever it is asked: passes EX-1, fails EX-3."""
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''

RECORDER = '''
import json

class Recorder:
    def pytest_agenteval_episode_graded(self, grade, counted, report, config):
        with open("calls.jsonl", "a") as f:
            f.write(json.dumps({"task_id": grade["task_id"], "run": grade["run"], "counted": counted,
                                "nodeid": report.nodeid, "errored": isinstance(grade.get("error"), dict),
                                "worker": hasattr(config, "workerinput")}) + "\\n")

    def pytest_agenteval_run_finished(self, summary, run_record, session):
        with open("finished.json", "w") as f:
            json.dump({"episodes": summary["episodes"], "agent": run_record["agent"]}, f)

def pytest_configure(config):
    config.pluginmanager.register(Recorder(), "recorder")
'''


def sqlite_example() -> str:
    text = DOC.read_text()
    found = re.search(r"<!-- doc: save as agenteval_sqlite.py -->\n```python\n(.*?)```", text, re.S)
    assert found, "docs/hooks.md has no SQLite example block"
    return found.group(1)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(closer=AGENT)
    write_ex1_and_ex3(pytester.path)
    return pytester


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_the_documented_sqlite_plugin_holds_every_counted_grade(project: pytest.Pytester, workers: list[str]) -> None:
    (project.path / "agenteval_sqlite.py").write_text(sqlite_example())
    result = project.runpytest_subprocess("-p", "agenteval_sqlite", "--agent=closer:Agent", "--runs=2",
                                          "--agenteval-results=r.jsonl", *workers)
    result.assert_outcomes(passed=2, failed=2)
    db = sqlite3.connect(project.path / "grades.sqlite")
    rows = {(t, r): (bool(p), json.loads(g)) for t, r, p, g in db.execute("SELECT task_id, run, passed, grade FROM grade")}
    lines = [g for g in result_lines(project.path / "r.jsonl") if "task_id" in g]
    assert rows == {(g["task_id"], g["run"]): (g["passed"], g) for g in lines}
    assert sorted(rows) == [("EX-1", 1), ("EX-1", 2), ("EX-3", 1), ("EX-3", 2)]
    (episodes, summary), = db.execute("SELECT episodes, summary FROM summary")
    closing = [line for line in result_lines(project.path / "r.jsonl") if "summary" in line][-1]
    assert episodes == 4 and json.loads(summary) == closing["summary"]


def test_a_superseded_attempt_is_passed_uncounted_and_the_final_one_counted(project: pytest.Pytester) -> None:
    pytest.importorskip("pytest_rerunfailures")
    project.makeconftest(RECORDER)
    project.runpytest_subprocess("--agent=closer:Agent", "--reruns=1", "-n", "2")
    calls = [json.loads(line) for line in (project.path / "calls.jsonl").read_text().splitlines()]
    assert not any(c["worker"] for c in calls)  # on the controller only
    counted = sorted((c["task_id"], c["counted"]) for c in calls)
    assert counted == [("EX-1", True), ("EX-3", False), ("EX-3", True)]
    assert json.loads((project.path / "finished.json").read_text()) == {"episodes": 2, "agent": "closer:Agent"}


def test_errored_episodes_are_passed_with_their_error(project: pytest.Pytester) -> None:
    project.makepyfile(broken="class Agent:\n    def run(self, episode):\n        raise ConnectionError('refused')\n")
    project.makeconftest(RECORDER)
    project.runpytest_subprocess("--agent=broken:Agent")
    calls = [json.loads(line) for line in (project.path / "calls.jsonl").read_text().splitlines()]
    assert sorted((c["task_id"], c["counted"], c["errored"]) for c in calls) == [("EX-1", True, True),
                                                                                 ("EX-3", True, True)]
    # Passed to the hook, but in no pass rate.
    assert json.loads((project.path / "finished.json").read_text())["episodes"] == 0
