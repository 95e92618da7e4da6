"""Each framework adapter, driven by that framework's own offline test model, on one task per domain.

A scripted correct path must pass, a model that loops must end in ``step_limit`` (not in the
framework's own turn limit), and parallel tool calls in one model turn must all run and all
come back to the model. Usage and the transcript must reach the grade.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import EnvironmentPool, load_tasks
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.tasks.model import Task
from pytest_agenteval.tasks.paths import first_order
from tests.helpers.tasks import result_lines

ROOT = Path(__file__).parent.parent
TASKS = {"booking": ("booking.jsonl", "BK-001"), "escalation": ("escalation.jsonl", "ESC-008")}
Turn = list[tuple[str, dict[str, Any]]]
# A script: the turns in order (then "Done."), or a function of the turn number (None: done).
Script = list[Turn] | Callable[[int], Turn | None]


def _turn(script: Script, n: int) -> Turn | None:
    return script(n) if callable(script) else (script[n] if n < len(script) else None)


# ----- one scripted model per framework: (agent factory, results the model saw per request) ------

def pydantic_ai(script: Script) -> tuple[Callable[[], Any], list[int]]:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from pytest_agenteval.adapters.pydantic_ai import Agent

    seen: list[int] = []

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        seen.append(sum(isinstance(p, ToolReturnPart) for p in last.parts) if isinstance(last, ModelRequest) else 0)
        n = sum(isinstance(m, ModelResponse) for m in messages)
        turn = _turn(script, n)
        if not turn:
            return ModelResponse(parts=[TextPart("Done.")])
        return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"c{n}_{i}") for i, (name, args) in enumerate(turn)])

    return (lambda: Agent(FunctionModel(respond))), seen


def openai_agents(script: Script) -> tuple[Callable[[], Any], list[int]]:
    pytest.importorskip("agents")
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    from pytest_agenteval.adapters.openai_agents import Agent

    seen: list[int] = []

    class Scripted(Model):
        """The SDK's Model interface, answering from the script."""

        def __init__(self) -> None:
            self.n = 0

        async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
            items = input if isinstance(input, list) else []
            # The results of the previous turn: the function_call_output items after its last call.
            seen.append(sum(1 for item in items[-8:] if isinstance(item, dict) and item.get("type") == "function_call_output"
                            and item["call_id"].startswith(f"c{self.n - 1}_")))
            turn, self.n = _turn(script, self.n), self.n + 1
            # Arguments given as text are sent as they are (a model's broken JSON).
            output: list[Any] = [ResponseFunctionToolCall(type="function_call", call_id=f"c{self.n - 1}_{i}", name=name,
                                                          arguments=args if isinstance(args, str) else json.dumps(args),
                                                          id=f"fc{self.n}_{i}",
                                                          status="completed") for i, (name, args) in enumerate(turn or [])]
            if not turn:
                output = [ResponseOutputMessage(id="m", type="message", role="assistant", status="completed",
                                                content=[ResponseOutputText(type="output_text", text="Done.", annotations=[])])]
            return ModelResponse(output=output, usage=Usage(requests=1, input_tokens=11, output_tokens=3, total_tokens=14),
                                 response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    return (lambda: Agent(Scripted())), seen


def langgraph(script: Script) -> tuple[Callable[[], Any], list[int]]:
    pytest.importorskip("langchain")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage

    from pytest_agenteval.adapters.langgraph import Agent

    seen: list[int] = []

    class ToolCallingFake(GenericFakeChatModel):
        """LangChain's fake chat model, able to be given tools (it replays AIMessages with tool_calls)."""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

        def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            tail = list(itertools.takewhile(lambda m: isinstance(m, ToolMessage), reversed(messages)))
            seen.append(len(tail))
            return super()._generate(messages, *args, **kwargs)

    def replies() -> Any:
        for n in itertools.count():
            turn = _turn(script, n)
            if not turn:
                yield AIMessage(content="Done.", usage_metadata={"input_tokens": 9, "output_tokens": 1, "total_tokens": 10})
                return
            yield AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"c{n}_{i}"}
                                                    for i, (name, args) in enumerate(turn)],
                            usage_metadata={"input_tokens": 9, "output_tokens": 4, "total_tokens": 13})

    return (lambda: Agent(ToolCallingFake(messages=replies()))), seen


