"""What a text says of a limit, against the staff and the claim: the figure it gives for whose
limit (the handler's, a named reviewer's, every senior's, the head of claims'), and whether the
amount it sets against it is within or above it."""

from __future__ import annotations

from typing import Any

from pytest_agenteval.domains.escalation.case import EPS, Case, reviewers
from pytest_agenteval.domains.escalation.general import numbered_rule, rule_of_claims
from pytest_agenteval.domains.escalation.money import worked_amounts
from pytest_agenteval.domains.escalation.schema import AGENT, HEAD
from pytest_agenteval.grading import GradeContext, Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.text import AFFIRMED, HYPOTHETICAL, LIMIT_KINDS, NEGATED, Quantity, Reading, amount

GAP_WORDS = frozenset({"over", "above", "under", "below", "beyond", "short", "more", "less"})  # ("more than": 74th)


def _gap(reading: Reading, q: Quantity, limit: float) -> bool:
    """``q`` before *over/under* a limit is the gap to it, not an amount compared with it: when
    another figure of its sentence is the limit plus or minus it ("£140,000, which is £130,000
    over my limit"), or when the comparison would be false ("£2,500 over my £10,000 limit");
    "£18,000 above my limit" compares."""
    value = amount(q)
    up = reading.after(q.clause, q.at) in ("over", "above", "beyond", "more")
    if reading.after(q.clause, q.at + 1) in ("it", "that", "this", "them"):
        return True  # "just under my 10,000 authority - 200 below it" (77th audit)
    others = [amount(o) for o in reading.quantities if (o.kind == "money" or o.kind == "number" and amount(o) >= 100)
              and o is not q and reading.sentence_of[o.clause] == reading.sentence_of[q.clause]]
    if q.derived or any(abs(o - (limit + value if up else limit - value)) <= EPS for o in others):
        return not q.derived
    return not (value >= limit if up else value <= limit)


# Whose limit a clause is about: the handler's ("my limit", "above the handler limit", or no owner
# named), a reviewer's (their id in the clause), the head of claims'; a clause naming another owner
# ("the policy limit", "their limit", "the senior's limit") is not judged.
SINGULAR = frozenset({"my", "i", "me", "mine", "handler", "i'm"})
# ("our 10,000 limit": a handler writing as "we"; 46th audit)
FIRST_PERSON = SINGULAR | {"our", "we", "us", "we're"}
OTHER_OWNERS = frozenset({"their", "his", "her", "your", "yours", "its", "senior", "seniors", "reviewer",
                          "reviewers", "sum", "insured", "policy", "cover", "head", "deputy", "colleague"})
# ("sum insured of £20,000")
LIMIT_WORDS = frozenset({"limit", "limits", "authority", "mandate", "excess", "insured", "ceiling", "threshold", "lim",
                         "auth", "max", "maximum"})  # (ticket shorthand: "over my auth (10k)", "within my £10k lim")
OWNER_CUES = FIRST_PERSON | OTHER_OWNERS | {"every", "all", "any"}


# A figure right after one of these is the bound an amount is held to, in a clause about authority.
BOUNDING = frozenset({"within", "under", "below"})
LIMIT_CONTEXT = frozenset({"authority", "limit", "mandate", "rule"})


