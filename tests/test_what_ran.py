"""Say what ran (issue #14, item 7): the header and the results file name the agent that really
runs, a conftest ``agent`` fixture may return a class, a factory or an instance, and options that
would fail every episode are refused up front."""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import json
import platform

import pytest

from pytest_agenteval.report.results import load_results
from tests.helpers.tasks import task_line

AGENTS = '''
class Closer:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class Counting:
    """Keeps state across episodes: what sharing one instance would leak."""
    def __init__(self):
        self.episodes = 0
    def run(self, episode):
        self.episodes += 1
        if self.episodes == 1:
            episode.call("close_ticket", {"ticket_id": "T-0001"})

def make_closer():
    return Closer()
'''


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(agents_mod=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(
        task_line(task_id="EX-1") + "\n" + task_line(
            task_id="EX-2", instruction="Close ticket T-0003.", expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
            acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0003"}}]]) + "\n")
    pytester.syspathinsert()
    return pytester


def conftest_agent(pytester: pytest.Pytester, returns: str, *, scope: str = "function", where: str = "") -> None:
    source = f"import pytest, agents_mod\n@pytest.fixture(scope={scope!r})\ndef agent():\n    return {returns}\n"
    if where:
        (pytester.path / where / "conftest.py").write_text(source)
    else:
        pytester.makeconftest(source)


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "-0.5"])
def test_timeout_must_be_zero_or_more_seconds(tasks: pytest.Pytester, value: str) -> None:
    result = tasks.runpytest("--agent=reference", f"--agenteval-timeout={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agenteval-timeout={value}: must be a number of seconds, 0 or more "
                                 "(0 for no time limit)"])


def test_timeout_zero_means_no_limit(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "--agenteval-timeout=0")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["agenteval: agent=reference, runs=1, episode time limit=none"])


@pytest.mark.parametrize("returns", ["agents_mod.Closer", "agents_mod.make_closer", "agents_mod.Closer()"])
def test_a_fixture_may_return_a_class_a_factory_or_an_instance(tasks: pytest.Pytester, returns: str) -> None:
    conftest_agent(tasks, returns)
    tasks.runpytest("--agenteval-timeout=0", "-p", "no:randomly").assert_outcomes(passed=1, failed=1)


def test_one_instance_is_never_given_to_two_episodes(tasks: pytest.Pytester) -> None:
    conftest_agent(tasks, "agents_mod.Counting()", scope="session")
    result = tasks.runpytest("-p", "no:randomly", "--agenteval-results=r.jsonl")
    result.stdout.fnmatch_lines([
        "the `agent` fixture gave the same Counting instance to a second episode, which would see the state "
        "the first one left (return a new instance each time from a function-scoped fixture, or return the class "
        "or a factory)"])
    assert [g["task_id"] for g in load_results(tasks.path / "r.jsonl").grades] == ["EX-1"]


def test_a_fixture_returning_something_else_is_one_clear_error(tasks: pytest.Pytester) -> None:
    conftest_agent(tasks, "42")
    result = tasks.runpytest()
    result.stdout.fnmatch_lines([
        "the `agent` fixture returned 42 (an int): return an agent class, a zero-argument factory, "
        "or an agent instance with a run(episode) method"])
    assert "Traceback" not in result.stdout.str()


def test_header_names_a_conftest_fixture_over_the_option(tasks: pytest.Pytester) -> None:
    conftest_agent(tasks, "agents_mod.Closer", where="tasks")
    tasks.runpytest("tasks").stdout.fnmatch_lines([
        "agenteval: agent=agent fixture in tasks/conftest.py, runs=1, episode time limit=300 s"])
    tasks.runpytest("--agent=reference", "tasks").stdout.fnmatch_lines([
        "agenteval: agent=agent fixture in tasks/conftest.py (overrides --agent=reference), runs=1, "
        "episode time limit=300 s"])


def test_header_ignores_a_fixture_whose_folder_holds_no_task_file(tasks: pytest.Pytester) -> None:
    (tasks.path / "other").mkdir()
    conftest_agent(tasks, "agents_mod.Closer", where="other")
    tasks.runpytest("--agent=reference", "tasks", "other").stdout.fnmatch_lines([
        "agenteval: agent=reference, runs=1, episode time limit=300 s"])


