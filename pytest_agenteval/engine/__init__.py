"""The world an agent acts on: seeded SQLite scenarios, audited actions, diffs by trigger."""

from pytest_agenteval.engine.actions import ActionSpec, FreeText, action
from pytest_agenteval.engine.audit import AuditEvent
from pytest_agenteval.engine.conformance import check_environment, environment_warnings
from pytest_agenteval.engine.conversation import CONFIRMED
from pytest_agenteval.engine.world import World

__all__ = ["CONFIRMED", "ActionSpec", "AuditEvent", "FreeText", "World", "action", "check_environment",
           "environment_warnings"]
