"""Staff and policyholders named by name ("Senior 07", "Holder 9999"), not by id: the claim's own,
and a claim type or specialism named the claim's."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.domains.escalation.decisions import DECISIVE_MEANINGS
from pytest_agenteval.domains.escalation.kinds import kind_named
from pytest_agenteval.domains.escalation.schema import AGENT
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.text import NEGATED, Reading

NAMED_HINT = re.compile(r"Senior|Handler|Holder|Head of Claims")
NAMED = re.compile(r"\b(Senior|Handler|Holder|Head of Claims)(?: (\d+))?\b")
def names(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Staff and policyholders named by name are the claim's ("Escalated to Senior 03" when it went
    to Senior 07; "Dear Holder 9999"), and a claim type or specialism named is the claim's ("your
    travel claim", "the motor senior" on a property claim)."""
    targets = {r["to_staff"] for r in c.escalations}
    acts = any(reading.polarities(m) - {NEGATED} for m in ("escalated", *DECISIVE_MEANINGS))
    aside = any(reading.polarities(m) for m in ("absence", "limit"))
    for m in NAMED.finditer(reading.said) if NAMED_HINT.search(reading.said) else ():
        name = m.group(0)
        if m.group(1) == "Holder":
            holder = (ctx.row("policy", c.claim.get("policy_id")) or {}).get("holder")
            if m.group(2) and name != holder:
                return f"names {name}, but the policyholder is {holder}"
            continue
        if not m.group(2):
            continue
        row = ctx.env.db.execute("SELECT id FROM staff WHERE name = ?", (name,)).fetchone()
        if row is None:
            return f"names {name}, who is no member of staff"
        if row[0] not in targets and row[0] != AGENT and acts and not aside:
            return f"names {name} ({row[0]}), but the claim went to {', '.join(sorted(targets)) or 'nobody'}"
    return kind_named(c, reading)
