"""Staff listed with their facts, as an agent reports the panel it looked up: "SNR-07 (50k,
present), SNR-08 (150k, present)". A figure in brackets right after a member of staff's id is
their approval limit, a presence word beside it their status. Such a list names no one the claim
went to (``people.records`` lets it be), and what it says of each person is checked here."""

from __future__ import annotations

from pytest_agenteval.domains.escalation.schema import AGENT
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.text import Reading

PRESENT = frozenset({"present", "available", "in", "here", "working", "on", "duty"})
ABSENT = frozenset({"absent", "away", "unavailable", "leave", "off", "out", "sick", "holiday"})
# What may stand beside the figure in its brackets: "(limit 50k)", "(authority: £50,000)".
LABELS = frozenset({"", "limit", "lim", "approval", "authority", "auth", "mandate", "up", "to"})


def listed(ctx: GradeContext, reading: Reading) -> dict[str, tuple[float, str | None]]:
    """Each member of staff a text lists with a bracketed figure: their id -> (the figure, the
    status said beside it: "present", "absent" or None)."""
    found: dict[str, tuple[float, str | None]] = {}
    words = reading.words
    for ident, k, at in reading.id_at:
        if any(words[k][at + 1:]) or k + 1 >= len(words) or ident == AGENT or ctx.row("staff", ident) is None:
            continue
        if reading.sentence_of[k + 1] != reading.sentence_of[k] or not set(words[k + 1]) <= LABELS:
            continue  # "escalated to SNR-07 (18k over my limit)": the bracket is not about them
        figure = next((q.value for q in reading.quantities if q.clause == k + 1 and q.kind == "money"
                       and isinstance(q.value, float)), None)
        if not isinstance(figure, float):
            continue
        said = set(words[k + 2]) if k + 2 < len(words) and reading.sentence_of[k + 2] == reading.sentence_of[k] and (
            not any(c == k + 2 for _, c, _ in reading.id_at)) else set()
        found[ident] = (figure, "absent" if said & ABSENT else "present" if said & PRESENT else None)
    return found


def panel(ctx: GradeContext, reading: Reading) -> str | None:
    """What a list of staff says of each is true: their limit, and whether they are present."""
    for ident, (figure, status) in listed(ctx, reading).items():
        row = ctx.row("staff", ident) or {}
        limit = row.get("approval_limit")
        if limit is not None and abs(figure - float(limit)) > 0.5:
            return f"lists {ident} with {figure:g}; their approval limit is {float(limit):g}"
        if status is not None and status != ("absent" if row.get("status") == "absent" else "present"):
            return f"lists {ident} as {status}, but they are {row.get('status')}"
    return None
