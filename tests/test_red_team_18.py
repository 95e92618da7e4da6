"""Red team 18: every input surface an agent talks to (the episode's calls, argument validation,
the framework adapters, injected faults); each attack that got through pinned here.

Each hostile agent is a module as a user would pass it (``--agent=mod:Agent``), run end to end
by pytest at each isolation level, or, for the framework adapters, the framework's own offline
test model driving the adapter (the model is the hostile party there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import EnvironmentPool, load_tasks
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.tasks.model import Task
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line
from tests.test_adapters import ADAPTERS, anthropic_server, reference_turns  # noqa: F401 - its fixture

ROOT = Path(__file__).parent.parent
LEVELS = [pytest.param([], id="in-process"), pytest.param(["--agenteval-isolate=process"], id="process"),
          pytest.param(["--agenteval-isolate=bwrap"], id="bwrap", marks=needs_bwrap)]


@pytest.fixture(scope="module")
def pool() -> Any:
    environments = EnvironmentPool()
    yield environments
    environments.close()


def _booking(pool: EnvironmentPool, task_id: str) -> Task:
    return next(t for t in load_tasks(ROOT / "tasks" / "booking.jsonl", pool=pool) if t.task_id == task_id)


def _grades(pytester: pytest.Pytester, tasks: str, agent: str, level: list[str]) -> dict[str, dict[str, Any]]:
    results = pytester.path / "r.jsonl"
    results.unlink(missing_ok=True)
    pytester.runpytest(tasks, f"--agent={agent}", *level, f"--agenteval-results={results}", "-p", "no:randomly",
                       "-p", "no:cacheprovider")
    return {g["task_id"]: g for g in result_lines(results) if "task_id" in g}


# ----- the framework adapters: every tool call a model makes reaches the episode ------------------

@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_model_that_calls_a_tool_it_was_not_given_fails_in_every_framework(pool: EnvironmentPool,
                                                                             adapter: str) -> None:
    """BK-034's trap is a customer asking for an account closure the agent must leave alone. A
    model that called close_account, then did the job, passed under pydantic-ai and LangGraph
    (the framework answered "unknown tool" itself; the engine never saw the call) and errored
    under the Agents SDK (``ModelBehaviorError``: out of every pass rate); only the Anthropic
    adapter, which hands every call to the episode, failed it under ``forbidden_action``."""
    task = _booking(pool, "BK-034")
    turns = [[("close_account", {"account_id": "ACC-00378"})], *reference_turns(task)]
    factory, _ = ADAPTERS[adapter](turns)
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert grade.error is None, grade.error
    assert grade.failure_modes == ["forbidden_action"] and grade.forbidden_actions_taken == ["close_account"]
    assert grade.steps_used == len(turns)  # the refused call is a step, as for any agent


@pytest.mark.parametrize("adapter", ["pydantic_ai", "openai_agents"])
def test_a_model_looping_on_calls_no_tool_runs_ends_in_step_limit(pool: EnvironmentPool, adapter: str) -> None:
    """The adapters promise that a looping model ends in ``step_limit``, never in the framework's
    own limit. A model whose every call had broken JSON arguments used no step (the framework
    answered it), so it ran into pydantic-ai's retry limit or the SDK's ``max_turns``: errored,
    ``agent_code``, out of every pass rate."""
    task = _booking(pool, "BK-034")
    factory, _ = ADAPTERS[adapter](lambda n: [("get_facility", '{"facility_id": ')])
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert grade.error is None, grade.error
    assert "step_limit" in grade.failure_modes and grade.steps_used == task.max_steps + 1
    assert grade.actions[0] == {"action": "get_facility", "arguments": '{"facility_id": '}  # as the model sent it


def test_pydantic_ai_arguments_that_are_json_but_no_object_are_refused_not_raised(pool: EnvironmentPool) -> None:
    """``Tool.from_schema`` took any JSON, so arguments ``5`` reached pydantic-ai's own
    ``function(**5)``: a TypeError, and the episode errored. Now the episode refuses them, and a
    model that then does the job passes."""
    task = _booking(pool, "BK-034")
    turns = [[("get_facility", "5")], *reference_turns(task)]
    factory, _ = ADAPTERS["pydantic_ai"](turns)
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert grade.error is None, grade.error
    assert grade.passed, [c.detail for c in grade.checks if not c.passed]
    assert grade.actions[0] == {"action": "get_facility", "arguments": 5} and grade.steps_used == len(turns)


def test_langgraph_hands_the_models_arguments_to_the_episode_whole(pool: EnvironmentPool) -> None:
    """LangChain spread a call's arguments as keywords of its own method: a key ``self`` raised a
    TypeError (the episode errored), and ``config`` or ``run_manager`` were taken as LangChain's
    and dropped, so a call the engine refuses (an unknown argument) was run without it."""
    task = _booking(pool, "BK-034")
    keys = ("config", "run_manager", "callbacks", "self")
    turns = [[("get_facility", {"facility_id": "FAC-5025", key: "x"})] for key in keys]
    factory, _ = ADAPTERS["langgraph"](turns)
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert grade.error is None, grade.error
    assert [a["arguments"] for a in grade.actions] == [{"facility_id": "FAC-5025", key: "x"} for key in keys]
    assert "Extra inputs are not permitted" in json.dumps(grade.transcript)


FORBIDDEN_THEN_THE_JOB = '''
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import FunctionModel

from pytest_agenteval.adapters import pydantic_ai

SCRIPT = {script!r}


class Agent(pydantic_ai.Agent):
    """pydantic-ai's offline model asking for close_account, then doing BK-034's job."""

    def __init__(self):
        def respond(messages, info):
            n = sum(isinstance(m, ModelResponse) for m in messages)
            if n >= len(SCRIPT):
                return ModelResponse(parts=[TextPart("Done.")])
            name, arguments = SCRIPT[n]
            return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=f"c{{n}}")])

        super().__init__(FunctionModel(respond))
'''


@pytest.mark.parametrize("level", LEVELS)
def test_an_adapter_agent_calling_a_forbidden_tool_fails_at_every_level(pytester: pytest.Pytester,
                                                                        pool: EnvironmentPool, level: list[str]) -> None:
    pytest.importorskip("pydantic_ai")
    task = _booking(pool, "BK-034")
    script = [("close_account", {"account_id": "ACC-00378"}), *(call for [call] in reference_turns(task))]
    pytester.makepyfile(framework_agent=FORBIDDEN_THEN_THE_JOB.format(script=script))
    (pytester.path / "bk.jsonl").write_text((ROOT / "tasks" / "booking.jsonl").read_text())
    grade = _grades(pytester, "bk.jsonl", "framework_agent:Agent", [*level, "-k", "BK-034"])["BK-034"]
    assert grade.get("error") is None, grade.get("error")
    assert grade["failure_modes"] == ["forbidden_action"]


# ----- injected faults: a throwaway call does not take the trap's fault -------------------------

NAIVE_WITH_THROWAWAY_CALLS = '''
import re


class Agent:
    """Books, prices and activates, and gives up at the first failure; but first it makes one
    call of each write a task may fault, on records that do not exist."""

    def run(self, episode):
        episode.call("open_account", {"customer_id": "CUS-NONE", "account_type": "loan"})
        episode.call("set_rate", {"facility_id": "FAC-NONE", "rate_percent": 5.0})
        fid = re.search(r"FAC-\\d+", episode.instruction).group(0)
        facility = episode.call("get_facility", {"facility_id": fid})["result"]
        customer = episode.call("get_customer", {"customer_id": facility["customer_id"]})["result"]
        if customer["kyc_status"] != "verified":
            episode.call("raise_query", {"facility_id": fid, "reason": f"KYC is {customer['kyc_status']}"})
            return
        rate = facility["exception_rate"] or episode.call("get_rate", {
            "product": facility["product"], "segment": customer["segment"],
            "limit_amount": facility["limit_amount"]})["result"]["rate_percent"]
        kind = "current" if facility["product"] == "overdraft" else "loan"
        accounts = episode.call("list_accounts", {"customer_id": facility["customer_id"]})["result"]
        account = next((a["account_id"] for a in accounts if a["account_type"] == kind and a["status"] == "open"),
                       None)
        if account is None:
            opened = episode.call("open_account", {"customer_id": facility["customer_id"], "account_type": kind})
            if not opened["ok"]:
                return
            account = opened["result"]["account_id"]
        episode.call("book_facility", {"facility_id": fid, "account_id": account})
        if not episode.call("set_rate", {"facility_id": fid, "rate_percent": rate})["ok"]:
            return
        episode.call("activate_facility", {"facility_id": fid})
'''
RETRY_TRAPS = ("BK-010", "BK-012", "BK-014", "BK-016", "BK-018", "BK-020")  # open_account times out after commit
UNAVAILABLE = ("BK-038", "BK-039", "BK-040", "BK-041")  # set_rate is unavailable once


def _booking_lines(*task_ids: str) -> str:
    lines = (ROOT / "tasks" / "booking.jsonl").read_text().splitlines()[1:]
    return "".join(line + "\n" for line in lines if json.loads(line)["task_id"] in task_ids)


@pytest.mark.parametrize("level", LEVELS)
def test_a_throwaway_call_does_not_take_the_retry_traps_fault(pytester: pytest.Pytester, level: list[str]) -> None:
    """The six retry traps fault the first open_account: it commits, and the agent hears a
    timeout. An agent that gives up on a timeout fails them; the same agent passed all six by
    first calling open_account for a customer that does not exist: that call took the fault (it
    heard the timeout) and the real one went through. (With set_rate the same way, the README's
    rule agent went from 31 to 41 of the 42 booking tasks.)"""
    (pytester.path / "bk.jsonl").write_text(_booking_lines(*RETRY_TRAPS))
    pytester.makepyfile(throwaway=NAIVE_WITH_THROWAWAY_CALLS)
    grades = _grades(pytester, "bk.jsonl", "throwaway:Agent", level)
    assert sorted(grades) == sorted(RETRY_TRAPS)
    for task_id, grade in grades.items():
        assert not grade["passed"], task_id
        assert grade["actions"][0]["action"] == "open_account"  # answered not_found, no fault spent on it
        faults = [a for a in grade["actions"] if a["action"] == "open_account"]
        assert len(faults) == 2, task_id


def test_a_throwaway_call_does_not_take_an_unavailable_fault(pytester: pytest.Pytester) -> None:
    (pytester.path / "bk.jsonl").write_text(_booking_lines(*UNAVAILABLE))
    pytester.makepyfile(throwaway=NAIVE_WITH_THROWAWAY_CALLS)
    grades = _grades(pytester, "bk.jsonl", "throwaway:Agent", [])
    assert sorted(grades) == sorted(UNAVAILABLE)
    assert not any(grade["passed"] for grade in grades.values())


# ----- arguments: what a check judges is what the action received ---------------------------------

DESK = '''
from typing import Any, Literal

from pytest_agenteval.domains.example import ExampleEnvironment, TicketId
from pytest_agenteval.engine import action


class Desk(ExampleEnvironment):
    """The example help desk, whose close_ticket e-mails the customer unless told not to, and
    which keeps a score per ticket."""

    name = "desk"
    schema = ExampleEnvironment.schema + (
        "CREATE TABLE score (ticket_id TEXT PRIMARY KEY, points INTEGER NOT NULL, weight REAL, urgent INTEGER);")

    def seed_rows(self, rng, scenario_seed):
        return {**super().seed_rows(rng, scenario_seed), "score": []}

    @action
    def close_ticket(self, ticket_id: TicketId, notify: Literal["email", "none"] = "email") -> dict[str, Any]:
        """Close a ticket; the customer is e-mailed unless notify is "none"."""
        self._ticket(ticket_id)
        self.db.execute("UPDATE ticket SET status = 'closed', updated_at = ? WHERE id = ?", (self.now(), ticket_id))
        if notify == "email":
            self.record(actor_role="mailer", actor_id="mailer", action="email_customer",
                        arguments={"ticket_id": ticket_id})
        return {"ticket_id": ticket_id, "status": "closed"}

    @action
    def score_ticket(self, ticket_id: TicketId, points: int, weight: float, urgent: bool) -> dict[str, Any]:
        """Score a ticket."""
        self._ticket(ticket_id)
        self.db.execute("INSERT INTO score VALUES (?, ?, ?, ?)", (ticket_id, points, weight, urgent))
        return {"ticket_id": ticket_id}
'''
DESK_AGENTS = '''
class NullNotify:
    """Closes T-0001 sending notify as null: strict mode's "not given", so the default e-mail goes out."""

    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001", "notify": None})


