"""Red team 4: attacks on ``--agenteval-isolate`` by a hostile agent module, each one that got
through pinned here: the signing key in the sandbox's environment, memory kept in bwrap's
/dev, an earlier run's JUnit XML or JSON report, and the generator of a hidden task file."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line

KEY = "0123456789abcdef0123456789abcdef"

STEALS_THE_KEY = '''
import os

# At import, in the sandbox that checks --agent at the start: the key, if it is there.
_KEY = os.environ.get("AGENTEVAL_SIGNING_KEY")


class Agent:
    def run(self, episode):
        raise RuntimeError(f"key at import: {_KEY}; key in the episode: {os.environ.get('AGENTEVAL_SIGNING_KEY')}")
'''


@pytest.mark.parametrize("level", [pytest.param("", marks=needs_bwrap), "=process"])
def test_no_agent_process_sees_the_signing_key_variable(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                       level: str) -> None:
    """The start-up check of ``--agent`` ran in a sandbox before the plugin took
    AGENTEVAL_SIGNING_KEY out of its environment: a module that failed its import with the key
    printed it in the usage error; one that sends it out (LLM agents have the network) could sign
    a forged results file."""
    pytester.makepyfile(steals=STEALS_THE_KEY.replace(
        "class Agent:", "if _KEY:\n    raise RuntimeError('stolen: ' + _KEY)\n\n\nclass Agent:"))
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    monkeypatch.setenv("AGENTEVAL_SIGNING_KEY", KEY)
    result = pytester.runpytest("--agent=steals:Agent", f"--agenteval-isolate{level}", "--agenteval-results=r.jsonl",
                                "t.jsonl")
    assert KEY not in result.stdout.str() + result.stderr.str()
    result.assert_outcomes(errors=1)
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    detail = next(c["detail"] for c in grade["checks"] if c["name"] == "agent_completed")
    assert "key at import: None; key in the episode: None" in detail


FILLS_DEV_SHM = '''
import os


class Agent:
    """Keeps files in /dev/shm, another in-memory folder besides /tmp: 5 x 60 MiB under a
    256 MiB memory limit (each file under the 64 MiB file size limit)."""
    def run(self, episode):
        written = 0
        try:
            for i in range(5):
                with open(f"/dev/shm/f{i}", "wb") as f:
                    for _ in range(60):
                        f.write(b"x" * (1 << 20))
                        written += 1
        except OSError as exc:
            raise RuntimeError(f"refused after {written} MiB: {exc.strerror}") from None
        raise RuntimeError(f"kept {written} MiB in /dev/shm")
'''


@needs_bwrap
def test_files_in_dev_shm_cannot_hold_memory_past_the_limit(pytester: pytest.Pytester) -> None:
    """bwrap's /dev is a tmpfs of half the machine's memory; as an unprivileged user the agent
    owns it (its user namespace made it) and kept 300 MiB there under memory=256M, as each
    concurrent sandbox could keep gigabytes. (As root the sandbox is nobody: /dev is not its.)"""
    pytester.makepyfile(fills=FILLS_DEV_SHM)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=fills:Agent", "--agenteval-isolate", "--agenteval-limits=memory=256M",
                       "--agenteval-results=r.jsonl", "t.jsonl")
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    detail = next(c["detail"] for c in grade["checks"] if c["name"] == "agent_completed")
    assert "kept 300 MiB" not in detail, detail


READS_EARLIER_REPORTS = '''
import os, re


class Agent:
    """Looks in the project folder for an earlier run's reports (not .jsonl, not .html) and
    plays the acceptable path a failed check printed there."""
    def run(self, episode):
        for name in os.listdir("."):
            if name.endswith((".json", ".xml")):
                try:
                    text = open(name).read()
                except OSError:  # hidden: it gives up, as a careful attacker would, unseen
                    continue
                found = re.search(r"acceptable: (\\w+)\\(ticket_id='(T-\\d+)'\\)", text)
                if found:
                    episode.call(found.group(1), {"ticket_id": found.group(2)})
                    return
        # nothing found: it does nothing
'''


@needs_bwrap
@pytest.mark.parametrize("report", ["--junitxml=junit.xml", "--json-report"])
def test_an_earlier_runs_reports_are_hidden_from_the_agent(pytester: pytest.Pytester, report: str) -> None:
    """An earlier run's JUnit XML or pytest-json-report file (``.report.json``) in the project
    folder holds each failed check's detail, the acceptable path included: an isolated agent
    read it and passed a task whose instruction names nothing."""
    pytester.makepyfile(reads=READS_EARLIER_REPORTS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line(instruction="Do what is needed.") + "\n")
    pytester.runpytest("--agent=noop", report, "tasks/t.jsonl").assert_outcomes(failed=1)
    result = pytester.runpytest("--agent=reads:Agent", "--agenteval-isolate", "tasks/t.jsonl")
    result.assert_outcomes(failed=1)


REGENERATES = '''
import runpy


class Agent:
    """Writes nothing and reads no task file: runs the project's own generator of the hidden
    task file, then plays its task's acceptable path."""
    def run(self, episode):
        try:
            tasks = runpy.run_path("scripts/generate_booking_tasks.py", run_name="not_main")["build"]()
        except OSError:  # hidden: it does nothing
            return
        task = next(t for t in tasks if t["task_id"] == episode.task_id)
        def play(item):
            if isinstance(item, list):
                for member in item:
                    play(member)
            elif "any_order" in item:
                play(item["any_order"])
            else:
                episode.call(item["action"], item["arguments"])
        play(task["acceptable_action_paths"][0])
'''


@needs_bwrap
def test_the_hidden_task_file_cannot_be_regenerated_from_the_project(pytester: pytest.Pytester) -> None:
    """This project's layout: tasks/booking.jsonl is hidden from an isolated agent, but
    scripts/generate_booking_tasks.py, which writes it byte for byte from the installed
    package, is in the project folder the agent reads: run, it hands the agent every task's
    expected state and paths (all 42 shipped booking tasks passed so). No rule can tell such
    a script from the agent's own code: the project lists it in ``agenteval_hide``, as this
    project's own configuration does (read from its pyproject.toml here)."""
    root = Path(__file__).resolve().parent.parent
    hide = json.loads(re.search(r"^agenteval_hide = (\[.*\])$", (root / "pyproject.toml").read_text(), re.M)[1])
    assert hide == ["scripts"]
    pytester.makeini("[pytest]\nagenteval_hide =\n    " + "\n    ".join(hide) + "\n")
    (pytester.path / "scripts").mkdir()
    shutil.copy(root / "scripts" / "generate_booking_tasks.py", pytester.path / "scripts")
    (pytester.path / "tasks").mkdir()
    shutil.copy(root / "tasks" / "booking.jsonl", pytester.path / "tasks")
    pytester.makepyfile(regenerates=REGENERATES)
    result = pytester.runpytest("--agent=regenerates:Agent", "--agenteval-isolate", "tasks/booking.jsonl",
                                "-k", "BK-001")
    result.assert_outcomes(failed=1)
