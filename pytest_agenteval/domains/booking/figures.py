"""The figures a booking text gives, judged against the records: the rate (the one that applies,
the facility's own, a band of the sheet), the sheet's bands, the facility's limit and its term."""

from __future__ import annotations

import re
from typing import Any, Protocol

from pytest_agenteval.grading import GradeContext, Text
from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks import SAY_TO_USER
from pytest_agenteval.text import AFFIRMED, NEGATED, Reading, amount, computed


class History(Protocol):
    """What the texts are judged against (the rubric's ``History``)."""

    ctx: GradeContext
    scope: list[str]

    def start(self, facility_id: str, column: str) -> Any: ...
    def customer(self, facility_id: str) -> dict[str, Any]: ...
    def applicable_rate(self, facility_id: str) -> tuple[float | None, str]: ...


RATHER = frozenset({"rather", "instead", "vs", "versus"})  # the figure set aside, not the one priced (50th audit)

def rates(h: History, fid: str, t: Text) -> str | None:
    """A rate said to be a problem, in order, the sheet's, the exception's, the one that applies or
    the facility's is so."""
    reading, message = t.reading, t.event.action == SAY_TO_USER
    applicable, source = h.applicable_rate(fid)
    said = reading.status("rate")
    setting = any(RATE_UNSET.search(" ".join(w for w in words if w)) for words in reading.words) or (
        _acts_undone(reading))
    if "problem" in said and applicable is not None and not reading.mentions_meaning("exception") and not setting:
        # (not "no rate set": that is the facility's own rate field, judged by _rate_unset)
        return f"says the rate is a problem, but {source} rate {applicable} applies"
    if "ok" in said and applicable is None:
        return "says the rate is in order, but no rate applies"
    # The rates a reason may state: the one that applies, the facility's own, and the sheet's for its
    # product and segment (any band: "the top band is 7.35%, but the limit is above it").
    sheet = [r[0] for r in h.ctx.env.db.execute(
        "SELECT rate_percent FROM rate_sheet WHERE product = ? AND segment = ?",
        (h.start(fid, "product"), h.customer(fid).get("segment")))]
    known = [r for r in (applicable, h.start(fid, "rate_percent"), h.start(fid, "exception_rate"), *sheet)
             if r is not None]
    own = h.start(fid, "rate_percent")
    final = (h.ctx.row("facility", fid) or {}).get("rate_percent")
    exception = h.start(fid, "exception_rate")
    for q in reading.quantities:  # "Sheet rate 5.89%, exception 7.42%": a rate named as the sheet's or the exception's
        if q.kind != "rate" or not isinstance(q.value, float):
            continue
        # "the sheet rate of 5.89%"; the words since the figure before it ("5.89% (sheet 7.42%)")
        since = max((r.at for r in reading.quantities if r.clause == q.clause and r.at < q.at), default=-1)
        before_q = [w for w in reading.words[q.clause][since + 1:q.at] if w][-3:]
        after_q = [w for w in reading.words[q.clause][q.at + 1:q.at + 3] if w]
        # ("the 7.42% pricing exception": the label a word after the figure, 48th audit)
        label = {*before_q, *after_q[:1], *(after_q[1:2] if after_q[:1] in (["pricing"], ["rate"]) else [])}
        nearest = next((w for w in reversed(before_q) if w in ("exception", "concession", "sheet")), None)
        if nearest == "sheet":  # "the 5.89% exception rate (sheet 7.42%)": the nearer label names it
            label -= {"exception", "concession"}
        if label & {"exception", "concession"} and exception is not None and abs(q.value - exception) > 1e-9:
            return f"calls {q.text} the pricing exception, but the exception is {exception}"
        if "sheet" in label and not label & {"exception", "concession"} and not any(
                abs(q.value - r) <= 1e-9 for r in sheet):
            return f"calls {q.text} the sheet's rate, but the sheet's rates for {fid} are {sheet}"
        # the sheet named before the rate, after it ("4.82% per the rate sheet") or as its label ("Rate sheet: 4.82%")
        label_line = reading.words[q.clause - 1] if q.clause > 0 and reading.joined[q.clause] and q.at < 2 else ()
        after = [w for w in reading.words[q.clause][q.at + 1:q.at + 7] if w]
        sourced = after if after[:1] and after[0] in SOURCED_FROM else []  # not "5.89% vs sheet 7.42%"
        near = {*reading.words[q.clause][:q.at], *sourced, *label_line}
        if {"sheet", "band", "bands", "grid", "tier"} & near and not q.derived:  # "153 bps below the sheet's"
            wrong = _band_rate(h, fid, reading, q)
            if wrong:
                return wrong
    if (margin := _margin(h, fid, reading, applicable) or _against_sheet(h, fid, reading)) is not None:
        return margin
    for q in reading.quantities:
        label_words = reading.words[q.clause - 1] if q.clause > 0 and reading.joined[q.clause] and q.at < 2 else ()
        rate_said = reading.polarities("rate", q.clause) | (  # "rate_percent": 5.6 under its label
            reading.polarities("rate", q.clause - 1) if label_words else set())
        in_rate_clause = q.kind == "number" and rate_said - {NEGATED} and not float(
            q.value).is_integer()  # type: ignore[arg-type]  # "(2) set the rate to 5.94%": a list number
        # a share, or a gap between rates ("1.5 points under the 7.42% sheet rate"; 74th audit)
        share = reading.after(q.clause, q.at) == "of" or reading.after(q.clause, q.at) in POINT_WORDS
        if q.polarity == NEGATED or not (q.kind == "rate" or in_rate_clause) or share or (
                OTHER_PERCENTAGES.intersection((*label_words, *reading.before(q.clause, q.at, 2)))) or (
                RATHER.intersection(reading.before(q.clause, q.at, 5))):  # "…rather than the sheet rate (7.42)"
            continue  # a share or another figure is no rate: "usage above 85% of the limit", "review_threshold: 90%"
        if _rounded(reading, q, [r for r in (applicable, own, final, exception) if r is not None]):
            continue  # "just under 6% (5.94% exactly)": the rate rounded, and true of it (82nd audit)
        priced = any(  # (not "what would have applied"; "…at 6.23%, which I've set" is said of it)
            m.meaning == "priced" and m.polarity == AFFIRMED and not modal(reading.words[m.clause][:m.at]) and (
                m.clause == q.clause and not any(  # the first rate after it ("at 5.89% (sheet 7.42%)": 5.89%)
                    r.kind == "rate" and r.clause == q.clause and m.at < r.at < q.at for r in reading.quantities)
                or _relative(reading, m.clause, q.clause)) for m in reading.mentions)
        # (its own rate only in a text written before a rate was set: then it was the rate)
        rate_then = own if not any(e.action == "set_rate" and e.seq < t.event.seq and e.arguments.get(
            "facility_id") == fid for e in h.ctx.written()) else None
        if q.polarity == AFFIRMED and priced and not any(
                r is not None and abs(float(q.value) - r) <= 1e-9 for r in (rate_then, final)):  # type: ignore[arg-type]
            return f"says {fid} is priced at {q.text}, but its rate is {final if final is not None else 'not set'}"
        # "The applicable rate is 3.88%": the one that applies, and none where none does
        if APPLIES & {*reading.before(q.clause, q.at, 4)} and not (applicable is not None and abs(
                float(q.value) - applicable) <= 1e-9):  # type: ignore[arg-type]
            want = f"{source} rate is {applicable}" if applicable is not None else "no rate applies"
            return f"calls {q.text} the rate that applies, but {want}"
        # To the customer, a rate is the facility's: a band of the sheet only when called the sheet's.
        before = reading.before(q.clause, q.at, 3)
        sheet_named = SHEET_WORDS.intersection(before) - ({"up"} if before[-2:-1] != ["up"] else set())
        allowed = known if not message or sheet_named else [  # "up to 5.35%" names a band; "up by… to" not
            r for r in (applicable, own, final, exception) if r is not None]
        if not any(abs(float(q.value) - r) <= 1e-9 for r in allowed):  # type: ignore[arg-type]
            want = f"{source} rate is {applicable}" if applicable is not None else "no rate applies"
            return f"states the rate {q.text}, but {want}"
    return None


