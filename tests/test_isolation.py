"""--agenteval-isolate: the agent runs in its own process and can only send actions."""

from __future__ import annotations

import json

import pytest

from tests.helpers.tasks import result_lines, task_line

AGENTS = '''
import os, sys, time

class Good:
    def run(self, episode):
        print("chatty agents print to stdout; that must not break anything")
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class Exits:
    def run(self, episode):
        os._exit(3)

class Segfaults:
    def run(self, episode):
        import ctypes
        ctypes.string_at(0)

class Snoops:
    """Reaches for the database through the episode, as an in-process agent could."""
    def run(self, episode):
        episode._Episode__env.db.execute("UPDATE ticket SET status = 'closed' WHERE id = 'T-0001'")

class Hangs:
    def run(self, episode):
        time.sleep(60)

class Loops:
    def run(self, episode):
        while True:
            try:
                episode.call("get_ticket", {"ticket_id": "T-0001"})
            except Exception:
                pass
'''


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(iso_agents=AGENTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(
        "\n".join(task_line(task_id=f"EX-{i}", acceptable_action_paths=[[
            {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]) for i in (1, 2)) + "\n")
    return pytester


def grades(pytester: pytest.Pytester, agent: str, *extra: str) -> list[dict]:
    pytester.runpytest(f"--agent=iso_agents:{agent}", "--agenteval-isolate", "--agenteval-results=r.jsonl",
                       "-p", "no:cacheprovider", *extra)
    return [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g]


def agent_check(grade: dict) -> str:
    check = next(c for c in grade["checks"] if c["name"] == "agent_completed")
    return f"[{check['failure_mode']}] {check['detail']}" if not check["passed"] else "ok"


def test_a_good_agent_passes_and_its_prints_do_not_break_the_protocol(project: pytest.Pytester) -> None:
    assert [g["passed"] for g in grades(project, "Good")] == [True, True]


@pytest.mark.parametrize(("agent", "expected"), [
    ("Exits", "[agent_error] the agent process died (exit code 3)"),
    ("Segfaults", "[agent_error] the agent process died (exit code -11)"),
    ("Snoops", "[agent_error] AttributeError: 'RemoteEpisode' object has no attribute '_Episode__env' (at iso_agents.py:20)"),
    ("Hangs", "[agent_timeout] the agent ran past the time limit of 2 s"),
])
def test_a_crashing_or_snooping_agent_fails_only_its_episode(project: pytest.Pytester, agent: str, expected: str) -> None:
    # Only the hanging agent gets a short limit: on a loaded machine starting the child process
    # alone can take seconds, and a crash must not be reported as a timeout.
    got = grades(project, agent, f"--agenteval-timeout={2 if agent == 'Hangs' else 120}")
    assert len(got) == 2 and not any(g["passed"] for g in got)
    assert agent_check(got[0]).startswith(expected), agent_check(got[0])
    assert all(g["final_state_diff"] == {} for g in got)  # the database was never reached


def test_the_step_budget_still_ends_a_looping_agent(project: pytest.Pytester) -> None:
    got = grades(project, "Loops")
    assert {c["name"] for c in got[0]["checks"] if not c["passed"]} >= {"step_budget"}
    assert got[0]["steps_used"] == 31


def test_in_process_agents_can_snoop_which_is_why_isolation_exists(project: pytest.Pytester) -> None:
    project.runpytest("--agent=iso_agents:Snoops", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    first = json.loads((project.path / "r.jsonl").read_text().splitlines()[1])  # after the run record
    assert first["final_state_diff"]["ticket"]["changed"]["T-0001"]["status"]["new"] == "closed"


def test_a_fixture_agent_that_cannot_be_imported_by_name(project: pytest.Pytester) -> None:
    project.makeconftest("import pytest\n@pytest.fixture\ndef agent():\n    class Local:\n"
                         "        def run(self, episode): pass\n    return Local\n")
    result = project.runpytest("--agenteval-isolate", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*cannot run <class 'conftest.agent.<locals>.Local'> in a separate process: "
                                 "name a module-level class or function (MODULE:ATTR)"])


PARALLEL = '''
import threading

class Parallel:
    """8 threads x 20 look-ups at once (as LangGraph or pydantic-ai run sync tools); each
    answer must be the one to its own request."""
    def run(self, episode):
        wrong, errors = [], []

        def worker(t):
            try:
                for i in range(20):
                    ticket = f"T-{(t * 20 + i) % 60 + 1:04d}"
                    obs = episode.call("get_ticket", {"ticket_id": ticket})
                    if obs.get("result", {}).get("id") != ticket:
                        wrong.append((ticket, obs))
            except BaseException as exc:
                errors.append(repr(exc))

        threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if wrong or errors:
            raise AssertionError(f"{len(wrong)} answers belonged to another request; errors: {errors[:2]}")
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
def test_concurrent_calls_from_many_threads_get_their_own_answers(pytester: pytest.Pytester, isolate: bool) -> None:
    pytester.makepyfile(par_agents=PARALLEL)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line(max_steps=200, acceptable_action_paths=[[
        {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]) + "\n")
    pytester.runpytest("--agent=par_agents:Parallel", "--agenteval-results=r.jsonl", "--agenteval-timeout=60",
                       "-p", "no:cacheprovider", *(["--agenteval-isolate"] if isolate else []))
    grade = result_lines(pytester.path / "r.jsonl")[0]
    assert agent_check(grade) == "ok"
    assert grade["passed"] and grade["steps_used"] == 161


UNRULY = '''
import sys, time

class Chatty:
    """Prints far more than a pipe holds (LLM agents log a lot) before acting."""
    def run(self, episode):
        for _ in range(2000):
            print("x" * 1000)
        episode.call("close_ticket", {"ticket_id": "T-0001"})

class HalfLine:
    """Writes half a protocol line to the parent, then hangs."""
    def run(self, episode):
        episode._outbox.write('{"call": "close_')
        episode._outbox.flush()
        time.sleep(120)
'''


def test_a_chatty_isolated_agent_does_not_block_on_its_output(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(unruly=UNRULY)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line(acceptable_action_paths=[[
        {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]) + "\n")
    pytester.runpytest("--agent=unruly:Chatty", "--agenteval-isolate", "--agenteval-timeout=60",
                       "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    grade = result_lines(pytester.path / "r.jsonl")[0]
    assert agent_check(grade) == "ok" and grade["passed"]


def test_half_a_line_from_an_isolated_agent_does_not_outlast_the_time_limit(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(unruly=UNRULY)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=unruly:HalfLine", "--agenteval-isolate", "--agenteval-timeout=3",
                       "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    grade = result_lines(pytester.path / "r.jsonl")[0]
    assert agent_check(grade) == "[agent_timeout] the agent ran past the time limit of 3 s"
