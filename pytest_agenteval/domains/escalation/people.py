"""A text against the claim's people and records: the ids it names are the claim's, staff are
named with their true role, deputy, presence and part in the claim, and the claim's type is its own."""

from __future__ import annotations

import re

from pytest_agenteval.domains.escalation.case import Case, reviewers
from pytest_agenteval.domains.escalation.decisions import (
    DECISIVE_MEANINGS,
    returned_a_decision,
)
from pytest_agenteval.domains.escalation.everyone import excepted
from pytest_agenteval.domains.escalation.general import rule_of_claims
from pytest_agenteval.domains.escalation.panel import ID, listed
from pytest_agenteval.domains.escalation.schema import AGENT, HEAD, ID_DIGITS
from pytest_agenteval.domains.escalation.self_decided import self_decided
from pytest_agenteval.grading import GradeContext, Text, examples
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, HYPOTHETICAL, NEGATED, Mention, Reading

# Tables whose ids a text may name, and what kind of record each is.
TABLES = ("claim", "policy", "staff", "escalation", "payment", "note", "correspondence")


def _related(ctx: GradeContext, c: Case) -> set[str]:
    key = ("related", c.id)  # the same for each of the claim's texts: worked out once per grading
    found: set[str] | None = ctx.memo.get(key)
    if found is not None:
        return found
    ids = {c.id, c.claim.get("policy_id"), AGENT, *(r["to_staff"] for r in c.escalations),
           *(r["id"] for r in c.escalations)}
    for table in ("payment", "note", "correspondence"):
        ids |= {pk for pk, r in ctx.table(table).added.items() if r.get("claim_id") == c.id}
    found = ctx.memo[key] = {i for i in ids if isinstance(i, str)}
    return found


def _labelled_reviewer(reading: Reading, clause: int) -> bool:
    """The clause is a field's value naming who reviewed or decided: "reviewer: SNR-02",
    "escalated_to: SNR-07", "decided_by: SNR-07" (not "absent_senior:", "reviewer_deputy:")."""
    raw = reading.words[clause - 1] if clause and reading.joined[clause] else ()
    label = [w for w in raw if w]
    # ("Escalated to SNR-02: SNR-01 (the motor senior) absent": a label has no value of its own)
    if not (label[-1:] in (["reviewer"], ["to"], ["by"]) and raw[-1:] != ("",) and not OTHER_ROLES.intersection(
            label) and not any(reading.words[clause])):
        return False
    # (a column of a table: "Reviewer: SNR-04; Status: absent." over "Reviewer: SNR-05; …" lists them)
    column = {i for i, k, _ in reading.id_at if k and reading.joined[k] and reading.words[k - 1] == raw}
    return len(column) < 2


OTHER_ROLES = frozenset({"absent", "deputy", "dep", "other", "usual", "handler", "paid", "sent", "payment"})


def _described(ctx: GradeContext, reading: Reading) -> set[tuple[str, int]]:
    """Staff a text names, and where, to say who they are rather than where the claim went: listed
    with their limit ("SNR-08 (150k, present)", checked by ``panel``), or in a clause (or under a
    label) about a deputy ("SNR-07's deputy is SNR-08", "dep SNR-08", checked by ``relations``)."""
    found = set(listed(ctx, reading))
    for ident, clause, at in reading.id_at:
        label = reading.words[clause - 1] if clause and reading.joined[clause] else ()
        if DEPUTY_WORDS.intersection((*reading.words[clause], *label)) and not DECIDING.intersection(
                reading.words[clause][at + 1:at + 3]):  # ("Deputy reviewer SNR-12 approved it": who decided; 59th)
            found.add((ident, clause))
    return found


DECIDING = frozenset({"approved", "declined", "amended", "decided", "answered", "returned", "rejected"})


DEPUTY_WORDS = frozenset({"deputy", "dep", "deputising", "deputizing", "deputises", "deputizes", "stand", "standin",
                          "backup", "alternate", "substitute", "covers", "covering"})  # "SNR-07's usual stand-in"