def _limit_figure(reading: Reading, q: Quantity) -> bool:
    """``q`` is a limit's figure: "my limit of £10,000", "limit: £10,000", "my £10,000 (approval,
    handling…) limit" — a limit word within the two words after it. Not "on my own authority at
    £4,200": an amount decided *at* is the decision's, whatever stands before."""
    words = reading.words[q.clause]
    label = [w for w in reading.words[q.clause - 1] if w] if q.clause else []
    if not q.at and reading.joined[q.clause] and label[-1:] and label[-1] in LIMIT_WORDS and all(
            w in LABEL_WORDS for w in label) and not (LIMIT_WORDS.intersection(words[q.at + 1:]) and set(
                COMPARING).intersection(words[q.at + 1:])):  # "My limit:" then "£10,000" (not "Approved within my
        return True  # limit: £4,200", nor "Authority: 33,000 is over my 10,000 limit": 85th audit)
    ahead = [w for w in words[q.at + 1:q.at + 5] if w not in SUPERLATIVE and w not in ROLES]  # ("SNR-03's 500k top
    # senior limit": 79th audit)
    if LIMIT_WORDS.intersection(ahead[:2]) and reading.after(q.clause, q.at) not in (
            "and", "or", *POSSESSIVES, *COMPARING) and not any(  # not "£18,000 [>] my limit" nor "6.4k within limit"
            o.clause == q.clause and q.at + 2 <= o.at <= q.at + 3 and words[o.at - 1] in LIMIT_WORDS
            for o in reading.quantities):  # nor "6,400 (limit 10,000)": the limit has its own figure
        return True
    if _bracketed_after_covered(reading, q, words):
        return True
    if words[q.at - 2:q.at] == ("", "s") and q.at >= 3 and words[q.at - 3] in COMPARING and any(
            c == q.clause and at == q.at - 2 for _, c, at in reading.id_at):
        return True  # "above SNR-11's 150,000": the senior's own figure is their limit
    before = [w for w in reading.before(q.clause, q.at, 3) if w not in ONLY][-2:]  # ("limit is only £10,000")
    if before == ["within", "my"] or before[-1:] == ["my"] and not any(words[q.at + 1:]):
        return True  # "within my 20k", "ESC -> SNR-07 (18k > my 10k)": my figure is my limit
    if before[-1:] and before[-1] in BOUNDING and words[max(0, q.at - 3):q.at - 1] not in (
            *((w, "") for w in LIMIT_WORDS),) and any(LIMIT_CONTEXT.intersection(reading.words[k]) for k in (
            q.clause, q.clause - 1) if k >= 0 and reading.sentence_of[k] == reading.sentence_of[q.clause]):
        return True  # "authority: within 10k (rule 1)": the bound is the limit (85th audit)
    if reading.named_across_id(q, LIMIT_WORDS):
        return True  # "your sum insured under POL-00541 is £20,000" (86th audit)
    return bool(before) and (before[-1] in LIMIT_WORDS or before[-1] in LIMIT_LINKS and before[0] in LIMIT_WORDS)


ONLY = frozenset({"only", "just", "currently", "now"})
COVERING = frozenset({"covers", "cover", "covering", "clears", "meets"})


def _bracketed_after_covered(reading: Reading, q: Quantity, words: tuple[str, ...]) -> bool:
    """"the lowest limit that covers $12,500 ($150,000)": a figure in brackets right after the amount
    a limit covers is that limit's (57th audit; it was read as nothing, a wrong one passing)."""
    if q.at < 3 or words[q.at - 1] or words[q.at - 3] not in COVERING:
        return False
    return any(o.clause == q.clause and o.at == q.at - 2 and o.kind in ("money", "number") for o in reading.quantities
               ) and bool(LIMIT_WORDS.intersection(words[max(0, q.at - 6):q.at - 3]))


ROLES = frozenset({"senior", "reviewer", "deputy"})
COMPARING = ("within", "under", "below", "over", "above", "inside", "exceeds", "exceeding", "beyond")
LABEL_WORDS = LIMIT_WORDS | OWNER_CUES | LIMIT_KINDS | {"the", "a", "sum"}  # "Delegated authority limit:"
POSSESSIVES = ("my", "your", "our", "their", "his", "her", "its", "the", "a")
# What may stand between a limit word and its figure: "limit of £10,000", "authority is £10,000".
LIMIT_LINKS = frozenset({"of", "is", "was", "be", "stands", "sits"})


