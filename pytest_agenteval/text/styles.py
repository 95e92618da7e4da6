"""What a style does to the words it styles, as far as a reading can follow it: whether it hides
them (no display, no size, a colour a reader cannot tell from the page, a pictograph font:
``hides``), whether a declaration only colours or sets plain type (``PLAIN``, ``dark``) or lays
out boxes within a bound (``LAYOUT``: red teams 59-61), whether a style sheet does no more
(``plain_sheet``: Outlook's own does not), and how large type is after nesting (``scale``).
Used by ``hidden`` (what shows) and ``unreadable`` (what no reading follows)."""

from __future__ import annotations

import re

from pytest_agenteval.patterns import lazy

_HIDING = lazy(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|line-through|"
               r"(?:font-size|opacity)\s*:\s*(?:0*\.?0+|0*\.0*[0-4]\d*)(?:px|pt|em|rem|%)?\s*(?:;|$|!)|"
               r"font-size\s*:\s*[0-2](?:\.\d+)?px|"
               # off the page, or in a box of no size that hides what overflows it
               r"(?:left|top|text-indent|margin-left)\s*:\s*-\d{3,}|clip\s*:\s*rect\(\s*0|"
               r"(?:max-)?(?:height|width)\s*:\s*0(?:px|em|rem|%)?\s*;[^\"']*overflow\s*:\s*hidden|"
               r"overflow\s*:\s*hidden[^\"']*(?:max-)?(?:height|width)\s*:\s*0(?![.\d])", re.IGNORECASE)


# Fonts that draw no letters: a word set in one shows pictographs (red team 58)
SYMBOLS = lazy(r"font-family\s*:[^;]*(?:webdings|wingdings|symbol|dingbat|marlett|bookshelf|ms\s+outlook|"
                r"mt\s+extra|ms\s+reference\s+specialty|segoe\s+(?:mdl2|fluent)|zapf)", re.IGNORECASE)


COLOUR = lazy(r"(?<![\w-])color\s*:\s*([^;\"']+)", re.IGNORECASE)


DARK = frozenset({"windowtext", "black", "red", "darkred", "maroon", "green", "darkgreen", "blue", "navy", "darkblue",
                  "purple", "teal", "olive", "gray", "grey", "dimgray", "dimgrey", "brown", "crimson", "firebrick",
                  "indigo", "darkslategray", "darkslategrey", "midnightblue", "saddlebrown", "royalblue", "steelblue",
                  "seagreen", "forestgreen", "darkviolet", "slategray", "slategrey", "darkorange", "orangered",
                  "chocolate", "sienna", "darkcyan", "darkmagenta", "mediumblue", "darkolivegreen"})


LIGHT = frozenset({"white", "snow", "ghostwhite", "whitesmoke", "ivory", "seashell", "floralwhite", "mintcream",
                   "azure", "aliceblue", "honeydew", "linen", "oldlace", "lavenderblush", "cornsilk", "beige",
                   "lightyellow", "transparent"})


def hides(style: str) -> bool:
    """A style under which a reader sees nothing of the text (on a page with no dark background:
    ``unreadable`` refuses one)."""
    if _HIDING.search(style) or "font-family" in style.lower() and SYMBOLS.search(style):
        return True
    return any(light(m.group(1).strip().lower()) for m in COLOUR.finditer(style))


def light(colour: str) -> bool:
    """A colour a reader cannot tell from a white page, or none."""
    colour = colour.split("!")[0].strip()
    if colour in LIGHT:
        return True
    if colour.startswith("#"):
        digits = colour[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        if len(digits) in (6, 8) and all(c in "0123456789abcdef" for c in digits):
            alpha = int(digits[6:8], 16) if len(digits) == 8 else 255
            return alpha < 40 or _pale(*(int(digits[k:k + 2], 16) for k in (0, 2, 4)))
        return False
    numbers = [float(n) for n in re.findall(r"\d*\.\d+|\d+", colour)]  # (".05": red team 60)
    if colour.startswith("rgb") and len(numbers) >= 3:
        opacity = numbers[3] if len(numbers) > 3 else 1.0
        return opacity < 0.15 or all(n >= 230 for n in numbers[:3]) or _pale(*numbers[:3])
    if colour.startswith("hsl") and len(numbers) >= 3:
        opacity = numbers[3] if len(numbers) > 3 else 1.0
        return opacity < 0.15 or numbers[2] >= 90
    return False


def _pale(red: float, green: float, blue: float) -> bool:
    """A colour of so little contrast with white that a reader does not read it ("#ffffe0", the
    light yellow; red team 58): relative luminance over 0.65 (a contrast with white under 1.5)."""
    def linear(channel: float) -> float:
        c = min(max(channel, 0.0), 255.0) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue) > 0.65


