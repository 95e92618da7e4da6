"""The engine on in-memory databases: reset, apply, audit, diff, faults."""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any

import pytest

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.engine import action
from pytest_agenteval.engine.conformance import check_environment, dump
from pytest_agenteval.engine.sealing import CacheWarning
from pytest_agenteval.errors import EnvironmentBug
from tests.helpers.tasks import make_task


def test_example_environment_is_conformant(example_env: ExampleEnvironment) -> None:
    assert check_environment(example_env) == []


def test_same_seed_same_tables_across_instances() -> None:
    with ExampleEnvironment() as a, ExampleEnvironment() as b:
        a.reset(7)
        b.reset(7)
        assert a.db.serialize() == b.db.serialize()
        b.reset(8)
        assert dump(a) != dump(b)


def test_reset_restores_the_scenario_and_clears_the_log(example_env: ExampleEnvironment) -> None:
    task = make_task()
    example_env.reset(1, task=task)
    before = dump(example_env)
    example_env.apply("close_ticket", {"ticket_id": "T-0001"})
    example_env.apply("add_comment", {"ticket_id": "T-0001", "body": "done"})
    assert dump(example_env) != before
    example_env.reset(1, task=task)
    assert dump(example_env) == before
    assert example_env.audit_log() == [] and example_env.diff() == {}


def test_scenario_is_built_once_per_seed(example_env: ExampleEnvironment) -> None:
    for seed in (1, 2, 1, 2, 1):
        example_env.reset(seed)
    assert example_env._scenarios.builds == 2


