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
        while episode.steps_used < episode.max_steps:
            response = self.client.chat.completions.create(
                model=self.model, messages=messages, tools=tools, seed=episode.seed, temperature=0,
            )
            message = response.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            if not message.tool_calls:
                return  # the model says it is done
            for call in message.tool_calls:
                messages.append({"role": "tool", "tool_call_id": call.id,
                                 "content": json.dumps(self.act(episode, call.function.name, call.function.arguments))})

    @staticmethod
    def act(episode: Any, name: str, raw_arguments: str) -> dict[str, Any]:
        try:
            arguments = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return {"ok": False, "error": "invalid_json", "detail": f"the arguments are not JSON: {exc}"}
        return episode.call(name, arguments)  # type: ignore[no-any-return]
