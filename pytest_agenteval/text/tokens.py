"""Words, numbers and clauses of an English text: the first pass of reading what it asserts.

A token is a lowercased word, an identifier (``CLM-00145``, kept as written), a quantity
(money, a rate, a date, a bare number) or a punctuation mark. Quantities are parsed here,
once, so that a number inside an id or a date is never read as an amount.

Two passes, for speed (a text is read in microseconds, not a tenth of a millisecond): one
simple regex splits the text, then neighbours are joined — "4,200 GBP", "70 thousand",
"5.89 per cent", "589 bps", "1 March 2026" and "March 1, 2026".
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from pytest_agenteval.patterns import lazy

ID = lazy(r"\b[A-Z]{2,5}(?:-[A-Z]{0,3}\d+[A-Z]?)+\b")
MONTHS = {m: i + 1 for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
CURRENCY_CODES = frozenset({"gbp", "usd", "eur", "chf", "inr", "rs", "aud", "cad", "nzd"})
CODES = CURRENCY_CODES | {"pound", "pounds", "dollar", "dollars", "euro", "euros", "pence", "cents", "paise", "quid",
                          "bucks"}
JOINED = CURRENCY_CODES | set(MONTHS)  # words that may start a joined quantity ("GBP 4,200", "March 1, 2026")
# Words whose "'s" is "is" or "us", not a possessive.
CLITIC_S = frozenset({"it", "that", "there", "here", "he", "she", "what", "who", "let", "where", "how", "when"})
SCALE = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "m": 1e6, "mn": 1e6, "mil": 1e6, "million": 1e6, "bn": 1e9,
         "billion": 1e9, "lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "crore": 1e7, "crores": 1e7,  # 78th audit
         "pence": 0.01, "cents": 0.01, "paise": 0.01}  # "420,000 pence" is £4,200
NUMBER = r"\d{1,3}(?:[,\u00a0 ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"  # 4,200.00 / 740 000 / 4200.0
# Words first (most tokens are), an id excepted by a look-ahead; spaces before a token are taken
# with it, so no position between tokens is tried against every kind (half the time of the
# ids-first pattern, the same tokens on every audit's corpus).
_SPLIT = lazy(
    r"[ \t]*(?:(?P<word>(?!\b[A-Z]{2,5}(?:-[A-Z]{0,3}\d+[A-Z]?)+\b)[A-Za-z]+(?:'[A-Za-z]+)?|n't)"
    r"|(?P<id>\b[A-Z]{2,5}(?:-[A-Z]{0,3}\d+[A-Z]?)+\b)"
    r"|(?P<iso>\b\d{4}-\d{2}-\d{2}\b)"
    r"|(?P<clock>\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?\b)"  # "09:04 - escalated": a time, no figure
    r"|(?P<dec>\d{1,2},\d{1,2}\s?%)"  # a rate with a decimal comma: "5,1 %"
    # (Indian grouping first: "Rs. 1,40,000" is 140,000)
    r"|(?P<num>(?:[£$€\u20b9]\s?)?\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?(?!\d|,\d)"
    # (European grouping: "4.200,00", "150.000", "7.500.000"; a decimal comma before a scale: "9,8k"; 75th audit)
    r"|(?:[£$€\u20b9]\s?)?[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2}(?!\d))?(?![.,]?\d)"
    r"|(?:[£$€\u20b9]\s?)?\d{1,3},\d{1,2}(?=\s?(?:[kK]|mn|[mM]|bn|BN)\b)"
    r"|(?:[£$€\u20b9]\s?)?\d{1,3}(?:[,\u00a0 ]\d{3})+(?:\.\d+)?|(?:[£$€\u20b9]\s?)?\d+(?:\.\d+)?)"
    r"(?P<unit>\s?%|(?:[kK]|mn|[mM]|bn|BN)\b)?"
    r"|(?P<cmp>[<>]=?|=[<>]|[\u2264\u2265])"
    r"|(?P<plus>\+)"  # "£400 + £250": read "plus"
    r"|(?P<punct>[.,;:!?()=\u2013\u2014]|-{2,}|(?<=\s)-(?=\s)|\n(?=\s*[*\u2022-]|\s*[A-Z]))"
    r"|(?P<emoji>[\U0001F300-\U0001FAFF\u2600-\u27BF]+))")


class Token(NamedTuple):  # a tuple: made thousands of times a second
    kind: str  # "word", "id", "money", "number" (a bare count, year or small figure), "rate", "date", "punct"
    text: str  # a word lowercased; an id as written; the source text of a quantity
    value: float | date | None = None


# Typographic apostrophes (what word processors and models write) read as the plain one.
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'"})
# Contractions typed without their apostrophe ("cant approve", "wont be paying"): a word and a negation.
BARE_NEGATIONS = {"cant": "can", "wont": "will", "dont": "do", "doesnt": "does", "didnt": "did", "isnt": "is",
                  "arent": "are", "wasnt": "was", "werent": "were", "hasnt": "has", "havent": "have",
                  "hadnt": "had", "couldnt": "could", "shouldnt": "should", "wouldnt": "would", "mustnt": "must",
                  "neednt": "need", "shant": "shall"}
# Shorthand typed on a phone, read as the word it stands for.
SHORTHAND = {"ur": "your", "u": "you", "pls": "please", "plz": "please", "acct": "account", "accts": "accounts",
             "im": "i'm", "ive": "i've", "youre": "you're", "thx": "thanks", "msg": "message",
             "xs": "excess"}  # (insurance shorthand: "XS 500")


_SLASHES = {"w/o": "without ", "w/out": "without ", "w/": "with ", "o/s": "outstanding"}  # "w/o the invoice", "KYC o/s"
_SLASHED = lazy(r"\b[wW]/(?:[oO][uU][tT]\b|[oO]\b)?|\b[oO]/[sS]\b")


_EUROPEAN = lazy(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?|\d{1,3},\d{1,2}")


def _european(digits: str) -> str:
    """A figure grouped the European way written the English way: "4.200,00" is 4200.00, "9,8" (of
    "9,8k") 9.8; any other as it is."""
    bare = digits.lstrip("£$€\u20b9 ")
    if not _EUROPEAN.fullmatch(bare):
        return digits
    return bare.replace(".", "").replace(",", ".")


# The tokens of a word depend on the word alone, and words repeat from text to text: each is made once.
_WORD_TOKENS: dict[str, tuple[Token, ...]] = {}
_NOT_DIGIT = lazy(r"[^\d.]")
# An id written another way: "SNR 08", "SNR08" (a leading zero: not a code like "AB12"),
# "SNR\u201108" (a non-breaking hyphen), "snr-08" (not a year: "FY 2026"; not money: "GBP 4200").
_ID_SHAPE_CUE = lazy(r"[A-Z]{2}[ \u00a0\u2010\u2011\u2012\u2013_]?\d\d|[a-z]{2}-\d\d")
_ID_SHAPE = lazy(r"\b(?!(?:GBP|USD|EUR|CHF|INR|AUD|CAD|NZD|RS|FY|Q|AD|BC|VAT|GST|APR|AER|SI|XS)\b)"
                 r"(?!(?:GBP|USD|EUR|CHF|INR|AUD)\d)([A-Z]{2,5})(?:[ \u00a0\u2010\u2011\u2012\u2013_]|(?=0))"
                 r"(?!(?:19|20)\d\d\b)(\d{2,})\b(?![.,]\d)"  # not "SI 25,000": a grouped figure
                 r"|\b(?!(?:covid|mp|gbp|usd|eur)\b)([a-z]{2,5})-(\d{2,})\b(?![.,]\d)")
def _shaped(s: re.Match[str], prefixes: frozenset[str]) -> str:
    """The id a shape writes, or the words as written: "PAID 6300" in a note in capitals is a word
    and a figure (84th audit), so a blank, an underscore or nothing between them makes an id only of
    a prefix the lexicon knows (when it names any)."""
    prefix = (s.group(1) or s.group(3)).upper()
    joined = s.group(0)[len(prefix):len(prefix) + 1]
    if s.group(1) and prefixes and prefix not in prefixes and joined in (" ", "\u00a0", "_", "0"):
        return s.group(0)
    return f"{prefix}-{s.group(2) or s.group(4)}"


# An id given by its number: "SNR number 9", "SNR no. 9", "SNR #9", "SNR number nine", "SNR9" (read "SNR-9").
_NUMBER_WORD = ("(?:seventeen|thirteen|fourteen|eighteen|nineteen|fifteen|sixteen|thousand|hundred|seventy|twelve|"
                "eleven|twenty|thirty|eighty|ninety|three|seven|eight|forty|fifty|sixty|zero|four|five|nine|one|two|"
                "six|ten)\\b")


@lru_cache(maxsize=64)
def _numbered(prefixes: frozenset[str]) -> re.Pattern[str]:
    """An id given by its number, for these prefixes (written in capitals): one pattern per set."""
    names = "|".join(sorted(map(re.escape, prefixes)))
    return re.compile(rf"\b({names})(?:\s?(?i:number|no\.?|nr\.?|#)\s?|(?=\d))(\d{{1,6}}\b|(?i:{_NUMBER_WORD}"
                      rf"(?:(?:[- ]|\s+and\s+){_NUMBER_WORD})*))")


# Figures grouped as in other countries: "4.200,00" (a decimal comma), "4'200" (Swiss).
_FOREIGN_GROUPS = lazy(r"\b\d{1,3}(?:\.\d{3})+,\d{1,2}\b|\b\d{1,3}(?:'\d{3})+(?:\.\d+)?\b")


# Words shortened with a full stop that ends no sentence when the text goes on with no capital
# word ("appr. 12,800", "ref. CLM-00145", "pd. in full"; not "per pol. Your claim…").
CLIPPED = frozenset({"appr", "apprvd", "esc", "amt", "pol", "pd", "ref", "approx", "incl", "excl", "est", "xs",
                     "lim", "auth", "max", "min", "cust", "fac", "acc", "acct", "req", "dept", "assd",
                     "amd", "decl"})
# (before a figure, an id or a word that opens no clause: not "…on your pol. we paid you 1,000"; red team 34)
_GOES_ON = lazy(r"[ \t]*(?=[£$€\d(]|[A-Z]{2,5}-\d|(?!(?:we|i|you|they|he|she|it|the|your|our|this|that|paid|"
                r"claim|policy|please|thanks|thank|no|not|all|nothing|payment|approved|declined)\b)[a-z])")


def _word_tokens(raw: str) -> tuple[Token, ...]:
    """A word as written, lowercased and read: "can't" is "can" and "not", "ur" is "your"."""
    found = _WORD_TOKENS.get(raw)
    if found is not None:
        return found
    word = SHORTHAND.get(raw.lower(), raw.lower())
    if word in BARE_NEGATIONS:
        found = (Token("word", BARE_NEGATIONS[word]), Token("word", "not"))
    elif "'" not in word:
        found = (Token("word", word),)
    elif word.endswith("'s") and word[:-2] not in CLITIC_S:  # "the sheet's maximum": the sheet
        found = (Token("word", word[:-2]),)
    elif word.endswith("n't") and word != "n't":  # can't, won't, isn't: a word and a negation
        stem = {"can't": "can", "won't": "will", "shan't": "shall"}.get(word, word[:-3])
        found = (Token("word", stem), Token("word", "not"))
    else:
        found = (Token("word", "not" if word == "n't" else word),)
    if len(_WORD_TOKENS) < 65536:
        _WORD_TOKENS[raw] = found
    return found


def _numbered_id(m: re.Match[str]) -> str:
    prefix, number = m.group(1), m.group(2).lower()
    if not number.isdigit():  # "one thousand four hundred and twenty-one"
        total, group = 0, 0
        for word in re.split(r"[- ]+", number):
            if word == "hundred":
                group = max(group, 1) * 100
            elif word == "thousand":
                total, group = total + max(group, 1) * 1000, 0
            else:
                group += _UNITS.get(word, 0) + _TENS.get(word, 0)
        number = str(total + group)
    return f"{prefix}-{number}"


def _words(text: str, prefixes: frozenset[str]) -> list[Token]:
    out: list[Token] = []
    if "`" in text or not text.isascii():  # (every other apostrophe replaced is not ASCII)
        text = text.translate(APOSTROPHES)
    if "/" in text:  # every shorthand with a slash holds one
        text = _SLASHED.sub(lambda s: _SLASHES[s.group(0).lower()], text)
    if prefixes and any(p in text for p in prefixes):  # the pattern starts with a prefix, as written
        text = _numbered(prefixes).sub(_numbered_id, text)  # not "the UK's number 1": a record's prefix
    if _ID_SHAPE_CUE.search(text):
        text = _ID_SHAPE.sub(lambda s: _shaped(s, prefixes), text)
    if ("'" in text or "," in text) and _FOREIGN_GROUPS.search(text):  # "4.200,00", "4'200": 4200
        text = _FOREIGN_GROUPS.sub(lambda s: s.group(0).replace("'", "").replace(".", "").replace(",", "."), text)
    for m in _SPLIT.finditer(text):
        kind = m.lastgroup
        if kind == "word":  # most tokens: the group holds the word without the spaces before it
            raw = m["word"]
            out += _WORD_TOKENS.get(raw) or _word_tokens(raw)  # most words are cached: no call
            continue
        raw = m.group(0)
        if raw[0] in " \t":
            raw = raw.lstrip(" \t")
        if kind in ("num", "unit"):
            digits = m.group("num")
            unit = (m.group("unit") or "").strip().lower()
            # (a point before a scale is a decimal one: "£4.200k" is 4,200)
            european = _european(digits) if unit != "%" and not (unit and "." in digits) else digits
            value = float(_NOT_DIGIT.sub("", european))
            if unit == "%":
                out.append(Token("rate", raw, value))
            elif unit or digits[0] in "£$€\u20b9":
                out.append(Token("money", raw, value * SCALE.get(unit, 1)))
            else:
                # A bare figure under 100 is a count, a bare integer a reference, a year or a count
                # ("reference 20931"): money only with a currency, or where the reader sees money words.
                bare_int = _european(digits).replace(",", "").replace("\u00a0", "").replace(" ", "").isdigit()
                kind = "number" if value < 100 or bare_int else "money"
                out.append(Token(kind, digits, value))
        elif kind == "dec":
            out.append(Token("rate", raw, float(raw.rstrip("% ").replace(",", "."))))
        elif kind == "plus":
            out.append(Token("word", "plus"))
        elif kind == "cmp":  # "£18,000 > my limit": a comparison written as a sign
            out.append(Token("word", "above" if raw in (">", ">=", "=>", "\u2265") else "below"))
        elif kind == "clock":
            out.append(Token("date", raw, None))
        elif kind == "iso":
            try:
                out.append(Token("date", raw, date.fromisoformat(raw)))
            except ValueError:
                out.append(Token("number", raw, None))
        elif kind == "id":
            out.append(Token("id", raw))
        elif kind == "emoji":  # "No problem 👍 your claim is approved": an emoji ends what it follows
            out.append(Token("punct", "."))
        elif raw == "." and out and out[-1].text in CLIPPED and _GOES_ON.match(text, m.end()):
            continue  # "appr. 12,800 (amended from 16,000); pd. in full": a shortened word, no full stop
        else:  # a line break before a bullet or a capital ends a sentence: "Approved: £30,000\nPaid: £24,000"
            out.append(Token("punct", ":" if raw == "=" else raw.strip() or "."))  # "paid=no" as "paid: no"
    return out


def _date(day: Token, month: str, year: Token) -> Token | None:
    if not (isinstance(day.value, float) and isinstance(year.value, float)):
        return None
    try:
        return Token("date", f"{day.text} {month} {year.text}", date(int(year.value), MONTHS[month], int(day.value)))
    except ValueError:
        return None


ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})


def _past(tokens: list[Token], i: int, words: frozenset[str]) -> int:
    """``i``, or one past it when the word there is one of ``words``."""
    return i + 1 if _word(tokens, i) in words else i


def _year(t: Token) -> bool:
    return t.kind == "number" and t.text.isdigit() and len(t.text) == 4 and t.text[0] in "12"  # 1000-2999


def _day_first(raw: list[Token], i: int) -> tuple[Token, int] | None:
    """A date written day first at ``i`` ("1 March 2026", "3rd of March, 2026", "3 Mar. 2026"),
    and the index past it."""
    at = _past(raw, _past(raw, i + 1, ORDINAL_SUFFIXES), frozenset({"of"}))
    month = _word(raw, at).rstrip(".")
    if month not in MONTHS:
        return None
    at += 1  # then a comma, or the full stop of "Mar.", before the year
    if _kind(raw, at) == "punct" and raw[at].text in ",." and at + 1 < len(raw) and _year(raw[at + 1]):
        at += 1
    if _kind(raw, at) == "number" and _year(raw[at]):
        d = _date(raw[i], month, raw[at])
        return (d, at + 1) if d is not None else None
    if _day(raw[i]):  # "by 19 May": a day of no year (no value), and never a count then "may"
        return Token("date", f"{raw[i].text} {month}", None), at
    return None


def _day(t: Token) -> bool:
    return t.kind == "number" and t.text.isdigit() and 1 <= int(t.text) <= 31


# Words before a month named alone ("in May", "by March"): there "may" and "march" are months.
# (Not "this": "this may take a week".)
MONTH_BEFORE = frozenset({"in", "by", "until", "till", "since", "from", "before", "after", "during", "of", "mid",
                          "early", "late", "end", "next", "last", "throughout"})


def _word(tokens: list[Token], i: int) -> str:
    """The word at ``i``, or "" (past the end, or not a word)."""
    return tokens[i].text if i < len(tokens) and tokens[i].kind == "word" else ""


def _kind(tokens: list[Token], i: int) -> str:
    return tokens[i].kind if i < len(tokens) else ""


_UNITS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"))}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                                "ninety"))}
_MULTIPLIERS = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS) | frozenset(_MULTIPLIERS) | {"mil"}
_TEXT = itemgetter(1)  # a token's text


def _spelled(raw: list[Token]) -> list[Token]:
    """Numbers in words as numbers: "two thousand four hundred and fifty" is 2450 ("a" before a
    multiplier counts one; "and" joins inside a number; a hyphen splits "forty-five" already)."""
    if NUMBER_WORDS.isdisjoint(map(_TEXT, raw)):  # most texts: no number in words ("a" starts one only before these)
        return raw
    out: list[Token] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if (part := _part_of_scale(raw, i)) is not None:  # "half a million", "a quarter of a million"
            out.append(part[0])
            i = part[1]
            continue
        starts = t.kind == "word" and (t.text in _UNITS or t.text in _TENS or (
            t.text == "a" and i + 1 < len(raw) and raw[i + 1].text in _MULTIPLIERS))
        if not starts:
            out.append(t)
            i += 1
            continue
        total, group, j = 0, 0, i
        words: list[str] = []
        while j < len(raw) and raw[j].kind == "word":
            w = raw[j].text
            if w in _UNITS or w in _TENS:
                group += _UNITS.get(w, 0) + _TENS.get(w, 0)
            elif w == "a" and j == i:
                group = 1
            elif w in _MULTIPLIERS and (group or total):
                scale = _MULTIPLIERS[w]
                if scale == 100:
                    group *= 100
                else:
                    total, group = total + max(group, 1) * scale, 0
            elif not (w == "and" and j + 1 < len(raw) and raw[j + 1].text in NUMBER_WORDS and words):
                break
            words.append(w)
            j += 1
        value = float(total + group)
        if j + 1 < len(raw) and raw[j].text == "point" and _UNITS.get(raw[j + 1].text, 10) < 10:
            digits = ""  # "five point eight nine": 5.89, a digit a word
            j += 1
            while j < len(raw) and raw[j].kind == "word" and _UNITS.get(raw[j].text, 10) < 10:
                digits += str(_UNITS[raw[j].text])
                words.append(raw[j].text)
                j += 1
            value = float(f"{total + group}.{digits}")
        out.append(Token("number", " ".join(words), value))
        i = j
    return out


def _part_of_scale(raw: list[Token], i: int) -> tuple[Token, int] | None:
    """A part of a thousand or a million in words, and the index past it: "half a million" (68th
    audit: it was read as "a million"), "a quarter of a million", "three quarters of a million",
    "two and a half thousand"."""
    words = [t.text if t.kind == "word" else "" for t in raw[i:i + 6]]
    whole = _UNITS.get(words[0], _TENS.get(words[0]))
    if words[:2] in (["half", "a"], ["a", "half"]) and words[2:3] and words[2] in _SCALES:  # ("a half million")
        return _and_more(raw, Token("number", " ".join(words[:3]), _SCALES[words[2]] / 2), i + 3)
    count = 1 if words[0] in ("a", "one") else whole
    if count and words[1:2] and words[1] in _PARTS and words[2:4] == ["of", "a"] and words[4:5] and (
            words[4] in _SCALES):
        return Token("number", " ".join(words[:5]), _SCALES[words[4]] * count / _PARTS[words[1]]), i + 5
    if whole and words[1:4] == ["and", "a", "half"] and words[4:5] and words[4] in _SCALES:
        return Token("number", " ".join(words[:5]), _SCALES[words[4]] * (whole + 0.5)), i + 5
    return None


def _and_more(raw: list[Token], part: Token, j: int) -> tuple[Token, int]:
    """``part`` and what is added to it in words: "half a million and five thousand" is 505,000
    (red team 54: it was read as two amounts)."""
    words = [t.text if t.kind == "word" else "" for t in raw[j:j + 5]]
    k = 1
    group = 0.0
    given = raw[j + 1].value if len(raw) > j + 1 and raw[j + 1].kind == "number" else None
    if isinstance(given, float):
        group, k = given, 2  # "a half million and 5 thousand"
    while not group and k < len(words) and (words[k] in _UNITS or words[k] in _TENS):
        group += _UNITS.get(words[k], 0) + _TENS.get(words[k], 0)
        k += 1
    if words[:1] not in (["and"], ["plus"]) or not group or k >= len(words) or words[k] not in _SCALES or (
            not isinstance(part.value, float) or _SCALES[words[k]] * group >= part.value):
        return part, j
    more = " ".join(t.text for t in raw[j:j + k + 1])
    return Token("number", f"{part.text} {more}", part.value + _SCALES[words[k]] * group), j + k + 1


_SCALES = {"thousand": 1_000.0, "million": 1_000_000.0, "mil": 1_000_000.0, "grand": 1_000.0,
           "billion": 1_000_000_000.0}


# A share in words, before "of": "three quarters of your claim" is 75%.
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5,
          "tenth": 10, "tenths": 10}


_SHARE_STARTS = frozenset({"a", "one", "half"})
_OWNERS = frozenset({"my", "your", "its", "their", "our", "his", "her"})
# (not "half my team": red team 70)
_FIGURE_NOUNS = frozenset({"limit", "authority", "mandate", "claim", "sum", "amount", "cover", "excess", "total",
                           "payment", "approval", "figure", "policy", "budget", "ceiling"})


def _share(raw: list[Token], i: int) -> tuple[Token, int] | None:
    """The share written in words at ``i`` ("half of", "a third of", "two thirds of", "three
    quarters of"), as a rate, and the index past it (before "of")."""
    t = raw[i]
    count = 1.0 if t.text in ("a", "one") else t.value if t.kind == "number" and isinstance(t.value, float) else None
    at = i + 1 if count is not None else i
    part = _word(raw, at)
    if part not in _PARTS or _word(raw, at + 1) != "of" or (count is None and part != "half"):
        return None
    value = round(100 * (count or 1.0) / _PARTS[part], 2)
    return Token("rate", " ".join(x.text for x in raw[i:at + 1]), value), at + 1


def tokenize(text: str, prefixes: frozenset[str] = frozenset()) -> list[Token]:
    """The tokens of ``text``; an id given by its number ("SNR number 9", "SNR #9") is one where
    its prefix is one of ``prefixes`` (the lexicon's ``Lexicon.ids``)."""
    raw = _spelled(_words(text, prefixes))
    out: list[Token] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if t.kind == "punct" or (t.kind == "word" and t.text not in JOINED):  # most tokens: nothing to join
            if t.text in _SHARE_STARTS and (share := _share(raw, i)) is not None:
                out.append(share[0])
                i = share[1]
                continue
            if t.text == "half" and _word(raw, i + 1) in _OWNERS and (_word(raw, i + 2) in _FIGURE_NOUNS or (
                    i + 2 < len(raw) and raw[i + 2].kind in ("money", "number"))):  # "half my limit" (88th audit)
                out += [Token("rate", "half", 50.0), Token("word", "of")]
                i += 1
                continue
            out.append(t)
            i += 1
            continue
        nxt = _word(raw, i + 1)
        if t.kind in ("number", "money") and isinstance(t.value, float):
            value = t.value
            if t.kind == "number" and (share := _share(raw, i)) is not None:  # "two thirds of"
                out.append(share[0])
                i = share[1]
                continue
            if (dated := _day_first(raw, i)) is not None:  # "1 March 2026", "3rd of March, 2026"
                out.append(dated[0])
                i = dated[1]
                continue
            if nxt == "percent" or (nxt == "per" and _word(raw, i + 2) == "cent"):
                out.append(Token("rate", t.text, value))
                i += 2 if nxt == "percent" else 3
                continue
            if nxt in ("bps", "bp") or (nxt == "basis" and _word(raw, i + 2) in ("points", "point")):
                out.append(Token("rate", f"{t.text} bps", round(value / 100, 6)))  # "520 bps" is 5.2%
                i += 2 if nxt != "basis" else 3
                continue
            if nxt in ("thousand", "million", "mil", "billion", "grand", "lakh", "lakhs", "lac", "lacs", "crore",
                       "crores") or nxt in CODES:
                out.append(Token("money", f"{t.text} {nxt}", value * SCALE.get(nxt, 1)))
                i += 2
                continue
        if t.kind == "word" and t.text in CURRENCY_CODES:  # "GBP 4,200", "Rs. 5,200"
            at = i + 2 if _kind(raw, i + 1) == "punct" and raw[i + 1].text == "." else i + 1
            if _kind(raw, at) in ("number", "money"):
                out.append(Token("money", f"{t.text.upper()} {raw[at].text}", raw[at].value))
                i = at + 1
                continue
        month = t.text.rstrip(".") if t.kind == "word" else ""
        if month in MONTHS and _kind(raw, i + 1) == "number":
            at = _past(raw, i + 2, ORDINAL_SUFFIXES)
            at = at + 1 if _kind(raw, at) == "punct" and raw[at].text == "," else at
            if _kind(raw, at) == "number" and (d := _date(raw[i + 1], month, raw[at])):  # "March 1st, 2026"
                out.append(d)
                i = at + 1
                continue
            if _year(raw[i + 1]):  # "in March 2026": a month, never an amount
                out.append(Token("date", f"{month} {raw[i + 1].text}", date(int(raw[i + 1].text), MONTHS[month], 1)))
                i += 2
                continue
            if _day(raw[i + 1]):  # "by May 19th": a day of no year
                out.append(Token("date", f"{month} {raw[i + 1].text}", None))
                i = _past(raw, i + 2, ORDINAL_SUFFIXES)
                continue
        if month in MONTHS and out and out[-1].kind == "word" and out[-1].text in MONTH_BEFORE:
            out.append(Token("date", month, None))  # "by May", "in March": a month, not "may" or "march"
            i += 1
            continue
        out.append(t)
        i += 1
    return out
