"""An episode never outlives its test item (issue #14, item 1).

Whatever ends an item while its agent still runs (pytest-timeout's signal or thread method,
Ctrl-C, any exception through the runner), the episode is closed, the engine refuses any
later call from it, the stuck agent thread is left behind for a fresh one, and the episode is
recorded as failed with its reason. No test here compares durations: agents wait on events or
files that a later episode sets, with generous limits.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

import pytest

from pytest_agenteval import EpisodeOver
from pytest_agenteval.agents.builtin import Reference
from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from tests.helpers.tasks import make_task, result_lines, task_line

AGENTS = '''
import os, threading, time

WAKE = threading.Event()
DONE = threading.Event()

class Stalls:
    """Stuck on EX-1 until EX-2's agent wakes it; then it tries to write through its old
    episode, into the environment that now belongs to EX-2."""
    def run(self, episode):
        if episode.task_id == "EX-1":
            WAKE.wait(120)
            try:
                episode.call("close_ticket", {"ticket_id": "T-0003"})
                outcome = "accepted"
            except BaseException as exc:
                outcome = type(exc).__name__
            with open("late.txt", "w") as f:
                f.write(outcome)
            DONE.set()
            return
        if episode.task_id == "EX-2":
            WAKE.set()
            DONE.wait(60)
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class HangsOnFirst:
    def run(self, episode):
        if episode.task_id == "EX-1":
            time.sleep(120)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(lt_agents=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(
        task_line(task_id=f"EX-{i}", acceptable_action_paths=[[
            {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]) for i in (1, 2, 3)) + "\n")
    return pytester


def results(pytester: pytest.Pytester) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    lines = result_lines(pytester.path / "r.jsonl")
    return {g["task_id"]: g for g in lines if "summary" not in g}, next(x["summary"] for x in lines if "summary" in x)


def agent_check(grade: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in grade["checks"] if c["name"] == "agent_completed")


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_pytest_timeout_ends_the_episode_and_nothing_crosses_over(project: pytest.Pytester, method: str) -> None:
    """pytest-timeout's limit covers the whole item. The agent gets that limit less time to
    grade (a quarter of it), so the episode is graded agent_timeout before pytest-timeout fires
    (whose thread method would otherwise end the process with os._exit: hence the longer limit
    there, 3 s to grade, however loaded the machine)."""
    result = project.runpytest_subprocess(
        "--agent=lt_agents:Stalls", f"--timeout={12 if method == 'thread' else 8}", f"--timeout-method={method}",
        "--agenteval-results=r.jsonl",
        "-p", "no:randomly", "-p", "no:cacheprovider")
    assert result.ret == 1, result.stdout.str()
    grades, summary = results(project)
    assert sorted(grades) == ["EX-1", "EX-2", "EX-3"] and summary["episodes"] == 3
    check = agent_check(grades["EX-1"])
    assert (check["passed"], check["failure_mode"]) == (False, "agent_timeout")
    assert "pytest-timeout" in check["detail"]
    # The woken agent's write was refused, and the later episodes saw only their own action.
    assert (project.path / "late.txt").read_text() == "EpisodeOver"
    for later in ("EX-2", "EX-3"):
        assert grades[later]["passed"] and grades[later]["steps_used"] == 1
    result.stdout.fnmatch_lines(["*agenteval: 3 episodes, K=1*"])


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_pytest_timeout_under_isolation_records_the_episode(project: pytest.Pytester, method: str) -> None:
    result = project.runpytest_subprocess(
        "--agent=lt_agents:HangsOnFirst", "--agenteval-isolate", f"--timeout={12 if method == 'thread' else 8}",
        f"--timeout-method={method}", "--agenteval-results=r.jsonl", "-p", "no:randomly", "-p", "no:cacheprovider")
    assert result.ret == 1, result.stdout.str()
    grades, summary = results(project)
    assert sorted(grades) == ["EX-1", "EX-2", "EX-3"] and summary["episodes"] == 3
    assert agent_check(grades["EX-1"])["failure_mode"] == "agent_timeout"
    assert grades["EX-2"]["passed"] and grades["EX-3"]["passed"]
    result.stdout.fnmatch_lines(["*agenteval: 3 episodes, K=1*"])


def test_an_interruption_that_lands_while_the_agent_runs_is_recorded(project: pytest.Pytester) -> None:
    """Something else stops the test while the agent runs (here a conftest's own alarm, the
    way pytest-timeout's signal method does): the episode is graded and labelled first."""
    project.makeconftest(
        "import signal, pytest\n"
        "@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_call(item):\n"
        "    if 'EX-1' in item.nodeid:\n"
        "        def stop(signum, frame):\n"
        "            pytest.fail('stopped by the conftest alarm')\n"
        "        signal.signal(signal.SIGALRM, stop)\n"
        "        signal.setitimer(signal.ITIMER_REAL, 2)\n"
        "    yield\n"
        "    signal.setitimer(signal.ITIMER_REAL, 0)\n")
    result = project.runpytest_subprocess(
        "--agent=lt_agents:Stalls", "--agenteval-timeout=20", "--agenteval-results=r.jsonl", "-p", "no:randomly",
        "-p", "no:cacheprovider")
    grades, summary = results(project)
    assert sorted(grades) == ["EX-1", "EX-2", "EX-3"] and summary["episodes"] == 3, result.stdout.str()
    check = agent_check(grades["EX-1"])
    assert (check["failure_mode"], check["detail"]) == (
        "interrupted", "the test was stopped while the agent ran: Failed: stopped by the conftest alarm")
    assert (project.path / "late.txt").read_text() == "EpisodeOver"
    assert grades["EX-2"]["passed"] and grades["EX-2"]["steps_used"] == 1
    result.stdout.fnmatch_lines(["*Failed: stopped by the conftest alarm*", "*agenteval: 3 episodes, K=1*"])


class _Interrupt(Exception):
    pass


@pytest.mark.parametrize("raised", [_Interrupt, KeyboardInterrupt])
def test_an_interrupted_episode_is_closed_and_its_thread_replaced(example_env: ExampleEnvironment,
                                                                   raised: type[BaseException]) -> None:
    """A signal handler raising in the main thread (as pytest-timeout's signal method and
    Ctrl-C do) while the agent runs: the episode is closed, so the stuck agent's later call is
    refused, and the next episode runs on a fresh thread."""
    release, finished = threading.Event(), threading.Event()
    late: list[str] = []

    def handler(signum: int, frame: Any) -> None:
        raise raised("interrupted")

    class Stuck:
        def run(self, episode: Any) -> None:
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGUSR1)
            release.wait(60)
            try:
                episode.call("close_ticket", {"ticket_id": "T-0003"})
                late.append("accepted")
            except EpisodeOver:
                late.append("EpisodeOver")
            finished.set()

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        with pytest.raises(raised):
            run_episode(example_env, make_task(task_id="EX-1"), Stuck, time_limit=60)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    # The stuck thread no longer serves episodes: the next one runs although it still waits.
    grade = run_episode(example_env, make_task(task_id="EX-2"), Reference(), time_limit=60)
    assert grade.passed and grade.steps_used == 2
    release.set()
    assert finished.wait(60)
    assert late == ["EpisodeOver"]
    assert [e.action for e in example_env.audit_log()] == ["get_ticket", "close_ticket"]


