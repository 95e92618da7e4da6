"""Errored is not failed (docs/errors.md): an episode the agent could not play is pytest's
``error`` in every reporter, carries the agent's own traceback, is in no pass rate, and can stop
the run; an agent that cannot be built stops it before any episode."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from tests.helpers.tasks import result_lines, task_line

AGENTS = '''
class Closer:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})

def lookup(key):
    return {}[key]

class Raises:
    def run(self, episode):
        episode.call("get_ticket", {"ticket_id": "T-0001"})
        lookup("where is it")

class RaisesOnEx3:
    """Closes T-0001, except on EX-3, where its own code raises."""
    def run(self, episode):
        if "T-0003" in episode.instruction:
            lookup("T-0003")
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class NeedsModel:
    def __init__(self, model):
        self.model = model
    def run(self, episode):
        pass

class NoKey:
    def __init__(self):
        raise RuntimeError("OPENAI_API_KEY is not set")
    def run(self, episode):
        pass

class NoRun:
    def act(self, episode):
        pass
'''


def write(pytester: pytest.Pytester, n: int = 2) -> None:
    pytester.makefile(".py", agents_mod=AGENTS)
    (pytester.path / "tasks").mkdir(exist_ok=True)
    lines = [task_line(), task_line(task_id="EX-3", instruction="Close ticket T-0003.",
                                    expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
                                    acceptable_action_paths=None)]
    lines += [task_line(task_id=f"EX-{i}") for i in range(10, 10 + n - 2)]
    (pytester.path / "tasks" / "example.jsonl").write_text("\n".join(lines) + "\n")


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write(pytester)
    return pytester


def test_an_agent_that_raises_errors_its_episodes_instead_of_failing_them(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:Raises", "--agenteval-results=r.jsonl")
    result.assert_outcomes(errors=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "*_ ERROR at call of EX-1 _*",
        "agents_mod.py:*: KeyError",
        "*- agenteval: errored, not counted in any pass rate -*",
        "agent_code: KeyError: 'where is it' (at agents_mod.py:6)",
        "*agenteval: 0 episodes, K=1, 2 errored*",
        "2 errored (not in any pass rate): agent_code 2; EX-1 run 1, EX-3 run 1",
        "ERROR tasks/example.jsonl::test_task[[]EX-1[]] - KeyError: 'where is it'",
    ])
    assert "checks failed" not in result.stdout.str()  # no check of an errored episode is reported
    *grades, summary = result_lines(tasks.path / "r.jsonl")
    assert [g["error"]["kind"] for g in grades] == ["agent_code", "agent_code"]
    assert grades[0]["error"]["message"] == "KeyError: 'where is it' (at agents_mod.py:6)"
    assert 'lookup("where is it")' in grades[0]["error"]["traceback"]  # the agent's full traceback
    assert "pytest_agenteval" not in grades[0]["error"]["traceback"]  # not the harness's frames
    assert summary["summary"]["episodes"] == 0
    assert summary["summary"]["errored"] == 2 and summary["summary"]["errored_by_kind"] == {"agent_code": 2}


def test_raising_on_the_task_it_would_fail_does_not_pass_the_gate(tasks: pytest.Pytester) -> None:
    """An agent that raises on EX-3 (which it would fail) is at 1.00 on the rest: the gate still
    fails, unless the project allows that share of errored episodes."""
    result = tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--agenteval-fail-under=1", "-q")
    result.stdout.fnmatch_lines(["agenteval gate: passed: all pass@1 1.000 >= 1 *",
                                 "agenteval gate: FAILED: 1 of 2 episodes errored, more than the 0 allowed*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    (tasks.path / "pyproject.toml").write_text("[tool.agenteval]\nmax_errored = 0.5\n")
    assert tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--agenteval-fail-under=1", "-q").ret == 0


def test_errored_episodes_are_left_out_of_pass_rates(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--agenteval-results=r.jsonl", "-q")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*agenteval: 1 episode, K=1, 1 errored*",
                                 "all  *  1  *  1  *  1.00*",  # EX-1 alone: 1 of 1
                                 "1 errored (not in any pass rate): agent_code 1; EX-3 run 1"])
    *grades, summary = result_lines(tasks.path / "r.jsonl")
    by_task = {g["task_id"]: g for g in grades}
    assert "error" not in by_task["EX-1"]  # a played episode's line is as it was: no error key
    assert summary["summary"]["groups"][0]["pass_at_1"] == 1.0


@pytest.mark.parametrize(("style", "shown", "hidden"), [
    ("long", ['>       lookup("where is it")', 'agents_mod.py:11: ', '    def lookup(key):', '>       return {}[key]',
              'agents_mod.py:6: KeyError'], []),
    ("short", ['agents_mod.py:11: in run', 'agents_mod.py:6: in lookup', 'E   KeyError: *'], ['    def lookup(key):']),
    ("no", [], ['agents_mod.py:11: in run', 'E   KeyError: *']),
])
def test_the_agents_traceback_follows_tb(tasks: pytest.Pytester, style: str, shown: list[str],
                                         hidden: list[str]) -> None:
    result = tasks.runpytest("--agent=agents_mod:Raises", f"--tb={style}", "-k", "EX-1")
    result.assert_outcomes(errors=1, deselected=1)
    if shown:
        result.stdout.fnmatch_lines(shown)
    for line in hidden:
        result.stdout.no_fnmatch_line(line)
    result.stdout.no_fnmatch_line("*pytest_agenteval/agents/*")  # the harness's frames are cut


def test_errored_in_junit_and_json_report(tasks: pytest.Pytester) -> None:
    pytest.importorskip("pytest_jsonreport")
    result = tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--junitxml=j.xml", "--json-report",
                             "--json-report-file=j.json")
    result.assert_outcomes(passed=1, errors=1)
    suite = ET.parse(tasks.path / "j.xml").getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "0", "1")
    case = next(c for c in suite.iter("testcase") if "EX-3" in c.get("name", ""))
    error = case.find("error")
    assert case.find("failure") is None and error is not None
    assert error.get("message") == "errored (agent_code): KeyError: 'T-0003' (at agents_mod.py:6)"
    assert 'lookup("T-0003")' in (error.text or "")
    report = json.loads((tasks.path / "j.json").read_text())
    assert report["summary"]["error"] == 1 and report["summary"]["passed"] == 1
    assert {t["nodeid"].split("[")[1]: t["outcome"] for t in report["tests"]} == {"EX-1]": "passed", "EX-3]": "error"}


@pytest.mark.parametrize("args", [["-n", "2"], ["--agenteval-concurrency", "2"], []])
def test_errored_under_xdist_and_concurrency(tasks: pytest.Pytester, args: list[str]) -> None:
    if args[:1] == ["-n"]:
        pytest.importorskip("xdist")
    result = tasks.runpytest("--agent=agents_mod:RaisesOnEx3", *args, "--agenteval-results=r.jsonl")
    result.assert_outcomes(passed=1, errors=1)
    grades = [g for g in result_lines(tasks.path / "r.jsonl") if "task_id" in g]
    assert {g["task_id"]: bool(g.get("error")) for g in grades} == {"EX-1": False, "EX-3": True}


@pytest.mark.parametrize("args", [[], ["-n", "2"], ["--agenteval-concurrency", "2"]])
def test_max_errors_stops_the_run(pytester: pytest.Pytester, args: list[str]) -> None:
    if args[:1] == ["-n"]:
        pytest.importorskip("xdist")
    write(pytester, n=40)
    result = pytester.runpytest("--agent=agents_mod:Raises", "--agenteval-max-errors=2", *args)
    result.stdout.fnmatch_lines(["*agenteval: stopping after 2 errored episodes (--agenteval-max-errors=2)*"])
    errors = result.parseoutcomes()["errors"]
    assert 2 <= errors < 40  # under -n 2 what each worker had started also ends
    if not args:
        assert errors == 2
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_max_errors_must_not_be_negative(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:Closer", "--agenteval-max-errors=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-max-errors=-1: must be 0 (never stop) or more"])


@pytest.mark.parametrize(("spec", "message"), [
    ("NeedsModel", "ERROR: --agent=agents_mod:NeedsModel: cannot build the agent with no arguments: TypeError: "
                   "NeedsModel.__init__() missing 1 required positional argument: 'model' (give its parameters "
                   "defaults, or name a zero-argument factory; a conftest `agent` fixture can pass them)"),
    ("NoKey", "ERROR: --agent=agents_mod:NoKey: building the agent failed: RuntimeError: OPENAI_API_KEY is not set "
              "(at agents_mod.py:*) (fix its constructor, or its settings: an API key, a base URL)"),
    ("NoRun", "ERROR: --agent=agents_mod:NoRun: the agent NoRun has no run(episode) method (define "
              "`def run(self, episode)` or `async def run(self, episode)`)"),
])
@pytest.mark.parametrize("args", [[], ["-n", "2"]])
def test_an_agent_that_cannot_be_built_is_a_usage_error_before_any_episode(
        tasks: pytest.Pytester, spec: str, message: str, args: list[str]) -> None:
    if args:
        pytest.importorskip("xdist")
    result = tasks.runpytest(f"--agent=agents_mod:{spec}", "--agenteval-results=r.jsonl", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert len(result.stderr.str().strip().splitlines()) == 1 and "Traceback" not in result.stderr.str()
    assert not (tasks.path / "r.jsonl").exists()  # no episode ran


def test_an_isolated_agent_that_cannot_be_built_is_a_usage_error(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:NeedsModel", "--agenteval-isolate=process")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agent=agents_mod:NeedsModel: cannot build the agent with no arguments*"])


def test_an_isolated_agents_error_keeps_its_traceback(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--agenteval-isolate=process",
                             "--agenteval-results=r.jsonl")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["KeyError: 'T-0003' (at agents_mod.py:6)", "    Traceback (most recent call last):",
                                 "*agents_mod.py*, line 6, in lookup*"])
    grade = next(g for g in result_lines(tasks.path / "r.jsonl") if g.get("task_id") == "EX-3")
    assert grade["error"]["kind"] == "agent_code" and 'lookup("T-0003")' in grade["error"]["traceback"]


def test_errored_in_pytest_html(tasks: pytest.Pytester) -> None:
    pytest.importorskip("pytest_html")
    tasks.runpytest("--agent=agents_mod:RaisesOnEx3", "--html=report.html", "--self-contained-html")
    page = (tasks.path / "report.html").read_text()
    blob = json.loads(html.unescape(re.search(r'data-jsonblob="([^"]*)"', page)[1]))  # type: ignore[index]
    rows = {nodeid.split("[")[1][:-1]: [r["result"] for r in reports] for nodeid, reports in blob["tests"].items()}
    assert rows == {"EX-1": ["Passed"], "EX-3": ["Error"]}  # pytest-html's own word for an error, not "Failed"
    (errored,) = blob["tests"]["tasks/example.jsonl::test_task[EX-3]"]
    log = html.unescape(errored["log"])
    assert 'lookup("T-0003")' in log and "checks failed" not in log
    assert re.search(r"\b0 Failed\b", page) and re.search(r"\b1 Errors\b", page)  # its summary counts


def test_errored_in_pytest_sugar(tasks: pytest.Pytester) -> None:
    pytest.importorskip("pytest_sugar")
    result = tasks.runpytest_subprocess("--agent=agents_mod:RaisesOnEx3", "--force-sugar")
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout.str())
    tail = text.split("Results (")[1]
    # sugar's tally has no line for an errored *call* (its "error" is setup/teardown only): the
    # episode is no failure there, and the table and short summary name it.
    assert re.search(r"^\s*1 passed$", tail, re.M) and "failed" not in tail
    assert "1 errored (not in any pass rate): agent_code 1; EX-3 run 1" in text
    assert "ERROR tasks/example.jsonl::test_task[EX-3]" in text


def test_a_repeated_error_shows_its_traceback_once(pytester: pytest.Pytester) -> None:
    write(pytester, n=4)
    result = pytester.runpytest("--agent=agents_mod:Raises", "-p", "no:randomly")
    result.assert_outcomes(errors=4)
    # The ERRORS section only: the short summary repeats each message in full when pytest sees
    # CI set (it truncates to the terminal's width otherwise).
    text = result.stdout.str().split("short test summary info")[0]
    assert text.count('lookup("where is it")') == 1  # before: one traceback per episode
    assert text.count("(the same error as test_task[EX-1], whose traceback is above; --tb=long shows each)") == 3
    each = pytester.runpytest("--agent=agents_mod:Raises", "--tb=long")
    assert each.stdout.str().count('lookup("where is it")') == 4
