"""What a text says of staff and holders other than by one id: named by name ("Senior 07",
"Holder 9999") they are the claim's, a claim type or specialism named is the claim's, and a member
of staff called the head of claims is so."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.domains.escalation.decisions import DECISIVE_MEANINGS
from pytest_agenteval.domains.escalation.kinds import kind_named
from pytest_agenteval.domains.escalation.schema import AGENT
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import NEGATED, Reading

NAMED_HINT = lazy(r"Senior|Handler|Holder|Head of Claims")
NAMED = lazy(r"\b(Senior|Handler|Holder|Head of Claims)(?: (\d+))?\b")


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


# A member of staff called the head of claims: "SNR-07 is the head of claims" (69th audit).
HEAD_SAID = lazy(r"\b(?P<id>(?:SNR|STF|HOC)-\d+)\s*,?\s+(?:is|was|as)\s+(?:the\s+|our\s+)?(?:head\s+of\s+claims|"
                 r"claims\s+director)\b", re.IGNORECASE)


def roles_told(ctx: GradeContext, reading: Reading) -> str | None:
    """A member of staff called the head of claims who is not."""
    for m in HEAD_SAID.finditer(reading.said) if "head of claims" in reading.said.lower() else ():
        row = ctx.row("staff", m.group("id").upper())
        if row is not None and row.get("role") != "head_of_claims" and not re.search(
                r"\b(?:not|never|if|whether)\b", reading.said[max(0, m.start() - 20):m.end()], re.IGNORECASE):
            return f"says {m.group(0)!r}, but {m.group('id').upper()} is a {row.get('role')}"
    return None

