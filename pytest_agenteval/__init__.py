"""pytest-agenteval: evaluate AI agents as pytest tests, graded by state diff and audit log.

As a pytest plugin: ``pytest --agent=mymod:Agent tasks/``. Without pytest, a harness loads
tasks, resets an environment, lets its agent act, and grades what changed:

>>> from pytest_agenteval import EnvironmentPool, Task
>>> task = Task.model_validate({
...     "task_id": "EX-1", "environment": "example", "scenario_seed": 1,
...     "instruction": "Close ticket T-0001.", "allowed_actions": ["get_ticket", "close_ticket"],
...     "expected_final_state": {"ticket": {"T-0001": {"status": "closed"}}},
...     "vary": ["ticket.updated_at"]})
>>> with EnvironmentPool() as pool:
...     env = pool.get(task.environment)
...     env.reset(task.scenario_seed, task=task)
...     env.apply("close_ticket", {"ticket_id": "T-0001"})["ok"]
...     grade = env.grade()
...     late = env.grade(agent_failure=("agent_timeout", "no answer in 300 s"))
True
>>> grade.passed, grade.score
(True, 1.0)
>>> late.passed, late.failure_modes
(False, ['agent_timeout'])

``load_tasks("tasks/booking.jsonl")`` reads task files (every problem reported by file and
line); ``run_episode(env, task, AgentClass)`` resets, runs an agent and grades in one call.
``env.grade(judge=...)`` also reads the tasks' ``judged`` checks of free text with a judge
(a function, or ``load_judge(URL, model=...)``; docs/judge.md). An environment author
subclasses ``Environment``, with ``@action`` methods and a ``rubric`` returning ``Check``s,
and tests it with ``check_environment``.

PYTEST_DONT_REWRITE: pytest marks an editable install's package for assertion rewriting after it
is imported, and warns in every in-process run (pytester) that it cannot; nothing here needs it.
"""

from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.engine.actions import FreeText, action
from pytest_agenteval.engine.conformance import check_environment
from pytest_agenteval.environments import Environment, EnvironmentPool, register_environment
from pytest_agenteval.errors import ActionError, EnvironmentBug, EpisodeOver, JudgeError, TaskFileError, TaskProblem
from pytest_agenteval.grading import Check, Grade, GradeContext, JudgeRequest, Verdict, check, load_judge
from pytest_agenteval.taskfiles import load_tasks
from pytest_agenteval.tasks import Task

__version__ = "0.1.0"

__all__ = [
    "ActionError",
    "Check",
    "Environment",
    "EnvironmentBug",
    "EnvironmentPool",
    "Episode",
    "EpisodeOver",
    "FreeText",
    "Grade",
    "GradeContext",
    "JudgeError",
    "JudgeRequest",
    "Task",
    "TaskFileError",
    "TaskProblem",
    "Verdict",
    "__version__",
    "action",
    "check",
    "check_environment",
    "load_judge",
    "load_tasks",
    "register_environment",
    "run_episode",
]
