"""The grade object: one per episode, the JSON users read and tools consume."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from pytest_agenteval.grading.checks import Check


def _unreported(value: Any) -> bool:
    return value is None


class Grade(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str
    run: int
    environment: str
    scenario_seed: int
    passed: bool
    score: float
    components: dict[str, float]
    checks: list[Check]  # the checks themselves: pydantic serialises the frozen dataclass as it is
    failure_modes: list[str]
    failure_mode_tags: list[str]
    split: str
    forbidden_actions_taken: list[str]
    steps_used: int
    final_state_diff: dict[str, Any]
    audit_digest: str
    # The agent's calls in order ({"action", "arguments"}), so an episode can be replayed.
    actions: list[dict[str, Any]] = []
    # What the agent reported through episode.record_usage / attach_transcript (README, "Usage
    # and transcripts"); left out of the JSON when not reported, so such grades dump as before.
    usage: dict[str, Any] | None = Field(default=None, exclude_if=_unreported)
    transcript: list[Any] | None = Field(default=None, exclude_if=_unreported)
    # With a simulated user (docs/conversations.md): each exchange, {"step", "agent", "user", "kind"}.
    conversation: list[dict[str, Any]] | None = Field(default=None, exclude_if=_unreported)
    # The task's ``judged`` checks left out because no judge was configured (docs/judge.md):
    # the score is over the deterministic checks alone. Absent when there were none to skip.
    not_judged: list[str] | None = Field(default=None, exclude_if=_unreported)
    # Set when the episode is *errored* (docs/errors.md): the agent could not play it, for a
    # reason outside its behaviour (the provider failed, the agent's code raised).
    # ``{"kind", "message", "traceback"}``; left out of the JSON otherwise. Reports count such
    # episodes apart and in no pass rate: a results line is errored iff ``error`` is an object.
    error: dict[str, str] | None = Field(default=None, exclude_if=_unreported)
    # The agent's exception itself, in the process that played the episode: never serialised.
    _exception: BaseException | None = PrivateAttr(default=None)

    def failed_checks(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]
