"""The rule-check kinds of a task's ``checks``, one module each, in one table.

Adding a kind is one module here and one line in ``RULE_KINDS`` (or, from outside the
package, ``tasks.model.register_rule_kind``): the task model's union, the loader's list of
kinds, the load-time checks and the grading all read this table (docs/tasks.md, "Add a rule kind").
"""

from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleKind, RuleWorld, outcome
from pytest_agenteval.tasks.rules.called import CalledCheck
from pytest_agenteval.tasks.rules.count import CountCheck
from pytest_agenteval.tasks.rules.judged import JudgedCheck
from pytest_agenteval.tasks.rules.judged_conversation import ConversationCheck
from pytest_agenteval.tasks.rules.order import OrderCheck

RULE_KINDS: dict[str, type[RuleKind]] = {"called": CalledCheck, "order": OrderCheck, "count": CountCheck,
                                         "judged": JudgedCheck, "judged_conversation": ConversationCheck}

__all__ = ["RULE_KINDS", "CalledCheck", "ConversationCheck", "CountCheck", "JudgedCheck", "OrderCheck", "Outcome",
           "Problem", "RuleEpisode", "RuleKind", "RuleWorld", "outcome"]
