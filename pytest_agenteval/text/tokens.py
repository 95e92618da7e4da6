"""Words, numbers and clauses of an English text: the first pass of reading what it asserts.

A token is a lowercased word, an identifier (``CLM-00145``, kept as written), a quantity
(money, a rate, a date) or a punctuation mark. Quantities are parsed here, once, so that a
number inside an id or a date is never read as an amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ID = re.compile(r"\b[A-Z]{2,5}(?:-[A-Z]{0,3}\d+[A-Z]?)+\b")
MONTHS = {m: i + 1 for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
CURRENCY = r"(?:[£$€]|\b(?:GBP|USD|EUR|CHF)\s?)"
NUMBER = r"\d{1,3}(?:[,\u00a0 ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_PATTERNS = [
    ("id", ID.pattern),
    ("date", r"\b\d{4}-\d{2}-\d{2}\b"),
    ("date", rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\s+\d{{4}}\b"),
    ("date", rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"),
    ("rate", rf"(?<![\w.])(?:{NUMBER})\s?(?:%|\bper\s?cent\b|\bpercent\b|\bpc\b)"),
    ("money", rf"{CURRENCY}(?:{NUMBER})(?:\s?(?:k|m|mn|bn|thousand|million|billion)\b)?"
              rf"|(?<![\w.])(?:{NUMBER})(?:\s?(?:k|mn|bn|thousand|million|billion)\b)?"
              rf"(?:\s?(?:GBP|USD|EUR|CHF|pounds?|dollars?|euros?)\b)?"),
    ("word", r"[A-Za-z]+(?:'[A-Za-z]+)?|n't"),
    ("punct", r"[.,;:!?()\u2013\u2014]|-{2,}| - "),
]
# Ids are case-sensitive (``covid-19`` is no id); everything else is not.
_TOKEN = re.compile("|".join(f"(?P<{kind}{i}>{p if kind == 'id' else f'(?i:{p})'})"
                             for i, (kind, p) in enumerate(_PATTERNS)))


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "word", "id", "money", "number" (a bare count, year or small figure), "rate", "date", "punct"
    text: str  # a word lowercased; an id as written; the source text of a quantity
    value: float | date | None = None


def _number(text: str) -> float:
    digits = re.search(NUMBER, text)
    assert digits is not None
    value = float(re.sub(r"[,\u00a0 ]", "", digits.group(0)))
    scale = re.search(r"(k|mn|m|bn|thousand|million|billion)\s*(?:GBP|USD|EUR|CHF|pounds?|dollars?|euros?)?$",
                      text.strip(), re.IGNORECASE)
    return value * SCALE[scale.group(1).lower()] if scale else value


def _date(text: str) -> date | None:
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
        words = re.findall(r"[A-Za-z]+|\d+", text)
        day = next(int(w) for w in words if w.isdigit() and len(w) <= 2)
        year = next(int(w) for w in words if w.isdigit() and len(w) == 4)
        month = next(MONTHS[w.lower()] for w in words if w.lower() in MONTHS)
        return date(year, month, day)
    except (ValueError, StopIteration):
        return None


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    for match in _TOKEN.finditer(text):
        kind = (match.lastgroup or "word").rstrip("0123456789")
        raw = match.group(0)
        if kind == "word":
            word = raw.lower()
            if word.endswith("n't") and word != "n't":  # can't, won't, isn't: a word and a negation
                stem = {"can't": "can", "won't": "will", "shan't": "shall"}.get(word, word[:-3])
                out += [Token("word", stem), Token("word", "not")]
                continue
            out.append(Token("word", "not" if word == "n't" else word))
        elif kind == "money":
            value = _number(raw)
            # A bare small integer or a year is a count or a date part, not an amount.
            bare = not re.search(rf"{CURRENCY}|[a-z]", raw, re.I)
            if bare and (value < 100 or (1900 <= value <= 2100 and raw.isdigit())):
                out.append(Token("number", raw, value))
            else:
                out.append(Token("money", raw, value))
        elif kind == "rate":
            out.append(Token("rate", raw, _number(re.sub(r"%|per\s?cent|percent|pc", "", raw, flags=re.I))))
        elif kind == "date":
            out.append(Token("date", raw, _date(raw)))
        else:
            out.append(Token(kind, raw if kind == "id" else raw.strip()))
    return out
