"""What a text says of staff besides their part in the claim: a title ("SNR-07, who is the head
of claims"), a deputy relation ("SNR-07 as deputy for SNR-08"), an absence told of someone
("SNR-08, who is on leave"), a senior's limit told as their title ("SNR-07 is the 150k travel
senior"). Split from ``people``, which judges the ids a text names against the claim."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.kinds import KIND_OF
from pytest_agenteval.domains.escalation.panel import ID
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import Reading

# "SNR-07, who is the head of claims", "the head of claims, SNR-07": a title given to someone.
TITLED = lazy(rf"(?P<id>{ID})\s*[,(]?\s*(?:who\s+is\s+|who's\s+)?(?:our\s+|the\s+)?"
              r"(?:head of (?:the )?claims|claims director)|(?:head of (?:the )?claims|claims director)"
              rf"\s*[,(]?\s*(?:is\s+)?(?P<id2>{ID})", re.IGNORECASE)
# "SNR-07 as deputy for SNR-08", "SNR-08's deputy SNR-07", "SNR-08's deputy is SNR-07", "SNR-07, deputising for SNR-08".
DEPUTY = lazy(rf"(?P<a>{ID})[^.;:]{{0,30}}?\b(?:deputy\s+(?:for|to|of)|deputi[sz]ing\s+for|covering\s+for)"
              rf"\s+(?:the\s+)?(?P<b>{ID})|(?P<b2>{ID})'s\s+(?:usual\s+|normal\s+|named\s+)?"
              rf"(?:deputy|stand-in|standin|backup|alternate|substitute)(?:,|:|\s+is|\s+being)?\s+(?P<a2>{ID})",
              re.IGNORECASE)
# "SNR-03 is away, so it goes to their deputy SNR-01", "SNR-03 absent; escalated to deputy SNR-02":
# a deputy named after an absence is the absent one's (the id nearest before it: 72nd audit).
DEPUTY_OF_ABSENT = lazy(rf"(?P<b>{ID})(?:(?!{ID})[^.]){{0,40}}?\b(?:absent|away|on leave|unavailable|off sick|"
                        rf"out of office)\b[^.]{{0,60}}?\bdeputy,?\s+(?:is\s+)?(?P<a>{ID})", re.IGNORECASE)
# "SNR-08, who is on leave": an absence told in a relative clause, of the id before it.
AWAY = lazy(rf"(?P<id>{ID}),?\s+who\s+(?:is|was|are)\s+(?:currently\s+|now\s+|still\s+)?(?:on leave|"
            r"absent|away|unavailable|off sick|out of (?:the )?office|not in|not (?:available|present|around))\b",
            re.IGNORECASE)


# "SNR-01 is out, and their deputy would be SNR-03": "their" is the staff member named just before.
THEIR_DEPUTY = lazy(rf"(?P<b>{ID})(?:(?!{ID})[^.;]){{0,40}}?\btheir\s+(?:usual\s+|normal\s+|named\s+)?deputy"
                    rf"(?:\s+(?:is|was|would\s+be|being))?,?\s+(?P<a>{ID})", re.IGNORECASE)
# "SNR-01 is absent and SNR-03 is their deputy", "… and you are their deputy" (*you* the reviewer).
IS_THEIR_DEPUTY = lazy(rf"(?P<b>{ID})(?:(?!{ID})[^.;]){{0,60}}?\b(?P<a>{ID})\s+(?:(?:is|are|was|were)\s+"
                       r"(?:their|his|her|the)\s+(?:usual\s+|normal\s+|named\s+)?deputy\b|deputi[sz]es\s+for\s+"
                       rf"(?:them|him|her)\b)|(?P<a2>{ID})\s+(?:is|was)\s+(?P<b2>{ID})'s\s+(?:usual\s+|named\s+)?deputy\b|"
                       rf"(?P<a3>{ID})\s+covers\s+for\s+(?P<b3>{ID})\s+as\s+(?:their\s+)?deputy\b", re.IGNORECASE)
# "to SNR-04 as SNR-05's deputy" (47th audit)
AS_DEPUTY = lazy(rf"(?P<a>{ID}),?\s+(?:as|being)\s+(?:the\s+)?(?P<b>{ID})'s\s+(?:usual\s+|named\s+)?"
                 r"(?:deputy|stand-in|standin|backup|alternate|substitute)\b", re.IGNORECASE)
# "SNR-10 is absent and so is SNR-11", "…, as is SNR-11": a second absence told by reference.
AWAY_TOO = lazy(r"\b(?:absent|away|on leave|off sick|unavailable|out of (?:the )?office|out|off)\b,?\s+"
                rf"(?:and\s+so\s+(?:is|was)|as\s+(?:is|was))\s+(?:(?:its|their|his|her|the)\s+deputy,?\s+)?(?P<id>{ID})",
                re.IGNORECASE)
YOU = lazy(r"\byou\b(?!r)", re.IGNORECASE)
# "SNR-07 is the 150k travel senior", "SNR-07, our £50,000 motor senior": a limit told as a title.
RANKED = lazy(rf"(?P<id>{ID})(?:,|\s+is)\s+(?:the|our|a|an)\s+(?P<figure>[£$€]?\d[\d,]*(?:\.\d+)?\s?(?:k|m)?)"
              r"(?:\s+\w+)?\s+(?:senior|reviewer|approver)\b", re.IGNORECASE)


def _ranked(ctx: GradeContext, reading: Reading) -> str | None:
    for m in RANKED.finditer(reading.said) if "senior" in reading.word_set or "reviewer" in reading.word_set else ():
        ident = m.group("id").upper()
        limit = (ctx.row("staff", ident) or {}).get("approval_limit")
        text = m.group("figure").replace(" ", "")
        figure = next((q.value for q in reading.quantities if q.text.replace(" ", "") == text
                       and isinstance(q.value, float)), None)
        if limit is not None and isinstance(figure, float) and abs(figure - float(limit)) > 0.5:
            return f"calls {ident} the {m.group('figure')} senior; their approval limit is {float(limit):g}"
    return None


RELATION_HINTS = ("head of", "director", "deput", "covering", "who", "senior", "stand", "backup", "alternate",
                  "substitute")
# "HOC-1, the property senior", "SNR-07 (our motor senior)", "SNR-07, a senior reviewer"
SENIOR_TITLED = lazy(rf"(?P<id>{ID})\s*[,(]\s*(?:who\s+is\s+)?(?:the|our|a|your)\s+(?:(?P<kind>[a-z]+)\s+)?"
                     r"senior\b", re.IGNORECASE)


# "SNR-01 (motor, 150,000)", "SNR-02 (500,000, present)": a staff member described in brackets; the
# one figure among their descriptors is their limit (74th audit).
DESCRIBED = lazy(rf"(?P<id>{ID})\s*\((?P<items>[^()\n]{{1,80}})\)", re.IGNORECASE)
FIGURE_ITEM = lazy(r"[£$€]?\s?\d[\d,]*(?:\.\d+)?\s?[km]?")
DESCRIPTORS = frozenset(KIND_OF) | {"present", "absent", "available", "away", "senior", "reviewer", "deputy", "limit",
                                    "approval", "on", "leave", "in", "office", "lowest", "highest", "covering"}


def _described_limit(ctx: GradeContext, reading: Reading, claim_figures: set[float]) -> str | None:
    """(A figure of the claim's in the brackets is the claim's: "to SNR-04 (travel, 30,000)".)"""
    for m in DESCRIBED.finditer(reading.said) if "(" in reading.said else ():
        row = ctx.row("staff", m.group("id").upper())
        items = [i.strip() for i in re.split(r",\s+|;\s*", m.group("items")) if i.strip()]
        figures = [i for i in items if FIGURE_ITEM.fullmatch(i)]
        rest = [i for i in items if i not in figures]
        if row is None or row.get("approval_limit") is None or len(figures) != 1 or not rest or not all(
                set(i.lower().split()) <= DESCRIPTORS for i in rest):
            continue
        said = next((q.value for q in reading.quantities if q.text.replace(" ", "") == figures[0].replace(" ", "")
                     and isinstance(q.value, float)), None)
        if said is not None and abs(said - float(row["approval_limit"])) > 0.5 and not any(
                abs(said - v) <= 0.5 for v in claim_figures):
            return f"gives {figures[0]} as {m.group('id').upper()}'s limit; it is {float(row['approval_limit']):g}"
    return None


# "SNR-08 (travel, 150,000, present) is the lowest covering senior", "Routing to SNR-02, the lowest-limit
# liability senior present": a senior told as the lowest whose limit covers the claim (74th, 76th audits).
# (the id the subject or in apposition: not "SNR-04 only goes to 50,000, so the lowest … is SNR-05")
# Also "SNR-04 is present and the lowest covering", "SNR-11 has the lowest covering limit", "SNR-08 is
# the present property senior with the lowest limit that covers it", and the
# other way round: "the present senior with the lowest covering limit is SNR-05" (74th, 76th audits).
_COVERING = r"(?:covering|that\s+covers|to\s+cover|senior|reviewer|one)\b"
_LOWEST_WORDS = r"lowest\b(?:[- ]limit)?(?:\s+[a-z]+){0,3}?\s+"
LOWEST = lazy(rf"(?P<id>{ID})\s*(?:\([^()]{{0,60}}\))?\s*(?:,\s*|\s+(?:is|was|as|being)\s+"
              r"(?:(?:present|available|in)\s+(?:and|with)\s+)?"
              r"(?:(?:the|our)\s+(?:[a-z]+\s+){0,3}?(?:senior|reviewer|one)\s+with\s+)?"
              rf"|\s+(?:has|holds|carries)\s+)(?:the\s+|our\s+)?{_LOWEST_WORDS}{_COVERING}"
              rf"|\b{_LOWEST_WORDS}(?:{_COVERING}|limit\b)[^.;:]{{0,30}}?(?:\s(?:is|was)\s+|,\s*|:\s*)(?P<id2>{ID})",
              re.IGNORECASE)


_NOT_SAID_OF = lazy(r"\b(?:deput\w*|instead|absent|away|leave|of\s+the|for\s+the|than|not|isn't|wasn't)\b",
                    re.IGNORECASE)


def lowest_told(ctx: GradeContext, specialism: object, assessed: float, reading: Reading) -> str | None:
    """A senior told as the lowest whose limit covers the claim is that one (among all the seniors of
    its specialism, or among those present: either reading of "lowest covering")."""
    if "lowest" not in reading.word_set:
        return None
    seniors = ctx.env.db.execute("SELECT id, approval_limit, status FROM staff WHERE role = 'senior' AND "
                                 "specialism = ?", (specialism,)).fetchall()
    covering = [(float(limit), ident, status) for ident, limit, status in seniors if float(limit) >= assessed]
    lowest = {min(covering)[1]} if covering else set()
    present = [c for c in covering if c[2] == "present"]
    lowest |= {min(present)[1]} if present else set()
    for m in LOWEST.finditer(reading.said):
        ident = (m.group("id") or m.group("id2")).upper()
        if _NOT_SAID_OF.search(m.group(0)):
            continue  # "SNR-12, deputy of the lowest covering senior": said of another
        if ident in {i for i, _, _ in seniors} and lowest and ident not in lowest:
            return f"calls {ident} the lowest senior limit covering the claim, but that is {', '.join(sorted(lowest))}"
    return None


def relations(ctx: GradeContext, reading: Reading, addressee: str | None = None,
              claim_figures: set[float] | None = None) -> str | None:
    """What a text says of staff is true: a title ("SNR-07, who is the head of claims"), a deputy
    relation ("SNR-07 as deputy for SNR-08"; in an escalation's reason, *you* is its reviewer:
    "sending to you as deputy for SNR-11"), an absence told of someone ("SNR-08, who is on leave",
    "SNR-10 is absent and so is SNR-11"), a senior's limit told as their title ("SNR-07 is the
    150k travel senior")."""
    lowered = reading.said.lower()
    if (ranked := _ranked(ctx, reading) or _described_limit(ctx, reading, claim_figures or set())) is not None:
        return ranked
    for m in AWAY_TOO.finditer(reading.said) if " is " in lowered or " was " in lowered else ():
        ident = m.group("id").upper()
        if (row := ctx.row("staff", ident)) is not None and row.get("status") != "absent":
            return f"says {ident} is absent, but they are present"
    if not any(hint in lowered for hint in RELATION_HINTS):
        return None
    said = YOU.sub(addressee, reading.said) if addressee and "you" in lowered else reading.said
    for m in TITLED.finditer(reading.said):
        ident = (m.group("id") or m.group("id2")).upper()
        row = ctx.row("staff", ident)
        if row is not None and row.get("role") != "head_of_claims":
            return f"calls {ident} the head of claims, but they are a {row.get('role')}"
    for m in SENIOR_TITLED.finditer(reading.said):  # "HOC-1, the property senior"
        ident, specialism = m.group("id").upper(), (m.group("kind") or "").lower()
        if specialism in ("most", "more", "very", "quite", "next"):  # "HOC-1, the most senior of us"
            continue
        row = ctx.row("staff", ident)
        if row is not None and row.get("role") != "senior":
            return f"calls {ident} a senior, but they are the {str(row.get('role')).replace('_', ' ')}"
        if row is not None and specialism in KIND_OF and KIND_OF[specialism] != row.get("specialism"):
            return f"calls {ident} the {specialism} senior, but their specialism is {row.get('specialism')}"
    for m in (*DEPUTY.finditer(said), *DEPUTY_OF_ABSENT.finditer(reading.said), *THEIR_DEPUTY.finditer(said),
              *IS_THEIR_DEPUTY.finditer(said), *AS_DEPUTY.finditer(said)):
        groups = m.groupdict()
        deputy = next(groups[k] for k in ("a", "a2", "a3") if groups.get(k)).upper()
        of = next(groups[k] for k in ("b", "b2", "b3") if groups.get(k)).upper()
        row = ctx.row("staff", of)
        if row is not None and ctx.row("staff", deputy) is not None and row.get("deputy_id") != deputy:
            return f"calls {deputy} the deputy of {of}, whose deputy is {row.get('deputy_id') or 'nobody'}"
    for m in AWAY.finditer(reading.said):
        ident = m.group("id").upper()
        row = ctx.row("staff", ident)
        if row is not None and row.get("status") != "absent":
            return f"says {ident} is absent, but they are present"
    return None