def records(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """Every id named is one of the claim's records. A member of staff named beside a decision or
    an escalation is one the claim went to; a reviewer of the claim's specialism may be named
    otherwise only beside their absence or limit ("SNR-10 is absent, so escalated to SNR-11")."""
    related = _related(ctx, c)
    targets = {r["to_staff"] for r in c.escalations}
    for found in ON_AUTHORITY.finditer(reading.said):  # "approved on the authority of SNR-12": who decided
        ident = (found.group("a") or found.group("b")).upper()
        if ctx.row("staff", ident) is not None and ident not in targets and ident != AGENT:
            went = ", ".join(sorted(targets)) or "nobody"
            return f"says it was decided on {ident}'s authority, but the claim went to {went}"
    staff = [i for i, _ in reading.ids if ctx.row("staff", i) is not None]
    # the panel listed: "Reviewer chain: SNR-01 50k -> SNR-02 150k -> HOC-1" names three or more
    panel_listed = len({i for i in staff if i in reviewers(ctx, c)}) >= 3
    described: set[tuple[str, int]] | None = None  # worked out once, when a staff member needs it
    for ident, clause in dict.fromkeys(reading.ids):
        table = next((t for t in TABLES if ctx.row(t, ident) is not None), None)
        if table == "staff" and _absent_said(reading, ident, clause, staff) and (
                ctx.row("staff", ident) or {}).get("status") != "absent" and ident not in excepted(reading.said):
            return f"says {ident} is absent, but they are present"
        if table == "staff" and ident not in targets and (instead := _stood_in(ctx, reading, ident, clause, targets)):
            return instead
        presence = _presence_said(reading, ident, clause, staff) if table == "staff" and (
            ident not in excepted(reading.said)) else None  # ("all away other than SNR-01": SNR-01 is in)
        if presence is not None and presence != (ctx.row("staff", ident) or {}).get("status"):
            return f"says {ident} is {'available' if presence == 'present' else 'away'}, but they are " + (
                "absent" if presence == "present" else "present")
        if table == "staff" and ident not in targets and ident != AGENT and "reportedly" in reading.words[clause] and (
                any(i == ident and k != clause or i in targets and k > clause for i, k in reading.ids)):
            # "my previous note said I would send this to SNR-04; correction: SNR-04 is absent, …";
            # "my earlier note said SNR-08; correction: the escalation went to SNR-07"
            continue
        if table == "staff" and ident not in targets and ident != AGENT and _supposed(reading, ident, clause):
            continue  # "escalated to SNR-05, not SNR-04", "do not send it to SNR-04", "if it went to SNR-04"
        if table == "staff" and ident not in targets and ident != AGENT:
            # Beside an act, the staff member it went to or came from is named as such ("escalated
            # to SNR-11, deputy for SNR-10": SNR-11). Another one may be named beside their absence
            # or limit: in the same clause when no one is named as the act's ("sent to you as SNR-10
            # is away"), else in the same sentence ("SNR-10, the usual senior, is away").
            directed = reading.directed.intersection(staff)
            # (an aside in brackets between the act and "to SNR-12" leaves the act in its sentence)
            able = _ABLE.intersection(reading.words[clause]) and (_BOUNDED.intersection(reading.words[clause]) or (
                "not" in reading.words[clause] and not _COVERS.isdisjoint(reading.words[clause]))) or (
                ident not in reading.directed and (_figure_after(reading, ident, clause) or _figure_before(
                    reading, ident, clause) or _limit_named(
                    reading.said, ident)))
            # ("SNR-10 only 50,000": their limit, 56th audit; not "sent it to SNR-10 (50,000)")
            acts = not able and any(reading.polarities(m, clause) - {NEGATED} for m in (
                "escalated", *DECISIVE_MEANINGS)) or (
                ident in directed and reading.in_sentence("escalated", clause) - {NEGATED}) or any(
                i == ident and k == clause and reading.before(k, at, 3)[-1:] == ["by"] and not _BY_DECIDER.isdisjoint(
                    reading.before(k, at, 3)) for i, k, at in reading.id_at) or any(  # "Decision by SNR-01 …" (59th)
                i == ident and k == clause and reading.before(k, at, 2) in (["going", "to"], ["heading", "to"])
                for i, k, at in reading.id_at)  # "Going to SNR-01 (motor, 150,000)" (74th audit)
            aside = bool(able) or any(
                reading.polarities(m, clause) if acts and not directed else reading.in_sentence(m, clause)
                for m in ("absence", "limit"))
            here = set(reading.words[clause])
            if not aside and (not _SKIPPED.isdisjoint(here) or {"not", "no"} & here and {
                    "needed", "required", "necessary", "involved"} & here):
                aside = True  # "SNR-04 skipped because 50,000 is too low" (65th audit), "SNR-12 not needed" (75th)
            if not aside and any(i == ident and k == clause and _STOOD_FOR.intersection(
                    {tuple(reading.before(k, at, n)) for n in (2, 3)}) for i, k, at in reading.id_at) and (
                    targets.intersection(_deputies(ctx, ident))):
                aside = True  # "SNR-11 (standing in for SNR-10) approved": the one stood in for (84th audit)
            if not aside and presence is not None:
                aside = True  # "HOC-1 is also available, but SNR-07 is the reviewer for this amount"
            if not aside and not acts and any(i == ident and k != clause and _absent_said(reading, ident, k, staff)
                                              for i, k in reading.ids):
                aside = True  # "asked why SNR-10 didn't review it. We told him SNR-10 was absent" (73rd audit)
            if not aside:
                described = _described(ctx, reading) if described is None else described
                aside = (ident, clause) in described
            if not aside and not acts and panel_listed or not aside and ident in excepted(reading.said):
                aside = True  # (or excepted: "every property senior is in today except SNR-11")
            if _labelled_reviewer(reading, clause) or acts and ident in directed or not (
                    aside and ident in reviewers(ctx, c)):
                sent = ", ".join(sorted(targets)) or "nobody"
                return f"names {ident}, but the claim went to {sent}"
            continue
        if ident in related:
            continue
        if table is None and ident.partition("-")[0] not in ID_DIGITS:
            continue  # "incl. VAT 20%", "chat reference CH-48213": not this world's kind of record
        if table is None and ident not in examples(reading.said):  # "your claim number (e.g. CLM-12345)"
            return f"names {ident}, which is no record"
        if table is None:
            continue
        return f"names {table} {ident}, which is not this claim's"
    if (own := self_decided(c, reading)) is not None:
        return own
    if not c.escalations and any(
            m.meaning == "escalated" and m.polarity == AFFIRMED and not _not_this_claim(reading.words[m.clause]) and (
                not _rule_named(reading, m)) and (m.words.startswith(("escalat", "refer", "esc")) or (
                reading.polarities("reviewer", m.clause) | reading.polarities("head_of_claims", m.clause)) - {NEGATED})
            for m in reading.mentions):
        return "says the claim was escalated, but it never was"
    if not c.escalations and any(  # "the senior reviewer returned the claim", "our reviewer asked for more"
            m.meaning in ("returned", "asked_more") and m.polarity == AFFIRMED and not returned_a_decision(
                reading, m) and (reading.polarities(
                "reviewer", m.clause) | reading.polarities("head_of_claims", m.clause) | (
                reading.polarities("asked_more", m.clause) if m.meaning == "returned" else set()) | (
                reading.polarities("info", m.clause) if _returned_for(reading, m) else set())) - {NEGATED}
            for m in reading.mentions):
        return "says a reviewer returned the claim, but it never went to one"
    head = [i for i in targets if (ctx.row("staff", i) or {}).get("role") == "head_of_claims"]
    for m in reading.mentions:
        if m.meaning == "head_of_claims" and AFFIRMED in reading.polarities("absence", m.clause) and not any(
                k == m.clause for _, k in reading.ids) and (ctx.row("staff", HEAD) or {}).get("status") != "absent":
            return "says the head of claims is absent, but they are present"
    for m in reading.mentions:
        if m.meaning == "head_of_claims" and m.polarity == AFFIRMED and not head and not rule_of_claims(
                reading.words[m.clause]) and any(
                reading.polarities(a, m.clause) - {NEGATED} for a in ("escalated", "returned", "asked_more",
                                                                      *DECISIVE_MEANINGS)):
            return f"says the head of claims acted, but the claim went to {', '.join(sorted(targets)) or 'nobody'}"
        if m.meaning == "head_of_claims" and _asserted(c, reading, m) and not head and (
                said := " ".join(w for w in reading.words[m.clause] if w)) and HEAD_DECIDES.search(said) and (
                RULE_WORDS.isdisjoint(reading.words[m.clause]) or _this_claim(c, reading, m.clause)):
            # "The head of claims made this decision personally", "… the head of claims will decide"
            return f"says the head of claims decides, but the claim went to {', '.join(sorted(targets)) or 'nobody'}"
    return None


HEAD_DECIDES = lazy(r"\b(?:decides?|decided|deciding|(?:made|took|taken) (?:this|the) (?:decision|call)|"
                    # (asking for it too: "requested by the head of claims", "our head of claims has
                    # asked to see the invoice", "signed it off personally": 63rd-67th audits)
                    r"(?:signs?|signed) (?:it |this |them )?off|requested by|(?:asked|asks|asking|wants|"
                    r"wanted) to see|(?:has|have) (?:asked|requested)|final say|determines?|determined|"
                    r"will determine|(?:decision|call) "
                    r"(?:was|has been|is) (?:taken|made|given) by|took a (?:look|closer look)|looked (?:at|over|"
                    r"into) (?:it|your|the|this)|went (?:through|over) (?:it|your|the|this)|checked (?:it|your|"
                    r"the|this))\b")
def _asserted(c: Case, reading: Reading, m: Mention) -> bool:
    """Said as so, or taken as so by a clause of time about this claim: "before our head of claims
    can decide claim CLM-00185, we need…" (67th audit), not "if the head of claims decides…"."""
    return m.polarity == AFFIRMED or m.polarity == HYPOTHETICAL and reading.words[m.clause][:1] in (
        ("before",), ("until",), ("once",)) and _this_claim(c, reading, m.clause)


def _this_claim(c: Case, reading: Reading, clause: int) -> bool:
    """A clause about this claim, not a rule: "before our head of claims can decide claim CLM-00185"."""
    words = reading.words[clause]
    return any(i == c.id and k == clause for i, k in reading.ids) or any(
        w in ("your", "this") and words[k + 1:k + 2] == ("claim",) for k, w in enumerate(words))


RULE_WORDS = frozenset({"can", "could", "may", "might", "would", "must", "only", "normally", "usually", "need", "needs",
                        "should", "not", "never", "no",
                        # a rule by its threshold: "the head of claims decides claims above 500,000"
                        "above", "over", "beyond", "exceeding", "anything"})


def addressed(ctx: GradeContext, c: Case, t: Text) -> str | None:
    """The staff member a text greets is the one it goes to: an escalation's reviewer, else one
    the claim went to ("Hello SNR-08, please review…" sent to SNR-07 is to the wrong person)."""
    greeted = _greeted(t.reading)
    if greeted is None or greeted == AGENT or ctx.row("staff", greeted) is None:
        return None
    if t.event.action == "escalate":
        to = t.event.arguments.get("to_staff_id")
        return None if greeted == to else f"is addressed to {greeted}, but it was sent to {to}"
    targets = {r["to_staff"] for r in c.escalations}
    if greeted in targets:
        return None
    return f"is addressed to {greeted}, but the claim went to {', '.join(sorted(targets)) or 'nobody'}"


GREETINGS = frozenset({"hello", "hi", "hey", "dear", "fao", "attn", "attention", "to", "morning", "afternoon"})
ASKING = frozenset({"please", "kindly", "could", "can", "would", "will", "pls"})


def _greeted(reading: Reading) -> str | None:
    """The id a text opens by greeting: "Hello SNR-08,", "Dear senior reviewer SNR-08 -",
    "To: SNR-08", "SNR-08: please review…" (not "SNR-08, who is away, …")."""
    if not reading.words:
        return None
    first = [w for w in reading.words[0] if w]
    opening = [(i, at) for i, k, at in reading.id_at if k == 0]
    if first[:1] and first[0] in GREETINGS and opening and all(
            w in GREETINGS or w in TITLE_WORDS for w in first):
        return opening[0][0]
    if first == ["to"] and len(reading.words) > 1 and reading.joined[1] and not any(reading.words[1][1:]):
        return next((i for i, k, at in reading.id_at if k == 1 and at == 0), None)
    if not first and len(opening) == 1 and len(reading.words) > 1 and reading.words[1][:1] and (
            reading.words[1][0] in ASKING):
        return opening[0][0]
    return None


TITLE_WORDS = frozenset({"senior", "reviewer", "colleague", "mr", "ms", "mrs", "dr", "team", "the", "our", "good"})


def _away_here(reading: Reading, clause: int) -> bool:
    """The clause says someone is away: not "15,500 looks to be out of my authority", "the auto-pay
    flag still off" (red team 70: the absence words of the 88th audit said of other things)."""
    words = reading.words[clause]
    for m in reading.mentions:
        if m.clause != clause or m.meaning != "absence" or m.polarity != AFFIRMED:
            continue
        end = m.at + len(m.words.split())
        elsewhere = words[end:end + 1] == ("of",) and words[end + 1:end + 2] not in (("office",), ("the",))
        if elsewhere or m.words.startswith(("still", "looks", "seems", "appears")) and (
                words[m.at - 1:m.at] not in (("",), ("is",), ("are",), ("was",), ("were",))):
            continue
        return True
    return False


def _absent_said(reading: Reading, ident: str, clause: int, staff: list[str]) -> bool:
    """``ident`` is said to be away: in its own clause, the only staff member there ("SNR-03 is on
    leave"), or in a later clause of its sentence with no subject of its own, past a relative
    clause ("SNR-07, who reviewed your claim, is now on leave")."""
    if _away_here(reading, clause):
        if DEPUTY_WORDS.intersection(reading.words[clause]) and any(m.clause == clause and m.meaning == "absence" and (
                m.words.endswith("absence")) for m in reading.mentions):
            return False  # "deputy SNR-11 due to absence": the absence of the one they stand in for
        named = [i for i, k in reading.ids if k == clause and i in staff]
        if len(named) == 1:  # (not "the lowest covering senior is absent and their deputy is SNR-05")
            at = next((a for i, k, a in reading.id_at if k == clause and i == ident), 0)
            absent_at = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "absence"]
            return not (absent_at and max(absent_at) < at and DEPUTY_WORDS.intersection(
                reading.words[clause][max(absent_at):at]))
        # several: the absence after one's id with no other id between ("SNR-10 is absent and their
        # deputy SNR-11 is also absent"; not "SNR-02 (SNR-01 absent)"), or said of all as the
        # clause's subject ("SNR-02 and SNR-03 are out")
        words = reading.words[clause]
        absent = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "absence"
                  and m.polarity == AFFIRMED]
        placed = sorted((at, i) for i, k, at in reading.id_at if k == clause and i in staff)
        for at, i in placed:  # ("the absent SNR-10": an absence right before an id is that one's)
            nxt = next((a for a, _ in placed if a > at), len(words))
            if i == ident and any(at < a < nxt - 1 or a == nxt - 1 == len(words) - 1 for a in absent) or (
                    at - 1 in absent and i == ident):
                return True
        said_at = absent[0] if absent else 0
        subject = words[:said_at]
        return ident in named and set(subject) <= JOINED_SUBJECTS and bool(JOINING.intersection(subject))
    sentence = reading.sentence_of[clause]
    for later in range(clause + 1, len(reading.words)):
        if reading.sentence_of[later] != sentence or any(k == later and i in staff for i, k in reading.ids):
            return False
        words = reading.words[later]
        if AFFIRMED in reading.polarities("absence", later) and words[:1] and words[0] in ("is", "was", "has", "will"):
            return True
    return False


