"""Figures in the forms a person reads as figures, written the one way the reader reads (red team
62: "5.9 pct", "30,OOO pounds", "٥٫٩٪" passed as no rate or no amount; "5·1%" was read as 1%).

``digits`` (on any text that is not ASCII, before lookalike letters are read): a digit of any
script as its ASCII digit, the Arabic decimal, thousands and percent signs, a fraction sign after
a figure ("5½%" is 5.5%), a raised dot between digits (an old British decimal point: "5·1%").
``numerals`` (on every text): a percent written as a word after a figure ("5.9 pct", "p.c.",
"pc", a bare "5.9 p.a."), a space before "%", "5 point 1 percent", a letter O among a figure's
zeros ("30,OOO"), "K" apart from its figure ("£24 K", "thirty K"), a decimal comma before "k"
("£4,2 k"), a figure with its multiplier in words between digits ("4 thousand 2 hundred"), and
a rate in basis points ("510 bps") or in words ("five point one percent")."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from pytest_agenteval.patterns import lazy

_FRACTIONS = {"\u00bc": 0.25, "\u00bd": 0.5, "\u00be": 0.75, "\u2150": 1 / 7, "\u2151": 1 / 9, "\u2152": 0.1,
              "\u2153": 1 / 3, "\u2154": 2 / 3, "\u2155": 0.2, "\u2156": 0.4, "\u2157": 0.6, "\u2158": 0.8,
              "\u2159": 1 / 6, "\u215a": 5 / 6, "\u215b": 0.125, "\u215c": 0.375, "\u215d": 0.625, "\u215e": 0.875}
_FRACTION = lazy(rf"(\d+)[ \t]?([{''.join(_FRACTIONS)}])")
_KEYCAP = lazy("(\\d)\ufe0f?\u20e3")
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_SUBSCRIPTS = "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
_SCRIPT_FRACTION = lazy(rf"(\d+)[ \t]?([{_SUPERSCRIPTS}]+)\u2044([{_SUBSCRIPTS}]+)")


def _script_fraction(m: re.Match[str]) -> str:
    top = int("".join(str(_SUPERSCRIPTS.index(c)) for c in m.group(2)))
    bottom = int("".join(str(_SUBSCRIPTS.index(c)) for c in m.group(3)))
    return f"{int(m.group(1)) + top / bottom:g}" if bottom else m.group(0)
_RAISED_DOT = lazy(r"(?<=\d)[\u00b7\u2219\u22c5](?=\d)")


@cache
def _table() -> dict[int, str]:
    """Every decimal digit of the scripts in Unicode's basic plane as its ASCII digit, and the
    Arabic separators and percent sign."""
    out = {c: str(unicodedata.digit(chr(c))) for c in range(0x0660, 0x1C60)
           if unicodedata.category(chr(c)) == "Nd"}
    out.update({c: str(unicodedata.digit(chr(c))) for c in range(0xA620, 0xABFA)
                if unicodedata.category(chr(c)) == "Nd"})
    out.update({c: str(unicodedata.digit(chr(c))) for c in (*range(0x2460, 0x2500), *range(0x2776, 0x2794))
                if unicodedata.digit(chr(c), None) is not None})  # "❸⓿,⓿⓿⓿" (red team 63)
    out.update({0x066B: ".", 0x066C: ",", 0x066A: "%", 0x060C: ",", 0x2030: "\u2030", 0x2031: "\u2031"})
    return out


def digits(text: str) -> str:
    """``text`` with its figures in ASCII digits (the module's docstring)."""
    text = text.translate(_table())
    if "\u20e3" in text:
        text = _KEYCAP.sub(r"\1", text)  # "5️⃣.9️⃣%": a keycap is its digit (red team 63)
    if "\u2044" in text:
        text = _SCRIPT_FRACTION.sub(_script_fraction, text)  # "5¹⁄₁₀%": 5.1%
    if _FRACTION.search(text):
        text = _FRACTION.sub(lambda m: f"{int(m.group(1)) + _FRACTIONS[m.group(2)]:g}", text)
    return _RAISED_DOT.sub(".", text)


# (a rate-sized figure only: "£30,600 p.a." is money a year; "p.c.m." is per month)
_PERCENT_WORD = lazy(r"(?<![\d,.£$€])(\d{1,2}(?:\.\d{1,3})?)[ \t]?(pct\b|p\.\s?c\.(?!\s?m)|pc\b|p\.\s?a\.)",
                     re.IGNORECASE)
_PER_MILLE = lazy(r"(\d+(?:\.\d+)?)\s?([\u2030\u2031])")
_AND_A = lazy(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+and\s+(?:a|one)\s+"
              r"(half|quarter)\b", re.IGNORECASE)
_SPACED_PERCENT = lazy(r"(?<=\d)[ \t]{2,}%")
_POINT = lazy(r"\b(\d+)\s+point\s+(\d+)\b", re.IGNORECASE)
# a letter O among a figure's digits, any group ("£1O,OOO.OO", "6.O8%"; red team 63)
_OUGHTS = lazy(r"(?<![\w-])\d[\dOo]*[,.][\dOo,.]*\d?(?![\w])|(?<![\w-])\d[Oo]+\d*(?=%)")
_APART_K = lazy(r"(?<=\d)\s+[Kk]\b(?![\w-])")
_WORD_K = lazy(r"\b((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|ten|eleven|twelve|fifteen|"
               r"hundred)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)\s+[Kk]\b", re.IGNORECASE)
_COMMA_K = lazy(r"(?<![\d,.])(\d{1,3}),(\d)\s?[Kk]\b")
# (a rate's level: "at 510 bps"; not a gap, "153 bps under the sheet rate", "a 25 bp cut", "up by 20 bps")
_BASIS_POINTS = lazy(r"(?<!\ba\s)(?<!\bby\s)(?<!\bof\s)(?<!\bsaves\s)(?<!\bcustomer\s)\b([1-9]\d{2,3})\s*"
                     r"(?:bps|bp|b\.p\.|basis\s+points?)(?![\w])(?!\s+(?:under|"
                     r"over|below|above|less|more|lower|higher|cut|off|discount|margin|spread|increase|reduction|drop|rise|"
                     r"up|down|on\s+top|better|worse|cheaper|dearer)\b)", re.IGNORECASE)
_UNIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
               "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_WORDS_POINT = lazy(rf"\b({'|'.join(_UNIT_WORDS)})\s+point((?:\s+{_DIGIT_WORD})+)\b", re.IGNORECASE)
_MIXED = lazy(r"\b(\d+)\s+thousand\s+(?:and\s+)?(\d)\s+hundred\b(?:\s+(?:and\s+)?(\d{1,2})\b)?", re.IGNORECASE)


def numerals(text: str) -> str:
    """``text`` with its figures in the forms the reader reads (the module's docstring)."""
    lowered = text.lower()
    if " point " in lowered:  # "five point nine four per cent": 5.94 per cent
        text = _WORDS_POINT.sub(_point, text)
    if " and a" in lowered or " and one" in lowered:  # "five and a half per cent": 5.5 per cent
        text = _AND_A.sub(_and_a, text)
    if not any(c.isdigit() for c in text):
        return _WORD_K.sub(r"\1 thousand", text) if " k" in lowered else text
    if "p" in lowered:
        text = _PERCENT_WORD.sub(lambda m: m.group(1) + ("% p.a." if m.group(2).lower().startswith("p.") and (
            m.group(2).lower().replace(" ", "").startswith("p.a")) else "%"), text)
        text = _POINT.sub(r"\1.\2", text) if "point" in lowered else text
    if "\u2030" in text or "\u2031" in text:  # "59‰", "590‱": per mille, per ten thousand
        text = _PER_MILLE.sub(lambda m: f"{float(m.group(1)) / (10 if m.group(2) == chr(0x2030) else 100):g}%", text)
    if "  %" in text or "\t%" in text:
        text = _SPACED_PERCENT.sub("%", text)
    if "o" in lowered:
        text = _OUGHTS.sub(lambda m: m.group(0).replace("O", "0").replace("o", "0"), text)
    if "k" in lowered:
        text = _COMMA_K.sub(r"\1.\2k", _APART_K.sub("k", text))
        text = _WORD_K.sub(r"\1 thousand", text)
    if "b" in lowered:  # "510 bps": 5.10% (a rate in basis points)
        text = _BASIS_POINTS.sub(lambda m: f"{int(m.group(1)) / 100:.2f}%", text)
    if "thousand" in lowered and "hundred" in lowered:
        text = _MIXED.sub(lambda m: f"{int(m.group(1)) * 1000 + int(m.group(2)) * 100 + int(m.group(3) or 0):,}", text)
    return text


def _point(m: re.Match[str]) -> str:
    after = "".join("0" if w == "oh" else str(_UNIT_WORDS.index(w)) for w in m.group(2).lower().split())
    return f"{_UNIT_WORDS.index(m.group(1).lower())}.{after}"


def _and_a(m: re.Match[str]) -> str:
    whole = m.group(1).lower()
    number = int(whole) if whole.isdigit() else _UNIT_WORDS.index(whole)
    return f"{number + (0.5 if m.group(2).lower() == 'half' else 0.25):g}"
