"""Environments: the base class domains subclass, their registry, and project discovery."""

from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.registry import EnvironmentPool, register_environment

__all__ = ["Environment", "EnvironmentPool", "register_environment"]
