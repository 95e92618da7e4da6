"""An LLM agent: a complete tool-calling loop on the official ``openai`` SDK.

Configured the usual way, so it works with OpenAI and with local OpenAI-compatible servers
(vLLM, llama.cpp, Ollama, LM Studio…):

    OPENAI_API_KEY=…  OPENAI_BASE_URL=http://localhost:8000/v1  AGENTEVAL_MODEL=my-model \\
        pytest --agent=examples.openai_agent:Agent tasks/ --runs 3 -n 4

Install the SDK with ``pip install -e ".[llm]"``.
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
        from openai import OpenAI  # optional dependency: imported only when this agent is used

        self.client = OpenAI()  # OPENAI_API_KEY, OPENAI_BASE_URL from the environment
        self.model = os.environ.get("AGENTEVAL_MODEL", "gpt-4o-mini")

    def run(self, episode: Any) -> None:
        tools = episode.tools_for("openai")
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": episode.instruction},
        ]
        try:
            while episode.steps_used < episode.max_steps:
                started = time.perf_counter()
                response = self.client.chat.completions.create(
                    model=self.model, messages=messages, tools=tools, seed=episode.seed, temperature=0,
                )
                if response.usage is not None:  # tokens and latency reach the grade and the table
                    episode.record_usage(model=response.model, input_tokens=response.usage.prompt_tokens,
                                         output_tokens=response.usage.completion_tokens,
                                         latency=time.perf_counter() - started)
                message = response.choices[0].message
                messages.append(message.model_dump(exclude_none=True))
                if not message.tool_calls:
                    return  # the model says it is done
                for call in message.tool_calls:
                    observation = self.act(episode, call.function.name, call.function.arguments)
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(observation)})
        finally:
            episode.attach_transcript(messages)  # kept in the grade, for reading a failed episode

    @staticmethod
    def act(episode: Any, name: str, raw_arguments: str) -> dict[str, Any]:
        try:
            arguments = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return {"ok": False, "error": "invalid_json", "detail": f"the arguments are not JSON: {exc}"}
        return episode.call(name, arguments)  # type: ignore[no-any-return]