def pale_background(colour: str) -> bool:
    """A background colour dark text reads on: pale (``light``), or the white of the page."""
    colour = colour.strip().strip("\"'").lower()
    return colour in ("white", "#fff", "#ffffff", "transparent", "none", "inherit") or light(
        _HIGHLIGHTS.get(colour, colour))


# Highlighter colours by name, as hex: dark type reads on each (red team 61: a yellow highlight)
_HIGHLIGHTS = {"yellow": "#ffff00", "aqua": "#00ffff", "cyan": "#00ffff", "lime": "#00ff00", "lightgreen": "#90ee90",
               "lightblue": "#add8e6", "pink": "#ffc0cb", "lavender": "#e6e6fa", "khaki": "#f0e68c", "gold": "#ffd700",
               "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3", "gainsboro": "#dcdcdc"}


# Declarations that only colour or set a type, which a reader sees and the first reading reads
# whole: an element carrying no others needs no second reading ("<span style='color:#c00'>Not</span>
# yet approved"; red team 57's honest e-mails). A comment, escape, function or "!" in one is read
# as styling of any kind.
PLAIN = lazy(r"\s*(?:color\s*:\s*(?:#[0-9a-f]{3,6}|[a-z]{3,20}|"
              r"rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)|hsl\(\s*\d{1,3}\s*,\s*\d{1,3}%\s*,\s*\d{1,3}%\s*\))|"
              r"background(?:-color)?\s*:\s*(?:#[0-9a-f]{3,6}|[a-z]{3,20})|"
              r"font-weight\s*:\s*(?:bold|bolder|normal|[1-9]00)|"
              r"font-style\s*:\s*(?:italic|normal|oblique)|font-family\s*:\s*[\w\s,\"'-]{1,80}|"
              r"font-size\s*:\s*(?:(?:[7-9]|[1-3]\d)(?:\.\d)?(?:pt|px)|(?:0\.[89]|1(?:\.\d+)?|2)(?:em|rem)|"
              r"(?:8\d|9\d|1\d\d)%|small|medium|large)|text-decoration\s*:\s*(?:underline|none))\s*",
              re.IGNORECASE)


def dark(declaration: str) -> bool:
    """A declaration sets no colour, or one a reader reads on a white page (a hex value, or a name
    of ``DARK``: not "Canvas", whose colour is the page's)."""
    name, _, value = declaration.partition(":")
    name, value = name.strip().lower(), value.strip().lower()
    if name.startswith("background"):
        return pale_background(value)  # a highlight dark type reads on (red team 61)
    if name != "color":
        return True
    return (value.startswith(("#", "rgb(", "hsl(")) or value in DARK) and not light(value)  # (Outlook on the web)


# (small boxes only: "padding-left:99999px" pushes a word out of view; red team 59)
_LENGTHS = r"(?:0|auto|[0-3]?\d(?:\.\d+)?(?:pt|px)|\d(?:\.\d+)?(?:mm|%)|[0-2](?:\.\d+)?(?:cm|em|rem)|0?\.\d+in)"


# (a border's width too: "border-left:99em solid white" pushes a word out of view; red team 61)
_WIDE = r"(?![^;]*\b(?:[4-9]\d|\d{3,})(?:\.\d+)?\s*(?:px|pt)|[^;]*\b(?:[3-9]|\d{2,})(?:\.\d+)?\s*(?:em|rem|cm|in))"


