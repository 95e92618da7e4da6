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
from tests.helpers.tasks import result_lines
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