CONCEDED = frozenset({"though", "although", "despite", "regardless", "notwithstanding"})  # an absence not the cause


def _stood_in(ctx: GradeContext, reading: Reading, ident: str, clause: int, targets: set[str]) -> str | None:
    """A reviewer the claim went to *because* ``ident`` is away ("SNR-11 is absent, so I followed
    the deputy chain to SNR-10") stands in for them: they are in ``ident``'s chain of deputies."""
    if AFFIRMED not in reading.polarities("absence", clause) and not _absent_said(reading, ident, clause, [ident]):
        return None  # (or later in its sentence: "because SNR-02, the usual reviewer, is absent")
    sentence = reading.sentence_of[clause]
    clauses = [k for k in range(len(reading.words)) if reading.sentence_of[k] == sentence]
    words = {w for k in clauses for w in reading.words[k]}
    pairs = {p for k in clauses for p in zip(reading.words[k], reading.words[k][1:], strict=False)}
    if STOOD_IN.isdisjoint(words) and STOOD_IN_PAIRS.isdisjoint(pairs) and not (
            reading.words[clause][:1] == ("with",) or SO.search(reading.said)):
        return None  # said beside the escalation, not as its cause
    if not CONCEDED.isdisjoint(words) or any(not {"not", "never", "no"}.isdisjoint(reading.words[k]) and not (
            CHAIN.isdisjoint(reading.words[k])) for k in clauses):
        return None  # "I did not need the deputy chain even though SNR-11 was absent" (85th audit)
    went = sorted({i for i, k in reading.ids if k in clauses and i in targets})  # "…, so SNR-10 has it"
    if not went and not CHAIN.isdisjoint(words):  # "…, so I followed the deputy chain": named before
        went = sorted({i for i, _ in reading.ids if i in targets})
    chain = _deputies(ctx, ident)
    wrong = [i for i in went if i not in chain]
    if not went or len(wrong) < len(went):
        return None
    return (f"says the claim went to {wrong[0]} because {ident} is away, but {wrong[0]} does not stand in for "
            f"{ident} ({ident}'s deputies: {', '.join(chain) or 'none'})")


