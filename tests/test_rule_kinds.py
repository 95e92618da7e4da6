"""The rule-check kinds are one table (tasks.model.RULE_KINDS): the task model's union and the
loader's list of kinds agree with it."""

from __future__ import annotations

import typing

from pytest_agenteval.taskfiles import loader
from pytest_agenteval.tasks.model import RULE_KINDS, RuleCheck


def test_the_union_and_the_loader_hold_the_kinds_of_the_table() -> None:
    union = typing.get_args(typing.get_args(RuleCheck)[0])
    assert set(union) == set(RULE_KINDS.values())
    assert all(cls.model_fields["kind"].annotation == typing.Literal[name] for name, cls in RULE_KINDS.items())
    assert set(RULE_KINDS) == loader._KINDS