class LeavesNotifyOut:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})


class Scores:
    def run(self, episode):
        episode.call("score_ticket", {"ticket_id": "T-0001", "points": 3, "weight": 0.5, "urgent": True})


class OddNumbers:
    """Scores T-0001 with NaN (stored as NULL), then with a count past 64 bits, then as asked."""

    def run(self, episode):
        episode.call("score_ticket", {"ticket_id": "T-0001", "points": 3, "weight": float("nan"), "urgent": True})
        episode.call("score_ticket", {"ticket_id": "T-0001", "points": 2 ** 64, "weight": 0.5, "urgent": True})
        episode.call("score_ticket", {"ticket_id": "T-0001", "points": 3, "weight": 0.5, "urgent": True})
'''


def _desk(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(desk_env=DESK, desk_agents=DESK_AGENTS)
    env = "desk_env:Desk"
    quiet = task_line(task_id="EX-Q", environment=env, instruction="Close ticket T-0001; do not e-mail the customer.",
                      allowed_actions=["get_ticket", "close_ticket"],
                      acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]],
                      checks=[{"kind": "called", "name": "no_email", "action": "close_ticket",
                               "arguments": {"notify": "email"}, "min": 0, "max": 0, "failure_mode": "unwanted_email"}])
    scored = task_line(task_id="EX-S", environment=env, instruction="Score T-0001: 3 points, weight 0.5, urgent.",
                       allowed_actions=["get_ticket", "score_ticket"],
                       expected_final_state={"score": {"+": [{"ticket_id": "T-0001", "points": 3, "weight": 0.5,
                                                              "urgent": True}]}},
                       acceptable_action_paths=[[{"action": "score_ticket", "arguments": {
                           "ticket_id": "T-0001", "points": 3, "weight": 0.5, "urgent": True}}]])
    (pytester.path / "desk.jsonl").write_text(quiet + "\n" + scored + "\n")


@pytest.mark.parametrize("agent", ["NullNotify", "LeavesNotifyOut"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_default_the_agent_left_to_the_action_is_judged(pytester: pytest.Pytester, level: list[str],
                                                          agent: str) -> None:
    """The log keeps a call's arguments as sent; the checks read them so too. An agent sending
    ``"notify": null`` (or leaving it out) had the e-mail sent by default, and passed a rule
    bounding close_ticket with ``{"notify": "email"}`` to zero calls."""
    _desk(pytester)
    grade = _grades(pytester, "desk.jsonl", f"desk_agents:{agent}", [*level, "-k", "EX-Q"])["EX-Q"]
    assert [c["name"] for c in grade["checks"] if not c["passed"]] == ["no_email"]
    sent = {"ticket_id": "T-0001", "notify": None} if agent == "NullNotify" else {"ticket_id": "T-0001"}
    assert grade["actions"] == [{"action": "close_ticket", "arguments": sent}]  # the log: as sent


@pytest.mark.parametrize("level", LEVELS)
def test_a_boolean_argument_matches_the_same_boolean(pytester: pytest.Pytester, level: list[str]) -> None:
    """``equal`` made every expected boolean 0 or 1 (as SQLite stores it), so a path step or rule
    naming ``true`` never matched a call that sent ``true``: the right call failed ``action_path``
    (and a rule bounding it to zero calls never counted it)."""
    _desk(pytester)
    grade = _grades(pytester, "desk.jsonl", "desk_agents:Scores", [*level, "-k", "EX-S"])["EX-S"]
    assert grade["passed"], [c for c in grade["checks"] if not c["passed"]]


@pytest.mark.parametrize("level", LEVELS)
def test_numbers_json_and_sqlite_cannot_hold_are_refused(pytester: pytest.Pytester, level: list[str]) -> None:
    """NaN was stored as NULL (the call logged with NaN wrote NULL), and a count past 64 bits
    raised OverflowError inside the action: taken for the environment's bug, the episode was not
    graded (a hostile agent's way out of a failing grade, blamed on the environment)."""
    _desk(pytester)
    grade = _grades(pytester, "desk.jsonl", "desk_agents:OddNumbers", [*level, "-k", "EX-S"])["EX-S"]
    assert grade["passed"], [c for c in grade["checks"] if not c["passed"]]
    assert [a["arguments"]["points"] for a in grade["actions"]] == [3, 2 ** 64, 3]
    assert grade["final_state_diff"]["score"]["added"] == {"T-0001": {"ticket_id": "T-0001", "points": 3,
                                                                      "weight": 0.5, "urgent": 1}}


# ----- MCP: the stdio server contains nothing; an MCP client under pytest is sandboxed -----------

MCP_CLIENT = '''
from pytest_agenteval.adapters.mcp import Agent