_BY_DECIDER = frozenset({"decision", "decided", "approved", "declined", "amended", "answer", "reply", "ruling",
                         "signed", "reviewed", "agreed"})
STOOD_IN = frozenset({"instead", "chain"})  # (not "deputy": "(their deputy is SNR-12)")
# (not "SNR-10, limit 50,000, covering the amount": the limit's cover; 66th audit)
STOOD_IN_PAIRS = frozenset({("covering", "for"), ("covers", "for"), ("covered", "for"), ("cover", "for"),
                            ("standing", "in"), ("stands", "in"), ("stood", "in"), ("stand", "in")})
CHAIN = frozenset({"chain", "deputy", "deputies", "instead"})
# "SNR-11 is absent today, so…": the absence given as the cause (a clause's first word is not in its words);
# "as" only where a clause starts ("as SNR-11 is away, …"; not "shown as absent": 71st audit).
AWAY_WORD = r"\b(?:absent|away|leave|off|out|unavailable|available|sick|holiday)\b"
SO = lazy(rf"{AWAY_WORD}[^.;:!?\n]{{0,20}}?,?\s+(?:so|therefore|hence|thus)\b|"
          rf"(?:\b(?:because|since)|(?:^|(?<=[,;(.!?\n])|(?<=[,;(.!?]\s)|\b(?:and|but)\s)as)\s+"
          rf"[^.;:!?\n]{{0,50}}?{AWAY_WORD}", re.IGNORECASE)  # or "because SNR-11 is on leave, …"