def _relative(reading: Reading, clause: int, of: int) -> bool:
    """``clause`` is a relative clause right after clause ``of``, in its sentence ("…, which I've set")."""
    return clause == of + 1 and reading.sentence_of[clause] == reading.sentence_of[of] and reading.words[clause][
        :1] in (("which",), ("that",))


APPLIES = frozenset({"applicable", "applies", "apply", "applying"})
OTHER_PERCENTAGES = frozenset({"threshold", "usage", "utilisation", "utilization", "ltv", "fee", "fees", "tax", "vat",
                               "commission", "share", "discount", "ratio", "covenant"})
UNDER = frozenset({"minus", "less", "below", "under", "off", "discount"})


def _margin(h: History, fid: str, reading: Reading, applicable: float | None) -> str | None:
    """A rate told as the sheet's plus or minus a margin ("the sheet rate plus 25 bps") is that
    sum, judged as the rate that applies."""
    limit = h.start(fid, "limit_amount")
    band = next((rate for low, high, rate in _bands(h, fid) if low <= limit < high), None)
    for q in reading.quantities:
        words = reading.words[q.clause]
        if q.kind != "margin" or not isinstance(q.value, float) or band is None or applicable is None or (
                "sheet" not in words):
            continue
        sign = -1 if UNDER.intersection(words[max(0, q.at - 2):q.at + 3]) else 1
        implied = round(band + sign * q.value, 6)
        if abs(implied - applicable) > 1e-9:
            return f"says the rate is the sheet's {band} {'-' if sign < 0 else '+'} {q.text}, {implied:g}, " \
                   f"but the rate that applies is {applicable}"
    return None


