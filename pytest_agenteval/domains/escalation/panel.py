"""Staff told of by the way, as an agent reports the panel it looked up: "SNR-07 (50k,
present), SNR-08 (150k, present)". A figure in brackets right after a member of staff's id is
their approval limit, a presence word beside it their status. Such a list names no one the claim
went to (``people.records`` lets it be), and what it says of each person is checked here."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import EPS, Case
from pytest_agenteval.domains.escalation.schema import AGENT, SPECIALISMS
from pytest_agenteval.grading import GradeContext
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import Reading, sentence_end

PRESENT = frozenset({"present", "available", "in", "here", "working", "on", "duty"})
ABSENT = frozenset({"absent", "away", "unavailable", "leave", "off", "out", "sick", "holiday"})
# A power told in the brackets, only with "up to" its figure: "(signs off up to £50,000)".
POWERS = frozenset({"signs", "sign", "off", "approves", "approve", "can", "claims", "decides", "settles"})
# A role or specialism said first in the brackets: "SNR-08 (travel, 50,000, present)".
ROLES = frozenset({"motor", "property", "liability", "travel", "senior", "reviewer", "the", "a"})
# What may stand beside the figure in its brackets: "(limit 50k)", "(authority: £50,000)".
LIMIT_LABELS = frozenset({"limit", "lim", "authority", "auth", "mandate", "up"})
LABELS = frozenset({"", "limit", "lim", "approval", "authority", "auth", "mandate", "up", "to", "of"}) | POWERS


def listed(ctx: GradeContext, reading: Reading, amounts: frozenset[float] = frozenset(),
           ) -> dict[tuple[str, int], tuple[float, str | None]]:
    """Each member of staff a text lists with a bracketed figure: (their id, its clause) -> (the
    figure, the status said beside it: "present", "absent" or None). A figure of ``amounts`` (the
    claim's) after "approval" with no limit word is the decision's: "Escalation SNR-05, approval
    £31,000" (68th audit)."""
    found: dict[tuple[str, int], tuple[float, str | None]] = {}
    words = reading.words
    for ident, k, at in reading.id_at:
        if ident == AGENT or ctx.row("staff", ident) is None:
            continue
        possessive = reading.words[k][at + 1:at + 2] == ("s",)  # "within SNR-05's 500k": theirs, wherever it went
        if (ident not in reading.directed or possessive) and (limit := _beside(reading, k, at)) is not None:
            found[ident, k] = (limit, None)  # "SNR-10 (50,000) can't cover it" (not "to SNR-07 (18,000)")
            continue
        if any(words[k][at + 1:]) or k + 1 >= len(words):
            continue
        n = k + 1  # the bracket's first part; a role said first is passed over: "SNR-08 (travel, 50,000, present)"
        if words[n] and set(words[n]) <= ROLES and n + 1 < len(words) and (
                reading.sentence_of[n + 1] == reading.sentence_of[k]):
            n += 1
        said = set(words[n])
        if reading.sentence_of[n] != reading.sentence_of[k] or not said <= LABELS or (
                said & POWERS and not {"up", "to"} <= said) or ident in reading.directed and not said - {""}:
            # ("escalated to HOC-1 (875k, above every senior)": the claim's amount beside where it went;
            # "escalated to SNR-07 (limit 50k)" names their limit)
            continue  # "escalated to SNR-07 (18k over my limit)", "Decision (SNR-07): approve 18k": not about them
        figure = next((q.value for q in reading.quantities if q.clause == n and isinstance(q.value, float) and (
                       q.kind == "money" or q.kind == "number" and q.value >= 10000 and not reading.joined[n])),
                      None)  # "SNR-04 (150,000, present)"; not "approval from SNR-10: 28,000", what they decided
        if not isinstance(figure, float) or "approval" in said and not said & LIMIT_LABELS and any(
                abs(figure - a) <= 0.5 for a in amounts):
            continue
        said = set(words[n + 1]) if n + 1 < len(words) and reading.sentence_of[n + 1] == reading.sentence_of[k] and (
            not any(c == n + 1 for _, c, _ in reading.id_at)) else set()
        found[ident, k] = (figure, "absent" if said & ABSENT else "present" if said & PRESENT else None)
    return found


def _beside(reading: Reading, k: int, at: int) -> float | None:
    """A figure alone in brackets right after a member of staff's id, or after their "'s", or a
    figure opening a list's item with the id in brackets: their limit ("SNR-10 (50,000) can't
    cover it", "over SNR-03's 500,000", "seniors: 50,000 (SNR-10), 150,000 (SNR-11)")."""
    words = reading.words[k]
    # "Property seniors: 50,000 (SNR-10), 150,000 (SNR-11)", "> 50,000 (SNR-10)", "up to 500,000 (SNR-09)"
    # (a list's item, or a figure compared: not "approved 18,000 (SNR-07)", the approver named)
    if at >= 2 and words[at - 1] == "" and words[at + 1:] in ((), ("",)) and (
            at == 2 or words[at - 3] in COMPARED or words[at - 4:at - 2] == ("up", "to")) and not any(
            q.clause == k and q.at in (at - 1, at + 1) for q in reading.quantities):  # (a bracket, not a figure)
        before = next((q.value for q in reading.quantities if q.clause == k and q.at == at - 2 and q.kind in (
            "money", "number") and isinstance(q.value, float) and q.value >= 1000), None)
        if isinstance(before, float):
            return before
    last = len(reading.words[k - 1]) - 1 if k else 0
    if at == 0 and k and reading.sentence_of[k - 1] == reading.sentence_of[k] and words[1:] == () and (
            not reading.joined[k]) and last >= 1 and reading.words[k - 1][last - 1] in COMPARED:
        # "505,000 > 500,000 (SNR-03, the top liability senior)": an aside naming whose figure it is
        before = next((q.value for q in reading.quantities if q.clause == k - 1 and q.at == last and q.kind in (
            "money", "number") and isinstance(q.value, float) and q.value >= 1000), None)
        if isinstance(before, float):
            return before
    if words[at + 1:at + 2] not in (("",), ("s",)):
        return None
    right = next((q.value for q in reading.quantities if q.clause == k and q.at == at + 1 and q.kind == "money"
                  and isinstance(q.value, float) and q.value >= 1000), None)
    if isinstance(right, float) and words[at + 2:at + 3] in ((), ("",)):
        return right  # "(SNR-07 50k, SNR-08 150k)": each id with its figure
    if words[at + 1] == "" and words[at + 3:at + 4] != ("",):
        return None
    figure = next((q.value for q in reading.quantities if q.clause == k and q.at == at + 2
                   and q.kind in ("money", "number") and isinstance(q.value, float) and q.value >= 1000), None)
    return figure if isinstance(figure, float) else None


COMPARED = frozenset({"above", "over", "below", "under", "within", "beyond", "exceeds", "exceeding", "than"})


# A deputy given as a field, of the reviewer the claim went to: "| dep SNR-08 |", "deputy: SNR-08",
# "reviewer_deputy: SNR-08" (not in a sentence: "their deputy is SNR-12" says whose; not "escalated
# to deputy SNR-02", the one it went to).
DEPUTY_LABEL = lazy(r"(?:^|(?<=[\n|;:.,{(\-\"']))\s*(?:reviewer[_ ]deputy|deputy|dep|stand[_ -]?in|backup)\b"
                    r"\.?[\"']?\s*[:=,]?\s*[\"']?(?P<a>(?:SNR|STF|HOC)-\d+)\b(?!\s*(?:is\s+|being\s+|was\s+)?(?:absent|"
                    r"away|out|off|on\s+leave))", re.IGNORECASE)  # (not "(deputy, SNR-04 absent)": whose deputy)
# "SNR-07 can approve claims up to £150,000": a reviewer's power, in figures, is their limit.
CAN_APPROVE = frozenset({"approve", "authorise", "authorize", "sign", "decide", "settle", "pay"})


def panel(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """What a text says of staff by the way is true: each listed one's limit and presence (also a
    status among the attributes after an id), a deputy given under a label, a reviewer's power to
    approve up to a figure."""
    for ident, kind in listed_specialism(reading.said):
        row = ctx.row("staff", ident)
        if row is not None and row.get("role") == "senior" and row.get("specialism") != kind:
            return f"lists {ident} as a {kind} senior, but they are {row.get('specialism')}"
    for ident, status in listed_status(reading.said):
        row = ctx.row("staff", ident)
        if row is not None and row.get("status") in ("present", "absent") and row.get("status") != status:
            return f"lists {ident} as {status}, but they are {row.get('status')}"
    sent = {r["to_staff"] for r in c.escalations}
    if len(sent) == 1 and DEPUTY_LABEL.search(reading.said):
        target = next(iter(sent))
        deputy = (ctx.row("staff", target) or {}).get("deputy_id")
        for m in DEPUTY_LABEL.finditer(reading.said):
            named = m.group("a").upper()
            if named not in sent and named != deputy:
                return f"gives {named} as {target}'s deputy, whose deputy is {deputy or 'nobody'}"
    if (mine := _own_power(reading)) is not None and abs(mine - c.limit) > 0.5:
        return f"says the handler can approve up to {mine:g}; the handler's limit is {c.limit:g}"
    for ident, k, at in reading.id_at:
        words = reading.words[k]
        if "can" not in words[at + 1:at + 4] or not CAN_APPROVE.intersection(words[at + 1:at + 5]):
            continue
        row = ctx.row("staff", ident) or {}
        figure = next((q for q in reading.quantities if q.clause == k and q.at > at and q.kind == "money"
                       and reading.before(k, q.at, 2) == ["up", "to"]), None)
        if figure is not None and row.get("approval_limit") is not None and isinstance(figure.value, float) and abs(
                figure.value - float(row["approval_limit"])) > 0.5:
            return f"says {ident} can approve up to {figure.text}; their limit is {float(row['approval_limit']):g}"
    if (ranked := _ranked(ctx, c, reading.said)) is not None:
        return ranked
    if (covers := _covers(ctx, c, reading.said)) is not None:
        return covers
    return _listed(ctx, reading, frozenset(float(v) for v in (c.assessed, c.claim.get("amount_claimed"),
                                                              c.claim.get("approved_amount")) if v is not None))


def _ranked(ctx: GradeContext, c: Case, said: str) -> str | None:
    """A senior called the lowest- or highest-limit one of a specialism, unqualified, is that
    ("SNR-11 is the lowest-limit motor senior" when SNR-10's limit is lower; 49th audit). "The
    lowest limit that covers it", "the lowest-limit present senior" are the rule, not a rank."""
    for m in RANKED.finditer(said):
        if QUALIFIED.match(said, m.end()):
            continue  # "…senior who is present", "…senior on duty for this amount": the rule, not a rank
        kind = (m.group("kind1") or m.group("kind2") or c.claim.get("claim_type") or "").lower()
        how = (m.group("how1") or m.group("how2")).lower()
        limits = [float(v) for (v,) in ctx.env.db.execute(
            "SELECT approval_limit FROM staff WHERE role = 'senior' AND specialism = ?", (kind,))]
        row = ctx.row("staff", m.group("id").upper())
        if not limits or row is None or row.get("role") != "senior":
            continue
        edge = min(limits) if how in ("lowest", "smallest") else max(limits)
        if abs(float(row["approval_limit"]) - edge) > 0.5:
            return f"calls {m.group('id')} the {how}-limit {kind} senior; that limit is {edge:g}"
    return None


def _own_power(reading: Reading) -> float | None:
    """The figure a writer says they may approve up to: "I can settle claims of up to £10,000 myself"."""
    for q in reading.quantities:
        words = reading.words[q.clause]
        if q.kind == "money" and isinstance(q.value, float) and reading.before(q.clause, q.at, 2) == ["up", "to"] and (
                "i" in words[:q.at] and "can" in words[:q.at] and CAN_APPROVE.intersection(words[:q.at])):
            return q.value
    return None


def _listed(ctx: GradeContext, reading: Reading, amounts: frozenset[float]) -> str | None:
    """What a list of staff says of each is true: their limit, and whether they are present."""
    for (ident, _), (figure, status) in listed(ctx, reading, amounts).items():
        row = ctx.row("staff", ident) or {}
        limit = row.get("approval_limit")
        if limit is not None and abs(figure - float(limit)) > 0.5:
            return f"lists {ident} with {figure:g}; their approval limit is {float(limit):g}"
        if status is not None and status != ("absent" if row.get("status") == "absent" else "present"):
            return f"lists {ident} as {status}, but they are {row.get('status')}"
    return None


ID = r"\b(?:SNR|STF|HOC)-\d+\b"  # a member of staff's id
# A status among the attributes listed after an id: "SNR-04 [50,000, present, deputy SNR-05]",
# "SNR-04 - absent - limit 50,000", "| SNR-04 | 50,000 | present |", "SNR-04 (status: absent)".
LISTED = lazy(rf"(?P<id>{ID})\s*(?:\[(?P<sq>[^\]\n]{{0,120}})\]|\((?P<br>[^)\n]{{0,120}})\)|"
              r"(?P<run>(?:\s*[-\u2013\u2014|:]\s*[^-\u2013\u2014|:.;\n\[\]()]{1,40}){1,6}))", re.IGNORECASE)
LIST_PART = lazy(r"[,;/|\u2013\u2014]|\s-\s|^\s*[-:]|:\s")
# (a limit may come first: "SNR-10: 50,000 but absent")
STATUS_PART = lazy(r"^(?:[£$€]?\d[\d,.]*k?\s+(?:but|and|yet)\s+)?(?:status\s*[:=]?\s*|currently\s+|is\s+|now\s+)?"
                   r"(?P<s>present|absent|available|unavailable|away|on leave|off sick|out of (?:the )?office|"
                   r"in (?:the )?office|on duty)(?:\s+today)?$",
                   re.IGNORECASE)
# A status field in the same row as the id: "Reviewer: SNR-04; Limit: 50,000; Status: absent."
STATUS_FIELD = lazy(rf"(?P<id>{ID})(?:(?!{ID})[^.\n]){{0,60}}?\bstatus\s*[:=]\s*(?P<s>present|absent|available|"
                    r"unavailable|away|on leave|off sick)\b", re.IGNORECASE)
PRESENT_STATUS = ("present", "available", "in office", "in the office", "on duty")


def listed_specialism(said: str) -> list[tuple[str, str]]:
    """Each (id, specialism) a bracket after an id opens with: "SNR-08 (travel, 150,000, present)"."""
    found = []
    for m in LISTED.finditer(said):
        first = LIST_PART.split(m.group("br") or m.group("sq") or "")[0].lower().split()
        kinds = [w for w in first if w in SPECIALISMS]
        if len(kinds) == 1 and set(first) <= ROLES:
            found.append((m.group("id").upper(), kinds[0]))
    return found


def listed_status(said: str) -> list[tuple[str, str]]:
    """Each (id, "present"/"absent") a list of attributes after an id states; what follows another
    id in the list is that one's ("SNR-02 (deputy SNR-03, absent)": not SNR-02's)."""
    found = [(m.group("id").upper(), "present" if m.group("s").lower() in PRESENT_STATUS else "absent")
             for m in STATUS_FIELD.finditer(said)]
    for m in LISTED.finditer(said):
        content = m.group("sq") or m.group("br") or m.group("run") or ""
        for part in LIST_PART.split(content):
            if re.search(ID, part, re.IGNORECASE):
                break
            status = STATUS_PART.match(part.strip())
            if status:
                word = status.group("s").lower()
                found.append((m.group("id").upper(), "present" if word in PRESENT_STATUS else "absent"))
                break
    return found


_KIND = r"(?:motor|property|liability|travel)"
RANKED = lazy(rf"(?P<id>{ID})[^.;\n]{{0,12}}?(?:\bis\s+|\bwas\s+|,\s*)(?:the|our)\s+(?:(?P<how1>lowest|smallest|"
              rf"highest|largest|biggest|top)[-\s]limit(?:ed)?\s+(?:(?P<kind1>{_KIND})\s+)?(?:senior|reviewer)\b|"
              rf"(?:(?P<kind2>{_KIND})\s+)?(?:senior|reviewer)\s+with\s+the\s+(?P<how2>lowest|smallest|highest|"
              r"largest|biggest|top)\s+(?:approval\s+)?limit\b)", re.IGNORECASE)
# (a relative clause qualifies only by presence or cover: not "…senior that we have", "…, who looked at
# it", "…and can sign it off"; red team 33)
QUALIFIED = lazy(r"\s*,?\s*(?:(?:who|that|which)\s+(?:is\s+|are\s+|was\s+|were\s+)?)?(?:\w+\s+){0,2}?(?:present|"
                 r"available|in\s+(?:today|the\s+office)|on\s+(?:duty|shift)|covers?|covering|enough|eligible|"
                 r"for\s+this|above|over|sufficient)\b|\s*,?\s*(?:who|that|which)\s+(?:\w+\s+)?(?:can|could|is\s+able\s+"
                 r"to|are\s+able\s+to)\s+(?:approve|cover|authori[sz]e|decide|sign\s+off\s+(?:this|that|the)\s+amount)",
                 re.IGNORECASE)


# "SNR-07 (50k) cannot cover it", "SNR-10 can approve this" (audit 52): what a present member of
# staff's limit covers of the assessed amount (not "SNR-07 is away and cannot approve it")
# (and their limit's or authority's: "SNR-07's limit does not cover it", "SNR-07 has no authority to
# approve this amount", "cannot cover the 18,000"; red team 34)
COVERS = lazy(rf"(?P<id>{ID})(?:['’]s(?:\s+[£$€]?\d[\d,.]*k?)?"
              r"(?P<limit>\s+(?:approval\s+)?(?:limit|authority))?)?"
              r"(?:\s*\([^)\n]{0,40}\))?\s+"
              r"(?:\w+\s+){0,2}?(?P<no>(?:cannot|can't|can\s+not|could\s+not|couldn't|is\s+unable\s+to|isn't\s+able\s+"
              r"to|is\s+not\s+able\s+to|does\s+not|doesn't|has\s+no\s+authority\s+to|lacks\s+the\s+authority\s+to)\s+)?"
              r"(?:can\s+|could\s+|is\s+able\s+to\s+)?(?:covers?|approve|authori[sz]e|sign\s+off)\s+(?:it|this(?:\s+one|"
              r"\s+claim|\s+amount)?|the\s+(?:claim|amount|full\s+amount)|(?:the\s+)?(?P<figure>[£$€]?\d[\d,.]*k?))(?!\w)",
              re.IGNORECASE)
# Another reason than the limit, or a time: "cannot sign off the claim yet", "without the photos"
AWAY = lazy(r"\b(?:absent|away|leave|sick|unavailable|out\s+of\s+(?:the\s+)?office|if|would|unless|until|yet|"
            r"without|before|once|pending|while)\b", re.IGNORECASE)
CAN = lazy(r"\b(?:can|could|able)\b", re.IGNORECASE)


# "SNR-09 (500k) is the lowest covering" on a 620,000 claim: said to cover it
LOWEST_COVERING = lazy(rf"(?P<id>{ID})(?:\s*\([^)\n]{{0,40}}\))?\s+(?:is|was)\s+(?:the\s+)?lowest"
                       r"(?:[-\s]limit)?\s+(?:\w+\s+){0,3}?(?:covering|that\s+covers|who\s+covers|to\s+cover|able\s+to\s+cover)\b",
                       re.IGNORECASE)


def _covers(ctx: GradeContext, c: Case, said: str) -> str | None:
    for m in LOWEST_COVERING.finditer(said):
        row = ctx.row("staff", m.group("id").upper()) or {}
        if row.get("approval_limit") is not None and float(row["approval_limit"]) < c.assessed - EPS:
            return f"says {m.group(0)!r}, but {m.group('id').upper()}'s limit {float(row['approval_limit']):g} " \
                   f"is below the assessed {c.assessed:g}"
    for m in COVERS.finditer(said):
        if not (m.group("no") or CAN.search(m.group(0)) or m.group("limit")) or AWAY.search(
                said, m.start(), _clause_end(said, m.end())):
            continue  # ("SNR-07 approve it": no statement of what they can do; "SNR-03's £500,000 limit covers it" is)
        row = ctx.row("staff", m.group("id").upper()) or {}
        if row.get("status") != "present" and not m.group("limit") or row.get("approval_limit") is None:
            continue  # (what a limit covers is so whoever is away: "SNR-01's limit doesn't cover it"; 70th audit)
        amount = _figure(m.group("figure")) if m.group("figure") else c.assessed
        covered = float(row["approval_limit"]) >= amount - EPS
        if covered == bool(m.group("no")):
            return f"says {m.group(0)!r}, but {m.group('id').upper()}'s limit {float(row['approval_limit']):g} " \
                   f"{'covers' if covered else 'is below'} {amount:g}"
    return None


def _figure(text: str) -> float:
    number = re.match(r"[£$€]?(\d[\d,]*(?:\.\d+)?)(k)?", text, re.IGNORECASE)  # (not a stop after it:
    if number is None:  # "31,000.00."; 72nd audit)
        return 0.0
    return float(number.group(1).replace(",", "")) * (1000 if number.group(2) else 1)


def _clause_end(said: str, at: int) -> int:
    """Where the statement's own clause ends: its sentence, a comma, or "but"/"and" (red team 35:
    "could sign off the claim, but I referred it anyway while checks were done")."""
    end = sentence_end(said, at)
    cut = _CLAUSE_CUT.search(said, at, end)
    return cut.start() if cut else end


_CLAUSE_CUT = lazy(r",|\b(?:but|and)\b", re.IGNORECASE)