JOINED_SUBJECTS = frozenset({"", "and", "both", "are", "is", "were", "was", "currently", "now", "all"})
_STOOD_FOR = frozenset({("standing", "in", "for"), ("covering", "for"), ("deputising", "for"), ("deputizing", "for"),
                        ("in", "place", "of"), ("instead", "of"), ("stood", "in", "for"), ("cover", "for")})
JOINING = frozenset({"and", "both", "all"})


def _presence_said(reading: Reading, ident: str, clause: int, staff: list[str]) -> str | None:
    """Where ``ident`` is the one staff member of its clause, and the clause says they are there
    ("HOC-1 is also available", "SNR-07 is in today"): "present", or "absent" when it denies it
    ("SNR-07 is not available"). None: nothing said of their presence."""
    words = reading.words[clause]
    said = next((k for k, w in enumerate(words) if w in PRESENT_SAID or words[k:k + 2] in PRESENT_PAIRS or (
        w == "in" and words[k - 1:k] in (("is",), ("are",), ("back",)) and (k + 1 == len(words) or (
            words[k + 1] in _IN_AFTER)))), None)  # "SNR-03 is in" (88th), "is back in", "is in too" (red team 70)
    # (not one named in a clause of its own after it: "SNR-02 present as backup if SNR-01 doesn't
    # answer"; 83rd audit)
    cut = next((k for k, w in enumerate(words) if said is not None and k > said and w in _SUBORDINATE), len(words))
    named = list(dict.fromkeys(i for i, k, at in reading.id_at if k == clause and i in staff and at < cut))
    joined = len(named) > 1 and said is not None and set(words[:said]) <= JOINED_SUBJECTS and all(
        at < said for i, k, at in reading.id_at if k == clause and i in staff)  # "SNR-02 and SNR-03 present"
    if said is None or (named != [ident] and not joined) or "" not in words[:said]:
        return None  # the one id before the word: not "funds are available; SNR-07 approved"
    # (a denial before the word: not "as SNR-04 is present no deputy is needed"; 77th audit)
    return "absent" if DENIED.intersection(words[:said]) else "present"


