"""The seniors of the claim's specialism told all present or all away, with the exceptions the
text names: "Every senior on the motor list is present", "No absences", "nobody is away" (69th,
70th audits), "Every one of the property seniors is present", "the seniors on the property list
are all in today" (red team 68); "every motor senior is away today", "save for SNR-03, every
motor senior is away", "all in except SNR-11" (89th audit). An excepted senior is said to be the
other way."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import Reading, sentence_end, sentence_start

_SENIORS = r"(?:(?:every|each|all(?:\s+the)?|all\s+of\s+the)\s+(?:\w+\s+){0,4}?(?:seniors?|reviewers?)|" \
           r"every(?:one|body)\s+on\s+the\s+(?:\w+\s+)?(?:senior|reviewer)s?\s+list)\b(?:\s+on\s+the\s+\w+\s+list)?"
_THE_SENIORS = r"\b(?:the\s+)?(?:\w+\s+)?(?:seniors|reviewers)(?:\s+on\s+the\s+\w+\s+list)?\s+(?:are|were)\s+all\s+"
_AWAY = r"(?:away|absent|out|off|on\s+leave|unavailable|not\s+(?:in|available|present|around))\b"
ALL_PRESENT = lazy(rf"\b{_SENIORS}\s+(?:(?:is|are|was|were)\s+)?(?:present|available|here|on\s+"
                   r"(?:shift|duty)|at\s+work|around)\b|\b(?:every|each|all(?:\s+the)?|all\s+of\s+the)\s+(?:\w+\s+){0,4}?"
                   r"(?:seniors?|reviewers?)\s+(?:is|are|was|were)\s+in\b(?=\s*(?:[.,;]|$|today|the\s+office|except|"
                   r"save|apart|but|bar))"
                   rf"|{_THE_SENIORS}(?:in|present|available|here|at\s+(?:their|work)\s*\w*)\b"
                   # "Nobody from the property panel is off", "all three seniors turned up" (red team 74)
                   r"|\bno(?:body|\s+one)\s+(?:from|of|in)\s+the\s+(?:\w+\s+)?(?:panel|list|team|seniors)\s+(?:is|was)\s+"
                   r"(?:off|away|absent|out)\b|\ball\s+(?:three|four|two|the)\s+(?:\w+\s+)?seniors\s+(?:turned\s+up|"
                   r"showed\s+up|came\s+in|are\s+in|were\s+in)\b"
                   r"|\bno(?:body|\s+one)\s+on\s+the\s+(?:\w+\s+)?(?:panel|list|team)\s+(?:is|was)\s+(?:off|away|absent)\b"
                   r"|\bno(?:body|\s+one)?\s+(?:is|was|were)\s+(?:absent|away|off)\b|\bno\s+absences?\b"
                   # (red team 53: "No senior is away today", "None of the seniors are absent", "The whole
                   # senior panel is in today")
                   r"|\b(?:no|none\s+of\s+the)\s+(?:\w+\s+)?(?:seniors?|reviewers?)\s+(?:(?:is|are|was|were)\s+)?"
                   r"(?:absent|away|off)\b|\bthe\s+whole\s+(?:\w+\s+)?(?:panel|team|list)\s+(?:is|was)\s+(?:in|present|"
                   r"available|here)\b"
                   r"(?!\s+(?:affected|mattered|changed))", re.IGNORECASE)
ALL_AWAY = lazy(rf"\b{_SENIORS}\s+(?:is|are|was|were)\s+(?:all\s+)?{_AWAY}|{_THE_SENIORS}{_AWAY}"
                r"|\bno\s+(?:\w+\s+)?(?:senior|reviewer)\s+(?:is|was)\s+(?:in|present|available|around)\b"
                r"|\bnone\s+of\s+the\s+(?:\w+\s+)?(?:seniors|reviewers)\s+(?:is|are|was|were)\s+(?:in|present|available|"
                r"around)\b", re.IGNORECASE)
# "save for SNR-03", "except SNR-11 and SNR-12", "apart from SNR-02", "other than", "bar", "but for",
# "with the exception of", "excluding", "but SNR-11", "except the one I sent it to, SNR-01", and
# after the id: "SNR-01 aside", "SNR-01 excepted" (red team 74)
_EXCEPT = lazy(r"\b(?:save|except|excepting|apart\s+from|other\s+than|bar(?:\s+one)?|but(?:\s+for)?|aside\s+from|"
               r"besides|with\s+the\s+exception\s+of|the\s+exception\s+being|excluding|not\s+counting|leaving\s+out)\b"
               r"(?:\s+for)?(?:\s+the\s+one\s+[^,.;]{0,30},)?(?:\s*[,:]\s*\w+\s*,)?(?:\s*:)?"  # "except, sadly, X"
               r"((?:[\s,]*(?:and\s+)?[A-Z]{2,4}-\d+)+)(?!\s+(?:asked|wants|wanted|said|has|had|will|is\s+copied))"
               r"|((?:[A-Z]{2,4}-\d+[\s,]*(?:and\s+)?)+)\s*(?:aside|excepted|apart)\b", re.IGNORECASE)
_ID = lazy(r"[A-Z]{2,4}-\d+", re.IGNORECASE)
_SPECIALISMS = ("motor", "property", "liability", "travel", "health", "marine", "home")
_NOT_SO = lazy(r"\b(?:not|if|whether|unless|never)\b", re.IGNORECASE)


# A list told present or away together: "SNR-10, SNR-11 and SNR-12 are all present" (92nd audit)
LISTED = lazy(r"\b((?:[A-Z]{2,4}-\d+(?:\s*,\s*|\s+and\s+|\s*&\s*))+[A-Z]{2,4}-\d+)\s+(?:are|were)\s+(?:all\s+|both\s+)?"
              r"(?:(?P<in>present|in(?=\s*(?:[.,;:)]|$|today|now|too))|available|here|around|at\s+work)|(?P<away>away|"
              r"absent|off|out(?!\s+of\b)|on\s+leave|unavailable))\b")  # (not "in the same chain", "out of scope")


def listed(ctx: GradeContext, said: str) -> str | None:
    """Each of a list of staff told present (or away) together is so."""
    for m in LISTED.finditer(said):
        if _NOT_SO.search(said, max(0, m.start() - 15), m.start()):
            continue
        for ident in _ID.findall(m.group(1)):
            row = ctx.row("staff", ident.upper())
            if row is not None and (row.get("status") == "absent") == bool(m.group("in")):
                return f"says {m.group(0)!r}, but {ident.upper()} is {row.get('status')}"
    return None


def everyone(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Every senior of the claim's specialism told present (or away) when one (not excepted) is not."""
    said = reading.said
    if (told := listed(ctx, said)) is not None:
        return told
    low = said.lower()
    if not any(cue in low for cue in ("senior", "reviewer", "panel", "absence", "nobody", "no one")):
        return None
    kind = str(c.claim.get("claim_type"))
    found = [(m, True) for m in ALL_PRESENT.finditer(said)] + [(m, False) for m in ALL_AWAY.finditer(said)]
    if not found:
        return None
    rows = ctx.env.db.execute("SELECT id, status FROM staff WHERE role = 'senior' AND specialism = ? ORDER BY id",
                              (kind,)).fetchall()
    status = {str(i): s for i, s in rows}
    for m, present in found:
        if _NOT_SO.search(said, max(0, m.start() - 15), m.start()) or any(
                k in m.group(0).lower() for k in _SPECIALISMS if k != kind):
            continue  # "if every senior is away", "every property senior" on a motor claim
        excepted = _excepted(said, m)
        wrong = sorted(i for i, s in status.items() if (s == "absent") == present and i not in excepted) + sorted(
            i for i in excepted if i in status and (status[i] == "absent") != present)
        if wrong:
            return f"says {m.group(0)!r}, but " + ", ".join(
                f"{i} is {'absent' if status[i] == 'absent' else 'present'}" for i in wrong)
    return None


