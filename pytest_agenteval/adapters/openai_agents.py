"""OpenAI Agents SDK: ``pytest --agent=pytest_agenteval.adapters.openai_agents:Agent tasks/``.

The model is ``AGENTEVAL_MODEL`` (``gpt-4o-mini``; the SDK's ``litellm/…`` prefixes work when
installed), or any SDK ``Model`` given as ``Agent(model=...)``. ``max_turns`` follows the step
budget (the SDK's default of 10 is below most budgets), and traces are not uploaded unless
``AGENTEVAL_TRACING=1``. Needs ``pip install "pytest-agenteval[openai-agents]"``.
"""

from __future__ import annotations

import json
import os
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
    """The episode's tools as ``FunctionTool`` objects in strict mode (the SDK's recommendation).

    Strict mode makes optional arguments nullable; ``episode.call`` reads those nulls as "not
    given", and limits strict mode cannot express are in the descriptions. Domain refusals come
    back as the observation (data the model can act on), arguments that are not JSON too (the
    engine refuses them, as a step); the step budget's end raises.
    """
    from agents import FunctionTool

    def make(name: str) -> Any:
        async def invoke(context: Any, raw_arguments: str) -> str:
            return json.dumps(await episode.acall(name, as_sent(raw_arguments)))

        return invoke

    return [FunctionTool(name=t["name"], description=t["description"], params_json_schema=t["parameters"],
                         on_invoke_tool=make(t["name"]), strict_json_schema=True)
            for t in episode.tools_for("openai-responses")]


class Agent:
    """An Agents SDK agent with the episode's tools; one ``Runner.run`` per episode."""

    def __init__(self, model: Any = None, *, instructions: str = SYSTEM) -> None:
        require("agents", "openai-agents")
        self.model = model if model is not None else model_setting("gpt-4o-mini")
        self.instructions = instructions

    async def run(self, episode: Any) -> None:
        from agents import Agent as SdkAgent
        from agents import ModelSettings, RunConfig, Runner

        agent = SdkAgent(name="agenteval", instructions=system_for(episode, self.instructions), tools=tools(episode),
                         model=self.model, model_settings=ModelSettings(temperature=0))
        hooks = _hooks(episode, self.model)
        # A call of a tool the agent was not given is answered to the model, not raised: the
        # hooks make it on the episode, which refuses and records it (a forbidden action).
        config = RunConfig(tracing_disabled=os.environ.get("AGENTEVAL_TRACING") != "1",
                           trace_include_sensitive_data=False, tool_not_found_behavior="return_error_to_model")
        try:
            with ended_by_budget(episode):
                await Runner.run(agent, episode.instruction, max_turns=turn_limit(episode), hooks=hooks,
                                 run_config=config)
        finally:
            episode.attach_transcript(hooks.transcript)


def _hooks(episode: Any, model: Any) -> Any:
    from agents import RunHooks

    class Hooks(RunHooks):
        """Each model call's tokens and latency, the conversation as the model last saw it, and
        the calls of tools the agent was not given, made on the episode (``make_unrun_calls``)."""

        def __init__(self) -> None:
            self.started = 0.0
            self.transcript: list[Any] = []
            self.tools = offered(episode)

        async def on_llm_start(self, context: Any, agent: Any, system_prompt: Any, input_items: Any) -> None:
            self.started = time.perf_counter()
            self.transcript = [{"role": "system", "content": system_prompt}, *input_items]

        async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
            name = model if isinstance(model, str) else str(getattr(model, "model", type(model).__name__))
            tokens_in, tokens_out = response.usage.input_tokens, response.usage.output_tokens
            episode.record_usage(model=name, input_tokens=tokens_in, output_tokens=tokens_out,
                                 cost=cost(name, tokens_in, tokens_out), latency=time.perf_counter() - self.started)
            self.transcript = [*self.transcript, *response.output]
            await make_unrun_calls(episode, [(item.name, as_sent(item.arguments)) for item in response.output
                                             if getattr(item, "type", None) == "function_call"
                                             and item.name not in self.tools])

    return Hooks()
