"""Two figures a text compares, and whether the comparison holds: "48,000 is above the 50,000
tier", "505,000 is within SNR-03's 500,000 tier", "SNR-10's limit 50000 is too low for 38000"
are false whatever the records say (49th audit).

The grammar, on purpose small: a figure, then its link (*is, was, sits, falls*, or "<type> claim;"
before the comparison), a comparison (*above, over, more than, exceeds, beyond, outside* /
*within, under, below, less than, inside*), up to three words ("the", "my", "SNR-03's", "first
tier") and the second figure; or a figure (optionally "limit") said to be *too low / not enough*
or *enough / high enough* for another, or to cover it or not ("50,000 doesn't cover the
24,000"). Both figures are amounts, or both rates. With no link
("£8,000 above my £10,000 limit") the first figure is the gap, not a side: not read.
"""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

_FIGURE = r"[£$€]?\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn)\b|\s?%)?(?:\s?(?:gbp|usd|eur)\b)?"
_LINK = (r"(?:\s+(?:[a-z]+\s+){0,2}?claims?\s*[;:,]|\s+(?:which\s+|that\s+)?(?:is|was|sits|falls|lies|being|are|"
         r"were)\b)\s*(?:(?:well|far|just|clearly|still|also|comfortably|slightly)\s+)?")
_BETWEEN = r"\s*(?:[\w'’-]+\s+){0,3}?"
ABOVE = (r"above|over|more\s+than|greater\s+than|higher\s+than|bigger\s+than|larger\s+than|exceeds|exceeding|beyond|"
         r"outside|outwith|>")
BELOW = r"within|under|below|less\s+than|lower\s+than|smaller\s+than|inside|<"
_NOT_GLUED = r"(?<![\w.,\-\u2010\u2011])"  # "CLM-00049" holds no figure
COMPARED = lazy(rf"{_NOT_GLUED}(?P<a>{_FIGURE}){_LINK}(?P<how>{ABOVE}|{BELOW})(?:\b|(?<=[<>])){_BETWEEN}"
                rf"(?P<b>{_FIGURE})(?![\w%])(?!\s*(?:-|\u2013|\u2014|to)\s*[£$€]?\d)", re.IGNORECASE)
ENOUGH = lazy(rf"{_NOT_GLUED}(?P<b>{_FIGURE})(?:\s+(?:limit|cap|authority|mandate))?\s+(?:is|was)"
              r"(?P<neg>n't|\s+not)?\s+(?P<how>too\s+low|"
              r"not\s+(?:high\s+)?enough|insufficient|not\s+sufficient|enough|sufficient|high\s+enough)\s+"
              rf"(?:for|to\s+cover)\s+(?:the\s+|a\s+|this\s+)?(?P<a>{_FIGURE})(?![\w%])", re.IGNORECASE)
# "SNR-10's limit of 50,000 doesn't cover the 24,000", "a 20,000 limit covers 24,000" (74th audit)
COVERS = lazy(rf"{_NOT_GLUED}(?P<b>{_FIGURE})(?:\s+(?:limit|cap|authority|mandate|sum\s+insured|cover))?\s+"
              r"(?:(?P<not>does\s+not|doesn't|do\s+not|don't|cannot|can't|can\s+not|won't|will\s+not|would\s+not|"
              r"wouldn't|did\s+not|didn't)\s+|(?:easily|comfortably|fully|still|also|does|would|will|can)\s+)?"
              rf"cover(?:s|ed)?\s+(?:the\s+|a\s+|this\s+|all\s+of\s+the\s+)?(?P<a>{_FIGURE})(?![\w%])",
              re.IGNORECASE)

# A figure right after one of these is an operand of a sum the text works out (``arithmetic``).
_OPERAND = lazy(r"\b(?:less|minus|plus|times|x|lots\s+of|multiplied\s+by|divided\s+by|twice|double|half)\s*$",
                re.IGNORECASE)


