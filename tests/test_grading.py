"""Grading on hand-made episodes: each check fires for what it is about, and only that."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_agenteval import Grade
from pytest_agenteval.domains.example import ExampleEnvironment
from tests.helpers.tasks import make_task


def episode(env: ExampleEnvironment, calls: list[tuple[str, dict[str, Any]]], **task: Any) -> Grade:
    env.reset(1, task=make_task(**task))
    for action, arguments in calls:
        env.apply(action, arguments)
    return env.grade()


def failed(grade: Grade) -> dict[str, str]:
    return {c.name: c.failure_mode for c in grade.failed_checks()}


CLOSE = ("close_ticket", {"ticket_id": "T-0001"})
LOOK = ("get_ticket", {"ticket_id": "T-0001"})


def test_reference_path_passes(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [LOOK, CLOSE])
    assert grade.passed and grade.score == 1.0 and grade.failure_modes == []
    assert grade.final_state_diff["ticket"]["changed"]["T-0001"]["status"]["new"] == "closed"


def test_doing_nothing_fails_state_and_path(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [])
    assert failed(grade) == {"state.ticket.T-0001": "wrong_final_state", "action_path": "unexpected_path"}
    detail = next(c.detail for c in grade.checks if c.name == "state.ticket.T-0001")
    assert detail.startswith("ticket T-0001: status expected 'closed', got ")


def test_read_only_actions_do_not_break_the_path(example_env: ExampleEnvironment) -> None:
    assert episode(example_env, [LOOK, LOOK, CLOSE, LOOK]).passed


def test_collateral_change_fails_the_frame(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [CLOSE, ("set_priority", {"ticket_id": "T-0002", "priority": 1})])
    assert failed(grade)["frame"] == "collateral_change"
    frame = next(c for c in grade.checks if c.name == "frame")
    assert "changed ticket T-0002.priority" in frame.detail


def test_vary_fields_may_change(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [CLOSE], acceptable_action_paths=[], vary=[])
    assert failed(grade) == {"frame": "collateral_change"}  # updated_at changed, not allowed
    assert episode(example_env, [CLOSE], acceptable_action_paths=[], vary=["*.updated_at"]).passed


def test_added_rows_match_by_listed_fields_and_count(example_env: ExampleEnvironment) -> None:
    spec = {"expected_final_state": {"comment": {"+": [{"ticket_id": "T-0001"}]}},
            "acceptable_action_paths": [], "vary": ["comment.body"]}
    comment = ("add_comment", {"ticket_id": "T-0001", "body": "a"})
    assert episode(example_env, [comment], **spec).passed
    twice = episode(example_env, [comment, comment], **spec)
    assert failed(twice) == {"state.comment.added": "wrong_final_state"}
    other = episode(example_env, [("add_comment", {"ticket_id": "T-0002", "body": "a"})], **spec)
    # A wrong version of the expected row is reported once, by the "+" check, not as collateral too.
    assert failed(other) == {"state.comment.added": "wrong_final_state"}
    assert other.failed_checks()[0].detail == (
        "no added comment row matches {ticket_id: 'T-0001'}; the closest has ticket_id 'T-0002'")
    # A row like nothing expected, beside the expected one, is collateral only.
    stray = episode(example_env, [comment, ("add_comment", {"ticket_id": "T-0002", "body": "a"})],
                    **{**spec, "expected_final_state": {"comment": {"+": [{"ticket_id": "T-0001"}]}}})
    assert failed(stray) == {"frame": "collateral_change"}
    # Two more of the expected kind: the "+" count, not the frame.
    thrice = episode(example_env, [comment, comment, comment], **spec)
    assert thrice.failed_checks()[0].detail.startswith("2 more than the 1 expected: ")


def test_removed_rows(example_env: ExampleEnvironment) -> None:
    spec = {"expected_final_state": {"ticket": {"-": ["T-0001"]}}, "acceptable_action_paths": [],
            "allowed_actions": ["delete_ticket"]}
    assert episode(example_env, [("delete_ticket", {"ticket_id": "T-0001"})], **spec).passed
    wrong = episode(example_env, [("delete_ticket", {"ticket_id": "T-0002"})], **spec)
    assert failed(wrong) == {"state.ticket.removed": "wrong_final_state", "frame": "collateral_change"}


def test_forbidden_action_is_its_own_failure(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [("delete_ticket", {"ticket_id": "T-0009"}), LOOK, CLOSE])
    assert failed(grade) == {"no_forbidden_actions": "forbidden_action"}
    assert grade.forbidden_actions_taken == ["delete_ticket"]


def test_wrong_order_or_extra_write_breaks_the_path(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [("set_priority", {"ticket_id": "T-0001", "priority": 2}), CLOSE],
                    vary=["ticket.updated_at", "ticket.priority"])
    assert failed(grade) == {"action_path": "unexpected_path"}


def test_step_budget(example_env: ExampleEnvironment) -> None:
    grade = episode(example_env, [LOOK, LOOK, CLOSE], max_steps=2)
    assert failed(grade)["step_budget"] == "step_limit"


def test_rule_checks_from_task_data(example_env: ExampleEnvironment) -> None:
    checks = [
        {"kind": "called", "name": "looked_first", "action": "get_ticket", "min": 1, "failure_mode": "no_lookup"},
        {"kind": "order", "name": "look_then_close", "first": "get_ticket", "then": "close_ticket",
         "failure_mode": "blind_close"},
        {"kind": "count", "name": "one_closed", "table": "ticket", "where": {"id": "T-0001", "status": "closed"},
         "equals": 1, "failure_mode": "not_closed"},
    ]
    assert episode(example_env, [LOOK, CLOSE], checks=checks).passed
    blind = episode(example_env, [CLOSE], checks=checks, acceptable_action_paths=[])
    assert failed(blind) == {"looked_first": "no_lookup", "look_then_close": "blind_close"}


def test_grading_does_not_change_the_environment(example_env: ExampleEnvironment) -> None:
    episode(example_env, [CLOSE])
    before = example_env.db.serialize()
    example_env.grade()
    example_env.grade()
    assert example_env.db.serialize() == before


def test_grade_is_deterministic_and_json(example_env: ExampleEnvironment) -> None:
    a = episode(example_env, [LOOK, CLOSE]).model_dump_json()
    b = episode(example_env, [LOOK, CLOSE]).model_dump_json()
    assert a == b and '"audit_digest"' in a


def test_audit_digest_is_stable(example_env: ExampleEnvironment) -> None:
    # Results files are checked against replays by this digest: its definition must not drift.
    digest = episode(example_env, [LOOK, CLOSE]).audit_digest
    assert digest == "08d146adf91adcaacd9b578f37720b0d501415bdad8815e96b69f540875dcb24"


# ----- grading is a function of its inputs ----------------------------------------------------

def test_the_agent_failure_is_an_input_and_leaves_nothing_behind(example_env: ExampleEnvironment) -> None:
    episode(example_env, [LOOK, CLOSE])
    late = example_env.grade(agent_failure=("agent_timeout", "no answer in 300 s"))
    assert failed(late) == {"agent_completed": "agent_timeout"}
    assert next(c.detail for c in late.checks if c.name == "agent_completed") == "no answer in 300 s"
    assert example_env.grade().passed  # the failure was not written anywhere


def test_a_world_is_judged_from_outside_with_any_rubric() -> None:
    """The engine's World has no grade(); grade_episode judges it with the rubric it is given."""
    from pytest_agenteval import Check, GradeContext, check
    from pytest_agenteval.engine import World
    from pytest_agenteval.grading.grader import grade_episode

    world_class = type("HelpDesk", (World,), {k: v for k, v in vars(ExampleEnvironment).items()
                                              if not k.startswith("__") and k not in ("rubric", "actions")})
    assert not hasattr(world_class, "grade") and not hasattr(world_class, "rubric")

    def rubric(ctx: GradeContext) -> list[Check]:
        commented = bool(ctx.succeeded("add_comment"))
        return [check("customer_told", commented, failure_mode="silent_close", component="actions",
                      ok="a comment was added", failed="closed without a comment")]

    with world_class() as world:
        world.reset(1, task=make_task())
        world.apply(*CLOSE)
        assert failed(grade_episode(world, rubric=rubric)) == {"customer_told": "silent_close"}
        assert grade_episode(world).passed  # no rubric, no rubric check


