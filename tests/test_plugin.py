"""The plugin end to end, through pytester, on real output."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

from pytest_agenteval.agents.episode import episode_seed
from tests.helpers.tasks import episode_grades, interruptible, task_line

AGENTS = '''
import asyncio, time

class Closer:
    """Closes T-0001, whatever it is asked."""
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class AsyncCloser:
    async def run(self, episode):
        await asyncio.sleep(0)
        await episode.acall("close_ticket", {"ticket_id": "T-0001"})

class Sometimes:
    """Does the right thing unless episode.seed % 3 == 0 (deterministic per task and run)."""
    def run(self, episode):
        if episode.seed % 3:
            ticket = "T-0001" if "T-0001" in episode.instruction else "T-0003"
            episode.call("close_ticket", {"ticket_id": ticket})

class Raises:
    def run(self, episode):
        raise ValueError("boom")

class Loops:
    def run(self, episode):
        while True:
            episode.call("get_ticket", {"ticket_id": "T-0001"})

class Sleeps:
    def run(self, episode):
        time.sleep(30)

class DiesOnT3:
    """Kills its own worker process on EX-3 (as a segfault would), closes T-0001 otherwise."""
    def run(self, episode):
        import os, signal
        if "T-0003" in episode.instruction:
            os.kill(os.getpid(), signal.SIGKILL)
        episode.call("close_ticket", {"ticket_id": "T-0001"})

def make_closer():
    return Closer()

NOT_CALLABLE = 3
'''


def write_tasks(pytester: pytest.Pytester, *extra: str) -> None:
    pytester.makefile(".py", agents_mod=AGENTS)
    tasks = pytester.path / "tasks"
    tasks.mkdir(exist_ok=True)
    lines = [
        task_line(acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]),
        task_line(task_id="EX-3", instruction="Close ticket T-0003.",
                  expected_final_state={"ticket": {"T-0003": {"status": "closed"}}},
                  acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0003"}}]],
                  failure_mode_tags=["wrong_ticket", "slow_close"], split="eval"),
        *extra,
    ]
    (tasks / "example.jsonl").write_text("\n".join(lines) + "\n")


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write_tasks(pytester)
    return pytester


def test_each_line_is_an_item_with_the_task_id(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["tasks/example.jsonl::test_task[EX-1]", "tasks/example.jsonl::test_task[EX-3]"])


def test_reference_passes_and_checks_are_subtests(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "-v")
    result.stdout.fnmatch_lines(["*test_task[[]EX-1[]] SUBPASSED[[]state.ticket.T-0001[]]*", "*2 passed*"])
    assert result.ret == 0


def test_a_failed_task_is_one_failure_naming_each_failed_check(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=agents_mod:Closer")
    result.stdout.fnmatch_lines([
        "*_ EX-3 _*",
        "3 of 6 checks failed: action_path, state.ticket.T-0003, frame",
        "  action_path [[]unexpected_path[]] *",
        "  state.ticket.T-0003 [[]wrong_final_state[]] ticket T-0003: status expected 'closed', got 'open'",
        "  frame [[]collateral_change[]] *",
        "FAILED tasks/example.jsonl::test_task[[]EX-3[]] - 3 of 6 checks failed*",
    ])
    # Tasks are tests; checks are counted apart: "1 failed, 1 passed, 3 checks failed".
    assert result.parseoutcomes() == {"failed": 1, "passed": 1, "checks": 3}
    assert "SUBFAILED" not in result.stdout.str()  # the short summary lists tasks, not checks
    assert result.ret == 1


def test_k_and_m_select_tasks(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=reference", "-k", "EX-3").assert_outcomes(passed=1, deselected=1)
    tasks.runpytest("--agent=reference", "-m", "slow_close", "--strict-markers").assert_outcomes(passed=1, deselected=1)
    tasks.runpytest("--agent=reference", "-m", "train").assert_outcomes(passed=1, deselected=1)
    tasks.runpytest("--agent=reference", "-m", "example and not slow_close").assert_outcomes(passed=1, deselected=1)


def test_markers_are_listed_without_collecting(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--markers", "tasks/")
    for line in ("wrong_ticket: failure mode tag", "slow_close: failure mode tag", "example: environment",
                 "train: task split", "eval: task split"):
        result.stdout.fnmatch_lines([f"@pytest.mark.{line} (agenteval)"])
    assert "collected" not in result.stdout.str()


def test_last_failed_reruns_only_the_failures(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer")
    result = tasks.runpytest("--agent=agents_mod:Closer", "--lf", "-q")
    result.assert_outcomes(failed=1)  # EX-3 alone
    assert "EX-1" not in result.stdout.str()


def test_exitfirst_records_the_grade_before_stopping(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=noop", "-x", "--agenteval-results=out.jsonl", "-p", "no:randomly")
    assert result.ret == 1
    lines = (tasks.path / "out.jsonl").read_text().splitlines()
    grades = [json.loads(x) for x in lines if "task_id" in json.loads(x)]
    assert [g["task_id"] for g in grades] == ["EX-1"] and grades[0]["passed"] is False


def test_runs_give_run_ids(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "--runs", "2", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*[[]EX-1-run1[]]", "*[[]EX-1-run2[]]", "*[[]EX-3-run1[]]", "*[[]EX-3-run2[]]"])


def test_xdist_gives_the_same_grades_as_serial(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Sometimes", "--runs", "3", "--agenteval-results=serial.jsonl")
    result = tasks.runpytest_subprocess("--agent=agents_mod:Sometimes", "--runs", "3", "-n", "2",
                                        "--agenteval-results=par.jsonl")
    result.stdout.fnmatch_lines(["*agenteval: 6 episodes, K=3*"])
    serial, parallel = episode_grades(tasks.path / "serial.jsonl"), episode_grades(tasks.path / "par.jsonl")
    assert len(serial) == 6 and serial == parallel
    # Our scheduler (each worker kept at a full window of C episodes) grades as serial too.
    window = tasks.runpytest_subprocess("--agent=agents_mod:Sometimes", "--runs", "3", "-n", "2", "-v",
                                        "--agenteval-concurrency", "3", "--agenteval-results=win.jsonl")
    window.stdout.fnmatch_lines(["scheduling tests via WindowScheduling"])
    assert episode_grades(tasks.path / "win.jsonl") == serial


def test_under_xdist_every_check_still_reaches_the_controller_as_a_subtest(tasks: pytest.Pytester) -> None:
    """Workers send passed checks' names with the test's report; the controller replays them.
    Terminal lines, counts, JUnit and the JSON report must match a serial run."""
    import xml.etree.ElementTree as ET

    def run(*extra: str) -> tuple[Any, ...]:
        result = tasks.runpytest_subprocess("--agent=agents_mod:Closer", "-v", "--junitxml=junit.xml",
                                            "--json-report", "--json-report-file=report.json", *extra)
        # (test, check outcome) of each progress line; xdist words them in another order.
        lines = sorted(re.search(r"\S+::test_task\[EX-\d\]", line)[0] + " " + found[0]  # type: ignore[index]
                       for line in result.stdout.lines
                       if not line.startswith("SUB") and (found := re.search(r"SUB(PASSED|FAILED)\[[^\]]+\]", line)))
        cases = sorted((c.get("name"), *(child.tag for child in c), *(p.get("name") for p in c.iter("property")))
                       for c in ET.parse(tasks.path / "junit.xml").iter("testcase"))
        report = json.loads((tasks.path / "report.json").read_text())
        tests = sorted((t["nodeid"], t["outcome"], t["call"]["outcome"], t["agenteval"]["passed"])
                       for t in report["tests"])
        # Counts parsed from the closing line, not its text: its "=" padding shrinks when the
        # run takes 10 s or more (issue #14).
        return lines, result.parseoutcomes(), cases, report["summary"], tests

    serial, parallel = run(), run("-n", "2")
    assert len(serial[0]) == 12 and any("SUBFAILED" in line for line in serial[0])
    assert parallel == serial
    assert "agenteval_passed_checks" not in (tasks.path / "junit.xml").read_text()


def test_summary_table_numbers(tasks: pytest.Pytester) -> None:
    k = 3
    passes = {t: sum(episode_seed(t, r) % 3 != 0 for r in range(1, k + 1)) for t in ("EX-1", "EX-3")}
    result = tasks.runpytest("--agent=agents_mod:Sometimes", "--runs", str(k), "--agenteval-results=r.jsonl")
    total = sum(passes.values())
    hat = sum(math.comb(c, k) / math.comb(k, k) for c in passes.values()) / 2
    at = sum(1 - math.comb(k - c, k) / math.comb(k, k) for c in passes.values()) / 2
    summary = json.loads((tasks.path / "r.jsonl").read_text().splitlines()[-1])["summary"]
    row = summary["groups"][0]
    assert (row["group"], row["episodes"], row["passed"]) == ("all", 6, total)
    assert row["pass_hat_k"] == pytest.approx(hat) and row["pass_at_k"] == pytest.approx(at)
    result.stdout.fnmatch_lines([
        "group * tasks * episodes * pass@1 * 95% CI * pass^3 * pass@3 * triggered",
        f"all * 2 * 6 * {total / 6:.2f} * [[]*[]] * {hat:.2f} * {at:.2f}",
        "tag slow_close * 1 * 3 *",
    ])


def test_json_report_carries_grades_and_counts_passes(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=agents_mod:Closer", "-v", "--json-report", "--json-report-file=report.json")
    report = json.loads((tasks.path / "report.json").read_text())
    outcomes = {t["nodeid"].split("[")[1][:-1]: t["outcome"] for t in report["tests"]}
    assert outcomes == {"EX-1": "passed", "EX-3": "failed"}
    assert report["summary"]["passed"] == 1 and report["summary"]["failed"] == 1
    graded = {t["agenteval"]["task_id"]: t["agenteval"] for t in report["tests"]}
    assert {c["name"] for c in graded["EX-3"]["checks"] if not c["passed"]} == {"state.ticket.T-0003", "action_path", "frame"}


def test_junit_carries_the_grade_as_a_json_property(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=reference", "--junitxml=junit.xml")
    import xml.etree.ElementTree as ET

    props = ET.parse(tasks.path / "junit.xml").findall(".//property[@name='agenteval_grade']")
    assert len(props) == 2 and json.loads(props[0].get("value"))["passed"] is True


def test_junit_and_vv_point_at_the_task_line(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "-vv", "--junitxml=junit.xml", "-o", "junit_family=xunit1")
    assert "runner" not in result.stdout.str()  # pytest_agenteval/plugin/runner.py, the shipped test module
    import xml.etree.ElementTree as ET

    case = ET.parse(tasks.path / "junit.xml").find(".//testcase")
    assert case.get("file") == "tasks/example.jsonl" and case.get("line") == "0"


def test_malformed_line_is_one_error_and_the_rest_run(pytester: pytest.Pytester) -> None:
    write_tasks(pytester, '{"task_id": "EX-9", "environment": "example"')
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines([
        "*ERROR at setup of line 3*",
        "tasks/example.jsonl:3: <json>: not valid JSON: the line ends in the middle of an object at column 44 "
        "(write one complete JSON object per line)",
    ])
    assert "Traceback" not in result.stdout.str()


def test_second_run_uses_remembered_lines_and_sees_edits(tasks: pytest.Pytester) -> None:
    tasks.runpytest("--agent=reference").assert_outcomes(passed=2)
    assert list((tasks.path / ".pytest_cache" / "d" / "agenteval-tasks").iterdir())
    # Remembered lines keep their ids and markers.
    tasks.runpytest("--agent=reference", "-m", "slow_close", "-v").stdout.fnmatch_lines(
        ["*test_task[[]EX-3[]] PASSED*", "*1 passed, 1 deselected*"])
    path = tasks.path / "tasks" / "example.jsonl"
    lines = path.read_text().splitlines()
    edited = json.loads(lines[1])
    edited["overrides"] = {"ticket": {"T-0003": {"status": "exploded"}}}
    path.write_text("\n".join([lines[0], json.dumps(edited)]) + "\n")
    result = tasks.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["tasks/example.jsonl:2: overrides.ticket.T-0003.status: the database refuses*"])


def test_duplicate_ids_across_files_name_both_places(pytester: pytest.Pytester) -> None:
    write_tasks(pytester)
    (pytester.path / "tasks" / "more.jsonl").write_text(task_line(task_id="EX-3") + "\n")
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines([
        "tasks/more.jsonl:1: task_id: 'EX-3' is already used at tasks/example.jsonl:2 (give each task a unique task_id)"
    ])


def test_other_jsonl_files_are_not_task_files(pytester: pytest.Pytester) -> None:
    (pytester.path / "data").mkdir()
    (pytester.path / "data" / "events.jsonl").write_text('{"not": "a task"}\n')
    pytester.makepyfile(test_plain="def test_ok(): pass")
    pytester.runpytest().assert_outcomes(passed=1)


def test_task_file_patterns_are_configurable(pytester: pytest.Pytester) -> None:
    write_tasks(pytester)
    (pytester.path / "tasks" / "example.jsonl").rename(pytester.path / "evals.jsonl")
    pytester.makeini("[pytest]\nagenteval_task_files = evals.jsonl\n")
    pytester.runpytest("--agent=reference").assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nonsense", "ERROR: --agent=nonsense: not a valid agent name (use MODULE:ATTR (e.g. nonsense:Agent) or one of: reference, noop, saboteur:<failure_mode>, replay:<file>)"),
        ("missing_mod:Agent", "ERROR: --agent=missing_mod:Agent: no module named 'missing_mod' (it must be importable from the rootdir * or an installed package: the rootdir is where pytest.ini or pyproject.toml is, or else the task paths' common folder; check the spelling)"),
        ("agents_mod:Closr", "ERROR: --agent=agents_mod:Closr: module 'agents_mod' has no attribute 'Closr' (did you mean 'Closer'?)"),
        ("agents_mod:NOT_CALLABLE", "ERROR: --agent=agents_mod:NOT_CALLABLE: NOT_CALLABLE is a int, not a class or factory (name a class with run(episode), or a function returning such an object)"),
        ("broken_mod:Agent", "ERROR: --agent=broken_mod:Agent: importing 'broken_mod' failed: ModuleNotFoundError: No module named 'requestz' (at broken_mod.py:1)"),
    ],
)
def test_agent_usage_errors(tasks: pytest.Pytester, spec: str, message: str) -> None:
    tasks.makepyfile(broken_mod="import requestz\n")
    result = tasks.runpytest(f"--agent={spec}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_no_agent_is_one_clear_error(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: no agent to evaluate: pass --agent=MODULE:ATTR (e.g. --agent=reference), "
                                 "or define an `agent` fixture in conftest.py"])
    assert result.stderr.str().count("no agent to evaluate") == 1


def test_conftest_agent_fixture_overrides_the_option(tasks: pytest.Pytester) -> None:
    tasks.makeconftest("import pytest, agents_mod\n@pytest.fixture\ndef agent():\n    return agents_mod.Closer\n")
    tasks.runpytest().assert_outcomes(passed=1, failed=1)
    tasks.runpytest("--agent=reference").assert_outcomes(passed=1, failed=1)


@pytest.mark.parametrize("spec", ["agents_mod:AsyncCloser", "agents_mod:make_closer"])
def test_async_agents_and_factories(tasks: pytest.Pytester, spec: str) -> None:
    tasks.runpytest(f"--agent={spec}").assert_outcomes(passed=1, failed=1)


@pytest.mark.parametrize(
    ("spec", "label", "detail"),
    [
        ("Loops", "step_limit", "the agent tried to go past its budget of 30 steps"),
        ("Sleeps", "agent_timeout", "the agent ran past the time limit of 0.5 s"),
    ],
)
def test_misbehaving_agents_fail_their_own_episodes(tasks: pytest.Pytester, spec: str, label: str, detail: str) -> None:
    result = tasks.runpytest(f"--agent=agents_mod:{spec}", "--agenteval-timeout=0.5")
    assert result.ret == 1 and result.parseoutcomes().get("passed", 0) == 0
    result.stdout.fnmatch_lines([f"  * [[]{label}[]] {detail}"])


def test_header_names_agent_runs_and_task_files(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--agent=reference", "--runs", "2", "tasks/")
    result.stdout.fnmatch_lines(["agenteval: agent=reference, runs=2, episode time limit=300 s",
                                 "agenteval task files: tasks/example.jsonl (2)"])


def test_fixtures_are_documented(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest("--fixtures")
    for name in ("task", "env", "reset", "apply", "agent", "episode"):
        result.stdout.fnmatch_lines([f"{name} -- *", "*"])


def test_the_entry_point_module_holds_the_hooks_and_fixtures(tasks: pytest.Pytester) -> None:
    off = tasks.runpytest("-p", "no:agenteval", "--collect-only", "-q")
    assert "test_task" not in off.stdout.str()  # without the plugin a .jsonl file is not collected
    # Named as a module, pytest registers the same hooks and fixtures the entry point does.
    on = tasks.runpytest("-p", "no:agenteval", "-p", "pytest_agenteval.plugin", "--agent=reference")
    on.assert_outcomes(passed=2)


def test_users_can_write_their_own_tests_with_our_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_own='''
import pytest
from pytest_agenteval import Task

TASK = Task.model_validate({"task_id": "MY-1", "environment": "example", "scenario_seed": 3,
    "instruction": "x", "allowed_actions": ["close_ticket"],
    "expected_final_state": {"ticket": {"T-0002": {"status": "closed"}}}, "vary": ["ticket.updated_at"]})

@pytest.mark.parametrize("task", [TASK])
def test_close(env, apply, reset):
    assert apply("close_ticket", {"ticket_id": "T-0002"})["ok"]
    assert env.grade().passed
    reset()
    assert not env.grade().passed
''')
    pytester.runpytest().assert_outcomes(passed=1)


def test_no_agent_under_xdist_is_one_clear_error(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest_subprocess("-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: no agent to evaluate: *"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_results_file_survives_a_killed_worker(tasks: pytest.Pytester) -> None:
    result = tasks.runpytest_subprocess("--agent=agents_mod:DiesOnT3", "-n", "2", "--agenteval-results=r.jsonl")
    result.stdout.fnmatch_lines(["*worker*crashed*"])
    records = [json.loads(line) for line in (tasks.path / "r.jsonl").read_text().splitlines()]
    grades = [r for r in records if "task_id" in r]
    assert [g["task_id"] for g in grades] == ["EX-1"] and grades[0]["passed"] is True
    assert records[-1]["summary"]["episodes"] == 1


def test_saboteur_runs_only_tagged_tasks_and_is_caught(pytester: pytest.Pytester) -> None:
    write_tasks(pytester, task_line(task_id="EX-7", failure_mode_tags=["forbidden_action"]))
    result = pytester.runpytest("--agent=saboteur:forbidden_action", "-rs")
    result.stdout.fnmatch_lines(["*[[]forbidden_action[]] called action(s) outside allowed_actions: delete_ticket*",
                                 "SKIPPED * not tagged forbidden_action"])
    outcomes = result.parseoutcomes()
    assert outcomes["skipped"] == 2 and outcomes.get("passed", 0) == 0


def test_ctrl_c_keeps_every_finished_episode(pytester: pytest.Pytester) -> None:
    import signal
    import subprocess
    import sys
    import time

    lines = [task_line(task_id=f"EX-{i}") for i in range(40)]
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "many.jsonl").write_text("\n".join(lines) + "\n")
    pytester.makepyfile(slow_agent="import time\nclass Agent:\n    def run(self, episode):\n        time.sleep(0.1)\n")
    results = pytester.path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "--agent=slow_agent:Agent", f"--agenteval-results={results}",
                             "-p", "no:cacheprovider"], cwd=pytester.path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=interruptible)
    deadline = time.monotonic() + 60
    # The run record, then at least 3 grades.
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 4):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out = proc.communicate(timeout=60)[0].decode()
    assert "KeyboardInterrupt" in out
    records = [json.loads(line) for line in results.read_text().splitlines()]  # every line is valid JSON
    grades = [r for r in records if "task_id" in r]
    assert 3 <= len(grades) < 40
    assert records[-1]["summary"]["episodes"] == len(grades)