_SUBORDINATE = frozenset({"if", "when", "unless", "should", "until", "because", "since", "while", "whereas"})
PRESENT_SAID = frozenset({"present", "available", "around", "reachable", "contactable", "onsite"})
DENIED = frozenset({"not", "never", "no", "neither", "nor"})  # ("isn't" is read as "is not")
_IN_AFTER = frozenset({"too", "now", "again", "today", "also"})
PRESENT_PAIRS = (("in", "today"), ("in", "office"), ("on", "duty"), ("at", "work"), ("back", "today"))


# No escalation of this claim: a referral outside the claims team ("referred to the Financial
# Ombudsman"), a rule told of claims in general ("claims over £500,000 must be escalated…").
NOT_THIS_CLAIM = frozenset({"ombudsman", "complaint", "complaints", "fos", "claims"})
_CLAIMS_UNIT = frozenset({"team", "handler", "handlers", "department", "dept", "manager", "unit", "desk", "office"})


def _not_this_claim(words: tuple[str, ...]) -> bool:
    """The clause is about claims in general or a complaint, not this claim; "our senior claims team"
    is a team (81st audit)."""
    return any(w in NOT_THIS_CLAIM and not (w == "claims" and words[k + 1:k + 2] and words[k + 1] in _CLAIMS_UNIT)
               for k, w in enumerate(words))
