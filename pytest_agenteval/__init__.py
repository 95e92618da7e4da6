"""pytest-agenteval: evaluate AI agents as pytest tests, graded by state diff and audit log.

The pieces a harness needs without pytest::

    tasks = load_tasks("tasks/booking.jsonl")
    env = EnvironmentPool().get(tasks[0].task.environment)
    env.reset(task.scenario_seed, task=task); env.apply(...); env.grade()
"""

from pytest_agenteval.agents.episode import Episode, run_episode
from pytest_agenteval.agents.loading import load_agent
from pytest_agenteval.engine.actions import action
from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.engine.registry import EnvironmentPool, register_environment
from pytest_agenteval.errors import ActionError, EpisodeOver, TaskFileError, TaskProblem
from pytest_agenteval.grading import Check, Grade, GradeContext, check
from pytest_agenteval.tasks import LoadedTask, Task, TaskLoader, load_tasks

__all__ = [
    "ActionError",
    "Check",
    "Environment",
    "EnvironmentPool",
    "Episode",
    "EpisodeOver",
    "Grade",
    "GradeContext",
    "LoadedTask",
    "Task",
    "TaskFileError",
    "TaskLoader",
    "TaskProblem",
    "action",
    "check",
    "load_agent",
    "load_tasks",
    "register_environment",
    "run_episode",
]
