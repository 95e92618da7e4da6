"""One episode driver (issue #25): the same agent gets the same grade wherever it runs — on a
thread of a serial run, in flight beside others (its own thread, or the event loop), or in a
sandbox of its own process, serially or in flight. Each agent below misbehaves one way."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
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
from tests.helpers.tasks import make_task

AGENTS = '''
import asyncio, sys, time
from pytest_agenteval import EpisodeOver

def close(episode):
    episode.call("close_ticket", {"ticket_id": "T-0001"})

class Good:
    def run(self, episode):
        close(episode)

class GoodAsync:
    async def run(self, episode):
        await episode.acall("close_ticket", {"ticket_id": "T-0001"})

class ReturnsCoroutine:
    def run(self, episode):
        async def later():
            close(episode)
        return later()

class Raises:
    def run(self, episode):
        raise KeyError("where is it")

class RaisesAsync:
    async def run(self, episode):
        raise KeyError("where is it")

class RaisesWhenMade:
    def __init__(self):
        raise KeyError("where is it")
    def run(self, episode):
        close(episode)

class HangsWhenMade:
    def __init__(self):
        time.sleep(20)
    def run(self, episode):
        close(episode)

class Hangs:
    def run(self, episode):
        close(episode)
        time.sleep(20)

class HangsAsync:
    async def run(self, episode):
        await asyncio.sleep(20)

class Exits:
    def run(self, episode):
        close(episode)
        sys.exit(3)

class Loops:
    def run(self, episode):
        while True:
            episode.call("get_ticket", {"ticket_id": "T-0001"})

class IgnoresTheEnd:
    def run(self, episode):
        for _ in range(episode.max_steps + 5):
            try:
                episode.call("get_ticket", {"ticket_id": "T-0001"})
            except EpisodeOver:
                pass

class BadArguments:  # a model's broken tool-call JSON, passed on by an adapter (red team 72)
    def run(self, episode):
        episode.call("close_ticket", '{"ticket_id": "T-00')
        episode.call("close_ticket", [1])
        close(episode)
'''

TIME_LIMIT = 1.5  # for the agents that hang; the others get AMPLE (a loaded machine starts a sandbox slowly)
AMPLE = 60.0


@pytest.fixture(scope="module")
def agents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with agent_module(tmp_path_factory.mktemp("placements"), "placed_agents", AGENTS) as folder:
        yield folder


def limit(name: str) -> float:
    """The time limit: short only where running past it is what is tested (no timing otherwise)."""
    return TIME_LIMIT if EXPECTED[name][1] == "agent_timeout" else AMPLE


def serial(name: str, folder: Path) -> Grade:
    with ExampleEnvironment() as env:
        return run_episode(env, make_task(max_steps=5), _cls(name), time_limit=limit(name))


def in_flight(factory: Any, name: str) -> Grade:
    runner = InFlight(lambda _name: ExampleEnvironment())
    try:
        flight = runner.start(make_task(max_steps=5), 1, factory, time_limit=limit(name))
        assert flight.done.wait(120)
        return flight.result()
    finally:
        runner.close()


def isolated(name: str, folder: Path) -> IsolatedAgent:
    return IsolatedAgent(spec=f"placed_agents:{name}", search_path=str(folder), containment=Containment(level="process"))


def _cls(name: str) -> Any:
    return getattr(importlib.import_module("placed_agents"), name)


PLACEMENTS: dict[str, Callable[[str, Path], Grade]] = {
    "thread": serial,
    "in flight": lambda name, folder: in_flight(_cls(name), name),
    "sandbox": lambda name, folder: _isolated_serial(name, folder),
    "sandbox in flight": lambda name, folder: in_flight(isolated(name, folder), name),
}


def _isolated_serial(name: str, folder: Path) -> Grade:
    with ExampleEnvironment() as env:
        return run_episode(env, make_task(max_steps=5), isolated(name, folder), time_limit=limit(name))


def outcome(grade: Grade) -> tuple[bool, str | None, str | None]:
    """What must not depend on the placement: the verdict, how the agent ended (or ran out of
    steps), and whether
    the episode is errored (the message's wording may differ: a child reports it)."""
    ended = next((c for c in grade.failed_checks() if c.name in ("agent_completed", "step_budget")), None)
    return grade.passed, ended.failure_mode if ended else None, (grade.error or {}).get("kind")


def completed(grade: Grade) -> Any:
    return next(c for c in grade.checks if c.name == "agent_completed")


def labels(grade: Grade) -> dict[str, str]:
    return {c.name: c.failure_mode or "" for c in grade.failed_checks()}


EXPECTED = {
    "Good": (True, None, None),
    "GoodAsync": (True, None, None),
    "ReturnsCoroutine": (True, None, None),
    "Raises": (False, "agent_error", "agent_code"),
    "RaisesAsync": (False, "agent_error", "agent_code"),
    "RaisesWhenMade": (False, "agent_error", "agent_code"),
    "HangsWhenMade": (False, "agent_timeout", None),
    "Hangs": (False, "agent_timeout", None),
    "HangsAsync": (False, "agent_timeout", None),
    "Exits": (False, "agent_error", None),  # it wrote before it exited: failed, not errored (red team 20)
    "Loops": (False, "step_limit", None),
    "IgnoresTheEnd": (False, "step_limit", None),
    "BadArguments": (True, None, None),  # refused as steps, then played: not a protocol violation
}
_ON_A_THREAD: dict[str, Grade] = {}


@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("placement", list(PLACEMENTS))
def test_the_same_agent_gets_the_same_grade_in_every_placement(agents: Path, placement: str, name: str) -> None:
    grade = PLACEMENTS[placement](name, agents)
    assert outcome(grade) == EXPECTED[name]
    if name not in _ON_A_THREAD:
        _ON_A_THREAD[name] = serial(name, agents)
    assert labels(grade) == labels(_ON_A_THREAD[name])  # every check, not only how the agent ended
    if EXPECTED[name][1] == "agent_timeout":
        assert completed(grade).detail == f"the agent ran past the time limit of {TIME_LIMIT:g} s"
