"""Agents from the frameworks people use, each a one-line ``--agent``.

    pytest --agent=pytest_agenteval.adapters.pydantic_ai:Agent tasks/      # AGENTEVAL_MODEL=openai:gpt-4o-mini
    pytest --agent=pytest_agenteval.adapters.openai_agents:Agent tasks/    # AGENTEVAL_MODEL=gpt-4o-mini
    pytest --agent=pytest_agenteval.adapters.langgraph:Agent tasks/        # AGENTEVAL_MODEL=openai:gpt-4o-mini
    pytest --agent=pytest_agenteval.adapters.anthropic:Agent tasks/        # AGENTEVAL_MODEL=claude-…

Each module imports its framework only when used (``pip install "pytest-agenteval[pydantic-ai]"``
and so on), takes its model from ``AGENTEVAL_MODEL`` (or ``Agent(model=...)``), derives its
turn limit from ``episode.max_steps`` so the step budget, not the framework, ends a looping
agent, keeps tracing and telemetry off unless asked, and reports usage and the transcript to
the episode. Each also offers ``tools(episode)``: the episode's tools as that framework's tool
objects, for users who build their own agent.
"""

from pytest_agenteval.adapters._common import (
    Retry,
    cost,
    ended_by_budget,
    model_setting,
    require,
    system_for,
    turn_limit,
)

# What every adapter does the same way, for adapters of your own (docs/llm-agents.md, "Add a
# framework adapter").
__all__ = ["Retry", "cost", "ended_by_budget", "model_setting", "require", "system_for", "turn_limit"]
