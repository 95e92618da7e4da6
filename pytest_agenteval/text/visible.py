"""A text as a person sees it, before anything reads it: what a reader does not see is not read,
and what a reader sees one way is read that way (red teams 23, 54 and 55: a lie hidden from the
judge but not from a person is read as the lie).

- an HTML character reference is the character it shows ("tw&#8203;ice");
- a right-to-left override (U+202E to its pop or the paragraph's end) shows its letters reversed:
  they are read reversed ("paid it \u202eeciwt\u202c" shows "paid it twice");
- invisible format characters (Unicode category Cf: zero-width spaces and joiners, soft hyphens,
  bidi marks, the byte-order mark) and blank fillers (Hangul fillers, the Braille blank) are taken
  out: "3\u200b,780" is 3,780;
- compatibility forms are made plain (NFKC: full-width digits, ligatures, mathematical letters);
- a word struck through letter by letter ("n̶o̶t̶") is not read; other combining marks are taken off
  their letters ("twíce", "païd", "t̵w̵ice" are "twice", "paid");
- letters of other scripts that look like Latin ones are read as those, by Unicode's own table of
  confusable characters (the ``confusable-homoglyphs`` package's copy of confusables.txt): a
  Cyrillic "а", a Latin alpha "ɑ", a dotless "ı", a Cherokee "Ꭲ", a small capital "ᴡ", and any
  letter Unicode names as a Latin one with a mark ("ŧ", "ɨ"); "№" before a figure is "number".
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import cache
from importlib import resources

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.numerals import digits

# An override's reach: to its pop or the paragraph's end (a stray isolate's end does not end it:
# red team 55).
_OVERRIDE = lazy("\u202e([^\u202c\n\r\u2029\u0085\u001c-\u001e]*)")
# A character reference of HTML ("&#8203;", "&#x442;", "&shy;"), read as the character a reader sees;
# not the markup's own "&lt;", "&gt;", "&amp;" (the markup pass reads those).
_REFERENCE = lazy(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?")

# A word struck through letter by letter (a long stroke or solidus over each).
_STRUCK = lazy("(?:[^\\s\u0336\u0338][\u0336\u0338]+){2,}")
# Letters with no glyph, inside words: not seen.
_BLANKS = lazy("[\u115f\u1160\u3164\uffa0\u2800]")


def visible(text: str, references: bool = True) -> str:
    """``text`` as a reader sees it (the ASCII text, most of them, as it is); with ``references``
    false, character references are left to a later pass (Markdown reads them first)."""
    if references and "&" in text and _REFERENCE.search(text):
        text = _REFERENCE.sub(_character, text)  # "tw&#8203;ice" shows "twice" (red team 55)
    if text.isascii():
        return text
    text = digits(text)  # "٥٫٩٪" is 5.9%, "5½%" 5.5% (text/numerals.py)
    if "\u202e" in text:
        text = _OVERRIDE.sub(lambda m: m.group(1)[::-1], text)
    if "\u0336" in text or "\u0338" in text:
        text = _STRUCK.sub("", text)  # "n̶o̶t̶": struck out, a word not meant
    if (invisible := _format()).search(text):
        text = invisible.sub("", text)
    if "\u2116" in text:
        text = _NUMERO.sub("number ", text)
    text = _BLANKS.sub("", unicodedata.normalize("NFKC", text.translate(_SIGNS)))
    if text.isascii():
        return text
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if unicodedata.category(c) != "Mn")
    text = unicodedata.normalize("NFC", text).translate(_lookalikes())
    return text if text.isascii() else "".join(_latin(c) if ord(c) > 127 else c for c in text)


# Signs NFKC would make words of another sense, read as what they say: "№ 00001" is a number,
# "№ escalation needed" a no (red team 55).
_SIGNS = str.maketrans({"\u2248": " about "})
_NUMERO = lazy("\u2116(?=\\s*\\d)")
# Letters no table maps that a reader reads as a Latin one ("ŧwice", "twɨce", "tωice", "tшice").
_MORE_LOOKALIKES = {"\u03c9": "w", "\u0448": "w", "\u0428": "W", "\u043f": "n", "\u043c": "m", "\u0433": "r"}
_LATIN_NAME = lazy(r"LATIN (?:(SMALL|CAPITAL) LETTER|LETTER (SMALL) CAPITAL) ([A-Z])\b(?! [A-Z]\b)")


@cache
def _latin(char: str) -> str:
    """A letter named as a Latin letter with a mark or in another form ("LATIN SMALL LETTER T WITH
    STROKE", "LATIN LETTER SMALL CAPITAL N"), as that letter (red team 55)."""
    if char in _MORE_LOOKALIKES or unicodedata.category(char)[0] != "L":
        return _MORE_LOOKALIKES.get(char, char)
    m = _LATIN_NAME.match(unicodedata.name(char, ""))
    return char if m is None else m.group(3) if m.group(1) == "CAPITAL" else m.group(3).lower()


def _character(m: re.Match[str]) -> str:
    found = html.unescape(m.group(0))
    return m.group(0) if found == m.group(0) or found in ("<", ">", "&") else found


@cache
def _format() -> re.Pattern[str]:
    """Unicode category Cf: built once, at the first text that is not ASCII (it takes ~0.1 s: not at
    every start-up)."""
    return re.compile("[" + "".join(re.escape(chr(c)) for c in range(0x110000)
                                    if unicodedata.category(chr(c)) == "Cf") + "]")


@cache
def _lookalikes() -> dict[int, str]:
    """Each letter or digit confusable with a Latin letter or digit, to that one (following one
    step of the table's chains: Cyrillic "т" is confusable with the small capital "ᴛ", which is
    "T"). Only letters and digits: a tick or a cross is a mark, not a letter."""
    table = json.loads((resources.files("confusable_homoglyphs") / "confusables.json").read_text(encoding="utf-8"))
    plain = {c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}
    found: dict[str, str] = {}
    for char, likes in table.items():
        if len(char) != 1:
            continue
        for like in likes:
            other = like["c"]
            if char in plain and len(other) == 1 and _letter(other):
                found.setdefault(other, char)
            elif other in plain and _letter(char) and char not in plain:
                found.setdefault(char, other)
    for char, likes in table.items():  # one more step: "т" -> "ᴛ" -> "T"
        if len(char) == 1 and char not in found and _letter(char) and char not in plain:
            step = next((found[x["c"]] for x in likes if x["c"] in found), None)
            if step is not None:
                found[char] = step
    for char, likes in table.items():  # a class whose model is a Latin small capital: "ᴛ", "т", "τ" are "t"
        named = _SMALL_CAPITAL.fullmatch(unicodedata.name(char, "")) if len(char) == 1 else None
        if named:
            for c in (char, *(x["c"] for x in likes if len(x["c"]) == 1 and _letter(x["c"]))):
                found.setdefault(c, named.group(1).lower())
    # the table's model of "I" is "l": a capital that looks like either is an "I" ("TWІCE")
    return {ord(k): "I" if v == "l" and unicodedata.category(k) == "Lu" else v for k, v in found.items()}


_SMALL_CAPITAL = lazy(r"LATIN LETTER SMALL CAPITAL ([A-Z])")


def _letter(char: str) -> bool:
    return not char.isascii() and unicodedata.category(char)[0] in "LN"
