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

_FRACTIONS = {"\u00bc": 0.25, "\u00bd": 0.5, "\u00be": 0.75, "\u2150": 1 / 7, "\u2151": 1 / 9, "\u2152": 0.1,
              "\u2153": 1 / 3, "\u2154": 2 / 3, "\u2155": 0.2, "\u2156": 0.4, "\u2157": 0.6, "\u2158": 0.8,
              "\u2159": 1 / 6, "\u215a": 5 / 6, "\u215b": 0.125, "\u215c": 0.375, "\u215d": 0.625, "\u215e": 0.875}
_FRACTION = re.compile(rf"(\d+)([{''.join(_FRACTIONS)}])")
_RAISED_DOT = re.compile(r"(?<=\d)[\u00b7\u2219\u22c5](?=\d)")


@cache
def _table() -> dict[int, str]:
    """Every decimal digit of the scripts in Unicode's basic plane as its ASCII digit, and the
    Arabic separators and percent sign."""
    out = {c: str(unicodedata.digit(chr(c))) for c in range(0x0660, 0x1C60)
           if unicodedata.category(chr(c)) == "Nd"}
    out.update({c: str(unicodedata.digit(chr(c))) for c in range(0xA620, 0xABFA)
                if unicodedata.category(chr(c)) == "Nd"})
    out.update({0x066B: ".", 0x066C: ",", 0x066A: "%", 0x060C: ","})
    return out


def digits(text: str) -> str:
    """``text`` with its figures in ASCII digits (the module's docstring)."""
    text = text.translate(_table())
    if _FRACTION.search(text):
        text = _FRACTION.sub(lambda m: f"{int(m.group(1)) + _FRACTIONS[m.group(2)]:g}", text)
    return _RAISED_DOT.sub(".", text)


_PERCENT_WORD = re.compile(r"(?<=\d)[ \t]?(?:pct\b|p\.\s?c\.|pc\b|(?=p\.\s?a\.))", re.IGNORECASE)
_SPACED_PERCENT = re.compile(r"(?<=\d)[ \t]{2,}%")
_POINT = re.compile(r"\b(\d+)\s+point\s+(\d+)\b", re.IGNORECASE)
_OUGHTS = re.compile(r"(?<![\w-])(\d{1,3}[,.])([0Oo]{3})(?![\w])")
_APART_K = re.compile(r"(?<=\d)\s+[Kk]\b(?![\w-])")
_WORD_K = re.compile(r"\b((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|ten|eleven|twelve|fifteen|"
                     r"hundred)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)\s+[Kk]\b", re.IGNORECASE)
_COMMA_K = re.compile(r"(?<![\d,.])(\d{1,3}),(\d)\s?[Kk]\b")
# (a rate's level: "at 510 bps"; not a gap, "153 bps under the sheet rate", "a 25 bp cut", "up by 20 bps")
_BASIS_POINTS = re.compile(r"(?<!\ba\s)(?<!\bby\s)\b([1-9]\d{2,3})\s*(?:bps|bp|basis\s+points?)\b(?!\s+(?:under|"
                           r"over|below|above|less|more|lower|higher|cut|off|discount|margin|spread|increase|reduction|drop|rise|"
                           r"up|down|on\s+top|better|worse|cheaper|dearer)\b)", re.IGNORECASE)
_UNIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
               "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_WORDS_POINT = re.compile(rf"\b({'|'.join(_UNIT_WORDS)})\s+point((?:\s+{_DIGIT_WORD})+)\b", re.IGNORECASE)
_MIXED = re.compile(r"\b(\d+)\s+thousand\s+(?:and\s+)?(\d)\s+hundred\b(?:\s+(?:and\s+)?(\d{1,2})\b)?", re.IGNORECASE)


def numerals(text: str) -> str:
    """``text`` with its figures in the forms the reader reads (the module's docstring)."""
    lowered = text.lower()
    if " point " in lowered:  # "five point nine four per cent": 5.94 per cent
        text = _WORDS_POINT.sub(_point, text)
    if not any(c.isdigit() for c in text):
        return _WORD_K.sub(r"\1 thousand", text) if " k" in lowered else text
    if "p" in lowered:
        text = _PERCENT_WORD.sub(lambda m: "%" if m.group(0).strip() else "% ", text)
        text = _POINT.sub(r"\1.\2", text) if "point" in lowered else text
    if "  %" in text or "\t%" in text:
        text = _SPACED_PERCENT.sub("%", text)
    if "o" in lowered:
        text = _OUGHTS.sub(lambda m: m.group(1) + "000", text)
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