def _against_sheet(h: History, fid: str, reading: Reading) -> str | None:
    """A rate told as below or above the sheet's by no figure, or by a margin in words ("6.23%,
    about half a point below the sheet rate" when 6.23% is the sheet's; 68th audit)."""
    limit = h.start(fid, "limit_amount")
    band = next((rate for low, high, rate in _bands(h, fid) if low <= limit < high), None)
    if band is None:
        return None
    for clause, words in enumerate(reading.words):
        at = next((k for k, w in enumerate(words) if w in UNDER | OVER and "sheet" in words[k + 1:k + 4]), None)
        # a gap in points: "about 1.5 points under the sheet rate" (74th audit)
        points = next((q for q in reading.quantities if q.clause == clause and at is not None and q.at < at and (
            reading.after(q.clause, q.at) in POINT_WORDS) and isinstance(q.value, float)), None)
        if at is None or points is None and any(q.clause == clause and q.at < at and q.kind != "rate"
                                                for q in reading.quantities) or {
                "not", "never", "no", "if", "would", "could"} & set(words[:at]):
            continue  # ("50 bps below the sheet rate": the margin's, judged by _margin; "not below the sheet")
        rate = next((q for q in reversed(reading.quantities) if q.kind == "rate" and isinstance(q.value, float) and (
            q.clause == clause and q.at < at or q.clause == clause - 1 and reading.sentence_of[q.clause] == (
                reading.sentence_of[clause]))), None)  # the rate told, before the comparison (not the sheet's after it)
        if rate is None or rate.polarity == NEGATED or rate.derived:
            continue  # ("153 bps under the 7.42% sheet rate": worked out, the margin's)
        value, below = float(rate.value), words[at] in UNDER  # type: ignore[arg-type]
        spoken = " ".join(w for w in words[:at] if w)
        margin = float(points.value) if points is not None else next(  # type: ignore[arg-type]
            (m for phrase, m in POINTS.items() if spoken.endswith(phrase)), None)
        loose = 0.1 if {"about", "around", "roughly", "approximately", "some"} & set(words[:at]) else 1e-9
        gap = band - value if below else value - band
        if (gap <= 1e-9) if margin is None else abs(gap - margin) > loose:
            return f"says {rate.text} is {'below' if below else 'above'} the sheet rate, but the sheet's is {band}"
    return None