# What else a plain style sheet may set: boxes around type, never moving or covering it (no negative
# margin, no line height under one), and the names Outlook writes.
LAYOUT = lazy(rf"\s*(?:(?:margin|padding)(?:-(?:top|right|bottom|left))?\s*:\s*{_LENGTHS}"
               rf"(?:\s+{_LENGTHS}){{0,3}}|"
               rf"border(?:-[a-z-]+)?\s*:{_WIDE}[^;:(){{}}]{{1,60}}|"
               r"line-height\s*:\s*(?:normal|[1-9](?:\.\d+)?(?:em)?|"
               r"1\d\d%|(?:1[2-9]|[23]\d)(?:\.\d+)?(?:pt|px))|vertical-align\s*:\s*(?:baseline|top|middle|bottom)|"
               r"text-align\s*:\s*(?:left|right|center|justify|start|end)|page\s*:\s*[\w-]+|"
               r"(?:word-wrap|overflow-wrap|word-break|hyphens)\s*:\s*[a-z-]+|"
               r"size\s*:\s*[\d.\s]+pt\s+[\d.\s]+pt|panose-1\s*:[\d\s]+|"
               r"mso-(?!hide)[a-z-]+\s*:[^;:(){}]{1,60})\s*", re.IGNORECASE)


_SHEET_RULE = lazy(r"\s*(@page\s+[\w-]*|@font-face|@list\s+[\w:-]+|[^@{}]{1,300}?)\s*\{([^{}]*)\}\s*")


_WORD_LISTS = lazy(r"@list\s+[\w:-]+\s*\{[^{}]*\}")  # Word's list numbering: no browser reads it


_MSO = lazy(r"mso-(?!hide)[a-z-]+\s*:[^;{}]{0,80}", re.IGNORECASE)  # Word's own: browsers read none


def plain_sheet(sheet: str) -> bool:
    """A style sheet that only colours type darkly, sets its face, weight and an absolute size, and
    lays out boxes (Outlook's own sheet is one): it can hide, add or move no word. Anything else
    (a comment is fine; an escape, an ``@media``, ``url()``, a background, ``content``) is not."""
    sheet = _WORD_LISTS.sub(" ", _MSO.sub("mso-x:0", re.sub(r"/\*[\s\S]*?\*/|<!--|-->", " ", sheet)))
    if "\\" in sheet or "(" in sheet or "!" in sheet or "/*" in sheet or SYMBOLS.search(sheet):
        return False  # (an escape, a function, an unclosed comment, a font of pictographs)
    end = 0
    for m in _SHEET_RULE.finditer(sheet):
        if m.start() != end:
            return False
        end = m.end()
        page = m.group(1).startswith("@page")  # (a page's margins move no word against another)
        for declaration in (d for d in m.group(2).split(";") if d.strip()) if not page else ():
            if not (LAYOUT.fullmatch(declaration) or PLAIN.fullmatch(declaration) and dark(declaration) and not (
                    re.search(r"font-size\s*:\s*[\d.]+(?:em|rem|%)", declaration, re.IGNORECASE))):
                return False
    return end == len(sheet) or not sheet[end:].strip()


SMALLEST = 0.4  # of the page's type: under ~6px a reader sees no word


_SIZES = {"xx-small": 0.56, "x-small": 0.63, "small": 0.83, "medium": 1.0, "large": 1.13, "x-large": 1.5,
          "xx-large": 2.0}


_FONT_SIZES = {"1": 0.63, "2": 0.81, "3": 1.0, "4": 1.13, "5": 1.5, "6": 2.0, "7": 3.0}
FONT_SIZE = lazy(r"font-size\s*:\s*([\d.]+)\s*(px|pt|em|rem|%)|font-size\s*:\s*([a-z-]+)", re.IGNORECASE)


def scale(tag: str, found: dict[str, str | None], style: str, parent: float, sheet: bool = False) -> float:
    """The element's type size as a share of the page's, from its parent's (under a style sheet that
    sets sizes, ``<font>`` and ``<big>`` make nothing larger: the sheet may size them; red team 60)."""
    size = parent * 0.83 if tag in ("small", "sub", "sup") else parent * 1.2 if tag == "big" and not sheet else parent
    if tag == "font" and (given := (found.get("size") or "").strip()):
        size = _FONT_SIZES.get(given, parent * 0.8 ** -int(given) if re.fullmatch(r"[+-]\d", given) else size)
        size = min(size, parent) if sheet else size
    for m in FONT_SIZE.finditer(style) if "font-size" in style.lower() else ():
        if m.group(3):
            word = m.group(3).lower()
            size = _SIZES.get(word, parent * (0.83 if word == "smaller" else 1.2 if word == "larger" else 1.0))
            continue
        number, unit = float(m.group(1)), m.group(2).lower()
        size = {"px": number / 16, "pt": number / 12, "em": parent * number, "rem": number,
                "%": parent * number / 100}[unit]
    return size