def test_a_rubric_that_returns_something_else_is_named(example_env: ExampleEnvironment) -> None:
    from pytest_agenteval.grading.grader import grade_episode

    example_env.reset(1, task=make_task())
    with pytest.raises(TypeError, match=r"the rubric of example returned 'closed', not a Check: build checks with check\(\.\.\.\)"):
        grade_episode(example_env, rubric=lambda ctx: ["closed"])  # type: ignore[list-item]


@pytest.mark.parametrize("failure", [("agent_timout", "typo"), ("wrong_rate", "x"), ("agent_error",), "agent_error",
                                     ("agent_error", 3)])
def test_an_agent_failure_that_is_not_one_is_refused(example_env: ExampleEnvironment, failure: Any) -> None:
    example_env.reset(1, task=make_task())
    with pytest.raises(ValueError, match=r"^agent_failure must be None or \(mode, detail\) with mode one of "
                                         r"agent_error, agent_timeout, interrupted, agent_protocol_violation, "
                                         r"agent_resource_limit, over_budget; got "):
        example_env.grade(agent_failure=failure)


def test_run_episode_wants_a_class_or_factory_not_an_instance(example_env: ExampleEnvironment) -> None:
    from pytest_agenteval import run_episode

    class Agent:
        def run(self, episode: Any) -> None: ...

    with pytest.raises(TypeError, match=r"^run_episode needs the agent's class or a zero-argument factory, not an "
                                        r"instance of Agent \(pass Agent or lambda: agent\)$"):
        run_episode(example_env, make_task(), Agent())  # type: ignore[arg-type]
    assert run_episode(example_env, make_task(), lambda: Agent()).failure_modes == ["unexpected_path",
                                                                                    "wrong_final_state"]
