"""The claim a text is judged against, as the rubric gives it, and the staff it may name."""

from __future__ import annotations

from typing import Any, Protocol

from pytest_agenteval.domains.escalation.schema import AGENT
from pytest_agenteval.engine import AuditEvent
from pytest_agenteval.grading import GradeContext


class Case(Protocol):
    """What the texts are judged against (the rubric's ``Case``: one judged claim)."""

    id: str
    claim: dict[str, Any]
    escalations: list[dict[str, Any]]
    writes: list[AuditEvent]
    answers: list[AuditEvent]
    looked: list[int]
    misrouted: set[str]
    lapsed: bool
    paid: float
    limit: float

    @property
    def assessed(self) -> float: ...


EPS = 0.005  # money is equal within half a penny

_REVIEWERS = ("SELECT id, approval_limit FROM staff WHERE (role = 'senior' AND specialism = ?) "
              "OR role = 'head_of_claims' OR id = ?")


def reviewers(ctx: GradeContext, c: Case) -> dict[str, float]:
    """Staff a text may name without saying the claim went to them, with their limits: the
    seniors of its specialism and the head of claims (``find_reviewers``: an absent one and
    their deputy), and you. Indexed, and read once per claim while grading."""
    key = ("reviewers", c.id)
    found = ctx.memo.get(key)
    if found is None:
        rows = ctx.env.db.execute(_REVIEWERS, (c.claim.get("claim_type"), AGENT))
        found = ctx.memo[key] = {r[0]: r[1] for r in rows}
    return found