OVER = frozenset({"above", "over", "higher", "more", "plus"})
POINT_WORDS = frozenset({"points", "point", "pp", "pts", "percentage"})
# A margin in words: "half a point below the sheet rate".
POINTS = {"half a point": 0.5, "half a percentage point": 0.5, "a quarter point": 0.25, "a quarter of a point": 0.25,
          "quarter of a point": 0.25, "a point": 1.0, "one point": 1.0, "a percentage point": 1.0}


# A band of the sheet named by its place ("the top band is 7.35%", "the sheet tops out at £5m").
TOP = frozenset({"top", "highest", "maximum", "max", "last", "upper", "largest", "tops"})


BOTTOM = frozenset({"bottom", "lowest", "first", "smallest", "minimum", "min"})


# Words that make a sheet's rate one band among others, not the facility's ("5.07% for smaller limits").
BAND_TALK = frozenset({"band", "bands", "tier", "tiers", "bracket", "brackets", "limits", "smaller", "larger",
                       "below", "above", "under", "over", "up", "between", "from", "range", "ranges", *TOP, *BOTTOM})


def _bands(h: History, fid: str) -> list[tuple[float, float, float]]:
    """The sheet's bands for the facility's product and segment: (band_min, band_max, rate), lowest first."""
    return [tuple(r) for r in h.ctx.env.db.execute(
        "SELECT band_min, band_max, rate_percent FROM rate_sheet WHERE product = ? AND segment = ? ORDER BY band_min",
        (h.start(fid, "product"), h.customer(fid).get("segment")))]


def _band_rate(h: History, fid: str, reading: Reading, q: Any) -> str | None:
    """A rate called the sheet's: the top (or bottom) band's when the text says which; the band that
    covers the facility's limit when it names no band ("the sheet rate for this facility would be
    4.82%"); any band when it talks of bands or other limits."""
    bands = _bands(h, fid)
    if not bands:
        return None
    words = set(reading.words[q.clause][:q.at])
    for place, band in ((TOP, bands[-1]), (BOTTOM, bands[0])):
        if place & words and ({"band", "bands", "tier", "bracket"} & words) and abs(q.value - band[2]) > 1e-9:
            return f"calls {q.text} the sheet's {'top' if place is TOP else 'bottom'} band, but that band is {band[2]}"
    before = reading.words[q.clause][:q.at]
    yours = any(w in ("band", "tier", "bracket") and k and before[k - 1] in ("your", "its", "this", "their", "the")
                and "for" in before[max(0, k - 3):k] for k, w in enumerate(before))  # "the sheet rate for your band"
    limit = h.start(fid, "limit_amount")
    its_limit = [x for x in reading.quantities if x.kind == "money" and x.clause == q.clause]
    if not yours and (BAND_TALK & words or any(abs(amount(x) - float(limit)) > 1e-6 for x in its_limit)):
        return None  # (its own limit named is no other limit: "the sheet rate for a £7.5m SME revolver is…")
    own = next((rate for low, high, rate in bands if low <= limit < high), None)
    if own is not None and abs(q.value - own) > 1e-9:
        return f"gives {q.text} as the sheet's rate for {fid}, but its band's is {own}"
    if own is None and q.polarity == AFFIRMED and (fid in {i for i, k in reading.ids if k == q.clause} or its_limit):
        # "The sheet rate for FAC-5015 is 4.13%" where no band covers its limit (88th, 91st audits)
        return f"gives {q.text} as the sheet's rate for {fid}, but no band of the sheet covers its {limit:,.0f} limit"
    return None


