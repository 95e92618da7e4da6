"""The world an agent acts on: seeded SQLite scenarios, audited actions, diffs by trigger."""

from pytest_agenteval.engine.actions import ActionSpec, action
from pytest_agenteval.engine.world import World

__all__ = ["ActionSpec", "World", "action"]
