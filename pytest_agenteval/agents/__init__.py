"""Agents: the episode protocol, the runner, and the built-in agents."""

from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.loading import load_agent
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.saboteurs import GENERIC, Call, NotApplicable, Plan, Sabotage

__all__ = ["GENERIC", "Call", "Episode", "NotApplicable", "Plan", "Sabotage", "load_agent", "run_episode"]
