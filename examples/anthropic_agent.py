"""An LLM agent: a complete tool-use loop on the official ``anthropic`` SDK (Messages API).

Configured the usual way (``ANTHROPIC_API_KEY``, optionally ``ANTHROPIC_BASE_URL``), with the
model from ``AGENTEVAL_MODEL``:

    ANTHROPIC_API_KEY=…  AGENTEVAL_MODEL=claude-sonnet-4-5 \\
        pytest --agent=examples.anthropic_agent:Agent tasks/ --runs 3 -n 4

Install the SDK with ``pip install -e ".[anthropic]"``. ``pytest_agenteval.adapters.anthropic``
is the same loop, ready to use; this file is the one to copy and change.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

SYSTEM = (
    "You are an operations agent working inside a business system. Use only the tools provided. "
    "Look things up before you change them, follow the policies the tools describe, and stop when "
    "the task is done. Tool results are JSON: {\"ok\": true, \"result\": …} or {\"ok\": false, \"error\": …}."
)


class Agent:
    def __init__(self) -> None:
        from anthropic import Anthropic  # optional dependency: imported only when this agent is used

        self.client = Anthropic()  # ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment
        self.model = os.environ.get("AGENTEVAL_MODEL", "claude-sonnet-4-5")

    def run(self, episode: Any) -> None:
        tools = episode.tools_for("anthropic")
        messages: list[dict[str, Any]] = [{"role": "user", "content": episode.instruction}]
        try:
            while episode.steps_used < episode.max_steps:
                started = time.perf_counter()
                reply = self.client.messages.create(model=self.model, max_tokens=1024, system=SYSTEM,
                                                    messages=messages, tools=tools)
                episode.record_usage(model=reply.model, input_tokens=reply.usage.input_tokens,
                                     output_tokens=reply.usage.output_tokens, latency=time.perf_counter() - started)
                messages.append({"role": "assistant",
                                 "content": [b.model_dump(exclude_none=True) for b in reply.content]})
                if reply.stop_reason != "tool_use":
                    return  # the model says it is done
                # Every tool_use block of the reply (the model may ask for several at once) gets its
                # tool_result, all in one user message. A refusal ({"ok": false, ...}) is a result too.
                messages.append({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": block.id,
                     "content": json.dumps(episode.call(block.name, block.input))}
                    for block in reply.content if block.type == "tool_use"]})
        finally:
            episode.attach_transcript(messages)  # kept in the grade, for reading a failed episode
