"""The environment engine: seeded SQLite scenarios, audited actions, diffs by trigger."""

from pytest_agenteval.engine.actions import ActionSpec, action
from pytest_agenteval.engine.environment import Environment

__all__ = ["ActionSpec", "Environment", "action"]
