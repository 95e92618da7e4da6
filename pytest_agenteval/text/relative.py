"""A figure told by its relation to another: "30,000, twice my 10,000 limit", "505,000 - 50,000
over SNR-03's 500,000", "45,000, which is 5,000 less than you claimed", "19,000 - nearly triple my
limit", "24,000, 20% below the assessed 30,000". The relation is a claim of its own, and wrong
arithmetic told as a relation is a lie a reader can see (74th audit).

The grammar, on purpose small: a money figure; up to three words ("liability claim"); a break
(comma, colon, bracket, dash) or a link (*is, was*, "which is", "that is", "i.e."); an optional
hedge; the relation - a multiple (*twice, double, triple, treble, half, N times*), a share
("20% over/above/more than/below/under/less than", "65% of") or a difference (a figure, then one of those
words or *short of*) - and within three words the other figure, or a figure the domain names
("my limit", "you claimed": ``named``, patterns to their values). Hedges: *about, around,
roughly, approximately, some, close to* (within 15%), *nearly, almost, just under* (at most the
relation, within 15%), *over, more than, at least, well over* (at least it), *under, less than*
(at most it); with none, within 3% (rounding). Negated relations, rates and chains are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_agenteval.patterns import lazy

_NOT_GLUED = r"(?<![\w.,\-\u2010\u2011])"  # "CLM-00049" holds no figure
FIGURE = (r"[£$€]?\s?(?:\d{1,3}(?:(?:,\d{3})+|(?:\.\d{3})+(?!\d)|(?:[ \u00a0]\d{3})+)(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?)"
          r"(?:\s?(?:k|m|bn)\b)?(?!\s?%)")
_UP = r"over|above|more\s+than|higher\s+than|greater\s+than|in\s+excess\s+of|beyond"
_DOWN = r"below|under|less\s+than|lower\s+than|short\s+of|beneath"
_HEDGE = (r"(?P<hedge>about|around|roughly|approximately|approx\.?|some|close\s+to|nearly|almost|just\s+under|"
          r"well\s+over|just\s+over|over|more\s+than|at\s+least|under|less\s+than|exactly|precisely|fully|"
          r"a\s+full|just)\s+")
_MULTIPLE = (r"(?P<mult>twice|double|triple|treble|thrice|quadruple|half|"
             r"(?:a|one|two|three|four|five|six|seven|eight|nine)[- ](?:thirds?|quarters?|fourths?|fifths?|sixths?|"
             r"eighths?|tenths?)|"  # ("four fifths of your £20,000 sum insured": 86th audit)
             r"(?P<fold>two|three|four|five|ten|\d+)[- ]?fold|"
             r"(?P<n>\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
             r"forty|fifty|a\s+hundred)\s*(?:times|x))")
_CUT = r"(?:cut|reduction|discount|decrease|drop|trim)(?:\s+(?:on|from|of))?"
_RISE = r"(?:increase|uplift|rise)(?:\s+(?:on|over|of))?"
_SHARE = (rf"(?:an?\s+)?(?P<pct>\d+(?:\.\d+)?)\s?%\s+(?:(?P<pdir>{_UP}|{_DOWN}|{_CUT}|{_RISE})|(?P<of>of))")
_DIFFERENCE = rf"(?P<d>{FIGURE})\s+(?P<ddir>{_UP}|{_DOWN})"
_JOIN = (r"(?:\s*[,:;(]\s*|\s+[-\u2013\u2014]\s+|\s+(?=(?:is|was|being)\b))(?:(?:which|that)\s+(?:is|was)\s+|"
         r"that's\s+|i\.?e\.?,?\s+|being\s+|is\s+|was\s+|or\s+)?")
TOLD = lazy(rf"{_NOT_GLUED}(?P<a>{FIGURE})(?:\s+[a-z]+){{0,3}}?{_JOIN}(?:{_HEDGE})?"
            # (the rest looked at, not taken: a relation after it is read too; red team 58)
            rf"(?:{_SHARE}|{_MULTIPLE}|{_DIFFERENCE})\s+(?=(?P<rest>[^\n]{{0,80}}))", re.IGNORECASE)
_AS_MUCH = r"(?:as\s+(?:much|large|big|high|great)\s+as\s+|the\s+size\s+of\s+)?"
_OF_IT = lazy(rf"of\s+(?:that|it|this|which|them)\b[,:]?\s+(?:(?!\d)[\w'\u2019-]+\s+){{0,2}}?(?P<r>{FIGURE})",
              re.IGNORECASE)
OTHER = lazy(rf"(?:of\s+)?{_AS_MUCH}(?:(?!\d)[\w'\u2019-]+\s+){{0,3}}?(?P<b>{_NOT_GLUED}{FIGURE})(?![\w%])",
             re.IGNORECASE)
FACTORS = {"twice": 2.0, "double": 2.0, "triple": 3.0, "treble": 3.0, "thrice": 3.0, "quadruple": 4.0, "half": 0.5,
           "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "six": 6.0, "seven": 7.0, "eight": 8.0, "nine": 9.0,
           "ten": 10.0, "eleven": 11.0, "twelve": 12.0, "fifteen": 15.0, "twenty": 20.0, "thirty": 30.0, "forty": 40.0,
           "fifty": 50.0, "a hundred": 100.0}
NEAR, ROUGH = 0.03, 0.15
_FRACTION_SIDE = lazy(rf"({_UP}|{_DOWN})\s+", re.IGNORECASE)
_SECOND_SIDE = lazy(r"\b(?:vs\.?|versus|against|than|within|above|below|under|over)\s*$", re.IGNORECASE)


# A figure restated in brackets in units named in words or after "i.e.", "=", "or": "90,000 (9 lakh)",
# "£4,200 (i.e. 4.2k)" (78th audit); the same money in another currency ("£4,200 (≈ €4,914)") is no restatement,
# nor a figure in the same units ("$47,000 ($50,000)", "covers 12,500 (50k)": a limit beside an amount).
_UNITS = r"(?:\s*(?:crores?|lakhs?|lacs?|million|thousand|mn|bn|k|m)\b)?"
RESTATED = lazy(rf"{_NOT_GLUED}(?P<a>{FIGURE}){_UNITS}\s*\(\s*(?P<how>i\.?e\.?,?\s*|=\s*|or\s+|that\s+is\s+)?"
                rf"(?P<b>{FIGURE}{_UNITS})\s*\)", re.IGNORECASE)


def false_relation(said: str, named: Mapping[str, float] | None = None) -> str | None:
    """What is wrong with the first figure told as a multiple, share or difference of another that
    it is not, or restated in brackets as another; None if none (or the text tells no such relation)."""
    if not re.search(r"\d", said):
        return None
    for m in RESTATED.finditer(said) if "(" in said else ():
        a, b = value(m.group("a")), value(m.group("b"))
        if a is None or b is None or _sign(m.group("b")) not in ("", _sign(m.group("a"))):
            continue  # (another currency, or perhaps: a conversion)
        if not m.group("how") and _unit(m.group("b")) in ("", _unit(m.group("a"))):
            continue  # "$47,000 ($50,000)": a second figure beside the first (a limit, a total), not it again
        if not _holds(a, b, ""):
            return f"says {m.group(0)!r}: {b:g} is not {a:g}"
    for m in TOLD.finditer(said):
        if _SECOND_SIDE.search(said, max(0, m.start() - 12), m.start()):
            continue  # "2,500 vs 10,000 limit (a quarter of my authority)": the relation is the first side's
        a = value(m.group("a"))
        if a is not None and (m.group("mult") or m.group("of")) and (it := _OF_IT.match(m.group("rest"))):
            # "£8,400 in total, half of that 4,200 paid now": the figure after is the share of the first
            result, share = value(it.group("r")), _factor(m) if m.group("mult") else float(m.group("pct")) / 100
            if result is not None and not _holds(result, a * share, (m.group("hedge") or "").lower()):
                return f"says {(m.group(0) + it.group(0))!r}, which does not hold ({result:g} is not {a * share:g})"
            continue
        if m.group("mult") and _factor(m) < 1 and re.match(rf"{FIGURE}(?![\w%])", m.group("rest")):
            continue  # "£8,400 - half 4,200 now, half on completion": the share itself, told
        b = _other(m.group("rest"), named or {})
        if a is None or b is None:
            continue
        if m.group("mult") and (side := _FRACTION_SIDE.match(m.group("rest"))):
            # "12.5k, a quarter over my 10k limit": the fraction is the difference
            b = _other(m.group("rest")[side.end():], named or {})
            if b is None:
                continue
            given = b * (1 + _factor(m) if re.match(_UP, side.group(1), re.IGNORECASE) else 1 - _factor(m))
        elif m.group("mult"):
            given = b * _factor(m)
        elif m.group("of"):  # "650 is 65% of my 10,000 limit"
            given = b * float(m.group("pct")) / 100
        elif m.group("pct"):
            up = re.match(rf"{_UP}|{_RISE}", m.group("pdir"), re.IGNORECASE) is not None
            given = b * (1 + (1 if up else -1) * float(m.group("pct")) / 100)
        else:
            d = value(m.group("d"))
            if d is None:
                continue
            up = re.match(_UP, m.group("ddir"), re.IGNORECASE) is not None
            given = b + d if up else b - d
        if not _holds(a, given, (m.group("hedge") or "").lower()):
            told = m.group(0)[:m.start("rest") - m.start()] + m.group("rest")[:30]
            return f"says {told.strip()!r}, which does not hold ({a:g} is not {given:g})"
    return None


def _unit(figure: str) -> str:
    found = re.search(r"(?:crores?|lakhs?|lacs?|million|thousand)\s*$", figure.strip(), re.IGNORECASE)  # words only
    return found.group(0).strip().lower() if found else ""


def _sign(figure: str) -> str:
    return next((c for c in figure.strip()[:1] if c in "£$€"), "")


def _factor(m: re.Match[str]) -> float:
    word = re.sub(r"[\s-]+", " ", (m.group("n") or m.group("fold") or m.group("mult")).lower())
    if (fraction := _FRACTION.fullmatch(word)) is not None:  # "four fifths": 4/5
        top = 1.0 if fraction.group(1) in ("a", "one") else FACTORS[fraction.group(1)]
        return top / _PARTS[fraction.group(2)]
    return FACTORS.get(word) or float(word)


_FRACTION = lazy(r"(a|one|two|three|four|five|six|seven|eight|nine) (third|quarter|fourth|fifth|sixth|eighth|"
                 r"tenth)s?")
_PARTS = {"third": 3.0, "quarter": 4.0, "fourth": 4.0, "fifth": 5.0, "sixth": 6.0, "eighth": 8.0, "tenth": 10.0}


def _other(rest: str, named: Mapping[str, float]) -> float | None:
    """The figure the relation is to: stated within three words, else one the domain names."""
    if (m := OTHER.match(rest)) is not None:
        return value(m.group("b"))
    for pattern, figure in named.items():
        if re.match(rf"(?:of\s+)?{_AS_MUCH}(?:{pattern})\b", rest, re.IGNORECASE):
            return figure
    return None


def _holds(a: float, given: float, hedge: str) -> bool:
    if given <= 0:
        return True  # "half of nothing": nothing to judge
    ratio = a / given
    if hedge in ("over", "more than", "well over", "just over", "at least"):
        return ratio >= 1 - NEAR
    if hedge in ("under", "less than"):
        return ratio <= 1 + NEAR
    if hedge in ("exactly", "precisely", "fully", "a full", "just"):
        return abs(ratio - 1) <= NEAR
    if hedge in ("nearly", "almost", "just under"):
        return 1 - ROUGH <= ratio <= 1 + NEAR
    if hedge:
        return abs(ratio - 1) <= ROUGH
    return abs(ratio - 1) <= NEAR


def value(figure: str) -> float | None:
    """A figure's value, in English or European form ("90.000,00", "9,8k", "22 000"); None for what
    may be a year ("2026") or a bare number under 100."""
    text = figure.strip().lower().lstrip("£$€ ").replace("\u00a0", " ")
    scale = 1.0
    for suffix, factor in (("crores", 1e7), ("crore", 1e7), ("lakhs", 1e5), ("lakh", 1e5), ("lacs", 1e5), ("lac", 1e5),
                           ("million", 1e6), ("thousand", 1e3), ("bn", 1e9), ("mn", 1e6), ("k", 1e3), ("m", 1e6)):
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)].strip(), factor
            break
    text = text.replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", text) or re.fullmatch(r"\d+,\d{1,2}", text):
        text = text.replace(".", "").replace(",", ".")  # European: "90.000,00", "9,8"
    else:
        text = text.replace(",", "")
    try:
        number = float(text) * scale
    except ValueError:
        return None
    if scale == 1.0 and (number < 100 or (text.isdigit() and 1900 <= number <= 2100)):
        return None  # "over 2 weeks", "since 2019"
    return number
