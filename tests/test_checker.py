"""check_environment catches what breaks determinism and look-ups, and returns problems, never raises."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from pytest_agenteval.domains.example import ExampleEnvironment, TicketId
from pytest_agenteval.engine import action
from pytest_agenteval.engine.conformance import check_environment, environment_warnings


class WallClock(ExampleEnvironment):
    name = "wall_clock"
    seed_key = "example"

    @action
    def set_priority(self, ticket_id: TicketId, priority: int) -> dict[str, Any]:
        """Set a priority, stamped with the real time (wrong)."""
        self.db.execute("UPDATE ticket SET priority = ?, updated_at = ? WHERE id = ?",
                        (priority, datetime.now().isoformat(), ticket_id))
        return {}


class KeepsState(ExampleEnvironment):
    name = "keeps_state"
    calls = 0

    @action
    def set_priority(self, ticket_id: TicketId, priority: int) -> dict[str, Any]:
        """Set a priority; the subject counts calls across episodes (wrong)."""
        type(self).calls += 1
        self.db.execute("UPDATE ticket SET priority = ?, subject = ? WHERE id = ?",
                        (priority, f"call {self.calls}", ticket_id))
        return {}


class WritingLookUp(ExampleEnvironment):
    name = "writing_look_up"

    @action(writes=False)
    def get_ticket(self, ticket_id: TicketId) -> dict[str, Any]:
        """Look up a ticket, and mark it read (a write: wrong)."""
        self.db.execute("UPDATE ticket SET updated_at = 'read' WHERE id = ?", (ticket_id,))
        return {}


class BadProbe(ExampleEnvironment):
    name = "bad_probe"
    conformance_probe = [("close_ticket", {"ticket_id": "T-9999"})]


class Crashing(ExampleEnvironment):
    name = "crashing"
    conformance_probe = [("set_priority", {"ticket_id": "T-0001", "priority": 2})]

    @action
    def set_priority(self, ticket_id: TicketId, priority: int) -> dict[str, Any]:
        """Crash (a bug)."""
        raise KeyError("boom")


class NoProbe(ExampleEnvironment):
    name = "no_probe"
    conformance_probe = []


def problems(cls: type[ExampleEnvironment]) -> list[str]:
    with cls() as env:
        return check_environment(env)


def test_the_example_is_clean() -> None:
    assert problems(ExampleEnvironment) == []


def test_a_wall_clock_is_caught() -> None:
    found = problems(WallClock)[0]  # (the two runs' diffs differ too, unless both fell in one microsecond)
    assert found.startswith("the conformance probe wrote the real current time (ticket.T-0001.updated_at = '")
    assert found.endswith("use self.now(), the simulated clock, so grades do not depend on when they ran")


def test_state_kept_across_episodes_is_caught() -> None:
    assert problems(KeepsState) == [
        "the conformance probe run twice from reset(0) gave different state diffs (a wall clock, unseeded "
        "randomness, or state kept on the instance across episodes: use self.now(), self.new_id() and reset "
        "what on_reset prepares)"]


def test_a_look_up_that_writes_is_caught() -> None:
    assert problems(WritingLookUp) == [
        "look-up get_ticket changed the database: an action marked writes=False must only read (drop "
        "writes=False if it writes)"]


def test_a_failing_probe_is_a_problem_not_a_traceback() -> None:
    assert problems(BadProbe) == [
        "conformance_probe[0] close_ticket failed on scenario 0: not_found: no ticket T-9999 (the probe's calls "
        "must succeed)"]


def test_a_crashing_action_is_a_problem_not_a_traceback() -> None:
    assert problems(Crashing) == ["conformance_probe[0]: action set_priority raised KeyError: 'boom' (at test_checker.py:62)"]


@pytest.mark.parametrize("cls", [NoProbe])
def test_warnings_for_an_empty_probe_and_undescribed_parameters(cls: type[ExampleEnvironment]) -> None:
    with cls() as env:
        assert check_environment(env) == []
        assert environment_warnings(env) == [
            "conformance_probe is empty: check_environment cannot test that writes are deterministic or that "
            "reset undoes them (list a few writing calls that succeed on scenario 0)",
            "3 action parameter(s) have no description (add_comment.body, find_tickets.customer_id, "
            "set_priority.priority): the agent sees only their names (use Annotated[T, Field(description=...)])"]


def test_seed_key_keeps_the_scenarios_across_a_rename() -> None:
    class Renamed(ExampleEnvironment):
        name = "renamed"

    class RenamedKeepingFacts(ExampleEnvironment):
        name = "renamed_keeping_facts"
        seed_key = "example"

    with ExampleEnvironment() as old, Renamed() as renamed, RenamedKeepingFacts() as kept:
        for env in (old, renamed, kept):
            env.reset(3)
        assert kept.db.serialize() == old.db.serialize()
        assert renamed.db.serialize() != old.db.serialize()  # the trap seed_key avoids


class WritesOnlyOnceClosed(ExampleEnvironment):
    """A look-up that writes only in a state the probe makes (here: on a closed ticket)."""

    name = "writes_once_closed"
    seed_key = "example"
    conformance_probe = [("close_ticket", {"ticket_id": "T-0001"})]

    @action(writes=False)
    def get_ticket(self, ticket_id: TicketId) -> dict[str, Any]:
        """Look up a ticket (and, by mistake, reopen it when closed)."""
        row = self.require("ticket", ticket_id)
        if row["status"] == "closed":
            self.db.execute("UPDATE ticket SET status = 'open' WHERE id = ?", (ticket_id,))
        return row


def test_a_look_up_that_writes_only_after_the_probe_is_caught() -> None:
    assert problems(WritesOnlyOnceClosed) == [
        "look-up get_ticket changed the database after the conformance probe's writes: an action marked "
        "writes=False must only read (drop writes=False if it writes)"]


class CounterpartyBug(ExampleEnvironment):
    name = "counterparty_bug"
    seed_key = "example"

    def after_step(self, step: int) -> None:
        raise LookupError("no such senior")


def test_a_scripted_counterparty_that_raises_is_a_problem_not_a_traceback() -> None:
    found = problems(CounterpartyBug)
    assert found and all("after_step(1) raised LookupError: no such senior" in p for p in found)