def test_the_engine_refuses_a_stale_episode_handle(example_env: ExampleEnvironment) -> None:
    """Even an episode handle nobody closed cannot act once the environment is reset."""
    example_env.reset(1, task=make_task(task_id="EX-1"))
    stale = Episode(example_env, make_task(task_id="EX-1"))
    example_env.reset(1, task=make_task(task_id="EX-2"))
    with pytest.raises(EpisodeOver, match="EX-1 has ended"):
        stale.call("close_ticket", {"ticket_id": "T-0003"})
    assert example_env.audit_log() == [] and example_env.episode.steps == 0


def test_the_abandoned_thread_exits_once_its_agent_returns(example_env: ExampleEnvironment) -> None:
    release = threading.Event()
    ran_on: list[threading.Thread] = []

    class Waits:
        def run(self, episode: Any) -> None:
            ran_on.append(threading.current_thread())
            os.kill(os.getpid(), signal.SIGUSR2)
            release.wait(60)

    def handler(signum: int, frame: Any) -> None:
        raise _Interrupt("stop")

    previous = signal.signal(signal.SIGUSR2, handler)
    try:
        with pytest.raises(_Interrupt):
            run_episode(example_env, make_task(), Waits, time_limit=60)
    finally:
        signal.signal(signal.SIGUSR2, previous)
    release.set()
    ran_on[0].join(60)
    assert not ran_on[0].is_alive()  # not left waiting forever for jobs nobody sends


def test_a_closed_environment_refuses_its_last_episode_as_over() -> None:
    """At the end of the session the environments close; a straggling agent still gets
    EpisodeOver, not an error about a missing reset."""
    env = ExampleEnvironment()
    env.reset(1, task=make_task())
    stale = Episode(env, make_task())
    env.close()
    with pytest.raises(EpisodeOver, match="EX-1 has ended"):
        stale.call("get_ticket", {"ticket_id": "T-0001"})


def test_stopped_while_grading_still_records_the_agents_own_outcome(example_env: ExampleEnvironment,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_agenteval.agents.play import play

    real, calls, recorded = example_env.grade, [], []

    def grade_stopped_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise _Interrupt("stop")
        return real(*args, **kwargs)

    monkeypatch.setattr(example_env, "grade", grade_stopped_once)
    task = make_task()
    example_env.reset(1, task=task)
    with pytest.raises(_Interrupt):
        play(example_env, task, Episode(example_env, task), Reference(), run=1, time_limit=60,
             on_interrupt=recorded.append)
    assert len(recorded) == 1 and recorded[0].passed  # the agent finished; only grading was stopped


def test_an_item_that_fails_before_its_episode_is_graded_is_named_under_the_table(project: pytest.Pytester) -> None:
    project.makeconftest("import pytest\n"
                         "@pytest.fixture(autouse=True)\n"
                         "def broken_for_ex2(request):\n"
                         "    if 'EX-2' in request.node.nodeid:\n"
                         "        raise RuntimeError('no database today')\n")
    result = project.runpytest("--agent=reference", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines([
        "*agenteval: 2 episodes, K=1*",
        "not graded, not in the table (the test failed before its episode was graded): "
        "tasks/t.jsonl::test_task[[]EX-2[]] (setup)"])