def anthropic(script: Script) -> tuple[Callable[[], Any], list[int]]:
    """The real SDK against the scripted Messages-API server (started by the ``anthropic_server`` fixture)."""
    pytest.importorskip("anthropic")
    from anthropic import Anthropic

    from pytest_agenteval.adapters.anthropic import Agent

    server = ANTHROPIC_SERVER[0]
    seen: list[int] = []
    server.scripts.clear()
    server.scripts["*"] = script
    server.on_request = lambda body: seen.append(sum(
        b.get("type") == "tool_result" for b in (body["messages"][-1]["content"] if body["messages"][-1]["role"] == "user"
                                                  and isinstance(body["messages"][-1]["content"], list) else [])))
    return (lambda: Agent("claude-scripted", client=Anthropic(base_url=server.url, api_key="test-key"))), seen


ANTHROPIC_SERVER: list[Any] = []
ADAPTERS = {"pydantic_ai": pydantic_ai, "openai_agents": openai_agents, "langgraph": langgraph, "anthropic": anthropic}


@pytest.fixture(scope="module", autouse=True)
def anthropic_server() -> Any:
    from tests.helpers.anthropic_fake import ScriptedAnthropic

    class AnyInstruction(ScriptedAnthropic):
        on_request: Callable[[dict[str, Any]], None] = staticmethod(lambda body: None)  # type: ignore[assignment]

        def reply(self, body: dict[str, Any]) -> dict[str, Any]:
            self.on_request(body)
            self.scripts.setdefault(body["messages"][0]["content"], self.scripts["*"])
            return super().reply(body)

    with AnyInstruction({}) as server:
        ANTHROPIC_SERVER[:] = [server]
        yield server
    ANTHROPIC_SERVER.clear()


@pytest.fixture(scope="module")
def pool() -> Any:
    environments = EnvironmentPool()
    yield environments
    environments.close()


def load(pool: EnvironmentPool, domain: str) -> Task:
    file, task_id = TASKS[domain]
    return next(t for t in load_tasks(ROOT / "tasks" / file, pool=pool) if t.task_id == task_id)


def reference_turns(task: Task) -> list[Turn]:
    return [[(s.action, s.call_arguments())] for s in first_order(task.acceptable_action_paths[0])]


@pytest.mark.parametrize("domain", TASKS)
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_scripted_correct_path_passes(pool: EnvironmentPool, adapter: str, domain: str) -> None:
    task = load(pool, domain)
    turns = reference_turns(task)
    factory, seen = ADAPTERS[adapter](turns)
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert grade.passed, [c.detail for c in grade.checks if not c.passed]
    assert grade.steps_used == len(turns)
    assert seen[1:] == [1] * len(turns)  # every observation went back to the model
    assert grade.usage is not None and grade.usage["model_calls"] == len(turns) + 1
    assert grade.usage["input_tokens"] > 0 and grade.usage["output_tokens"] > 0
    assert grade.usage["latency_s"] is not None
    text = json.dumps(grade.transcript)
    assert task.instruction in text and text.count('\\"ok\\": true') >= 1


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_looping_model_ends_in_step_limit(pool: EnvironmentPool, adapter: str) -> None:
    task = load(pool, "booking")
    first = reference_turns(task)[0]
    factory, _ = ADAPTERS[adapter](lambda n: first)
    grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
    assert not grade.passed
    assert "step_limit" in grade.failure_modes and "agent_error" not in grade.failure_modes
    assert grade.steps_used == task.max_steps + 1
    assert grade.usage is not None and grade.usage["model_calls"] == task.max_steps + 1


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_parallel_tool_calls_all_run_and_all_return(pool: EnvironmentPool, adapter: str) -> None:
    task = load(pool, "booking")
    turns = reference_turns(task)
    env = pool.get(task.environment)
    assert all(not env.actions[name].writes for (name, _), in turns[:2]), "the first two steps must be look-ups"
    parallel = [turns[0] + turns[1] + [("get_facility", {"facility_id": "FAC-NONE"})], *turns[2:]]
    factory, seen = ADAPTERS[adapter](parallel)
    grade = run_episode(env, task, factory, time_limit=60)
    assert grade.passed, [c.detail for c in grade.checks if not c.passed]
    assert grade.steps_used == len(turns) + 1
    assert seen[1] == 3  # the three results of the parallel turn, the refusal among them, went back together
    assert '"not_found"' in json.dumps(grade.transcript).replace('\\"', '"')


