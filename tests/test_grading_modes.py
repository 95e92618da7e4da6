"""Grading by outcome, path freedoms (repeat, overwrite, multiset) and refusal as a right answer:
each tested both ways, on the shop (tests/helpers/shop_env.py), and through ``agenteval validate``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Grade, Task
from pytest_agenteval.agents.builtin import NoopAgent, Reference
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.environments.registry import EnvironmentPool, register_environment
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.validate import validate
from tests.helpers.shop_env import Shop, opened

ADDRESS = ("set_address", {"order_id": "O-1", "address": "9 New Street"})
WRONG_ADDRESS = ("set_address", {"order_id": "O-1", "address": "9 Wrong Street"})
EXCHANGE = ("exchange_items", {"order_id": "O-2", "item_ids": ["I-3", "I-5"]})
PERMUTED = ("exchange_items", {"order_id": "O-2", "item_ids": ["I-5", "I-3"]})
LOOK = ("get_order", {"order_id": "O-1"})


def step(call: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"action": call[0], "arguments": call[1]}


def shop_task(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "task_id": "SHOP-1", "environment": "shop", "scenario_seed": 0,
        "instruction": "U-1 asks: deliver O-1 to 9 New Street and exchange I-3 and I-5 of O-2.",
        "allowed_actions": ["get_order", "find_user_orders", "list_statuses", "set_address", "exchange_items",
                            "cancel_order"],
        "expected_final_state": {"orders": {"O-1": {"address": "9 New Street"}, "O-2": {"status": "exchanged"}}},
        "acceptable_action_paths": [[step(LOOK), step(ADDRESS), step(("get_order", {"order_id": "O-2"})),
                                     step(EXCHANGE)]],
    }
    base.update(changes)
    return base


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    """The shop, registered for this module only: other tests list the known environments."""
    from pytest_agenteval.environments import registry

    register_environment("shop", Shop)
    yield
    registry._registered.pop("shop", None)


@pytest.fixture
def shop() -> Iterator[Shop]:
    with opened() as env:
        yield env


def episode(env: Shop, calls: list[tuple[str, dict[str, Any]]], **task: Any) -> Grade:
    env.reset(0, task=Task.model_validate(shop_task(**task)))
    for action, arguments in calls:
        assert env.apply(action, arguments)["ok"], (action, arguments)
    return env.grade()


def failed(grade: Grade) -> dict[str, str]:
    return {c.name: c.failure_mode for c in grade.failed_checks()}


def test_without_freedoms_a_repeat_an_overwrite_and_a_permuted_list_fail_the_path(shop: Shop) -> None:
    cases: list[list[tuple[str, dict[str, Any]]]] = [[ADDRESS, ADDRESS, EXCHANGE], [WRONG_ADDRESS, ADDRESS, EXCHANGE],
                                                     [ADDRESS, PERMUTED]]
    for calls in cases:
        assert failed(episode(shop, calls)) == {"action_path": "unexpected_path"}, calls


def test_graded_by_outcome_the_path_is_not_applied_but_the_state_is(shop: Shop) -> None:
    outcome = {"grade_by": "outcome"}
    grade = episode(shop, [EXCHANGE, WRONG_ADDRESS, ADDRESS, ADDRESS], **outcome)
    assert grade.passed, failed(grade)
    assert "action_path" not in {c.name for c in grade.checks}
    # A wrong final state still fails, under its own label.
    assert failed(episode(shop, [ADDRESS, WRONG_ADDRESS, EXCHANGE], **outcome)) == {
        "state.orders.O-1": "wrong_final_state"}
    # The reference agent still plays the path.
    task = Task.model_validate(shop_task(**outcome))
    assert run_episode(shop, task, Reference(), time_limit=None).passed
    assert not run_episode(shop, task, NoopAgent, time_limit=None).passed


def test_a_repeat_freed_for_one_action_passes_and_only_for_that_action(shop: Shop) -> None:
    freed = {"path_freedoms": {"repeat": ["set_address"]}}
    assert episode(shop, [ADDRESS, ADDRESS, EXCHANGE, ADDRESS], **freed).passed
    # A repeat with other arguments is not a repeat; another action is not freed.
    assert "action_path" in failed(episode(shop, [WRONG_ADDRESS, ADDRESS, EXCHANGE], **freed))
    assert "action_path" in failed(episode(shop, [ADDRESS, EXCHANGE, EXCHANGE], **freed))


def test_an_overwritten_write_counts_as_its_last(shop: Shop) -> None:
    freed = {"path_freedoms": {"overwrite": {"set_address": ["order_id"]}}}
    grade = episode(shop, [WRONG_ADDRESS, ADDRESS, EXCHANGE], **freed)
    assert grade.passed, failed(grade)
    # Right, then overwritten wrongly: the state says so, and the path (its last write is wrong).
    assert failed(episode(shop, [ADDRESS, WRONG_ADDRESS, EXCHANGE], **freed)) == {
        "state.orders.O-1": "wrong_final_state", "action_path": "unexpected_path"}
    detail = next(c.detail for c in episode(shop, [ADDRESS, WRONG_ADDRESS, EXCHANGE], **freed).checks
                  if c.name == "action_path")
    assert "(compared, after path_freedoms: set_address(address='9 Wrong Street', order_id='O-1'), " in detail


def test_a_multiset_list_argument_matches_in_any_order_but_not_other_items(shop: Shop) -> None:
    freed = {"path_freedoms": {"multiset": ["exchange_items.item_ids"]}}
    assert episode(shop, [ADDRESS, PERMUTED], **freed).passed
    other = ("exchange_items", {"order_id": "O-2", "item_ids": ["I-3", "I-4"]})
    assert failed(episode(shop, [ADDRESS, other], **freed)) == {"action_path": "unexpected_path"}
    more = ("exchange_items", {"order_id": "O-2", "item_ids": ["I-3", "I-5", "I-5"]})
    assert failed(episode(shop, [ADDRESS, more], **freed)) == {"action_path": "unexpected_path"}


REFUSE = {"task_id": "SHOP-2", "instruction": "U-3 asks to cancel O-4, which was delivered.",
          "expected_final_state": {}, "no_change": True,
          "acceptable_action_paths": [[step(("get_order", {"order_id": "O-4"}))]]}


def test_refusing_passes_and_any_write_fails_under_its_own_label(shop: Shop) -> None:
    assert episode(shop, [("get_order", {"order_id": "O-4"})], **REFUSE).passed
    assert episode(shop, [], **REFUSE).passed
    grade = episode(shop, [("set_address", {"order_id": "O-3", "address": "x"})], **REFUSE)
    assert failed(grade) == {"no_change": "unwarranted_change", "frame": "collateral_change"}
    detail = next(c.detail for c in grade.checks if c.name == "no_change")
    assert detail == ("the task expects no change, but these writes took effect: set_address(address='x', "
                      "order_id='O-3') (refusing, or only looking, is the right answer here)")


@pytest.mark.parametrize(("changes", "line"), [
    ({"path_freedoms": {"repeat": ["delete_everything"]}},
     "path_freedoms: names delete_everything, not in allowed_actions (free only actions the task allows)"),
    ({"grade_by": "outcome", "path_freedoms": {"repeat": ["set_address"]}},
     'path_freedoms: path_freedoms loosen action_path, which grade_by "outcome" does not apply '
     '(drop "path_freedoms", or grade by "path")'),
    ({"path_freedoms": {"multiset": ["item_ids"]}},
     "path_freedoms: 'item_ids' is not action.argument (write e.g. \"exchange_items.item_ids\")"),
    ({"grade_by": "state"}, "grade_by: 'state' is not allowed (use 'path' or 'outcome')"),
    ({"no_change": True},
     'no_change: says nothing may change, but expected_final_state names changes '
     '(set "expected_final_state": {} or drop "no_change")'),
])
def test_bad_grading_fields_are_one_line(tmp_path: Path, changes: dict[str, Any], line: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(shop_task(**changes)) + "\n")
    _, problems = TaskLoader(EnvironmentPool()).load_file(path)
    assert [f"{p.field}: {p.message} ({p.fix})" for p in problems] == [line]


def test_validate_runs_the_freedoms_as_valid_variants_and_still_kills_wrong_writes(tmp_path: Path) -> None:
    freed = shop_task(path_freedoms={"repeat": ["set_address", "exchange_items"], "overwrite": {"set_address": ["order_id"]},
                                     "multiset": ["exchange_items.item_ids"]},
                      acceptable_action_paths=[[{"any_order": [[step(LOOK), step(ADDRESS)],
                                                               [step(("get_order", {"order_id": "O-2"})),
                                                                step(EXCHANGE)]]}]])
    path = tmp_path / "shop.jsonl"
    path.write_text(json.dumps(freed) + "\n" + json.dumps(shop_task(task_id="SHOP-3", grade_by="outcome")) + "\n")
    report = validate([path], pool=EnvironmentPool())
    out = "\n".join(report.lines())
    assert report.ok, out
    names = [line for line in out.splitlines() if "valid variant failed" in line]
    assert names == []
    planner_names = {s.name for s in _variants(freed)}
    assert {"set_address(order_id='O-1', address='9 New Street') repeated (path_freedoms.repeat)",
            "exchange_items(order_id='O-2', item_ids=['I-3', 'I-5']) with item_ids in another order "
            "(path_freedoms.multiset)"} <= planner_names
    assert any(n.endswith("then overwritten (path_freedoms.overwrite)") for n in planner_names)
    rows = {r.task_id: r for r in report.strictness}
    # A changed address is a wrong final state on both tasks: killed under its label, not survived.
    assert rows["SHOP-1"].survived == [] and rows["SHOP-1"].killed == rows["SHOP-1"].mutants > 0
    assert rows["SHOP-3"].survived == [] and rows["SHOP-3"].killed == rows["SHOP-3"].mutants > 0


def _variants(task: dict[str, Any]) -> list[Any]:
    from pytest_agenteval.agents.variants import Planner

    with opened() as env:
        parsed = Task.model_validate(task)
        env.reset(0, task=parsed)
        return Planner(env, parsed).variants()


def test_validate_asks_a_refusal_to_pass_by_doing_nothing_and_to_catch_writes(tmp_path: Path) -> None:
    path = tmp_path / "shop.jsonl"
    path.write_text(json.dumps(shop_task(**REFUSE)) + "\n")
    report = validate([path], pool=EnvironmentPool())
    out = "\n".join(report.lines())
    assert report.ok, out
    assert "what must change?" not in out and "do-nothing agent passed" not in out
    assert "expecting no change: 1 task(s); do-nothing passed 1/1; writes made anyway caught 1/1" in out
    # A refusal that doing nothing cannot pass (it asks for a change after all) is an error.
    wrong = {**shop_task(**REFUSE), "overrides": {}, "checks": [
        {"kind": "called", "name": "looked", "failure_mode": "no_look", "action": "list_statuses"}]}
    path.write_text(json.dumps(wrong) + "\n")
    out = "\n".join(validate([path], pool=EnvironmentPool()).lines())
    assert "SHOP-2: the do-nothing agent failed, but the task expects no change — looked: " in out


def test_a_look_up_the_environment_builds_arguments_for_is_probed_without_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "shop.jsonl"
    path.write_text(json.dumps(shop_task()) + "\n")
    out = "\n".join(validate([path], pool=EnvironmentPool()).lines())
    assert "was not tried on unrelated records" not in out
    names = {s.name for s in _variants(shop_task())}
    assert {"extra look-up find_user_orders(user='U-2')", "extra look-up list_statuses()"} <= names


def test_under_pytest_a_refusal_passes_by_doing_nothing_and_fails_a_writer(pytester: pytest.Pytester) -> None:
    here = Path(__file__).parent / "helpers"
    shutil.copy(here / "shop_env.py", pytester.path / "shop_env.py")
    (pytester.path / "data").mkdir()
    shutil.copy(here / "data" / "shop_orders.json", pytester.path / "data" / "shop_orders.json")
    pytester.makepyfile(writer="class Agent:\n    def run(self, episode):\n"
                               "        episode.call('cancel_order', {'order_id': 'O-3'})\n")
    lines = [shop_task(**REFUSE, environment="shop_env:Shop"),
             shop_task(task_id="SHOP-3", grade_by="outcome", environment="shop_env:Shop")]
    (pytester.path / "shop.jsonl").write_text("".join(json.dumps(t) + "\n" for t in lines))
    noop = pytester.runpytest("--agent=noop", "shop.jsonl", "-p", "no:cacheprovider")
    noop.assert_outcomes(passed=1, failed=1)  # the refusal passes; the outcome task needs its writes
    reference = pytester.runpytest("--agent=reference", "shop.jsonl", "-v", "-p", "no:cacheprovider")
    reference.stdout.fnmatch_lines(["*test_task[[]SHOP-2[]] SUBPASSED[[]no_change[]]*"])
    reference.assert_outcomes(passed=2)
    writer = pytester.runpytest("--agent=writer:Agent", "shop.jsonl", "-p", "no:cacheprovider")
    writer.stdout.fnmatch_lines(["  no_change [[]unwarranted_change[]] the task expects no change, but these writes "
                                 "took effect: cancel_order(order_id='O-3') *"])