def limits(ctx: GradeContext, c: Case, t: Text) -> str | None:
    """What a text says of a limit is true: the figure it gives for the handler's (or a named
    reviewer's) limit, and whether the amount (the one in its part of the clause, else in its
    clause, else the assessed amount) is within it or above it ("within my limit, but escalating
    anyway" on a claim above it). A clause is judged in parts at *and/or*, each part's owner its
    own when it names one: "within the sum insured and within my limit", "within your £50,000
    limit and above mine" — *your* in an escalation's reason being the reviewer it goes to."""
    reading = t.reading
    for q in reading.quantities:  # "Rule 1 lets me approve claims up to 50,000": the handler's limit (85th audit)
        before = reading.before(q.clause, q.at, 7)
        if before[-2:] == ["up", "to"] and FIRST_PERSON.intersection(before) and {"approve", "decide"} & set(
                before) and isinstance(q.value, float) and q.polarity == AFFIRMED and abs(q.value - c.limit) > EPS:
            return f"states {q.text} as what you may approve; your limit is {c.limit:g}"
    addressee = t.event.arguments.get("to_staff_id") if t.event.action == "escalate" else None
    said = {m.clause for m in reading.mentions if m.meaning == "limit" and m.polarity != HYPOTHETICAL}
    under = {k + 1 for k in said if k + 1 < len(reading.joined) and reading.joined[k + 1]}  # "Authority: within my 20k"
    compared = {k for i, k, at in reading.id_at if _possessive(reading, k, at)}
    cover = {(k, j) for k, ws in enumerate(reading.words) for j, w in enumerate(ws) if w == "cover" and (
        set(COMPARING).intersection(ws[max(0, j - 3):j]))}  # "the amount exceeds your cover" (74th audit)
    for clause in sorted(said | under | compared | {k for k, _ in cover}):
        words = reading.words[clause]
        limits_at = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit"] + [
            j for k, j in cover if k == clause] + [
            k for k, w in enumerate(words) if w in ("mine", "yours")] + ([0] if clause in under else []) + (
            _compared_with_owner(ctx, reading, clause))
        cuts = [0, *(k for k, w in enumerate(words) if w in ("and", "or") and k), len(words)]
        for lo, hi in zip(cuts, cuts[1:], strict=False):
            if any(lo <= at < hi for at in limits_at):
                label = reading.words[clause - 1] if clause in under else ()  # "reviewer_limit:" owns its value
                problem = _limit_part(ctx, c, reading, clause, range(lo, hi), addressee, label)
                if problem:
                    return problem
    return None