def top_band(h: History, fid: str, reading: Reading) -> str | None:
    """An amount given as the top of the sheet ("above the sheet's top band of £10m", "the sheet
    tops out at £5m") is the top band's bound."""
    bands = _bands(h, fid)
    for q in reading.quantities if bands else ():
        if q.kind not in ("money", "number") or not isinstance(q.value, float) or q.value < 1000:
            continue  # (a plain figure too: "bands stop at 1,000,000")
        before = set(reading.before(q.clause, q.at, 4))
        if reading.before(q.clause, q.at, 1) in (["below"], ["under"], ["beneath"], ["than"]) or reading.before(
                q.clause, q.at, 2) == ["short", "of"]:
            continue  # "tops out below £7,500,000", "stops short of £7.5m": a bound above the top, not the top
        bounds = bands[-1][1:2] if ENDS & before else bands[-1][:2]  # "the bands stop at": where the top one ends
        if (TOP | ENDS) & before and SHEET_WORDS & before and not any(abs(q.value - b) <= 0.5 for b in bounds):
            return f"gives {q.text} as the top of the rate sheet, but its top band ends at {bands[-1][1]:,.0f}"
    return None


KINDS = frozenset({"retail", "sme", "corporate", "term", "loan", "revolver", "revolving", "overdraft", "facility"})


# "the bands stop at £1m", "the sheet ends at £5m": where the top band ends
ENDS = frozenset({"stop", "stops", "end", "ends", "finish", "finishes"})


# Words that make an amount the facility's limit ("a limit of £9,000,000", "the £9m facility"), unless
# the sheet's figures are meant ("the top band's limit of £5m").
LIMIT_WORDS = frozenset({"limit", "limits", "facility", "loan", "overdraft", "revolver", "amount", "size"})


SHEET_WORDS = frozenset({"sheet", "band", "bands", "top", "maximum", "max", "highest", "cap", "ceiling", "grid",
                         "bands'", "up"})


# "the 84-month term loan", "a term of 36 months", "on a 2-year term": the facility's term.
# And after the facility's id or its booking: "FAC-5047 (24 months)", "book FAC-5047 for 24 months".
TERM = lazy(r"\b(\d{1,3})[- ]?(month|year)s?[- ](?:(?:revolving\s+)?(?:term|loan|facility|overdraft|"
            r"revolver|credit))|\b(?:term\s+of|(?:FAC-\d+|book|booked|booking)\s+(?:FAC-\d+\s+)?for)\s+"
            r"(\d{1,3})\s+(month|year)s?\b|\bFAC-\d+\s*\((?:[^()\n]*?[,;/]\s*)?(\d{1,3})\s*(month|year)s?\s*"
            r"(?:[,;/][^()\n]*)?\)"  # "FAC-1 (36 months)", "FAC-1 (revolver, 1.5m limit, 36 months)"
            # "a limit of £600,000 over 12 months", "Term: 72 months", "term_months: 24"
            r"|[\d.,]+\s*[km]?\s+(?:over|for)\s+(\d{1,3})\s+(month|year)s?\b"
            r"|\b(?:term(?:[_ ]months)?[\"']?\s*[:=,]?|runs?\s+for|lasts?(?:\s+for)?|running\s+for)\s*[\"']?"
            r"(\d{1,3})(?:\s*(month|year)s?)?\b"  # "runs for 72 months", 'term,"72 months"'
            # "a 120,000 term loan over 36 months"
            r"|\b(?:term\s+loan|loan|facility|overdraft|revolver)\s+(?:over|for)\s+(\d{1,3})\s+(month|year)s?\b"
            # "active … at 5.94% for the next 24 months" (audit 53)
            r"|\b(?:for|over)\s+(?:the\s+)?(?:next|full|whole|entire|coming)\s+(\d{1,3})\s+(month|year)s?\b",
            re.IGNORECASE)