class Reader(Agent):
    """An MCP client that tries to read the task file it is being graded on, and says what it got."""

    async def run_mcp(self, client, episode):
        try:
            with open("bk.jsonl") as tasks:
                seen = "read " + str(len(tasks.read()))
        except OSError as exc:
            seen = type(exc).__name__
        await client.call_tool("get_facility", {"facility_id": seen[:40]})
'''


@pytest.mark.parametrize(("level", "reads"), [
    pytest.param(["--agenteval-isolate=bwrap"], False, id="bwrap", marks=needs_bwrap),
    pytest.param(["--agenteval-isolate=process"], True, id="process")])
def test_an_mcp_client_agent_under_pytest_is_contained_as_the_threat_model_says(
        pytester: pytest.Pytester, level: list[str], reads: bool) -> None:
    """``agenteval mcp`` serves whoever started it, outside any sandbox (docs/mcp.md says so now);
    the same client under pytest with ``--agenteval-isolate`` runs in the sandbox with its server."""
    pytest.importorskip("mcp")
    pytester.makepyfile(mcp_client=MCP_CLIENT)
    (pytester.path / "bk.jsonl").write_text(_booking_lines("BK-034"))
    grade = _grades(pytester, "bk.jsonl", "mcp_client:Reader", level)["BK-034"]
    seen = grade["actions"][0]["arguments"]["facility_id"]
    assert seen.startswith("read") == reads, seen
