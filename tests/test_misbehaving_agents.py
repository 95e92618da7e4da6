"""Agents we did not write: each misbehaviour fails its own episode, with a label; nothing else breaks."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

import pytest

from pytest_agenteval import EpisodeOver, Grade
from pytest_agenteval.agents.builtin import Reference
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from tests.helpers.tasks import make_task


def run(env: ExampleEnvironment, agent: Any, **task: Any) -> Grade:
    return run_episode(env, make_task(**task), agent, time_limit=2.0)


def failed(grade: Grade) -> dict[str, str]:
    return {c.name: f"[{c.failure_mode}] {c.detail}" for c in grade.failed_checks()}


def agent(fn: Any) -> Any:
    return type("Agent", (), {"run": lambda self, episode: fn(episode)})


def test_raises(example_env: ExampleEnvironment) -> None:
    def boom(episode: Any) -> None:
        raise KeyError("where is it")

    grade = run(example_env, agent(boom))
    assert failed(grade)["agent_completed"].startswith("[agent_error] KeyError: 'where is it' (at test_misbehaving")


def test_blocks_forever_without_returning_control(example_env: ExampleEnvironment) -> None:
    release = threading.Event()
    started = time.monotonic()
    grade = run_episode(example_env, make_task(), agent(lambda e: release.wait()), time_limit=0.3)
    assert time.monotonic() - started < 2
    assert failed(grade)["agent_completed"] == "[agent_timeout] the agent ran past the time limit of 0.3 s"
    release.set()


def test_keeps_calling_after_its_episode_ended(example_env: ExampleEnvironment) -> None:
    errors: list[BaseException] = []
    leaked: list[Any] = []

    def later(episode: Any) -> None:
        leaked.append(episode)

    grade = run(example_env, agent(later))
    assert not grade.passed
    example_env.reset(1, task=make_task(task_id="NEXT"))
    try:
        leaked[0].call("close_ticket", {"ticket_id": "T-0001"})
    except EpisodeOver as exc:
        errors.append(exc)
    assert "has ended" in str(errors[0])
    assert example_env.audit_log() == []  # the next episode saw nothing of it


def test_loops_until_the_step_budget(example_env: ExampleEnvironment) -> None:
    def loop(episode: Any) -> None:
        while True:
            try:
                episode.call("get_ticket", {"ticket_id": "T-0001"})
            except Exception:  # noqa: BLE001 - a broad retry loop does not catch EpisodeOver
                continue

    grade = run(example_env, agent(loop), max_steps=5)
    assert failed(grade)["step_budget"] == "[step_limit] the agent tried to go past its budget of 5 steps"
    assert grade.steps_used == 6
    assert issubclass(EpisodeOver, BaseException) and not issubclass(EpisodeOver, Exception)


@pytest.mark.parametrize(
    ("action", "arguments", "error"),
    [
        ("drop_database", {}, "unknown_action"),
        ("close_ticket", {"ticket_id": 17}, "invalid_arguments"),
        ("close_ticket", {"ticket_id": "T-" + "9" * 100_000}, "invalid_arguments"),
        ("close_ticket", {"ticket_id": "T-0001'; DROP TABLE ticket; --"}, "not_found"),
        ("close_ticket", {"ticket_id": "T-0001\x00"}, "not_found"),
        ("close_ticket", {"ticket_id": "Т-0001 🎫"}, "not_found"),
        ("close_ticket", {"ticket_id": {"$gt": ""}}, "invalid_arguments"),
        ("close_ticket", "T-0001", "invalid_arguments"),
        (None, None, "unknown_action"),
        ("add_comment", {"ticket_id": "T-0001", "body": "x" * 3000}, "invalid_arguments"),
    ],
)
def test_bad_calls_come_back_as_data(example_env: ExampleEnvironment, action: Any, arguments: Any, error: str) -> None:
    observations: list[dict[str, Any]] = []
    grade = run(example_env, agent(lambda e: observations.append(e.call(action, arguments))))
    assert observations[0]["ok"] is False and observations[0]["error"] == error
    assert not grade.passed
    tables = example_env.db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    assert tables == 5 and example_env.row("ticket", "T-0001") is not None


def test_huge_arguments_are_stored_by_hash(example_env: ExampleEnvironment) -> None:
    run(example_env, agent(lambda e: e.call("close_ticket", {"ticket_id": "T", "junk": "x" * 200_000})))
    event = example_env.audit_log()[0]
    assert len(event.args_json) < 2000 and event.arguments["_truncated"] is True
    assert event.arguments["chars"] > 200_000


def test_mutating_what_it_received_changes_nothing(example_env: ExampleEnvironment) -> None:
    def vandal(episode: Any) -> None:
        episode.tools.clear()
        for tool in episode.tools:
            tool["parameters"]["properties"].clear()
        obs = episode.call("get_ticket", {"ticket_id": "T-0001"})
        obs["result"]["status"] = "closed"
        episode.max_steps = 10**9

    grade = run(example_env, agent(vandal), max_steps=3)
    assert example_env.row("ticket", "T-0001")["status"] != "closed"
    assert example_env.episode.max_steps == 3
    assert "close_ticket" in {t["name"] for t in example_env.tools()}
    assert "state.ticket.T-0001" in failed(grade)


def test_the_audit_log_cannot_be_tampered_with_through_the_connection(example_env: ExampleEnvironment) -> None:
    example_env.reset(1)
    example_env.apply("get_ticket", {"ticket_id": "T-0001"})
    db = example_env.db
    for sql in ("DROP TRIGGER audit_events_no_update", "DROP TRIGGER audit_events_no_delete",
                "DROP TABLE audit_events", "ALTER TABLE audit_events RENAME TO old_events",
                "PRAGMA writable_schema = ON"):
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            db.execute(sql)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE audit_events SET action = 'nothing'")
    assert [e.action for e in example_env.audit_log()] == ["get_ticket"]


def test_the_run_goes_on_after_misbehaviour(example_env: ExampleEnvironment) -> None:
    run(example_env, agent(lambda e: (_ for _ in ()).throw(RuntimeError("x"))))
    run_episode(example_env, make_task(), agent(lambda e: time.sleep(1)), time_limit=0.2)
    assert run_episode(example_env, make_task(), Reference(), time_limit=2.0).passed
