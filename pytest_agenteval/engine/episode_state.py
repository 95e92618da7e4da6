"""What the engine remembers about a running episode (plain Python, reset each time), and the
types of a conversation with the task's simulated user."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict  # pydantic needs it for a schema on Python < 3.12

from pytest_agenteval.engine.conversation import Reply, SimulatedUser

if TYPE_CHECKING:
    from pytest_agenteval.tasks.model import Task


class UserReplied(TypedDict):
    reply: str  # what the user said
    conversation_over: bool  # the user has left: later messages get no answer


Message = Annotated[str, Field(min_length=1, max_length=8000, description="what you say to the user",
                               json_schema_extra={"x-free-text": True})]


@dataclass(kw_only=True)
class EpisodeState:
    """What the engine remembers about the running episode (plain Python, reset each time)."""

    task: Task | None
    seed: int
    max_steps: int
    allowed: frozenset[str] | None
    steps: int = 0
    ticks: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    forbidden: list[str] = field(default_factory=list)
    over_budget: bool = False
    sequences: Counter[str] = field(default_factory=Counter)
    # Set when an action or a scripted counterparty raised: the environment's bug, not the agent's.
    crash: str | None = None
    # Set when the episode is over: calls made on its behalf (``apply(..., episode=this)``)
    # are refused from then on, as they are once a reset has started another episode.
    ended: bool = False
    # The task's simulated user, if it has one, and what was said: (step, agent message, reply).
    user: SimulatedUser | None = None
    conversation: list[Turn] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One exchange with the simulated user: the agent's message at ``step`` and the reply."""

    step: int
    message: str
    reply: Reply

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "agent": self.message, "user": self.reply.text, "kind": self.reply.kind}