def excepted(said: str) -> set[str]:
    """The ids a statement about every senior excepts: "every senior is in except SNR-11" names SNR-11
    beside their absence, not as the one it went to."""
    return {i for m in (*ALL_PRESENT.finditer(said), *ALL_AWAY.finditer(said)) for i in _excepted(said, m)}


def _excepted(said: str, m: re.Match[str]) -> set[str]:
    """The ids excepted right before the statement ("Save for SNR-03, every…") or right after it
    ("…are in today but SNR-11"), not elsewhere in its sentence ("…, and I have copied all of them
    except SNR-11 on the file")."""
    start, end = sentence_start(said, m.start()), sentence_end(said, m.end())
    out: set[str] = set()
    for e in _EXCEPT.finditer(said, start, end):
        near = e.end() <= m.start() and not _CLAUSE_BREAK.search(said, e.end(), m.start()) or (
            e.start() >= m.end() and not _CLAUSE_BREAK.search(said, m.end(), e.start()))
        if near:
            out |= {i.upper() for i in _ID.findall(e.group(1) or e.group(2))}
    return out


# What ends the statement's reach: a new clause with its own verb ("…, and I have copied…").
_CLAUSE_BREAK = lazy(r"[;:]|\band\s+(?:i|we|they|he|she)\b|\b(?:i|we)\s+(?:have|had|'ve)\b", re.IGNORECASE)
