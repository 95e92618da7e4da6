"""pydantic-ai: ``pytest --agent=pytest_agenteval.adapters.pydantic_ai:Agent tasks/``.

The model is ``AGENTEVAL_MODEL`` in pydantic-ai's own naming (``openai:gpt-4o-mini``,
``anthropic:claude-…``, ``test``), or any ``Model`` object given as ``Agent(model=...)``.
Needs ``pip install "pytest-agenteval[pydantic-ai]"``.
"""

from __future__ import annotations

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
    """The episode's tools as pydantic-ai ``Tool`` objects (our JSON Schema, our validation).

    Each returns the observation, domain refusals included, as data the model can act on; the
    schema is passed as it is, and pydantic-ai checks only that the arguments are a JSON object,
    so it does not validate them a second time (ours apply). (``Tool.from_schema`` alone takes
    any JSON: arguments ``5`` raised a ``TypeError`` inside pydantic-ai and errored the episode.)
    """
    from dataclasses import replace

    from pydantic_ai import Tool
    from pydantic_core import SchemaValidator, core_schema

    an_object = SchemaValidator(core_schema.dict_schema(core_schema.str_schema(), core_schema.any_schema()))

    def make(name: str) -> Any:
        async def act(**arguments: Any) -> dict[str, Any]:
            return await episode.acall(name, arguments)  # type: ignore[no-any-return]

        return act

    made = [Tool.from_schema(make(t["name"]), name=t["name"], description=t["description"],
                             json_schema=t["parameters"]) for t in episode.tools]
    return [Tool(tool.function, name=tool.name, description=tool.description,
                 function_schema=replace(tool.function_schema, validator=an_object)) for tool in made]


class Agent:
    """A pydantic-ai agent with the episode's tools; one run per episode."""

    def __init__(self, model: Any = None, *, system_prompt: str = SYSTEM, retries: int = 3) -> None:
        require("pydantic_ai", "pydantic-ai")
        self.model = model if model is not None else model_setting("openai:gpt-4o-mini")
        self.system_prompt = system_prompt
        self.retries = retries

    async def run(self, episode: Any) -> None:
        from pydantic_ai import Agent as PydanticAgent
        from pydantic_ai import UsageLimits, capture_run_messages

        # Tool retries (pydantic-ai's answers to calls it cannot run: an unknown tool, arguments that
        # are not JSON) past the step budget: each such call is a step, so the budget ends a loop.
        agent = PydanticAgent(_Metered(self.model, episode), instructions=system_for(episode, self.system_prompt),
                              tools=tools(episode),
                              retries={"tools": max(self.retries, turn_limit(episode)), "output": self.retries})
        # Off unless the user asked (Agent.instrument_all() or logfire): nothing leaves the machine.
        with capture_run_messages() as messages:
            try:
                with ended_by_budget(episode):
                    await agent.run(episode.instruction, model_settings={"seed": episode.seed},
                                    usage_limits=UsageLimits(request_limit=turn_limit(episode)))
            finally:
                episode.attach_transcript(_dumped(messages))


def _dumped(messages: list[Any]) -> list[Any]:
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    try:
        return list(ModelMessagesTypeAdapter.dump_python(messages, mode="json"))
    except Exception:  # noqa: BLE001 - the transcript falls back to the generic conversion
        return list(messages)


def _metered_class() -> type:
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.wrapper import WrapperModel

    class Metered(WrapperModel):
        """Reports each model request's tokens, cost and latency, and makes on the episode the
        tool calls pydantic-ai will not run (``make_unrun_calls``)."""

        def __init__(self, wrapped: Any, episode: Any) -> None:
            super().__init__(wrapped)
            self.episode = episode
            self.tools = offered(episode)

        async def request(self, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            response = await super().request(*args, **kwargs)
            latency = time.perf_counter() - started
            name, tokens_in, tokens_out = response.model_name or self.model_name, \
                response.usage.input_tokens, response.usage.output_tokens
            self.episode.record_usage(model=name, input_tokens=tokens_in, output_tokens=tokens_out, latency=latency,
                                      cost=cost(name, tokens_in, tokens_out, provider=response.provider_name))
            calls = [(part.tool_name, as_sent(part.args or {})) for part in response.parts
                     if isinstance(part, ToolCallPart)]
            await make_unrun_calls(self.episode, [(name, arguments) for name, arguments in calls
                                                  if name not in self.tools or not isinstance(arguments, dict)])
            return response

    return Metered


def _Metered(model: Any, episode: Any) -> Any:  # noqa: N802 - reads as the class it builds
    return _metered_class()(model, episode)