def _limit_part(ctx: GradeContext, c: Case, reading: Reading, clause: int, part: range,
                addressee: Any, label: tuple[str, ...] = ()) -> str | None:
    words = (*label, *reading.words[clause])
    if rule_of_claims(words):
        return None  # "all claims above the seniors' limits go to the head of claims": no claim set against one
    here = reading.words[clause]
    share = next((q for q in reading.quantities if q.clause == clause and q.kind == "rate" and here[q.at - 1:q.at] and
                  here[q.at - 1] in COMPARING and here[q.at + 1:q.at + 2] == ("of",)), None)
    if share is not None:  # "just over half of the 50,000 sum insured": a share, judged as one (86th audit)
        return _share_of_mine(c, reading, clause, share)
    if any(words[k:k + 3] in (("than", "a", "claim"), ("than", "claims", "within")) for k in range(len(words))):
        return None  # "longer than a claim within my own authority would": another claim, supposed (85th audit)
    own = {*label, *reading.words[clause][part.start:part.stop]}
    if c.lapsed and own & {"authority", "mandate", "powers"} and not own & {"limit", "limits"} and (
            AFFIRMED in reading.in_sentence("declined", clause)):
        return None  # "declined within my authority": a lapsed policy's decline is the handler's at any amount
    cues = own if own & OWNER_CUES else set(words)
    # The one an escalation goes to is named as such, not as the owner of a limit: "escalated
    # (over limit) to SNR-07" is over the handler's limit.
    escalating = bool(reading.polarities("escalated", clause))
    owning = {i for i, k, at in reading.id_at if k == clause and _possessive(reading, k, at)}
    staff = [i for i, k in reading.ids if k == clause and i != AGENT and ctx.row("staff", i) is not None
             and not (escalating and i in reading.directed and i not in owning)]
    named_here = [i for i, k, at in reading.id_at if k == clause and at in part and i in staff
                  and (i not in reading.directed or _possessive(reading, k, at))]
    # ("(to SNR-07)" names where it went, not whose limit; "above SNR-04's limit; sending to SNR-04
    # anyway" names whose limit too: 67th audit)
    apposed = _apposed(ctx, reading, clause)
    if not staff and own & {"their", "his", "her"} and clause and reading.sentence_of[clause - 1] == (
            reading.sentence_of[clause]) and len(earlier := {i for i, k in reading.ids if k == clause - 1 and i != AGENT
                                                             and ctx.row("staff", i) is not None}) == 1:
        staff = list(earlier)  # "SNR-04 not used as 90,000 is above their 50,000 limit": SNR-04's
    if named_here:  # "above my limit and above SNR-07's £50,000 limit": this part's owner is SNR-07
        staff, cues = named_here, own - FIRST_PERSON
    elif apposed and not own & FIRST_PERSON:  # "to SNR-07 (approval limit £50,000)", "to SNR-07, whose limit…"
        staff, cues = [apposed], own
    if not staff and not cues & OWNER_CUES and (role := _role_before(reading, clause)):
        # "SNR-01 (liability senior, limit 150,000)": SNR-01's; "to you (motor senior, 50,000 limit)": the senior's
        staff = [i for i, k, at in reading.id_at if k == clause - 2 and at == len(reading.words[k]) - 1
                 and ctx.row("staff", i) is not None][-1:]
        cues = cues if staff else cues | role
    head = reading.polarities("head_of_claims", clause) - {NEGATED}
    if cues & ({"every", "all", "any"} | SUPERLATIVE) and cues & {"senior", "seniors", "reviewer", "reviewers"} or (
            cues & SUPERLATIVE and not cues & (FIRST_PERSON | {"head"}) and not staff and not head):
        # (or a top limit alone: "no travel senior can approve 740,000 (top limit 500,000)")
        tops = [v for i, v in reviewers(ctx, c).items() if i not in (HEAD, AGENT)]
        if not tops:
            return None
        owner, limit = "every senior's", max(tops)
    elif "reviewer" in cues and not cues & ({"senior", "seniors"} | FIRST_PERSON) and not staff and not head and len(
            sent := {r["to_staff"] for r in c.escalations}) == 1 and (row := ctx.row("staff", next(iter(sent)))):
        # "reviewer_limit: 150000", "the reviewer's limit is £50,000": the one reviewer it went to
        owner, limit = f"{next(iter(sent))}'s", float(row["approval_limit"])
    elif cues & {"senior", "seniors"} and not staff and not head and not cues & FIRST_PERSON and not (
            cues & {"your", "yours", "you"} and addressee):  # "within the limit of the property senior": one of them
        tops = [v for i, v in reviewers(ctx, c).items() if i not in (HEAD, AGENT)]
        if not tops:
            return None
        owner, limit = "a senior's", max(tops)
    elif "excess" in cues and not cues & SINGULAR:  # "below the excess" ("we paid … less your excess" too)
        owner, limit = "the policy excess", float((ctx.row("policy", c.claim.get("policy_id")) or {}).get(
            "excess") or 0)
    elif {"sum", "insured"} <= cues or "cover" in cues and "your" in cues and cues & set(COMPARING) and not (
            cues & SINGULAR):
        # ("the amount exceeds your cover": the sum insured; 74th audit)
        owner, limit = "the sum insured", float((ctx.row("policy", c.claim.get("policy_id")) or {}).get(
            "sum_insured") or 0)
    elif cues & FIRST_PERSON and not staff:
        owner, limit = "your", c.limit
    elif cues & {"your", "yours", "you"} and addressee and ctx.row("staff", addressee) is not None:
        # ("you have the lowest limit that covers it": the reviewer an escalation goes to)
        owner, limit = f"{addressee}'s", float((ctx.row("staff", addressee) or {})["approval_limit"])
    elif len(set(staff)) == 1 and not cues & FIRST_PERSON:
        owner, limit = f"{staff[0]}'s", float((ctx.row("staff", staff[0]) or {})["approval_limit"])
    elif head and not staff and not cues & FIRST_PERSON:
        owner, limit = "the head of claims'", float((ctx.row("staff", HEAD) or {}).get("approval_limit") or 0)
    elif not staff and not cues & OTHER_OWNERS and not reading.polarities("reviewer", clause):
        owner, limit = "your", c.limit
    else:
        return None
    if not limit and owner != "the policy excess":  # a nil excess is still a figure to be within
        return None
    labelled = clause + 1 < len(reading.joined) and reading.joined[clause + 1]  # "My limit:" then "£10,000"
    in_clause = [q for q in reading.quantities if (q.clause == clause or labelled and q.clause == clause + 1 and (
        not q.at)) and (q.kind == "money" or _grouped_after_limit(reading, q) or _bracketed_after_covered(
            reading, q, reading.words[q.clause])) and q.polarity != NEGATED
        and isinstance(q.value, float)]
    money = [q for q in in_clause if q.at in part or q.clause != clause]
    if owner == "your" and (theirs := next((q.value for q in money if isinstance(q.value, float) and _limit_figure(
            reading, q) and abs(q.value - limit) > EPS and q.value in _described(ctx, reading, clause)), None)):
        owner, limit = "the named reviewer's", theirs  # "SNR-01 present, 50k limit > 22k": SNR-01's limit
    for q in money:
        if owner == "a senior's":  # a figure of one of them; within the highest, above the lowest
            if _limit_figure(reading, q) and not any(abs(float(q.value) - v) <= EPS for v in tops):  # type: ignore[arg-type]
                return f"states {q.text} as a senior's limit; theirs are {', '.join(f'{v:g}' for v in sorted(tops))}"
            continue
        if not _limit_figure(reading, q):
            continue
        if list(reading.before(q.clause, q.at, 3))[-2:] == ["sum", "insured"] and owner != "the sum insured":
            # "Sum insured 20,000 noted for the reviewer": the figure's own label names it (71st audit)
            insured = float((ctx.row("policy", c.claim.get("policy_id")) or {}).get("sum_insured") or 0)
            if abs(float(q.value) - insured) > EPS:  # type: ignore[arg-type]
                return f"states {q.text} as the sum insured; it is {insured:g}"
            continue
        if (their := _owner_apposed(ctx, reading, q)) is not None:  # "to SNR-07 (limit £50,000)": theirs
            ident, own_limit = their
            if abs(float(q.value) - own_limit) > EPS:  # type: ignore[arg-type]
                return f"states {q.text} as {ident}'s limit; it is {own_limit:g}"
            continue
        before = list(reading.before(q.clause, q.at, 4))
        if before[-1:] in (["limit"], ["authority"]) and set(COMPARING).intersection(before[:-1]) and any(
                abs(float(q.value) - float(v)) <= EPS for v in (c.assessed, c.claim.get("amount_claimed")) if v):  # type: ignore[arg-type]
            continue  # "Over my limit (47,000)": the claim's figure set against the limit (91st audit)
        if abs(float(q.value) - limit) > EPS and not (  # type: ignore[arg-type]
                owner == "your" and float(q.value) in _described(ctx, reading, clause)):  # type: ignore[arg-type]
            return f"states {q.text} as {owner} limit; it is {limit:g}"
    if owner == "every senior's":  # "above every senior's limit (the highest is £150,000)"
        for q in reading.quantities:
            if q.clause in (clause, clause + 1) and (q.kind == "money" or q.kind == "number" and isinstance(
                    q.value, float) and q.value >= 100) and isinstance(q.value, float) and (
                    SUPERLATIVE.intersection(reading.before(q.clause, q.at, 4))) and abs(q.value - limit) > EPS and (
                    reading.before(q.clause, q.at, 1) != ["by"]):  # "beyond the top limit by 240,000": a gap
                return f"states {q.text} as the highest senior limit; it is {limit:g}"
    said = [m for m in reading.mentions if m.clause == clause and m.at in part] or [
        m for m in reading.mentions if m.clause == clause]
    if not {m.meaning for m in said} & {"above", "within"} and clause and reading.sentence_of[clause - 1] == (
            reading.sentence_of[clause]) and len([w for w in reading.words[clause] if w]) <= 4 and all(
            reading.words[clause]) and not {"is", "are", "was", "were", "be"} & set(reading.words[clause]):
        # "exceeds my limit and the sum insured": the comparison reaches the bare noun after "and" (69th audit)
        flip = -1 if {"not", "nor", "never"} & set(reading.words[clause]) else 1  # ("but not the sum insured")
        said = said + [m._replace(polarity=flip * m.polarity) for m in reading.mentions
                       if m.clause == clause - 1 and m.meaning in ("above", "within")]
    if numbered_rule(reading.words[clause]):
        return None  # (its figures are checked above)
    polarities = {(m.meaning, m.polarity) for m in said}
    above = ("above", AFFIRMED) in polarities or ("within", NEGATED) in polarities
    within = ("within", AFFIRMED) in polarities or ("above", NEGATED) in polarities
    if above == within:
        return None
    # "£2,500 over my limit": the difference from the limit, not the amount set against it
    gaps = [q for q in (money or in_clause) if reading.after(q.clause, q.at) in GAP_WORDS and (
        reading.after(q.clause, q.at) not in ("more", "less") or reading.after(q.clause, q.at + 1) == "than") and (
        _gap(reading, q, limit))]  # ("£19,000 less £1,000": a sum, not a gap)
    by = [q for q in (money or in_clause) if q not in gaps and reading.before(q.clause, q.at, 1) == ["by"]]
    for q in gaps + by:  # ("over my limit by 15,500" on 15,500 assessed: 85th audit)
        if abs(float(q.value) - abs(c.assessed - limit)) > EPS:  # type: ignore[arg-type]
            return f"states {q.text} as the difference from {owner} limit; it is {abs(c.assessed - limit):g}"
    # the amount set against the limit as worked out ("two lots of £9,000", "£19,000 less £1,000";
    # not the operand); the limit itself as written ("1.25 times my £10,000 limit" is £10,000)
    worked = {(w.clause, w.at): w for w in worked_amounts(ctx, c, reading)}
    set_against = [q for q in (money or in_clause) if (q.clause, q.at) in worked and not _limit_figure(reading, q)
                   and not _by_gap(reading.before(q.clause, q.at, 2)) and q not in gaps]
    figures = [float(worked[q.clause, q.at].value) for q in set_against]  # type: ignore[arg-type]
    against = set_against[0] if set_against else next((  # or a bare figure: "handler limit 10,000 < 16,000"
        q for q in reading.quantities if q.clause == clause and q.at in part and q.kind == "number"
        and isinstance(q.value, float) and q.value >= 1 and not _limit_figure(reading, q)), None)
    if against is not None and _limit_first(reading, clause, part, said, against) or against is None and (
            _limit_above_it(reading, clause, part, said)):
        above, within = within, above  # "my limit of 10,000 is below the 16,000 assessed": the amount is above
    amount = figures[0] if figures else c.assessed
    claim_amounts = [v for v in (c.assessed, c.claim.get("amount_claimed"), c.claim.get("approved_amount"))
                     if v is not None]
    if figures and not any(abs(amount - v) <= EPS for v in claim_amounts):
        return f"sets {amount:g} against {owner} limit, but the claim is assessed at {c.assessed:g}"
    if owner == "a senior's" and above:
        limit = min(tops)
    if above != (amount > limit + EPS):
        return f"says {amount:g} is {'above' if above else 'within'} {owner} limit, but that limit is {limit:g}"
    return None


