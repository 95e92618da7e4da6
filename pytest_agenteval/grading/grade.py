"""The grade object: one per episode, the JSON users read and tools consume."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from pytest_agenteval.grading.checks import Check

# A grade's checks are the checks themselves (a frozen dataclass pydantic validates and
# serialises as it is): no per-check model to build for every episode.
CheckResult = Check


class Grade(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str
    run: int
    environment: str
    scenario_seed: int
    passed: bool
    score: float
    components: dict[str, float]
    checks: list[Check]
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
    # and transcripts"); left out of the JSON when not reported.
    usage: dict[str, Any] | None = None
    transcript: list[Any] | None = None

    @model_serializer(mode="wrap")
    def _leave_out_unreported(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("usage", "transcript"):
            if data.get(key) is None:
                data.pop(key, None)
        return data

    def failed_checks(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]