def run_record_lines(pytester: pytest.Pytester, *args: str) -> tuple[dict, dict]:
    lines = [json.loads(line) for line in (pytester.path / "r.jsonl").read_text().splitlines()]
    assert list(lines[0]) == ["run_record"] and set(lines[-1]) == {"summary", "run_record"}
    assert lines[0]["run_record"] == lines[-1]["run_record"]
    return lines[0]["run_record"], lines[-1]["summary"]


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]])
def test_results_file_starts_with_a_run_record_and_ends_repeating_it(tasks: pytest.Pytester, xdist: list[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):  # the endpoint is read from them
        monkeypatch.delenv(name, raising=False)
    conftest_agent(tasks, "agents_mod.Closer")
    result = tasks.runpytest_subprocess("--agent=reference", "--runs=2", "--agenteval-timeout=7.5", "-m", "train",
                                        "--agenteval-results=r.jsonl", *xdist)
    assert result.ret == 1
    record, summary = run_record_lines(tasks)
    assert summary["episodes"] == 4
    started = datetime.datetime.fromisoformat(record.pop("started"))
    assert started.tzinfo is not None and abs(datetime.datetime.now(datetime.timezone.utc) - started).total_seconds() < 600
    content = (tasks.path / "tasks" / "t.jsonl").read_bytes()
    assert record == {
        "format": 1,
        "agent": "agent fixture in conftest.py (overrides --agent=reference)",
        "labels": {}, "git": None, "endpoint": None,  # no --agenteval-label, not a git repository, no base URL
        "versions": {
            "python": platform.python_version(),
            **{name: importlib.metadata.version(name)
               for name in ("pytest-agenteval", "pytest", "pydantic", "pytest-xdist", "deepdiff")},
            "sqlite": __import__("sqlite3").sqlite_version,
        },
        "options": {"runs": 2, "timeout": 7.5, "isolate": False, "numprocesses": int(xdist[1]) if xdist else None,
                    "markexpr": "train", "keyword": None, "reruns": 0},
        "task_files": [{"path": "tasks/t.jsonl", "tasks": 2, "sha256": hashlib.sha256(content).hexdigest()}],
    }


def test_readers_skip_the_run_record(tasks: pytest.Pytester) -> None:
    from pytest_agenteval.report.results import read_results
    from tests.helpers.tasks import episode_grades

    tasks.runpytest("--agent=reference", "--agenteval-results=r.jsonl", "--agenteval-timeout=0")
    grades, summary = read_results(tasks.path / "r.jsonl")
    assert [g["task_id"] for g in grades] == ["EX-1", "EX-2"] and summary["episodes"] == 2
    assert len(episode_grades(tasks.path / "r.jsonl")) == 2
    assert load_results(tasks.path / "r.jsonl").run_record["agent"] == "reference"


def test_an_instance_cannot_be_isolated(tasks: pytest.Pytester) -> None:
    conftest_agent(tasks, "agents_mod.Closer()")
    result = tasks.runpytest("--agenteval-isolate")
    result.stdout.fnmatch_lines([
        "--agenteval-isolate cannot run a Closer instance in a separate process (make the `agent` fixture return "
        "its class or a module-level factory)"])


@pytest.mark.parametrize(("target", "problem"), [
    ("tasks", "is a folder (name a file to write)"),
    ("tasks/t.jsonl/r.jsonl", "cannot write it: tasks/t.jsonl is a file, not a folder (name a file you can write)"),
])
def test_results_path_that_cannot_be_written_is_a_usage_error(tasks: pytest.Pytester, target: str, problem: str) -> None:
    result = tasks.runpytest("--agent=reference", f"--agenteval-results={target}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agenteval-results={target}: {problem}"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize("target", ["tasks/t.jsonl", "tasks/results.jsonl"])
def test_results_are_never_written_where_task_files_are_read(tasks: pytest.Pytester, target: str) -> None:
    before = (tasks.path / "tasks" / "t.jsonl").read_text()
    result = tasks.runpytest("--agent=reference", f"--agenteval-results={target}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        f"ERROR: --agenteval-results={target}: that is a task file's path (it matches agenteval_task_files); "
        "the results would overwrite it or be read as tasks next run (write them elsewhere, e.g. results.jsonl)"])
    assert (tasks.path / "tasks" / "t.jsonl").read_text() == before


def test_header_sees_a_fixture_in_the_task_folder_when_no_path_is_given(tasks: pytest.Pytester) -> None:
    """pytest loads tasks/conftest.py only while collecting, after the header: we load it first."""
    conftest_agent(tasks, "agents_mod.Closer", where="tasks")
    result = tasks.runpytest("--agent=reference", "--agenteval-results=r.jsonl")
    result.stdout.fnmatch_lines(["agenteval: agent=agent fixture in tasks/conftest.py (overrides --agent=reference), "
                                 "runs=1, episode time limit=300 s"])
    result.assert_outcomes(passed=1, failed=1)  # and it is what ran
    assert load_results(tasks.path / "r.jsonl").run_record["agent"].startswith("agent fixture in tasks/conftest.py")


def test_junit_and_json_report_carry_the_run_record(tasks: pytest.Pytester) -> None:
    import xml.etree.ElementTree as ET

    tasks.runpytest("--agent=reference", "--junitxml=j.xml", "--json-report", "--json-report-file=j.json")
    prop = ET.parse(tasks.path / "j.xml").find(".//testsuite/properties/property[@name='agenteval_run']")
    assert prop is not None and json.loads(prop.get("value"))["agent"] == "reference"
    report = json.loads((tasks.path / "j.json").read_text())
    assert report["agenteval_run"]["agent"] == "reference"
    assert report["agenteval_run"]["task_files"][0]["path"] == "tasks/t.jsonl"