_ROUGH = frozenset({"just", "only", "about", "around", "roughly", "some", "exactly", "nearly", "almost", "over"})


def _by_gap(before: list[str]) -> bool:
    """A figure after "by" is the gap ("over the limit by just £5,000"), not an amount set against it."""
    return before[-1:] == ["by"] or before[-2:-1] == ["by"] and before[-1] in _ROUGH


def _possessive(reading: Reading, clause: int, at: int) -> bool:
    """The id at ``at`` owns what follows it: "SNR-04's limit", "above SNR-11's 150,000"."""
    return reading.words[clause][at + 1:at + 2] == ("s",)


def _compared_with_owner(ctx: GradeContext, reading: Reading, clause: int) -> list[int]:
    """Where a clause sets the amount against a staff member's own figure with no limit word:
    "above SNR-11's 150,000" — the figure a senior owns is their limit (67th audit)."""
    words = reading.words[clause]
    figures = {q.at for q in reading.quantities if q.clause == clause}
    return [at for i, k, at in reading.id_at if k == clause and _possessive(reading, k, at) and at + 2 in figures
            and words[at - 1:at] and words[at - 1] in COMPARING and ctx.row("staff", i) is not None]


def _limit_first(reading: Reading, clause: int, part: range, said: list[Any], amount: Quantity) -> bool:
    """The limit is the comparison's subject and the amount its object: "handler limit 10,000 <
    16,000", "my limit of 10,000 is lower than the 16,000 assessed" (not "exceeded by 16,000")."""
    compared = [m.at for m in said if m.meaning in ("above", "within")]
    limit = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit" and m.at in part]
    if amount.clause != clause or not compared or not limit:
        return False
    at = compared[0]
    return min(limit) < at < amount.at and "by" not in reading.words[clause][at:amount.at]