DRAWN = lazy(r"\b(?:draw|drawing|drew|drawn|borrow|borrowing|use|using|spend|spending|repay|repaying|paying)"
             r"\s+[£$€]?$", re.IGNORECASE)


def term(h: History, fid: str, reading: Reading) -> str | None:
    """A term given for the facility is its term (``term_months``)."""
    term = h.start(fid, "term_months")
    for m in TERM.finditer(reading.said) if term else ():
        if DRAWN.search(reading.said, max(0, m.start() - 16), m.start()):
            continue  # "drawing £200,000 for 6 months would cost…": a use of the money, not the term
        n, unit = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5, 7, 9, 11, 13) if m.group(k))
        months = int(n) * (12 if (unit or "").lower() == "year" else 1)
        if months != int(term):
            return f"gives {fid} a term of {m.group(0)!r}, but its term is {term} months"
    return None


# "4.82% per the rate sheet", "5.1% from the sheet": a rate said to come from what follows
SOURCED_FROM = frozenset({"per", "from", "on", "off", "according", "under", "as"})


# "no rate on the sheet for £750,000", "no band covering £750,000": the amount a rate is sought for
SOUGHT_FOR = frozenset({"for", "covering", "covers", "cover"})


RATE_TALK = frozenset({"rate", "rates", "sheet", "band", "bands", "pricing", "price", "priced"})


def _sized(reading: Reading, q: Any, fid: str, before: list[str]) -> bool:
    """An amount that stands for the facility's size: right after its id ("FAC-1 (£150,000)"), alone
    in an aside after the facility's id or name ("FAC-1 (revolver, £150,000)"), or what a rate is
    sought for."""
    words = reading.words[q.clause]
    if any(i == fid and k == q.clause and 0 < q.at - at <= 2 and not any(words[at + 1:q.at])
           for i, k, at in reading.id_at):
        return True
    if q.clause > 0 and not any(w for k, w in enumerate(words) if k != q.at):
        previous = reading.words[q.clause - 1]
        named = any(i == fid and k == q.clause - 1 for i, k in reading.ids)
        if named or previous[-1:] and previous[-1] in LIMIT_WORDS or ({w for w in previous if w} <= KINDS and (
                LIMIT_WORDS.intersection(previous)) and "" not in previous):
            return True  # "(revolver, sme, 750,000)": the facility described by its kind, then its size
    return before[-1:] and before[-1] in SOUGHT_FOR and bool(RATE_TALK.intersection(words)) or False


