"""Built-in agents: ``reference`` follows the task's first acceptable path; ``noop`` does nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_agenteval.tasks.paths import first_order

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.tasks.model import PathStep, Task


class ScriptedAgent:
    """Calls the given steps in order, whatever each returns."""

    def __init__(self, steps: list[PathStep]) -> None:
        self.steps = steps

    def run(self, episode: Episode) -> None:
        for step in self.steps:
            episode.call(step.action, step.call_arguments())


class Reference:
    """Factory for the reference agent: privileged, it reads the task's first path."""

    def for_task(self, task: Task) -> ScriptedAgent:
        path = task.acceptable_action_paths[0] if task.acceptable_action_paths else []
        return ScriptedAgent(first_order(path))


class NoopAgent:
    """Does nothing; no shipped task may be passable by it."""

    def run(self, episode: Episode) -> None:
        return None