def _role_before(reading: Reading, clause: int) -> set[str]:
    """The words of a short clause naming a role right before ``clause``, in its sentence ("motor
    senior" before "50,000 limit"), or nothing."""
    if not clause or reading.sentence_of[clause - 1] != reading.sentence_of[clause]:
        return set()
    role = {w for w in reading.words[clause - 1] if w}
    return role if len(role) <= 3 and ROLES.intersection(role) else set()


_OBJECT_OF = frozenset({"to", "of", "than", "with", "as", "equal", "equals", "matching", "matches"})


def _limit_above_it(reading: Reading, clause: int, part: range, said: list[Any]) -> bool:
    """The limit compared with the amount named by a pronoun: "the senior with the lowest limit
    above it" (the limit is above the amount: the amount is within)."""
    words = reading.words[clause]
    # (not a limit in the subject's phrase: "an amount equal to the limit is within it"; 83rd audit)
    limit = [m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit" and m.at in part
             and _OBJECT_OF.isdisjoint(words[max(0, m.at - 2):m.at])]
    return any(limit and min(limit) < m.at and words[m.at + 1:m.at + 2] in (("it",), ("this",), ("that",))
               for m in said if m.meaning in ("above", "within"))


def _apposed(ctx: GradeContext, reading: Reading, clause: int) -> str | None:
    """The staff member a clause describes when it follows straight on their id: "SNR-07 (approval
    limit £50,000)", "SNR-07, whose limit of £50,000 covers it"."""
    if clause >= len(reading.words) or not reading.words[clause]:
        return None
    words = reading.words[clause]
    for ident, k, at in reading.id_at:  # in the clause: "to SNR-07 (authority £50,000)"
        limit = next((m.at for m in reading.mentions if m.clause == clause and m.meaning == "limit" and m.at > at),
                     None)
        if k == clause and limit is not None and ctx.row("staff", ident) is not None and all(
                w in APPOSITION or not w for w in words[at + 1:limit]):
            return ident
    if clause == 0:
        return None
    before = reading.words[clause - 1]  # its id ends the clause before, a bracket or two aside
    found = next((i for i, k, at in reading.id_at if k == clause - 1 and not any(before[at + 1:])), None)
    if found is None or ctx.row("staff", found) is None:
        return None
    first = reading.words[clause][0]
    opens = first in APPOSITION or any(m.meaning == "limit" and m.at == 0 for m in reading.mentions
                                       if m.clause == clause)
    return found if opens else None


