"""The rule-check kinds are one table (tasks.rules.RULE_KINDS), one module each: the task model's
union is made from the table, and the load-time checks and the grading call each kind's methods
rather than telling kinds apart."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from pytest_agenteval.tasks.model import RULE_KINDS, RuleCheck

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_agenteval"


def test_the_union_holds_the_kinds_of_the_table() -> None:
    union = typing.get_args(typing.get_args(RuleCheck)[0])
    assert set(union) == set(RULE_KINDS.values())
    assert all(cls.model_fields["kind"].annotation == typing.Literal[name] for name, cls in RULE_KINDS.items())


def test_each_kind_is_one_module_of_tasks_rules() -> None:
    assert {cls.__module__ for cls in RULE_KINDS.values()} == {
        f"pytest_agenteval.tasks.rules.{name}" for name in RULE_KINDS}


def test_the_load_time_checks_and_the_grading_name_no_kind() -> None:
    kinds = {cls.__name__ for cls in RULE_KINDS.values()}
    for module in ("taskfiles/consistency.py", "grading/trace.py", "grading/grader.py", "taskfiles/loader.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert not named & kinds, module
