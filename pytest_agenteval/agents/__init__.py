"""Agents: the episode protocol, the runner, and the built-in agents."""

from pytest_agenteval.agents.episode import Episode, run_episode
from pytest_agenteval.agents.loading import load_agent

__all__ = ["Episode", "load_agent", "run_episode"]
