"""The task format: the pydantic model of a line, its action paths, and its marker names.

What an environment or a rule kind may use is exported here and from ``tasks.rules``; the
modules below are internal (docs/api.md).
"""

from pytest_agenteval.tasks.fields import problem
from pytest_agenteval.tasks.model import SAY_TO_USER, Task, register_rule_kind
from pytest_agenteval.tasks.paths import located_steps
from pytest_agenteval.tasks.rules import CalledCheck

__all__ = ["SAY_TO_USER", "CalledCheck", "Task", "located_steps", "problem", "register_rule_kind"]
