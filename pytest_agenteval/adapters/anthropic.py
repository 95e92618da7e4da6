"""Anthropic SDK (Messages API): ``pytest --agent=pytest_agenteval.adapters.anthropic:Agent tasks/``.

Reads ``ANTHROPIC_API_KEY`` (and ``ANTHROPIC_BASE_URL``) as the SDK does; the model is
``AGENTEVAL_MODEL``. The loop: send the conversation with the episode's tools, run every
``tool_use`` block of the reply (parallel calls included), answer each with a ``tool_result``
in one user message, until the model stops asking for tools. A rate limit or server error is
retried with exponential backoff (``Retry``; ``AGENTEVAL_RETRIES``, default 3), then, like an
unreachable endpoint or a refused key, errors the episode (docs/errors.md). A domain refusal is an ordinary
``tool_result`` holding the observation (``{"ok": false, "error": …}``): the tool worked and
said no, which the model reads and acts on; ``is_error`` is left for a call that could not run.
Needs ``pip install "pytest-agenteval[anthropic]"``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from pytest_agenteval.adapters._common import SYSTEM, Retry, cost, model_setting, require, system_for, turn_limit

__all__ = ["Agent", "tool_results", "tools"]

DEFAULT_MODEL = "claude-sonnet-4-5"


def tools(episode: Any) -> list[dict[str, Any]]:
    """The episode's tools in the Messages API's format (``name``, ``description``, ``input_schema``)."""
    return episode.tools_for("anthropic")  # type: ignore[no-any-return]


def tool_results(episode: Any, content: list[Any]) -> list[dict[str, Any]]:
    """One ``tool_result`` block for each ``tool_use`` block of a reply, in order."""
    results = []
    for block in content:
        if getattr(block, "type", None) != "tool_use":
            continue
        arguments = block.input if isinstance(block.input, dict) else {}
        observation = episode.call(block.name, arguments)
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(observation)})
    return results


class Agent:
    """A tool-use loop on ``anthropic.Anthropic().messages.create``."""

    def __init__(self, model: str | None = None, *, client: Any = None, system: str = SYSTEM,
                 max_tokens: int = 1024, retry: Retry | None = None) -> None:
        require("anthropic", "anthropic")
        if client is None:
            from anthropic import Anthropic

            client = Anthropic(max_retries=0)  # ours (``retry``) are the only retries: bounded and told
        self.retry = retry or Retry.from_environment()
        self.client = client
        self.model = model or model_setting(DEFAULT_MODEL)
        self.system = system
        self.max_tokens = max_tokens

    def run(self, episode: Any) -> None:
        messages: list[dict[str, Any]] = [{"role": "user", "content": episode.instruction}]
        system = system_for(episode, self.system)
        try:
            for _ in range(turn_limit(episode)):
                started = time.perf_counter()
                reply = self.retry.call(lambda: self.client.messages.create(
                    model=self.model, max_tokens=self.max_tokens, system=system, messages=messages,
                    tools=tools(episode)))
                self._record(episode, reply, time.perf_counter() - started)
                messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True)
                                                                  for b in reply.content]})
                if reply.stop_reason != "tool_use":
                    return  # the model says it is done (or ran out of tokens)
                messages.append({"role": "user", "content": tool_results(episode, reply.content)})
        finally:
            episode.attach_transcript([{"role": "system", "content": system}, *messages])

    def _record(self, episode: Any, reply: Any, latency: float) -> None:
        usage = reply.usage
        # Cached prompt tokens are input tokens too (billed differently; genai-prices knows how).
        tokens_in = usage.input_tokens + (getattr(usage, "cache_read_input_tokens", None) or 0) \
            + (getattr(usage, "cache_creation_input_tokens", None) or 0)
        episode.record_usage(model=reply.model, input_tokens=tokens_in, output_tokens=usage.output_tokens,
                             cost=cost(reply.model, tokens_in, usage.output_tokens, provider="anthropic"),
                             latency=latency)
