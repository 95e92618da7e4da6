"""Red team 5: attacks on the single episode driver and its placements, each one that got
through pinned here: an async agent raising ``SystemExit`` in flight, an async agent blocking
the event loop past its time limit, a ``@types.coroutine`` run, and an agent class with a
``for_task`` attribute under ``--agenteval-isolate``."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Grade
from pytest_agenteval.agents.containment import Containment
from pytest_agenteval.agents.inflight import InFlight
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.sandbox import IsolatedAgent
from pytest_agenteval.domains.example import ExampleEnvironment
from tests.helpers.agent_modules import agent_module
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import make_task, task_line

AGENTS = '''
import sys, time, types


def close(episode):
    episode.call("close_ticket", {"ticket_id": "T-0001"})


class ExitsAsync:
    async def run(self, episode):
        close(episode)
        sys.exit(3)


class InterruptsAsync:
    async def run(self, episode):
        close(episode)
        raise KeyboardInterrupt


class BlocksTheLoop:
    """Acts, then blocks its thread (the event loop, in flight) past its time limit."""
    async def run(self, episode):
        close(episode)
        time.sleep(3 * TIME_LIMIT)


class GeneratorCoroutine:
    @types.coroutine
    def run(self, episode):
        close(episode)
        yield
'''

TIME_LIMIT = 1.5


@pytest.fixture(scope="module")
def agents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    source = AGENTS.replace("TIME_LIMIT", repr(TIME_LIMIT))
    with agent_module(tmp_path_factory.mktemp("red5"), "red5_agents", source) as folder:
        yield folder


def _cls(name: str) -> Any:
    return getattr(importlib.import_module("red5_agents"), name)


def _isolated(name: str, folder: Path) -> IsolatedAgent:
    return IsolatedAgent(spec=f"red5_agents:{name}", search_path=str(folder), containment=Containment(level="process"))


def serial(factory: Any) -> Grade:
    with ExampleEnvironment() as env:
        return run_episode(env, make_task(max_steps=5), factory, time_limit=TIME_LIMIT)


def in_flight(factory: Any) -> Grade:
    runner = InFlight(lambda _name: ExampleEnvironment())
    try:
        flight = runner.start(make_task(max_steps=5), 1, factory, time_limit=TIME_LIMIT)
        assert flight.done.wait(30), "the episode was never graded: the event loop is gone"
        return flight.result()
    finally:
        runner.close()


def labels(grade: Grade) -> dict[str, str]:
    return {c.name: c.failure_mode or "" for c in grade.failed_checks()}


@pytest.mark.parametrize("name", ["ExitsAsync", "InterruptsAsync"])
def test_an_async_agent_raising_systemexit_in_flight_errs_its_episode_only(agents: Path, name: str) -> None:
    """On a thread and in a sandbox it is ``agent_error``; in flight ``SystemExit`` (and
    ``KeyboardInterrupt``) left the event loop's ``run_forever``: the loop thread ended, this
    episode and every later one in the process were never graded, and the run hung (without
    pytest-timeout) until killed."""
    assert labels(serial(_cls(name))) == {"agent_completed": "agent_error"}
    assert labels(in_flight(_cls(name))) == {"agent_completed": "agent_error"}


def test_an_async_agent_that_blocks_the_loop_past_its_limit_times_out_in_flight(agents: Path) -> None:
    """On a thread and in a sandbox an agent that is still running at its time limit is
    ``agent_timeout``; in flight, one that blocks the event loop (``time.sleep`` in an
    ``async def``) stops the timer too, and once it returns it passed."""
    assert labels(serial(_cls("BlocksTheLoop"))) == {"agent_completed": "agent_timeout"}
    assert labels(in_flight(_cls("BlocksTheLoop"))) == {"agent_completed": "agent_timeout"}


def test_a_types_coroutine_run_is_awaited_in_a_sandbox_as_in_process(agents: Path) -> None:
    """``inspect.isawaitable`` (in process) awaits a generator-based coroutine; the sandbox's
    child asked ``hasattr(result, "__await__")``, which it lacks, so its body never ran there."""
    assert serial(_cls("GeneratorCoroutine")).passed
    assert serial(_isolated("GeneratorCoroutine", agents)).passed


SEES_THE_TASK = '''
import sys


class Agent:
    """An agent under test that names a ``for_task``, as the harness's own agents do."""
    task = None

    @classmethod
    def for_task(cls, task):
        agent = cls()
        agent.task = task
        return agent

    def run(self, episode):
        if self.task is not None:
            raise RuntimeError(f"saw the task: {sorted(self.task.expected_final_state)}; "
                               f"in the harness: {'_pytest' in sys.modules}")
        raise RuntimeError("isolated, no task")
'''


def test_an_isolated_fixture_agent_naming_for_task_is_still_isolated(pytester: pytest.Pytester) -> None:
    """A conftest ``agent`` fixture returning a module-level class is isolated by its name
    (docs/agents.md); a class with a ``for_task`` attribute was taken for a built-in agent: it
    ran in the harness process, unisolated, under a header that said bwrap, and was handed the
    whole task (its expected state and acceptable paths)."""
    pytester.makepyfile(sees=SEES_THE_TASK)
    pytester.makeconftest("import pytest\nfrom sees import Agent\n\n\n@pytest.fixture\ndef agent():\n    return Agent\n")
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agenteval-isolate=process", "t.jsonl")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "saw the task" not in out
    assert "isolated, no task" in out


PEEKS = '''
import os


class Agent:
    def run(self, episode):
        here = os.path.dirname(os.path.abspath(__file__))
        seen = []
        for name in sorted(n for n in os.listdir(here) if not n.endswith(".py")):
            try:
                with open(os.path.join(here, name)) as f:
                    if "acceptable" in f.read():
                        seen.append(name)
            except OSError:
                pass
        raise RuntimeError(f"answers in: {seen}")
'''


@needs_bwrap
@pytest.mark.parametrize("report", [
    "--junitxml=junit.XML",  # the suffix's case
    "--json-report-file=big.json",  # "tests" kilobytes in, after every collector
    "--junitxml=junit.txt",  # another suffix
])
def test_an_earlier_runs_report_is_hidden_whatever_its_name(pytester: pytest.Pytester, report: str) -> None:
    """``project_secrets`` matched suffixes case-sensitively and looked for pytest-json-report's
    ``"tests"`` in a file's first 512 bytes: a report of 42 tasks has it at byte ~3900."""
    if "json" in report:
        pytest.importorskip("pytest_jsonreport")
    pytester.makepyfile(peeks=PEEKS)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(
        "\n".join(task_line(task_id=f"EX-{i}") for i in range(40)) + "\n")
    extra = ["--json-report"] if "json" in report else []
    pytester.runpytest("--agent=noop", report, *extra, "tasks/t.jsonl", "-p", "no:cacheprovider")
    result = pytester.runpytest("--agent=peeks:Agent", "--agenteval-isolate", "tasks/t.jsonl", "-k", "EX-7",
                                "-p", "no:cacheprovider")
    assert "answers in: []" in result.stdout.str()
