"""LangChain / LangGraph: ``pytest --agent=pytest_agenteval.adapters.langgraph:Agent tasks/``.

Built with ``langchain.agents.create_agent``, the current prebuilt agent (LangGraph's
``create_react_agent`` is deprecated in its favour), which runs as a LangGraph graph. The model
is ``AGENTEVAL_MODEL`` in ``init_chat_model``'s naming (``openai:gpt-4o-mini``,
``anthropic:claude-…``; the provider's ``langchain-*`` package must be installed), or any chat
model given as ``Agent(model=...)``. The recursion limit follows the step budget. LangSmith
tracing stays off unless you turn it on (``LANGSMITH_TRACING=true``).
Needs ``pip install "pytest-agenteval[langgraph]"``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from pytest_agenteval.adapters._common import (
    SYSTEM,
    as_sent,
    cost,
    ended_by_budget,
    make_unrun_calls,
    model_setting,
    offered,
    require,
    system_for,
    turn_limit,
)

__all__ = ["Agent", "tools"]


def tools(episode: Any) -> list[Any]:
    """The episode's tools as LangChain ``StructuredTool`` objects (our JSON Schema, our validation).

    Each returns the observation as JSON text, domain refusals included, as data the model can act on.
    The model's arguments reach the episode whole, as one object: LangChain spreads them as keyword
    arguments of its own method, so a key ``self`` raised a ``TypeError`` (the episode errored) and
    ``config`` or ``run_manager`` were taken as LangChain's and dropped from the call (red team 18).
    """
    tool_class = _tool_class()

    def make(name: str) -> Any:
        async def act(arguments: Any) -> str:
            return json.dumps(await episode.acall(name, arguments))

        return act

    return [tool_class.from_function(coroutine=make(t["name"]), name=t["name"], description=t["description"],
                                     args_schema=t["parameters"]) for t in episode.tools]


_TOOL_CLASS: list[type] = []


def _tool_class() -> Any:
    """``StructuredTool`` handing its coroutine the tool input as one positional argument."""
    if not _TOOL_CLASS:
        from langchain_core.tools import StructuredTool

        class WholeArguments(StructuredTool):
            def _to_args_and_kwargs(self, tool_input: Any, tool_call_id: str | None) -> tuple[tuple[Any, ...],
                                                                                              dict[str, Any]]:
                return (tool_input,), {}

        _TOOL_CLASS.append(WholeArguments)
    return _TOOL_CLASS[0]


class Agent:
    """A ``create_agent`` graph with the episode's tools; one run per episode."""

    def __init__(self, model: Any = None, *, system_prompt: str = SYSTEM) -> None:
        require("langchain", "langgraph")
        self.model = model if model is not None else model_setting("openai:gpt-4o-mini")
        self.system_prompt = system_prompt

    async def run(self, episode: Any) -> None:
        from langchain.agents import create_agent

        system = system_for(episode, self.system_prompt)
        graph: Any = create_agent(self.model, tools(episode), system_prompt=system)
        meter = _meter(episode, _name(self.model))
        # A model turn and its tool calls are two graph steps.
        config = {"recursion_limit": 2 * turn_limit(episode) + 1, "callbacks": [meter]}
        last: dict[str, Any] = {}
        given, seen = offered(episode), 0
        try:
            with ended_by_budget(episode):
                async for state in graph.astream({"messages": [{"role": "user", "content": episode.instruction}]},
                                                 config=config, stream_mode="values"):
                    last = state
                    messages = state.get("messages", [])
                    await make_unrun_calls(episode, _unrun(messages[seen:], given))
                    seen = len(messages)
        finally:
            episode.attach_transcript([{"role": "system", "content": system}, *last.get("messages", [])])


def _unrun(messages: list[Any], given: frozenset[str]) -> list[tuple[str, Any]]:
    """The model's tool calls in ``messages`` that no tool runs: of a tool it was not given (the
    graph answers "not a valid tool"), or whose arguments did not parse (``invalid_tool_calls``)."""
    calls: list[tuple[str, Any]] = []
    for message in messages:
        calls += [(str(c.get("name")), c.get("args")) for c in getattr(message, "tool_calls", None) or ()
                  if c.get("name") not in given]
        calls += [(str(c.get("name")), as_sent(c.get("args"))) for c in getattr(message, "invalid_tool_calls", None)
                  or ()]
    return calls


def _name(model: Any) -> str:
    if isinstance(model, str):
        return model
    return str(getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__)


def _meter(episode: Any, fallback: str) -> Any:
    from langchain_core.callbacks import BaseCallbackHandler

    class Meter(BaseCallbackHandler):
        """Each chat-model call's tokens (``usage_metadata``) and latency."""

        def __init__(self) -> None:
            self.started: dict[Any, float] = {}

        def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: Any, **kwargs: Any) -> None:
            self.started[run_id] = time.perf_counter()

        def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
            latency = time.perf_counter() - self.started.pop(run_id, time.perf_counter())
            for generations in response.generations:
                for generation in generations:
                    message = getattr(generation, "message", None)
                    usage = getattr(message, "usage_metadata", None) or {}
                    metadata = getattr(message, "response_metadata", None) or {}
                    name = metadata.get("model_name") or metadata.get("model") or fallback
                    tokens_in, tokens_out = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
                    episode.record_usage(model=name, input_tokens=tokens_in, output_tokens=tokens_out,
                                         cost=cost(name, tokens_in, tokens_out), latency=latency)
                    latency = 0.0  # one call, however many generations

    return Meter()