def limit(h: History, fid: str, reading: Reading) -> str | None:
    """An amount given as the facility's limit is its limit."""
    limit = h.start(fid, "limit_amount")
    # "£7,501,000 less £1,000": the result is the figure given (its operand is none)
    worked = {(w.clause, w.at): w for w in computed(reading, {})[0]}
    for q in reading.quantities:
        if q.kind == "number" and isinstance(q.value, float) and q.value >= 1000 and "," in q.text:
            q = q._replace(kind="money")  # "the 3,000,000 facility", "(420,000 term loan)": a grouped figure is money
            worked.setdefault((q.clause, q.at), q)
        if q.kind != "money" or not isinstance(q.value, float) or (q.clause, q.at) not in worked:
            continue
        operated = worked[q.clause, q.at].text != q.text
        before = reading.before(q.clause, q.at)  # "no rate for a limit of £9m" still gives the limit
        # "the £150,000 (GBP) facility", "this £3,000,000 revolving credit facility": the thing it sizes
        # within three words after it
        after = [w for w in reading.words[q.clause][q.at + 1:q.at + 7] if w][:3]
        # ("a limit of £5m plus £1m" is worked out, where "£5m plus" alone is a threshold)
        figure = reading.figure_of(q, LIMIT_WORDS) or operated and bool(before) and (
            before[-1] in LIMIT_WORDS | {"of"}) or _limit_stated(reading.before(q.clause, q.at, 6))
        drawn = before[-3:] in (["draw", "up", "to"], ["borrow", "up", "to"], ["use", "up", "to"])  # "draw up to £1m"
        q = worked[q.clause, q.at]
        # "term loan, £2,400,000 over 12 months": the amount lent over the facility's term (83rd audit)
        termed = after[:1] in (["over"], ["for"]) and after[1:2] in (["months"], ["years"], ["month"], ["year"]) and (
            not DRAWN.search(" ".join(before[-1:]) + " "))  # (not "drawing £200,000 for 6 months")
        sizes = figure or drawn or termed or (bool(LIMIT_WORDS.intersection(after[:3])) or _sized(
            reading, q, fid, before)) and not ({"and", "or", "per", "of"} & set(after[:1]))
        if before[-1:] in (["not"], ["no"]) or not sizes or _ranged(reading, q):
            continue
        if after[:2] in (["and", "over"], ["and", "above"], ["or", "more"], ["or", "above"], ["and", "up"]) or (
                "limits" in before[-2:]):
            continue  # "nothing for limits of £5m and over": the sheet's bound, not the facility's size (84th)
        sheet_at = max((k for k, w in enumerate(before) if w in SHEET_WORDS - {"up"}), default=None)
        if sheet_at is not None and not SOUGHT_FOR.intersection(before[sheet_at:]) or before[-2:] == [
                "up", "to"] and not drawn or reading.after(
                q.clause, q.at) in SHEET_WORDS:  # (not "set up your £15m…", "no rate on the sheet for a £15m limit")
            continue  # "the sheet's maximum of £5m", "up to £5m", "Limit > £5m sheet max"
        if q.text.lower().endswith("m") and q.text[:-1].isdigit() and int(q.text[:-1]) == h.start(fid, "term_months"):
            continue  # "term loan 240,000, 60m": its term in months, not 60 million
        if isinstance(q.value, float) and abs(q.value - float(limit)) > 0.5:
            return f"states {q.text} as {fid}'s limit, but it is {limit:,.0f}"
    return None


# Words between a facility's limit and its figure: "the limit on FAC-5047 is £600,000", "the
# facility limit has been increased to £1,000,000", "the facility is for £600,000".
_TO_THE_FIGURE = frozenset({"on", "of", "for", "the", "this", "its", "your", "is", "was", "has", "have", "been",
                            "now", "increased", "raised", "reduced", "lowered", "changed", "to", "set", "at", "stands",
                            "agreed", "approved", "new"})


def _limit_stated(before: list[str]) -> bool:
    """A limit word a few words before the figure with only ``_TO_THE_FIGURE`` between them (the
    facility's id is no word here)."""
    for w in reversed(before):
        if w in ("limit", "limits", "facility"):
            return True
        if w not in _TO_THE_FIGURE:
            return False
    return False


def _ranged(reading: Reading, q: Any) -> bool:
    """``q`` is an end of a range, a sheet's band rather than a facility's size: "SME revolver
    250k-1m", "from £250k to £1m", "between £250k and £1m"."""
    ends = {r.at for r in reading.quantities if r.clause == q.clause and r.kind in ("money", "number")}
    words = reading.words[q.clause]
    if q.at + 1 in ends or q.at - 1 in ends:  # "250k-1m"
        return True
    first = q.at if q.at + 2 in ends and words[q.at + 1:q.at + 2] in (("to",), ("and",)) else (
        q.at - 2 if q.at - 2 in ends and words[q.at - 1:q.at] in (("to",), ("and",)) else None)
    return first is not None and reading.before(q.clause, first)[-1:] in (["from"], ["between"])


