"""A lone surrogate in an agent's call is refused as data and still audited: every counted
step is in the log, and the grade serialises (before: the log insert raised, the step was lost)."""

from __future__ import annotations

import json

from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.engine import audit
from tests.test_grading import CLOSE, LOOK, episode


def test_a_lone_surrogate_is_an_invalid_arguments_observation_and_audited(example_env: ExampleEnvironment) -> None:
    calls = [("add_comment", {"ticket_id": "T-0001", "body": "half a pair: \ud800"}), ("close\udc00", {}), LOOK, CLOSE]
    grade = episode(example_env, calls)
    events = audit.read_events(example_env.db)
    assert [(e.step, e.action, e.error) for e in events] == [
        (1, "add_comment", "invalid_arguments"), (2, "close\\udc00", "unknown_action"), (3, "get_ticket", None),
        (4, "close_ticket", None)]
    assert events[0].arguments == {"ticket_id": "T-0001", "body": "half a pair: \\ud800"}  # written out
    assert grade.steps_used == 4
    json.loads(grade.model_dump_json())  # no surrogate reaches the grade


def test_surrogates_are_found_and_written_out() -> None:
    assert audit.has_surrogate("a\ud800") and not audit.has_surrogate("a\u2028")
    assert audit.without_surrogates('{"a":"\udfff"}', json_text=True) == '{"a":"\\\\udfff"}'