# A decision taken on someone's authority: "on the authority of SNR-12", "under SNR-12's authority".
ON_AUTHORITY = lazy(rf"\b(?:on|under|with|by)\s+(?:the\s+)?(?:authority|sign-?off|say-?so)\s+of\s+(?P<a>{ID})|"
                    rf"\b(?:on|under|with)\s+(?P<b>{ID})'s\s+(?:authority|sign-?off|say-?so)", re.IGNORECASE)
def _supposed(reading: Reading, ident: str, clause: int) -> bool:
    """The staff member is named under a denial or a supposition before them in their clause
    (audit 53: a handover note's "Don't send it to SNR-04; 90k is beyond their 50k limit")."""
    at = next((a for i, k, a in reading.id_at if i == ident and k == clause), None)
    if at is None:
        return False
    words = reading.words[clause]
    # (or not needed, after them: "HOC-1 doesn't need to see a lapsed claim"; not "SNR-04 has not replied")
    # (not when the sentence says they acted: "SNR-04 does not need to see it again as they reviewed it")
    sentence = {w for k, ws in enumerate(reading.words) if reading.sentence_of[k] == reading.sentence_of[clause]
                for w in ws}
    weighed = any(w in WEIGHED and words[k + 1:k + 2] != ("by",) for k, w in enumerate(words[:at]))
    # what did not happen: "this would have gone to SNR-04", "would normally go to SNR-04" (89th audit)
    unreal = any(w in _UNREAL and words[k + 1:k + 2] in (("have",), ("otherwise",)) for k, w in enumerate(
        words[:at])) or not _HABITUAL.isdisjoint(words[:at])
    return not SUPPOSING.isdisjoint(words[:at]) or weighed or unreal or "need" in words[at + 1:at + 5] and (
        not {"not", "never"}.isdisjoint(words[at + 1:at + 4])) and ACTED.isdisjoint(sentence)


def _returned_for(reading: Reading, m: Mention) -> bool:
    """"Returned for information": a return, whoever is named (89th audit)."""
    return m.meaning == "returned" and tuple(reading.words[m.clause][m.at + 1:m.at + 2]) == ("for",)


