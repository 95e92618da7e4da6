"""The rule-check kinds are one table (tasks.rules.RULE_KINDS), one module each: the task model's
union is made from the table, and the load-time checks and the grading call each kind's methods
rather than telling kinds apart."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest

from pytest_agenteval.tasks.model import RULE_KINDS, RuleCheck
from tests.helpers.tasks import result_lines, task_line

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_agenteval"
DOC = PACKAGE.parent / "docs" / "tasks.md"


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


def _within_example() -> str:
    found = re.search(r"<!-- doc: save as within_kind.py -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert found, "docs/tasks.md has no rule kind example"
    return found.group(1)


def _within(steps: int, action: str = "close_ticket") -> dict[str, object]:
    return {"kind": "within", "name": "closed_in_time", "action": action, "steps": steps, "failure_mode": "slow_close"}


def test_the_documented_kind_registers_loads_and_grades(pytester: pytest.Pytester) -> None:
    """docs/tasks.md's example kind, registered from a conftest.py: the loader takes it and checks
    it against the environment, and the grade holds its outcome (the agent closes at step 2)."""
    pytester.makepyfile(within_kind=_within_example(), looker="""
class Agent:
    def run(self, episode):
        episode.call("get_ticket", {"ticket_id": "T-0001"})
        episode.call("close_ticket", {"ticket_id": "T-0001"})
""")
    pytester.makeconftest("import within_kind\n")
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "example.jsonl").write_text("\n".join([
        task_line(task_id="EX-in-time", checks=[_within(2)]),
        task_line(task_id="EX-too-slow", checks=[_within(1)]),
        task_line(task_id="EX-misspelt", checks=[_within(1, "close_tiket")]),
    ]) + "\n")
    result = pytester.runpytest_subprocess("--agent=looker:Agent", "--agenteval-results=r.jsonl", "-p",
                                           "no:cacheprovider")
    result.stdout.fnmatch_lines(["*checks[[]0[]].action: 'close_tiket' is not an action of example*"])
    grades = {g["task_id"]: g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g}
    assert sorted(grades) == ["EX-in-time", "EX-too-slow"]
    assert grades["EX-in-time"]["passed"] and not grades["EX-too-slow"]["passed"]
    assert grades["EX-too-slow"]["failure_modes"] == ["slow_close"]
    [check] = [c for c in grades["EX-too-slow"]["checks"] if c["name"] == "closed_in_time"]
    assert check["detail"] == "close_ticket took effect at step 2; expected by step 1"
    assert check["component"] == "rules"


def test_a_kind_registers_once_and_only_a_rule_kind() -> None:
    from pytest_agenteval.tasks.model import register_rule_kind

    with pytest.raises(ValueError, match="there is a rule kind 'called' already"):
        register_rule_kind(type("Other", (RULE_KINDS["called"],), {}))
    with pytest.raises(TypeError, match="is no rule kind"):
        register_rule_kind(int)  # type: ignore[type-var]