def _vm_steps(env: ExampleEnvironment, work: Any) -> int:
    """SQLite virtual-machine instructions executed by ``work``: a structural cost measure."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    env._scenarios.get(1).set_progress_handler(count, 1)
    try:
        work()
    finally:
        env._scenarios.get(1).set_progress_handler(None, 1)
    return steps


@pytest.mark.parametrize("what", ["reset", "diff"])
def test_reset_and_diff_cost_does_not_grow_with_table_size(what: str) -> None:
    """The same episode on a 50x larger world executes the same number of SQLite VM steps."""
    costs = []
    for population in (20, 1000):
        with ExampleEnvironment(population=population) as env:
            task = make_task()
            env.reset(1, task=task)
            env.apply("close_ticket", {"ticket_id": "T-0001"})
            env.apply("add_comment", {"ticket_id": "T-0002", "body": "x"})
            work = (lambda env=env, task=task: env.reset(1, task=task)) if what == "reset" else env.diff
            costs.append(_vm_steps(env, work))
    assert costs[0] == costs[1] > 0


def test_audit_log_is_append_only(example_env: ExampleEnvironment) -> None:
    example_env.reset(1)
    example_env.apply("get_ticket", {"ticket_id": "T-0001"})
    for sql in ("UPDATE audit_events SET outcome = 'ok'", "DELETE FROM audit_events"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            example_env.db.execute(sql)
    assert len(example_env.audit_log()) == 1


def test_audit_row_fields(example_env: ExampleEnvironment) -> None:
    example_env.reset(1, task=make_task())
    example_env.apply("close_ticket", {"ticket_id": "T-0001"})
    (event,) = example_env.audit_log()
    assert (event.step, event.actor_role, event.action, event.outcome, event.ts) == (
        1, "agent", "close_ticket", "ok", "2026-01-05T09:00:00Z")
    assert event.args_json == '{"ticket_id":"T-0001"}' and len(event.args_hash) == 64


@pytest.mark.parametrize(
    ("action", "arguments", "error", "detail"),
    [
        ("set_priority", {"ticket_id": "T-0001", "priority": "high"}, "invalid_arguments",
         "priority: Input should be a valid integer"),
        ("set_priority", {"ticket_id": "T-0001"}, "invalid_arguments", "priority: Field required"),
        ("set_priority", {"ticket_id": "T-0001", "priority": 9}, "invalid_arguments",
         "priority: Input should be less than or equal to 4"),
        ("set_priority", {"ticket_id": "T-0001", "priority": 2, "x": 1}, "invalid_arguments",
         "x: Extra inputs are not permitted"),
        ("close_ticket", ["T-0001"], "invalid_arguments", "arguments must be a JSON object, got list"),
        ("close_ticket", {"ticket_id": "T-9"}, "not_found", "no ticket T-9"),
    ],
)
def test_bad_arguments_come_back_as_data(example_env: ExampleEnvironment, action: str,
                                         arguments: Any, error: str, detail: str) -> None:
    example_env.reset(1, task=make_task())
    obs = example_env.apply(action, arguments)
    assert obs == {"ok": False, "error": error, "detail": detail}
    assert example_env.diff() == {}
    assert example_env.audit_log()[-1].outcome == "error"


def test_forbidden_and_unknown_actions_are_refused_and_recorded(example_env: ExampleEnvironment) -> None:
    example_env.reset(1, task=make_task())
    assert example_env.apply("delete_ticket", {"ticket_id": "T-0001"})["error"] == "forbidden_action"
    assert example_env.apply("drop_tables", {})["error"] == "unknown_action"
    assert example_env.row("ticket", "T-0001") is not None
    assert example_env.episode.forbidden == ["delete_ticket", "drop_tables"]
    assert [e.outcome for e in example_env.audit_log()] == ["refused", "refused"]


def test_failing_action_leaves_no_partial_change(example_env: ExampleEnvironment) -> None:
    example_env.reset(1)
    # delete_ticket deletes the comments, then the ticket; make the second write fail and
    # the first (already done inside the action) must be rolled back with it.
    example_env.apply("add_comment", {"ticket_id": "T-0001", "body": "x"})
    example_env.db.execute("CREATE TEMP TRIGGER boom BEFORE DELETE ON ticket BEGIN "
                           "SELECT RAISE(ABORT, 'boom'); END")
    obs = example_env.apply("delete_ticket", {"ticket_id": "T-0001"})
    assert obs["error"] == "constraint"
    assert example_env.db.execute("SELECT count(*) FROM comment").fetchone()[0] == 1
    example_env.db.execute("DROP TRIGGER boom")


def test_diff_added_removed_changed(example_env: ExampleEnvironment) -> None:
    example_env.reset(1)
    example_env.apply("set_priority", {"ticket_id": "T-0001", "priority": 4})
    example_env.apply("add_comment", {"ticket_id": "T-0002", "body": "hello"})
    example_env.apply("add_comment", {"ticket_id": "T-0002", "body": "gone"})
    example_env.db.execute("DELETE FROM comment WHERE id = 'CM-E002'")  # added then removed
    old_priority = example_env._scenarios.get(1).execute(
        "SELECT json_extract(old, '$.priority') FROM _changes WHERE pk = 'T-0001'").fetchone()[0]
    example_env.apply("delete_ticket", {"ticket_id": "T-0003"})
    diff = {t: d.to_json() for t, d in example_env.diff().items()}
    assert set(diff) == {"comment", "ticket"}
    assert diff["comment"]["added"] == {"CM-E001": {"id": "CM-E001", "ticket_id": "T-0002", "body": "hello",
                                                    "created_at": "2026-01-05T09:00:30Z"}}
    assert list(diff["ticket"]["removed"]) == ["T-0003"]
    assert diff["ticket"]["changed"]["T-0001"]["priority"] == {"old": old_priority, "new": 4}


def test_rows_touched_but_unchanged_are_not_in_the_diff(example_env: ExampleEnvironment) -> None:
    example_env.reset(1)
    example_env.db.execute("UPDATE ticket SET status = status WHERE id = 'T-0001'")
    assert example_env.diff() == {}


def test_deserialize_hazard_regression() -> None:
    """Evicted scenarios are thawed with deserialize(); savepoints after it must keep the tables."""
    env = ExampleEnvironment()
    env.max_open_scenarios = 1
    env._scenarios._max_open = 1
    try:
        env.reset(1)
        env.apply("get_ticket", {"ticket_id": "T-0001"})
        env.reset(2)  # freezes scenario 1
        env.reset(1)  # thaws it with deserialize()
        assert env._scenarios.thaws == 1
        env.apply("set_priority", {"ticket_id": "T-0001", "priority": 1})  # SAVEPOINT ... RELEASE
        env.apply("close_ticket", {"ticket_id": "T-404"})  # SAVEPOINT ... ROLLBACK TO
        tables = env.db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        assert tables >= 5
        assert env.row("ticket", "T-0001")["priority"] == 1
    finally:
        env.close()


def test_overrides_are_part_of_the_scenario(example_env: ExampleEnvironment) -> None:
    task = make_task(overrides={"ticket": {"T-0001": {"status": "pending"}}})
    example_env.reset(1, task=task)
    assert example_env.row("ticket", "T-0001")["status"] == "pending"
    assert example_env.diff() == {}
    example_env.reset(1)
    assert example_env.row("ticket", "T-0001")["status"] == "open"  # seeded value, override gone


def test_unavailable_fault_commits_nothing(example_env: ExampleEnvironment) -> None:
    task = make_task(faults=[{"action": "close_ticket", "call": 1, "error": "unavailable"}])
    example_env.reset(1, task=task)
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["error"] == "unavailable"
    assert example_env.diff() == {}
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["ok"]
    assert [e.fault for e in example_env.audit_log()] == ["unavailable", None]


def test_a_call_that_would_fail_does_not_take_an_unavailable_fault(example_env: ExampleEnvironment) -> None:
    task = make_task(faults=[{"action": "close_ticket", "call": 1, "error": "unavailable"}])
    example_env.reset(1, task=task)
    assert example_env.apply("close_ticket", {"ticket_id": "T-9999"})["error"] == "not_found"
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["error"] == "unavailable"
    assert example_env.diff() == {}
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["ok"]
    assert [e.fault for e in example_env.audit_log()] == [None, "unavailable", None]


class _Counting(ExampleEnvironment):
    """Keeps episode state in Python, as a scripted counterparty does."""

    def on_reset(self, task: Any) -> None:
        self.notes: list[str] = []

    @action
    def note(self, ticket_id: str) -> dict[str, Any]:
        """Comment on a ticket and remember it."""
        self.notes.append(ticket_id)
        return self.add_comment(ticket_id, "noted")


def test_a_faulted_call_is_tried_and_wholly_undone() -> None:
    """The trial that tells a real call from a throwaway one leaves no row, no id and no Python
    state behind: the call the agent repeats gets what it would have got the first time."""
    task = make_task(faults=[{"action": "note", "call": 1, "error": "timeout"}], allowed_actions=["note"])
    with _Counting() as env:
        env.reset(1, task=task)
        assert env.apply("note", {"ticket_id": "T-0001"})["error"] == "timeout"
        assert env.notes == [] and env.diff() == {}
        assert env.apply("note", {"ticket_id": "T-0001"})["result"] == {"comment_id": "CM-E001"}
        assert env.notes == ["T-0001"]


def test_timeout_after_commit_commits_but_reports_a_timeout(example_env: ExampleEnvironment) -> None:
    task = make_task(faults=[{"action": "add_comment", "call": 1, "error": "timeout", "after_commit": True}])
    example_env.reset(1, task=task)
    obs = example_env.apply("add_comment", {"ticket_id": "T-0001", "body": "x"})
    assert obs == {"ok": False, "error": "timeout", "detail": "the service did not answer in time; the outcome is unknown"}
    assert list(example_env.diff()["comment"].added) == ["CM-E001"]
    assert example_env.audit_log()[0].fault == "timeout_after_commit"


def test_stale_read_shows_the_episode_start(example_env: ExampleEnvironment) -> None:
    task = make_task(faults=[{"action": "get_ticket", "call": 1, "error": "stale_read"}])
    example_env.reset(1, task=task)
    example_env.apply("close_ticket", {"ticket_id": "T-0001"})
    stale = example_env.apply("get_ticket", {"ticket_id": "T-0001"})
    fresh = example_env.apply("get_ticket", {"ticket_id": "T-0001"})
    assert stale["result"]["status"] != "closed" and fresh["result"]["status"] == "closed"
    assert example_env.row("ticket", "T-0001")["status"] == "closed"


def test_read_only_actions_cannot_write() -> None:


    class Leaky(ExampleEnvironment):
        @action(writes=False)
        def peek(self, ticket_id: str) -> None:
            """Looks, but writes."""
            self.db.execute("UPDATE ticket SET priority = 1 WHERE id = ?", (ticket_id,))

    with Leaky() as env:
        env.reset(1)
        with pytest.raises(EnvironmentBug, match="^action peek raised RuntimeError: read-only action peek changed "
                                                 "the database"):
            env.apply("peek", {"ticket_id": "T-0001"})
        assert env.diff() == {}


class Broken(ExampleEnvironment):
    """An environment with bugs: a look-up that raises, a write that raises after writing."""

    @action(writes=False)
    def lookup(self, ticket_id: str) -> dict[str, Any]:
        """Raises."""
        return {"x": {}[ticket_id]}

    @action
    def half_write(self, ticket_id: str) -> None:
        """Writes, then raises."""
        self.db.execute("UPDATE ticket SET priority = 1 WHERE id = ?", (ticket_id,))
        raise ZeroDivisionError("oops")


BROKEN_TASK = {"allowed_actions": ["get_ticket", "close_ticket", "lookup", "half_write"]}


@pytest.mark.parametrize("action", ["lookup", "half_write"])
def test_an_action_that_raises_is_the_environments_bug_and_is_not_graded(action: str) -> None:
    with Broken() as env:
        env.reset(1, task=make_task(**BROKEN_TASK))
        env.apply("close_ticket", {"ticket_id": "T-0001"})
        with pytest.raises(EnvironmentBug, match=rf"^action {action} raised (KeyError: 'T-0001'|ZeroDivisionError: "
                                                 r"oops) \(at test_engine.py:\d+\)$"):
            env.apply(action, {"ticket_id": "T-0001"})
        assert set(env.diff()["ticket"].changed) == {"T-0001"}  # the close stands; the crash wrote nothing
        assert env.diff()["ticket"].changed["T-0001"].keys() == {"status", "updated_at"}
        assert [(e.action, e.outcome, e.error) for e in env.audit_log()][-1] == (action, "error", "environment_error")
        with pytest.raises(EnvironmentBug, match=rf"^example: action {action} raised .*; the episode is not graded "
                                                 r"\(a bug in the environment, not the agent's doing"):
            env.grade()


def test_an_agent_that_swallows_the_crash_does_not_hide_it() -> None:
    class Swallower:
        def run(self, episode: Any) -> None:
            with contextlib.suppress(Exception):  # what LLM loops do; EnvironmentBug is not an Exception
                episode.call("lookup", {"ticket_id": "T-0001"})
            episode.call("close_ticket", {"ticket_id": "T-0001"})

    class CatchAll(Swallower):
        def run(self, episode: Any) -> None:
            with contextlib.suppress(BaseException):  # even this does not hide it
                episode.call("lookup", {"ticket_id": "T-0001"})
            episode.call("close_ticket", {"ticket_id": "T-0001"})

    for agent in (Swallower, CatchAll):
        with Broken() as env, pytest.raises(EnvironmentBug, match="^example: action lookup raised KeyError"):
            run_episode(env, make_task(**BROKEN_TASK), agent)


def test_a_scripted_counterparty_that_raises_is_the_environments_bug() -> None:
    class Flaky(ExampleEnvironment):
        def after_step(self, step: int) -> None:
            if step == 2:
                raise LookupError("no such senior")

    with Flaky() as env:
        env.reset(1, task=make_task())
        env.apply("get_ticket", {"ticket_id": "T-0001"})
        with pytest.raises(EnvironmentBug, match=r"^after_step\(2\) raised LookupError: no such senior"):
            env.apply("get_ticket", {"ticket_id": "T-0001"})
        with pytest.raises(EnvironmentBug):
            env.grade()


def test_step_budget(example_env: ExampleEnvironment) -> None:
    example_env.reset(1, task=make_task(max_steps=2))
    for _ in range(2):
        assert example_env.apply("get_ticket", {"ticket_id": "T-0001"})["ok"]
    assert example_env.apply("get_ticket", {"ticket_id": "T-0001"})["error"] == "step_limit"
    assert example_env.episode.over_budget


def test_action_schemas_come_from_type_hints() -> None:
    spec = ExampleEnvironment.actions["set_priority"]
    assert spec.writes and not ExampleEnvironment.actions["get_ticket"].writes
    assert spec.description == "Set a ticket's priority (1 is most urgent)."
    assert spec.parameters["properties"]["priority"] == {"maximum": 4, "minimum": 1, "type": "integer"}
    assert spec.parameters["required"] == ["ticket_id", "priority"]
    assert spec.parameters["additionalProperties"] is False


def test_built_scenarios_are_cached_on_disk_by_fingerprint(tmp_path: Any) -> None:
    with ExampleEnvironment(cache_dir=tmp_path) as first:
        first.reset(3)
        assert (first._scenarios.builds, first._scenarios.loads) == (1, 0)
    images = list(tmp_path.glob("*.sqlite"))
    assert len(images) == 1 and images[0].name.startswith("example-20-")
    with ExampleEnvironment(cache_dir=tmp_path) as second, ExampleEnvironment() as fresh:
        second.reset(3)
        fresh.reset(3)
        assert (second._scenarios.builds, second._scenarios.loads) == (0, 1)
        assert second.db.serialize() == fresh.db.serialize()
        # A loaded image behaves like a built one (savepoints right after deserialize included).
        assert second.apply("close_ticket", {"ticket_id": "T-0404"})["error"] == "not_found"
        assert second.apply("set_priority", {"ticket_id": "T-0001", "priority": 2})["ok"]
    with ExampleEnvironment(cache_dir=tmp_path, population=21) as other:
        other.reset(3)  # another population is another fingerprint: built, not loaded
        assert (other._scenarios.builds, other._scenarios.loads) == (1, 0)


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],           # cut short (disk full, a copy interrupted)
    lambda data: b"not a database" * 10,
    lambda data: data[:100] + b"\0" * (len(data) - 100),   # the right size, pages zeroed
    lambda data: b"",
])
def test_a_damaged_scenario_image_is_built_again(tmp_path: Any, damage: Any) -> None:
    with ExampleEnvironment(cache_dir=tmp_path) as first:
        first.reset(3)
    (image,) = tmp_path.glob("*.sqlite")
    image.write_bytes(damage(image.read_bytes()))
    with pytest.warns(CacheWarning, match="ignored and rebuilt"), ExampleEnvironment(cache_dir=tmp_path) as second, \
            ExampleEnvironment() as fresh:
        second.reset(3)
        fresh.reset(3)
        assert second.db.serialize() == fresh.db.serialize()
        assert second._scenarios.builds == 1
    with ExampleEnvironment(cache_dir=tmp_path) as third:  # the rebuilt image replaced it
        third.reset(3)
        assert (third._scenarios.builds, third._scenarios.loads) == (0, 1)


def test_an_environment_without_a_source_file_works_and_is_not_cached(tmp_path: Any) -> None:
    """Defined in a notebook or by exec(): no fingerprint to key a cache by, so nothing is cached."""
    code = ("from pytest_agenteval import Environment, action\n"
            "class Desk(Environment):\n"
            "    name = 'desk'\n"
            "    schema = 'CREATE TABLE ticket (id TEXT PRIMARY KEY, status TEXT NOT NULL);'\n"
            "    def seed_rows(self, rng, scenario_seed):\n"
            "        return {'ticket': [(f'T-{i}', 'open') for i in range(3)]}\n"
            "    @action\n"
            "    def close_ticket(self, ticket_id: str) -> dict:\n"
            "        '''Close a ticket.'''\n"
            "        self.require('ticket', ticket_id)\n"
            "        self.db.execute(\"UPDATE ticket SET status = 'closed' WHERE id = ?\", (ticket_id,))\n"
            "        return {}\n")
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    with namespace["Desk"](cache_dir=tmp_path) as env:
        env.reset(1)
        assert env.apply("close_ticket", {"ticket_id": "T-1"}) == {"ok": True, "result": {}}
        assert env.apply("close_ticket", {"ticket_id": "T-9"})["error"] == "not_found"
    assert list(tmp_path.iterdir()) == []


def test_timeout_before_commit_commits_nothing_and_says_so(example_env: ExampleEnvironment) -> None:
    task = make_task(faults=[{"action": "close_ticket", "call": 1, "error": "timeout"}])
    example_env.reset(1, task=task)
    obs = example_env.apply("close_ticket", {"ticket_id": "T-0001"})
    assert obs["error"] == "timeout" and example_env.diff() == {}
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["ok"]  # the second call is not faulted
    assert [e.fault for e in example_env.audit_log()] == ["timeout", None]


def test_an_after_commit_timeout_waits_for_a_call_that_commits(example_env: ExampleEnvironment) -> None:
    """A call that failed on its own committed nothing a timeout could hide: it gets its own answer
    and the fault meets the next call, the one that commits (red team 18: a throwaway call no
    longer takes the retry trap's fault in the real call's place)."""
    task = make_task(faults=[{"action": "close_ticket", "call": 1, "error": "timeout", "after_commit": True}])
    example_env.reset(1, task=task)
    assert example_env.apply("close_ticket", {"ticket_id": "T-9999"})["error"] == "not_found"
    assert example_env.apply("close_ticket", {"ticket_id": "T-0001"})["error"] == "timeout"
    faults = [e.fault for e in example_env.audit_log()]
    assert faults == [None, "timeout_after_commit"]
    assert example_env.grade().passed


def test_an_interruption_after_the_environment_crashed_still_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while an agent that survived a crash runs: the KeyboardInterrupt propagates (no
    grade to hand over), not the environment's bug in its place."""
    from pytest_agenteval.agents import play as play_module
    from pytest_agenteval.agents.episode import Episode

    def drive(factory: Any, task: Any, episode: Episode, *args: Any) -> None:
        with contextlib.suppress(BaseException):
            episode.call("lookup", {"ticket_id": "T-0001"})
        raise KeyboardInterrupt

    monkeypatch.setattr(play_module, "drive", drive)
    handed: list[Any] = []
    with Broken() as env:
        task = make_task(**BROKEN_TASK)
        env.reset(1, task=task)
        with pytest.raises(KeyboardInterrupt):
            play_module.play(env, task, Episode(env, task), object, run=1, time_limit=None,
                             on_interrupt=handed.append)
    assert handed == []