def _owner_apposed(ctx: GradeContext, reading: Reading, q: Quantity) -> tuple[str, float] | None:
    """The staff member whose id a limit's figure follows with only its label between: "SNR-07
    (limit £50,000)", "SNR-07, approval limit: £50,000"."""
    words = reading.words[q.clause]
    at_ids = {at: i for i, c, at in reading.id_at if c == q.clause}
    k = q.at - 1
    while k >= 0 and k not in at_ids and (not words[k] or words[k] in LIMIT_WORDS or words[k] in LIMIT_LINKS or (
            words[k] in ("approval", "authority", "their", "his", "her", "s"))):
        k -= 1
    ident = at_ids.get(k)
    row = ctx.row("staff", ident) if ident is not None and ident != AGENT else None
    if row is None or row.get("approval_limit") is None:
        return None
    return ident, float(row["approval_limit"])  # type: ignore[return-value]


def _described(ctx: GradeContext, reading: Reading, clause: int) -> set[float]:
    """The limits of the staff a text named before a clause that names no owner: "Referred to
    SNR-07 today; property specialist, limit £50,000" describes SNR-07 (a figure true of them
    is no claim about the handler's)."""
    if OWNER_CUES.intersection(reading.words[clause]):
        return set()
    return {float(row["approval_limit"]) for i, k in reading.ids if k < clause and i != AGENT
            and (row := ctx.row("staff", i)) is not None and row.get("approval_limit") is not None}


