"""--agenteval-isolate: the agent runs in its own process and can only send actions."""

from __future__ import annotations

import json

import pytest

from conftest import task_line

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
    return [g for g in map(json.loads, (pytester.path / "r.jsonl").read_text().splitlines()) if "task_id" in g]


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