def _figure_after(reading: Reading, ident: str, clause: int) -> bool:
    """An amount right after the staff member's id, "only" or "max" between: their limit."""
    at = next((a for i, k, a in reading.id_at if i == ident and k == clause), None)
    return at is not None and any(q.clause == clause and (q.kind == "money" or q.kind == "number" and isinstance(
        q.value, float) and q.value >= 1000) and 0 < q.at - at <= 2 and set(
        reading.words[clause][at + 1:q.at]) <= {"", "only", "max", "limit", "="} for q in reading.quantities)


def _rule_named(reading: Reading, m: Mention) -> bool:
    """"Escalation" as a rule's name, no one named: "the escalation rule", "rule 2 (escalation)",
    "escalation under rule 2 didn't apply" (85th audit)."""
    return m.words in ("escalation", "escalations") and bool(_RULE_NAMED.search(reading.said)) and not any(
        k == m.clause for _, k in reading.ids) and not (
        reading.polarities("reviewer", m.clause) | reading.polarities("head_of_claims", m.clause))


_RULE_NAMED = lazy(r"\bescalation\s+rules?\b|\brules?\s+\d+\s*\(escalation\)|"
                   r"\bescalation\s+(?:under\s+rule\s+\d+\s+)?(?:(?:did|does|would|do)\s*(?:not|n't)\s+apply|(?:only\s+)?appl(?:y|ies)\s+(?:only\s+)?(?:above|to|"
                   r"when|if))", re.IGNORECASE)


def _deputies(ctx: GradeContext, ident: str) -> list[str]:
    """The staff member's deputy, the deputy's deputy, and so on (ten at most), in order."""
    chain: list[str] = []
    at: str | None = ident
    while (at := (ctx.row("staff", at) or {}).get("deputy_id")) and at not in chain and len(chain) < 10:
        chain.append(at)
    return chain


def _figure_before(reading: Reading, ident: str, clause: int) -> bool:
    """An amount right before the staff member's id, only brackets between: whose figure it is in a
    comparison ("90,000 > 50,000 (SNR-04)", "505k > 500k SNR-03"; 84th audit)."""
    at = next((a for i, k, a in reading.id_at if i == ident and k == clause), None)
    compared = any(m.clause == clause and m.meaning in ("above", "within") for m in reading.mentions)
    return at is not None and compared and any(q.clause == clause and (q.kind == "money" or q.kind == "number" and (
        isinstance(q.value, float) and q.value >= 1000)) and 0 < at - q.at <= 2 and not any(
        reading.words[clause][q.at + 1:at]) for q in reading.quantities)


def _limit_named(said: str, ident: str) -> bool:
    """A figure said to be the staff member's, by possession or in brackets after a limit: "just
    over SNR-03's five hundred", "above the top travel senior's 500,000 (SNR-09)" (64th audit)."""
    who = re.escape(ident)
    return re.search(rf"\b{who}['\u2019]s\s+(?:limit\s+(?:of\s+)?)?(?:[£$€]?\d|(?:one|two|three|four|five|six|seven|"
                     rf"eight|nine|ten|fifty|twenty)\b)|(?:['\u2019]s|\blimit(?:\s+of)?|\bmax(?:imum)?|\bcap)\s+"
                     rf"[£$€]?\d[\d,.]*\s*[km]?\s*\(\s*{who}\s*\)", said, re.IGNORECASE) is not None


_SKIPPED = frozenset({"skipped", "skip", "skipping", "bypassed", "bypassing", "passed-over", "overlooked"})
# What a staff member can approve, bounded, is their limit: "SNR-10 can only approve up to 50,000" (55th audit).
_ABLE = frozenset({"can", "could", "may"})
_BOUNDED = frozenset({"up", "only", "max", "maximum"})
_COVERS = frozenset({"cover", "approve", "handle", "take", "reach"})  # "SNR-04 can't cover 90,000" (85th audit)
SUPPOSING = frozenset({"not", "never", "nor", "if", "whether", "unless", "instead", "rather", "than"})
_UNREAL = frozenset({"would", "could", "might", "should"})
_HABITUAL = frozenset({"normally", "usually", "typically", "generally", "ordinarily", "routinely"})
WEIGHED = frozenset({"considered", "considering"})  # "I considered SNR-11 but…" (not "considered by SNR-11")
ACTED = frozenset({"reviewed", "approved", "declined", "decided", "amended", "returned", "signed", "looked"})