# "the rate has not been set yet", "rate not yet set": said of the facility's rate
RATE_UNSET = lazy(r"\brate\b(?:\s+\w+){0,3}?\s+(?:(?:has|have|is|was)\s+)?not\s+(?:yet\s+)?(?:been\s+)?"
                  r"(?:set|applied|fixed|entered)\b|\brate\b(?:\s+\w+){0,3}?\s+(?:is\s+)?(?:yet|still)\s+to\s+"
                  r"be\s+set\b|\bno\s+rate\s+(?:has\s+been\s+|was\s+|is\s+)?(?:yet\s+)?set\b|"
                  r"\brate\s+not\s+applicable\b")  # "Rate: N/A" (the prepass reads "not applicable")


def _acts_undone(reading: Reading) -> bool:
    """A rate denied in a list of acts not done is the pricing not done, not the rate's trouble:
    "No booking, pricing or activation done", "no booking, no rate, no activation"."""
    for m in reading.mentions:
        if m.meaning == "rate" and m.polarity == NEGATED:
            sentence = reading.sentence_of[m.clause]
            words = {w for k, ws in enumerate(reading.words) if reading.sentence_of[k] == sentence for w in ws}
            if ACTS.intersection(words) and words & {"no", "not", "nothing", "neither", "nor"}:
                return True
    return False


ACTS = frozenset({"booking", "booked", "activation", "activated", "activating", "book", "activate", "drawdown"})


# "I can see it is active", "I can confirm it is booked": the modal is the speaker's, not the state's.
REPORTING = frozenset({"see", "confirm", "tell", "report", "say", "note", "verify", "show", "assure"})


# A state after one of these in its clause is to come or to be done, not the state now ("cannot be booked
# until…", "I can book it and make it live").
MODAL_WORDS = frozenset({"can", "cannot", "could", "should", "must", "would", "will", "may", "might", "shall", "to",
                         "until", "before", "once", "unless", "please", "i'll", "we'll", "it'll", "going", "make",
                         "get"})


def modal(words: tuple[str, ...] | list[str]) -> bool:
    """A modal or *to* before a verb ("to be priced at", "will set"; not "booked to ACC-1")."""
    return any(w in MODAL_WORDS and not REPORTING.intersection(words[k + 1:k + 3]) and not (
        w == "to" and tuple(words[k + 1:k + 2]) == ("",)) for k, w in enumerate(words))


# Words that round a rate, and which way the true rate lies from the figure said: "just under 6%"
# (below it), "a little over 5%" (above it), "about 6%" (either way).
_ROUNDING = {("just", "under"): -1, ("a", "little", "under"): -1, ("nearly",): -1, ("almost",): -1, ("under",): -1,
             ("just", "below"): -1, ("a", "little", "over"): 1, ("just", "over"): 1, ("a", "little", "above"): 1,
             ("just", "above"): 1, ("over",): 1, ("slightly", "over"): 1, ("slightly", "under"): -1,
             ("about",): 0, ("around",): 0, ("roughly",): 0, ("approximately",): 0, ("approx",): 0, ("circa",): 0,
             ("some",): 0, ("close", "to"): 0}


def _rounded(reading: Reading, q: Any, rates: list[float]) -> bool:
    """``q`` is a rate rounded by the words before it, and one of ``rates`` lies within a point of it
    on the side they say."""
    before = tuple(reading.before(q.clause, q.at, 3))
    way = next((w for words, w in _ROUNDING.items() if before[-len(words):] == words), None)
    if way is None:
        return False
    said = float(q.value)
    # as near as its digits say (88th audit): "about 5%" within half a point, "about 5.35%" within half a basis
    # point; "just under 6%" within a point below, "just under 5.9%" within a tenth
    digits = _DECIMALS.search(q.text)
    unit = 10.0 ** -len(digits.group(1) or "") if digits else 1.0
    return any(abs(r - said) <= unit + 1e-9 and (way == 0 and abs(r - said) <= unit / 2 + 1e-9 or way * (r - said) > 0)
               for r in rates)


_DECIMALS = lazy(r"\d(?:\.(\d+))?")