def false_comparison(said: str) -> str | None:
    """What is wrong with the first comparison of two stated figures that does not hold; None if none."""
    for m in COMPARED.finditer(said):
        if _OPERAND.search(said[max(0, m.start() - 20):m.start()]):
            continue  # "two lots of £9,000 is above…", "£19,000 less £1,000 is above…": worked out first
        a, b = _value(m.group("a")), _value(m.group("b"))
        if a is None or b is None or m.group("a").endswith("%") != m.group("b").endswith("%"):
            continue
        above = re.match(ABOVE, m.group("how"), re.IGNORECASE) is not None
        if (above and a <= b) or (not above and a > b):
            return f"says {m.group(0)!r}, which does not hold"
    for m in ENOUGH.finditer(said):
        a, b = _value(m.group("a")), _value(m.group("b"))
        if a is None or b is None or m.group("a").endswith("%") != m.group("b").endswith("%"):
            continue
        short = (not re.match(r"enough|sufficient|high", m.group("how"), re.IGNORECASE)) != bool(m.group("neg"))
        if (short and b >= a) or (not short and b < a):
            return f"says {m.group(0)!r}, which does not hold"
    if " by " in said and (found := _false_gap(said)):
        return found
    for m in COVERS.finditer(said) if "cover" in said.lower() else ():
        a, b = _value(m.group("a")), _value(m.group("b"))
        if a is not None and b is not None and not m.group("a").endswith("%") and not m.group("b").endswith("%") and (
                (b >= a) == bool(m.group("not"))):
            return f"says {m.group(0)!r}, which does not hold"
    return None


# "(£505,000) … exceeds SNR-03's £500,000 by £50,000" (83rd audit): a gap stated between a figure
# told before in the sentence and the one compared with. Held when any figure before gives it.
GAP = lazy(rf"\b(?:{ABOVE}|{BELOW}|short\s+of|exceeded|exceed|over-?shoots?|misses){_BETWEEN}"
           rf"(?P<b>{_FIGURE})(?![\w%])(?:\s+(?:[a-z]+\s+){{0,2}}?)?\s*by\s+(?:about\s+|around\s+|roughly\s+|"
           rf"some\s+|just\s+|only\s+|exactly\s+)?(?P<gap>{_FIGURE})(?![\w%])", re.IGNORECASE)
_FIGURES = lazy(rf"{_NOT_GLUED}(?P<a>{_FIGURE})(?![\w%])", re.IGNORECASE)


def _false_gap(said: str) -> str | None:
    for m in GAP.finditer(said):
        b, gap = _value(m.group("b")), _value(m.group("gap"))
        # (not ``sentence_start``: a side may stand before a semicolon, "CLM-1 (£505,000) to HOC-1; exceeds …")
        start = max(said.rfind(end, 0, m.start()) for end in (".\n", ". ", "\n", "!", "?")) + 1
        rate = m.group("b").endswith("%")
        sides = [v for f in _FIGURES.finditer(said, start, m.start())
                 if f.group("a").endswith("%") == rate and (v := _value(f.group("a"))) is not None]
        if b is None or gap is None or not sides or m.group("b").endswith("%") != m.group("gap").endswith("%"):
            continue
        if not any(abs(abs(a - b) - gap) <= max(0.01, 0.05 * gap) for a in sides):
            return f"says {said[start:m.end()].strip()!r}, but the figures differ by {abs(sides[-1] - b):,.2f}"
    return None


def _value(figure: str) -> float | None:
    """The figure's value; None for what may be a year ("2026") or a bare small number."""
    text = re.sub(r"\s*(?:gbp|usd|eur)$", "", figure.strip().lower()).lstrip("£$€ ").rstrip("% ")
    scale = 1.0
    for suffix, factor in (("bn", 1e9), ("k", 1e3), ("m", 1e6)):
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)].strip(), factor
            break
    try:
        value = float(text.replace(",", "")) * scale
    except ValueError:
        return None
    plain = figure.strip().isdigit()
    if plain and (len(figure.strip()) < 3 or 1900 <= value <= 2100):
        return None  # "over 2 weeks", "since 2019"
    return value