def test_domain_refusals_reach_the_model_as_data(pool: EnvironmentPool) -> None:
    """Arguments our validation refuses and domain errors come back as observations the model can
    act on, and the run goes on. (A tool outside the task's tools is never offered, so the
    framework itself answers a call to it.)"""
    task = load(pool, "booking")
    script = [[("get_facility", {"facility_id": 7})], [("get_facility", {"facility_id": "FAC-NONE"})],
              *reference_turns(task)]
    for adapter in ADAPTERS:
        factory, _ = ADAPTERS[adapter](script)
        grade = run_episode(pool.get(task.environment), task, factory, time_limit=60)
        text = json.dumps(grade.transcript).replace('\\"', '"')
        assert '"invalid_arguments"' in text and '"not_found"' in text, adapter
        assert grade.passed, (adapter, [c.detail for c in grade.checks if not c.passed])


def test_the_one_line_agent_option_runs_under_xdist_with_runs(pytester: pytest.Pytester,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``--agent=pytest_agenteval.adapters.pydantic_ai:Agent`` with the model from AGENTEVAL_MODEL
    (pydantic-ai's own offline ``test`` model, which calls every tool once)."""
    pytest.importorskip("pydantic_ai")
    from tests.helpers.tasks import task_line

    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(task_line() + "\n" + task_line(task_id="EX-2") + "\n")
    monkeypatch.setenv("AGENTEVAL_MODEL", "test")
    result = pytester.runpytest_subprocess("--agent=pytest_agenteval.adapters.pydantic_ai:Agent", "--runs", "2",
                                           "-n", "2", "--agenteval-results=r.jsonl", "-p", "no:cacheprovider")
    grades = result_lines(pytester.path / "r.jsonl")[:-1]
    assert len(grades) == 4, result.stdout.str()
    for grade in grades:
        assert "agent_error" not in grade["failure_modes"], grade["checks"]
        assert grade["steps_used"] == 4  # TestModel calls each of the four tools once
        assert grade["usage"]["models"].keys() == {"test"} and grade["usage"]["model_calls"] == 2
    result.stdout.fnmatch_lines(["group * tokens/ep * cost/ep", "all * 2 * 4 * -"])


@pytest.mark.parametrize("asked", [False, True])
def test_the_agents_sdk_sends_no_traces_unless_asked(pool: EnvironmentPool, monkeypatch: pytest.MonkeyPatch,
                                                     asked: bool) -> None:
    pytest.importorskip("agents")
    from agents.tracing import TracingProcessor
    from agents.tracing.provider import DefaultTraceProvider
    from agents.tracing.setup import get_trace_provider, set_trace_provider

    class Recorder(TracingProcessor):
        def __init__(self) -> None:
            self.traces: list[Any] = []

        def on_trace_start(self, trace: Any) -> None:
            self.traces.append(trace)

        def on_trace_end(self, trace: Any) -> None: ...
        def on_span_start(self, span: Any) -> None: ...
        def on_span_end(self, span: Any) -> None: ...
        def shutdown(self) -> None: ...
        def force_flush(self) -> None: ...

    if asked:
        monkeypatch.setenv("AGENTEVAL_TRACING", "1")
    recorder, provider, saved = Recorder(), DefaultTraceProvider(), get_trace_provider()
    provider.set_processors([recorder])  # in place of the exporter that would upload them
    set_trace_provider(provider)
    try:
        task = load(pool, "booking")
        factory, _ = openai_agents(reference_turns(task))
        assert run_episode(pool.get(task.environment), task, factory, time_limit=60).passed
    finally:
        set_trace_provider(saved)
    assert bool(recorder.traces) is asked


@pytest.mark.parametrize(("adapter", "module", "extra"), [
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"), ("openai_agents", "agents", "openai-agents"),
    ("langgraph", "langchain", "langgraph"), ("anthropic", "anthropic", "anthropic")])
def test_a_missing_framework_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch, adapter: str, module: str,
                                                        extra: str) -> None:
    import importlib
    import sys

    agent_class = importlib.import_module(f"pytest_agenteval.adapters.{adapter}").Agent
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    with pytest.raises(ImportError, match=rf'^this adapter needs {module!r}: pip install "pytest-agenteval\[{extra}\]"$'):
        agent_class()


def test_cost_from_the_price_setting_or_genai_prices(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_agenteval.adapters._common import cost

    assert cost("scripted-model", 1000, 1000) is None
    if importlib_util_has("genai_prices"):
        assert cost("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    monkeypatch.setenv("AGENTEVAL_PRICE_PER_MTOK", "1.5,6")
    assert cost("anything", 2_000_000, 500_000) == pytest.approx(6.0)
    monkeypatch.setenv("AGENTEVAL_PRICE_PER_MTOK", "cheap")
    with pytest.raises(ValueError, match=r"^AGENTEVAL_PRICE_PER_MTOK='cheap': give two numbers"):
        cost("anything", 1, 1)


def test_an_adapter_reports_cost_per_call(pool: EnvironmentPool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTEVAL_PRICE_PER_MTOK", "3,15")
    task = load(pool, "booking")
    factory, _ = anthropic(reference_turns(task))
    usage = run_episode(pool.get(task.environment), task, factory, time_limit=60).usage
    assert usage is not None
    assert usage["cost_usd"] == pytest.approx((usage["input_tokens"] * 3 + usage["output_tokens"] * 15) / 1e6)


def importlib_util_has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_the_anthropic_adapter_configures_itself_from_the_environment(pool: EnvironmentPool,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``--agent=pytest_agenteval.adapters.anthropic:Agent`` builds: the SDK's own settings, our model."""
    from pytest_agenteval.adapters.anthropic import Agent

    task = load(pool, "booking")
    anthropic(reference_turns(task))  # installs the script on the server
    monkeypatch.setenv("ANTHROPIC_BASE_URL", ANTHROPIC_SERVER[0].url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("AGENTEVAL_MODEL", "claude-from-env")
    grade = run_episode(pool.get(task.environment), task, Agent, time_limit=60)
    assert grade.passed and grade.usage is not None and list(grade.usage["models"]) == ["claude-from-env"]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_tools_gives_the_episodes_tools_in_the_frameworks_shape(pool: EnvironmentPool, adapter: str) -> None:
    import importlib

    from pytest_agenteval.agents.episode import Episode

    ADAPTERS[adapter]([])  # skips when the framework is missing
    task = load(pool, "escalation")
    env = pool.get(task.environment)
    env.reset(task.scenario_seed, task=task)
    episode = Episode(env, task)
    made = importlib.import_module(f"pytest_agenteval.adapters.{adapter}").tools(episode)
    names = [t["name"] if isinstance(t, dict) else t.name for t in made]
    assert names == [t["name"] for t in episode.tools] == [a for a in task.allowed_actions if a in env.actions]
    escalate = made[names.index("escalate")]
    schema = (escalate["input_schema"] if isinstance(escalate, dict) else
              getattr(escalate, "params_json_schema", None) or getattr(escalate, "args_schema", None)
              or escalate.tool_def.parameters_json_schema)
    assert set(schema["required"]) == {"claim_id", "to_staff_id", "reason"}