APPOSITION = frozenset({"whose", "who", "which", "with"})
def _grouped_after_limit(reading: Reading, q: Quantity) -> bool:
    """A figure grouped in thousands with no currency, told as a limit's right after its word: "SNR-04
    limit is only 10,000" (47th audit)."""
    if q.kind != "number" or not isinstance(q.value, float) or q.value < 1000 or "," not in q.text:
        return False
    before = reading.before(q.clause, q.at, 4)
    while before and before[-1] in LIMIT_LINKS | ONLY:
        before = before[:-1]
    return before[-1:] in (["limit"], ["authority"])


SUPERLATIVE = frozenset({"highest", "top", "maximum", "max", "largest", "biggest", "most"})


def too_low(ctx: GradeContext, c: Case, reading: Reading) -> str | None:
    """A limit said too low for the claim when it covers the claim: "SNR-10's limit of 50,000 is
    too low" on a 24,000 claim (55th audit), "SNR-04's limit is too low" with no figure (67th). With
    a figure of its own after it ("too low for 38,000") the comparison is ``false_comparison``'s."""
    if "low" not in reading.word_set and "enough" not in reading.word_set and "insufficient" not in reading.word_set:
        return None
    for ident, k, at in reading.id_at:
        words = reading.words[k]
        if not _possessive(reading, k, at) or words[at + 2:at + 3] not in (("limit",), ("authority",)) or any(
                q.clause == k and q.at > at for q in reading.quantities):
            continue
        row = ctx.row("staff", ident)
        if row and row.get("approval_limit") and TOO_LOW.match(" ".join(w for w in words[at + 3:at + 8] if w)) and (
                float(row["approval_limit"]) >= c.assessed - EPS):
            return (f"says {ident}'s limit is too low, but the claim's {c.assessed:g} is within its "
                    f"{row['approval_limit']:g}")
    for q in reading.quantities:
        if q.kind != "money":
            continue
        words = reading.words[q.clause]
        after = " ".join(w for w in words[q.at + 1:q.at + 7] if w)
        named: set[str] = set(LIMIT_NOUNS.intersection(words[max(0, q.at - 4):q.at]))
        if (noun := after.partition(" ")[0]) in LIMIT_NOUNS:  # "their £50,000 limit isn't enough" (83rd audit)
            named, after = {noun}, after.partition(" ")[2]
        if TOO_LOW.match(after) and named and not any(
                p.clause == q.clause and p.at > q.at and p.kind == "money" for p in reading.quantities) and (
                amount(q) >= c.assessed - EPS):
            return f"says a limit of {amount(q):g} is too low, but the claim's {c.assessed:g} is within it"
    return None


TOO_LOW = lazy(r"(?:is|was|would\s+be|are)\s+(?:too\s+(?:low|small)|not\s+(?:enough|sufficient|high\s+enough)|"
               r"insufficient)\b")
LIMIT_NOUNS = frozenset({"limit", "authority", "mandate"})


def _share_of_mine(c: Case, reading: Reading, clause: int, share: Quantity) -> str | None:
    """An amount set against a share of the handler's own limit: "5,600 (just over half my limit)"
    holds on a 10,000 limit, "15,500 is below half my limit" does not (88th audit). A share of
    another's limit or of the sum insured is judged elsewhere."""
    here = reading.words[clause]
    if FIRST_PERSON.isdisjoint(here[share.at + 2:share.at + 4]) or not isinstance(share.value, float):
        return None
    sentence = reading.sentence_of[clause]
    amounts = [q.value for q in reading.quantities if q.kind in ("money", "number") and isinstance(q.value, float) and (
        q.value >= 100) and q.polarity == AFFIRMED and reading.sentence_of[q.clause] == sentence and (
        q.clause, q.at) < (clause, share.at)]
    if not amounts:
        return None
    value, part, side = amounts[-1], share.value / 100 * c.limit, here[share.at - 1]
    below = side in ("within", "under", "below", "inside")
    if (value <= part + EPS) != below and abs(value - part) > 0.02 * part:
        return (f"says {value:g} is {'below' if below else 'above'} {share.text} of your limit "
                f"({part:g} of {c.limit:g})")
    return None

