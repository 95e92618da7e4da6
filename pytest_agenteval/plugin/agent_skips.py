"""The built-in agents that play only some tasks and skip the rest: ``saboteur:<mode>`` (the
tasks tagged with its mode) and ``replay:FILE`` (the tasks it has calls for). Only these may: an
agent of the user's with an ``applies_to`` of its own would choose what it is judged on."""

from __future__ import annotations

from pytest_agenteval.agents.replaying import Replay
from pytest_agenteval.agents.saboteurs import Saboteur

SELECTIVE = (Saboteur, Replay)
