"""Claims case escalation: approval limits, senior reviewers with scripted responses."""

from pytest_agenteval.domains.escalation.environment import EscalationEnvironment

__all__ = ["EscalationEnvironment"]
