"""What markup hides from a reader, taken out before a text is read (red teams 54 and 55: "We did
<!-- not --> pay it twice" showed a reader "We did pay it twice" and the judge read "not").

Read with the standard library's HTML parser, so nesting, comments in any closing form and
unclosed elements are read as a browser reads them: a comment; struck-out words (``<del>``,
``<s>``, ``<strike>``, Markdown's ``~~…~~``); what is never shown (``<script>``, ``<style>``,
``<template>``, ``<head>``, ``<noscript>``, a closed ``<details>`` but its ``<summary>``); an
element hidden by its ``hidden`` attribute, by its style or by a class a ``<style>`` rule hides
(``display:none``, ``visibility:hidden|collapse``, a font size or an opacity of nothing, a colour a
reader cannot tell from white or no colour at all). The markup that shows is kept for the mail
pass (``mail.marked_up``) to read.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

NEVER_SHOWN = frozenset({"del", "s", "strike", "script", "style", "template", "title", "noscript"})
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "area", "base", "col", "embed", "source", "param",
                  "track", "keygen", "command", "basefont", "bgsound", "frame", "image", "isindex", "nextid"})
# An element a new one of these closes: "<p hidden>x<p>shown" (red team 56)
SELF_ENDING = frozenset({"p", "li", "tr", "td", "th", "option", "dt", "dd"})
# What may style an element out of sight; an element carrying any is read both ways (``strict``),
# as is one with a class or an id (a page's own style sheet may hide it: Tailwind's "opacity-0"),
# unless the mailers' own: Outlook puts a class on every paragraph (red team 59).
STYLING = frozenset({"style", "hidden", "color", "bgcolor", "size"})
_MAILERS = re.compile(r"Mso\w*|WordSection\d*|gmail[\w-]*|x_\w*|elementToProof|ContentPasted\d*|yiv\w*|"
                      r"divRplyFwdMsg|appendonsend|Signature|ms-outlook\w*|apple-\w*|moz-\w*", re.IGNORECASE)
_STRUCK = re.compile(r"~~(?=\s*\S)[^~\n]{1,200}?~~")
_TAGGED = re.compile(r"<[A-Za-z!/]")
_HIDING = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|line-through|"
                     r"(?:font-size|opacity)\s*:\s*(?:0*\.?0+|0*\.0*[0-4]\d*)(?:px|pt|em|rem|%)?\s*(?:;|$|!)|"
                     r"font-size\s*:\s*[0-2](?:\.\d+)?px|"
                     # off the page, or in a box of no size that hides what overflows it
                     r"(?:left|top|text-indent|margin-left)\s*:\s*-\d{3,}|clip\s*:\s*rect\(\s*0|"
                     r"(?:max-)?(?:height|width)\s*:\s*0(?:px|em|rem|%)?\s*;[^\"']*overflow\s*:\s*hidden|"
                     r"overflow\s*:\s*hidden[^\"']*(?:max-)?(?:height|width)\s*:\s*0(?![.\d])", re.IGNORECASE)
# Classes that hide in the common style sheets (Bootstrap, Tailwind, accessibility helpers).
HIDING_CLASSES = frozenset({"hidden", "d-none", "invisible", "sr-only", "visually-hidden", "hide", "is-hidden",
                            "screen-reader-text", "visuallyhidden", "is-invisible", "u-hidden", "offscreen",
                            "hidden-xs", "hidden-sm", "hidden-md", "hidden-lg", "d-sm-none", "d-md-none", "d-lg-none",
                            "display-none", "element-invisible", "a11y-hidden", "hide-text"})
_INLINE_STYLE = re.compile(r"display\s*:\s*(?:inline|contents)", re.IGNORECASE)
# Fonts that draw no letters: a word set in one shows pictographs (red team 58)
_SYMBOLS = re.compile(r"font-family\s*:[^;]*(?:webdings|wingdings|symbol|dingbat|marlett|bookshelf|ms\s+outlook|"
                      r"mt\s+extra|ms\s+reference\s+specialty|segoe\s+(?:mdl2|fluent)|zapf)", re.IGNORECASE)
_COLOUR = re.compile(r"(?<![\w-])color\s*:\s*([^;\"']+)", re.IGNORECASE)
_RULE = re.compile(r"([^{}]{1,200})\{([^{}]{0,400})\}")
# (a start tag of any length: red team 60)
_STYLE_BLOCK = re.compile(r"<style\b[^<>]*>([\s\S]*?)(?:</style\s*>|$)", re.IGNORECASE)
DARK = frozenset({"windowtext", "black", "red", "darkred", "maroon", "green", "darkgreen", "blue", "navy", "darkblue",
                  "purple", "teal", "olive", "gray", "grey", "dimgray", "dimgrey", "brown", "crimson", "firebrick",
                  "indigo",
                  "darkslategray", "darkslategrey", "midnightblue", "saddlebrown", "royalblue", "steelblue",
                  "seagreen", "forestgreen", "darkviolet", "slategray", "slategrey", "darkorange", "orangered",
                  "chocolate", "sienna", "darkcyan", "darkmagenta", "mediumblue", "darkolivegreen"})
LIGHT = frozenset({"white", "snow", "ghostwhite", "whitesmoke", "ivory", "seashell", "floralwhite", "mintcream",
                   "azure", "aliceblue", "honeydew", "linen", "oldlace", "lavenderblush", "cornsilk", "beige",
                   "lightyellow", "transparent"})


# Markup whose words a reader sees otherwise than any reading of ours (red team 57): a style sheet
# (it may add words with ``content:``, or hide any element by any selector), an element that shows
# another document or a shadow tree, reorders its letters, or draws words from its attributes.
# (red team 58: what the browser's own style sheet hides or replaces, raw text that shows its markup)
_UNREADABLE_TAG = re.compile(r"<\s*(link|template|bdo|ruby|rt|rp|iframe|frame|frameset|noframes|object|embed|applet|"
                             r"slot|noscript|select|option|optgroup|datalist|textarea|xmp|plaintext|listing|portal|"
                             r"fencedframe|dialog|audio|video|meter|progress|canvas|details|tspan|textpath|"
                             # (a box or a button shows no word of its own)
                             r"input(?![^<>]*\btype\s*=\s*[\"']?(?:checkbox|radio|hidden)\b))(?![\w-])",
                             re.IGNORECASE)
_SVG_TEXT = re.compile(r"<\s*svg\b[\s\S]*<\s*text\b", re.IGNORECASE)
# A list numbered from an attribute: "Number of payments: <ol start=2><li>(see ledger)" shows "2."
_NUMBERED = re.compile(r"<\s*(?:ol|li)\b[^<>]*\b(?:start|value)\s*=", re.IGNORECASE)
_RTL = re.compile(r"\bdir\s*=\s*[\"']?\s*rtl", re.IGNORECASE)
_STYLE_ATTR = re.compile(r"<\s*([a-z][\w-]*)\b[^<>]*?\bstyle\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.IGNORECASE)
# A background a reader's eye does not read text over (a picture, a dark colour, a shadow painted
# behind the words): what shows on it cannot be known (red team 58).
_BACKGROUND = re.compile(r"\bbackground\s*=|\bbgcolor\s*=\s*[\"']?\s*([^\"'\s>]+)", re.IGNORECASE)
_BACKGROUND_STYLE = re.compile(r"background(?:-color|-image)?\s*:\s*([^;]+)|box-shadow\s*:|text-shadow\s*:|"
                               r"-webkit-text-fill-color\s*:|-webkit-background-clip\s*:|background-clip\s*:",
                               re.IGNORECASE)
# What a style may do to the order or number of the words shown: move, reorder, add.
_MOVING = re.compile(r"(?<![\w-])(?:content|order|direction|unicode-bidi|writing-mode|grid-area|grid-row|grid-column|"
                     r"grid-template-areas|counter-reset|counter-increment|counter-set)\s*:|flex-(?:direction|flow)\s*:"
                     r"[^;]*reverse|(?<![\w-])position\s*:\s*(?:absolute|fixed)|(?<![\w-])float\s*:\s*(?:left|right)|"
                     r"transform\s*:(?!\s*none)|list-style(?:-type)?\s*:[^;]*(?:['\u201c]|"
                     r"&quot;|&#)", re.IGNORECASE)


def unreadable(text: str) -> str | None:
    """The markup in ``text`` whose words a reader sees differently from any reading of ours (a
    style sheet, an embedded document, a shadow tree, letters reordered, a style that moves or
    adds words), or None. Such a text is not judged by what it seems to say: it fails."""
    if "<" not in text or not _TAGGED.search(text):
        return None
    if (m := _UNREADABLE_TAG.search(text)) is not None:
        return f"<{m.group(1).lower()}>"
    if "<!--" in text and _unclosed(text):
        return "a comment left open"  # (a browser reads "<!--" in an attribute or a script as no comment)
    if "<svg" in text.lower() and _SVG_TEXT.search(text):
        return "text placed in an <svg>"
    sheets = _STYLE_BLOCK.findall(text) if "<style" in text.lower() else []
    if "<style" in text.lower() and (len(sheets) != len(re.findall(r"<style\b", text, re.I)) or not all(
            _plain_sheet(sheet) for sheet in sheets)):
        return "a style sheet that does more than colour and lay out plain type"
    if (m := _NUMBERED.search(text)) is not None:
        return "a list numbered by its markup"
    if "dir" in text.lower() and (m := _RTL.search(text)) is not None:
        return "dir=\"rtl\""
    for m in _BACKGROUND.finditer(text) if "background" in text.lower() or "bgcolor" in text.lower() else ():
        if m.group(1) is None or not _pale_named(m.group(1)):
            return "a background that is no pale colour"
    for m in _STYLE_ATTR.finditer(text) if "style" in text.lower() else ():
        style = html.unescape(m.group(2))
        if (moving := _MOVING.search(style)) is not None and not (
                m.group(1).lower() == "img" and moving.group(0).split(":")[0].strip().lower() in ("float", "position")):
            return f"a style that moves or adds words ({moving.group(0).split(':')[0].strip()})"
        for shade in _BACKGROUND_STYLE.finditer(style) if "background" in style.lower() or "-" in style else ():
            if shade.group(1) is None or not _pale_named(shade.group(1)):
                return "a background that is no pale colour"
    return None


def _pale_named(colour: str) -> bool:
    """A background colour dark text reads on: pale (``_light``), or the white of the page."""
    colour = colour.strip().strip("\"'").lower()
    return colour in ("white", "#fff", "#ffffff", "transparent", "none", "inherit") or _light(
        _HIGHLIGHTS.get(colour, colour))


# Highlighter colours by name, as hex: dark type reads on each (red team 61: a yellow highlight)
_HIGHLIGHTS = {"yellow": "#ffff00", "aqua": "#00ffff", "cyan": "#00ffff", "lime": "#00ff00", "lightgreen": "#90ee90",
               "lightblue": "#add8e6", "pink": "#ffc0cb", "lavender": "#e6e6fa", "khaki": "#f0e68c", "gold": "#ffd700",
               "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3", "gainsboro": "#dcdcdc"}


_EMPTY_COMMENT = re.compile(r"<!---?>")  # "<!-->", "<!--->": a comment a browser closes at once


def _unclosed(text: str) -> bool:
    text = _EMPTY_COMMENT.sub("", text.replace("--!>", "-->"))
    opened = text.rfind("<!--")
    return opened >= 0 and text.find("-->", opened + 4) < 0


def unseen(text: str) -> str:
    """``text`` without what its markup hides from a reader."""
    return _read(text, strict=False)


ONE_BY_ONE = 6  # styled elements a text may carry and still be read with each one left out alone


def strict(text: str) -> list[tuple[str, bool]]:
    """Other readings of ``text``, each a lie in which fails: without every element whose markup
    could style it out of sight (a style beyond a plain colour or type, a class, an id, a colour
    attribute), and, when it has at most ``ONE_BY_ONE`` of them, without each one alone (a word
    hidden inside a styled container that shows the rest: red team 57). No reading of style can
    follow every way a browser hides a word (red team 56); empty when nothing is styled. Each with
    whether it leaves out every styled word (what the text says at the least: red team 60)."""
    if "<" not in text or not _TAGGED.search(text):
        return []
    every = _Shown(strict=True)
    shown = _read(text, strict=False)
    out = [(found, True)] if (found := _read(text, reader=every)) != shown else []
    if 1 < every.styled <= ONE_BY_ONE:
        out += [(found, False) for k in range(every.styled)
                if (found := _read(text, reader=_Shown(True, only=k))) not in (shown, out[0][0] if out else None)]
    return list(dict.fromkeys(out))


def _read(text: str, *, strict: bool = False, reader: _Shown | None = None) -> str:
    if "~~" in text:
        text = _STRUCK.sub("", text)
    if "<" not in text or not _TAGGED.search(text):
        return text
    if "<!--" in text:  # a comment as a browser ends it: at "--!>" too, or at the text's end
        text = _EMPTY_COMMENT.sub("", text.replace("--!>", "-->"))
        opened = text.rfind("<!--")
        text = text if text.find("-->", opened + 4) >= 0 else text[:opened]
    reader = reader or _Shown(strict)
    for block in _STYLE_BLOCK.finditer(text) if "<style" in text.lower() else ():  # (a rule may follow what it hides)
        reader.rules(block.group(1))
        # (a sheet's "font-size:8px" and three <small>s inside: the smallest it sets is taken as the page's)
        sizes = [_scale("", {}, m.group(0), 1.0) for m in _FONT_SIZE.finditer(block.group(1))]
        reader.root = min([reader.root, *sizes])
    reader.feed(text)
    reader.close()
    return "".join(reader.out)


def hides(style: str) -> bool:
    """A style under which a reader sees nothing of the text (on a page with no dark background:
    ``unreadable`` refuses one)."""
    if _HIDING.search(style) or "font-family" in style.lower() and _SYMBOLS.search(style):
        return True
    return any(_light(m.group(1).strip().lower()) for m in _COLOUR.finditer(style))


def _light(colour: str) -> bool:
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


class _Shown(HTMLParser):
    """The source of what shows, element by element."""

    def __init__(self, strict: bool, only: int | None = None) -> None:
        super().__init__(convert_charrefs=False)
        self.strict = strict
        self.only = only  # (strict) the one styled element left out, by its place; None: every one
        self.styled = 0  # (strict) styled elements met so far
        self.out: list[str] = []
        # (tag, hidden from here down, the tag it shows as, on a background set here or above, font scale,
        # font scale if no style sheet's size reaches it)
        self.open: list[tuple[str, bool, str, bool, float, float]] = []
        self.hidden_classes: set[str] = set()
        self.hidden_ids: set[str] = set()
        self.hidden_tags: set[str] = set()
        self.numbers: list[int] = []  # the next number of each ordered list open
        self.root = 1.0  # the page's type size: a style sheet's smallest, if it sets one smaller

    def rules(self, sheet: str) -> None:
        """The selectors a style sheet hides: ".x", "#y", "u", each of a list, the last part of each."""
        for m in _RULE.finditer(re.sub(r"/\*[\s\S]*?\*/", "", sheet)):
            if not hides(m.group(2)):
                continue
            for selector in m.group(1).split(","):
                last = re.split(r"[\s>+~]+", selector.strip())[-1]
                for part in re.findall(r"[.#]?[A-Za-z_][\w-]*", last):
                    {".": self.hidden_classes, "#": self.hidden_ids}.get(part[0], self.hidden_tags).add(
                        part.lstrip(".#").lower() if part[0] not in ".#" else part[1:])

    @property
    def hidden(self) -> bool:
        return bool(self.open) and self.open[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SELF_ENDING and self.open and self.open[-1][0] == tag:
            self.open.pop()  # (a browser closes the one before)
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        style = found.get("style") or ""
        struck = tag in NEVER_SHOWN and not (tag in ("s", "del", "strike") and "text-decoration:none" in style.replace(
            " ", "").lower())  # (a struck element whose style takes the stroke off shows)
        hidden = self.hidden or struck or "hidden" in found or hides(style) or (
            bool(classes & (self.hidden_classes | HIDING_CLASSES))) or tag in self.hidden_tags or (
            found.get("id") or "") in self.hidden_ids or tag == "font" and _light((found.get("color") or "").lower())
        backed = bool(self.open) and self.open[-1][3] or "bgcolor" in found or "background" in found or (
            tag == "mark") or "background" in style.lower() or "shadow" in style.lower()  # (box-shadow: red team 58)
        scale = _scale(tag, found, style, self.open[-1][4] if self.open else self.root, self.root < 1)
        sure = _scale(tag, found, style, self.open[-1][5] if self.open else 1.0)  # (with no sheet's size)
        hidden = hidden or sure < SMALLEST  # (sizes that compound: sixteen <small>s deep; red team 58)
        # (a sheet's size may not reach the element: "tiny" under it is read both ways; red team 61)
        if self.strict and (_styled(tag, found, backed) or scale < SMALLEST or tag in (
                "svg", "math", "canvas", "object", "img")):
            hidden = hidden or self.only is None or self.only == self.styled
            self.styled += 1
        if tag == "details" and "open" not in found:
            hidden = True  # a closed <details> shows only its <summary>
        if tag == "summary" and self.open and self.open[-1][0] == "details" and not (
                len(self.open) > 1 and self.open[-2][1]):
            hidden = False
        # (an element styled to display inline flows in its line: "tw<div style='display:inline'>ice")
        shown_as = "span" if _INLINE_STYLE.search(style) else tag
        if not hidden:
            self.out.append(self.get_starttag_text() or "" if shown_as == tag else "<span>")
            self._shown_by(tag, found)
        if tag not in VOID:
            self.open.append((tag, hidden, shown_as, backed, scale, sure))

    def _shown_by(self, tag: str, found: dict[str, str | None]) -> None:
        """Words the element itself shows (red team 57): an image's text while images are off (in
        the first reading; the strict one leaves the image out), an ordered list's numbers."""
        if tag == "img" and (found.get("alt") or "").strip():
            self.out.append(f" {html.escape(found['alt'] or '')} ")
        elif tag == "ol":
            self.numbers.append(_number(found.get("start"), 1))
        elif tag == "li" and self.numbers and any(o[0] == "ol" for o in self.open):
            number = _number(found.get("value"), self.numbers[-1])
            self.out.append(f"{number}. ")
            self.numbers[-1] = number + 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:  # a browser ignores the "/" of "<span/>": the element stays open (red team 56)
            self.handle_starttag(tag, attrs)
        elif not self.hidden and not (self.strict and tag == "img"):
            self.out.append(self.get_starttag_text() or "")
            self._shown_by(tag, dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if not any(o[0] == tag for o in self.open):
            if not self.hidden:
                self.out.append(f"</{tag}>")
            return
        while self.open:
            t, hidden, shown_as, *_ = self.open.pop()
            if t == "ol" and self.numbers and not hidden:
                self.numbers.pop()
            if t == tag:
                if not hidden:
                    self.out.append(f"</{shown_as}>")
                return

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        if not self.hidden:
            self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        if not self.hidden:
            self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass  # never shown

    def handle_decl(self, decl: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        pass

    def unknown_decl(self, data: str) -> None:
        pass


# Declarations that only colour or set a type, which a reader sees and the first reading reads
# whole: an element carrying no others needs no second reading ("<span style='color:#c00'>Not</span>
# yet approved"; red team 57's honest e-mails). A comment, escape, function or "!" in one is read
# as styling of any kind.
_PLAIN = re.compile(r"\s*(?:color\s*:\s*(?:#[0-9a-f]{3,6}|[a-z]{3,20}|"
                    r"rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)|hsl\(\s*\d{1,3}\s*,\s*\d{1,3}%\s*,\s*\d{1,3}%\s*\))|"
                    r"background(?:-color)?\s*:\s*(?:#[0-9a-f]{3,6}|[a-z]{3,20})|"
                    r"font-weight\s*:\s*(?:bold|bolder|normal|[1-9]00)|"
                    r"font-style\s*:\s*(?:italic|normal|oblique)|font-family\s*:\s*[\w\s,\"'-]{1,80}|"
                    r"font-size\s*:\s*(?:(?:[7-9]|[1-3]\d)(?:\.\d)?(?:pt|px)|(?:0\.[89]|1(?:\.\d+)?|2)(?:em|rem)|"
                    r"(?:8\d|9\d|1\d\d)%|small|medium|large)|text-decoration\s*:\s*(?:underline|none))\s*",
                    re.IGNORECASE)


def _styled(tag: str, found: dict[str, str | None], backed: bool = False) -> bool:
    """The element carries what could style it out of sight (``STYLING``) beyond a plain colour
    or type (any colour, on a background set here or above); a ``<font>`` beyond a colour, face or size."""
    rest = STYLING.intersection(found) - {"style"} | {a for a in ("class", "id") if not all(
        _MAILERS.fullmatch(name) for name in (found.get(a) or "").split())}
    style = found.get("style")
    if backed and ("color" in found or _COLOUR.search(style or "")):  # (not "background-color")
        return True
    if tag == "font":
        return bool(set(found) - {"color", "face", "size"}) or _light((found.get("color") or "").lower()) or (
            (found.get("size") or "3").strip() in ("0", "1", "-1", "-2", "-3"))
    if rest or style is None:
        return bool(rest)
    parts = [p for p in style.split(";") if p.strip()]
    # (a paragraph's margin or line height hides nothing: "<p style='margin:0 0 12px'>" is plain)
    return not parts or not all(_PLAIN.fullmatch(p) and _dark(p) or _LAYOUT.fullmatch(p) for p in parts)


def _dark(declaration: str) -> bool:
    """A declaration sets no colour, or one a reader reads on a white page (a hex value, or a name
    of ``DARK``: not "Canvas", whose colour is the page's)."""
    name, _, value = declaration.partition(":")
    name, value = name.strip().lower(), value.strip().lower()
    if name.startswith("background"):
        return _pale_named(value)  # a highlight dark type reads on (red team 61)
    if name != "color":
        return True
    return (value.startswith(("#", "rgb(", "hsl(")) or value in DARK) and not _light(value)  # (Outlook on the web)


# (small boxes only: "padding-left:99999px" pushes a word out of view; red team 59)
_LENGTHS = r"(?:0|auto|[0-3]?\d(?:\.\d+)?(?:pt|px)|\d(?:\.\d+)?(?:mm|%)|[0-2](?:\.\d+)?(?:cm|em|rem)|0?\.\d+in)"
# (a border's width too: "border-left:99em solid white" pushes a word out of view; red team 61)
_WIDE = r"(?![^;]*\b(?:[4-9]\d|\d{3,})(?:\.\d+)?\s*(?:px|pt)|[^;]*\b(?:[3-9]|\d{2,})(?:\.\d+)?\s*(?:em|rem|cm|in))"
# What else a plain style sheet may set: boxes around type, never moving or covering it (no negative
# margin, no line height under one), and the names Outlook writes.
_LAYOUT = re.compile(rf"\s*(?:(?:margin|padding)(?:-(?:top|right|bottom|left))?\s*:\s*{_LENGTHS}"
                     rf"(?:\s+{_LENGTHS}){{0,3}}|"
                     rf"border(?:-[a-z-]+)?\s*:{_WIDE}[^;:(){{}}]{{1,60}}|"
                     r"line-height\s*:\s*(?:normal|[1-9](?:\.\d+)?(?:em)?|"
                     r"1\d\d%|(?:1[2-9]|[23]\d)(?:\.\d+)?(?:pt|px))|vertical-align\s*:\s*(?:baseline|top|middle|bottom)|"
                     r"text-align\s*:\s*(?:left|right|center|justify|start|end)|page\s*:\s*[\w-]+|"
                     r"(?:word-wrap|overflow-wrap|word-break|hyphens)\s*:\s*[a-z-]+|"
                     r"size\s*:\s*[\d.\s]+pt\s+[\d.\s]+pt|panose-1\s*:[\d\s]+|"
                     r"mso-(?!hide)[a-z-]+\s*:[^;:(){}]{1,60})\s*", re.IGNORECASE)
_SHEET_RULE = re.compile(r"\s*(@page\s+[\w-]*|@font-face|@list\s+[\w:-]+|[^@{}]{1,300}?)\s*\{([^{}]*)\}\s*")
_WORD_LISTS = re.compile(r"@list\s+[\w:-]+\s*\{[^{}]*\}")  # Word's list numbering: no browser reads it
_MSO = re.compile(r"mso-(?!hide)[a-z-]+\s*:[^;{}]{0,80}", re.IGNORECASE)  # Word's own: browsers read none


def _plain_sheet(sheet: str) -> bool:
    """A style sheet that only colours type darkly, sets its face, weight and an absolute size, and
    lays out boxes (Outlook's own sheet is one): it can hide, add or move no word. Anything else
    (a comment is fine; an escape, an ``@media``, ``url()``, a background, ``content``) is not."""
    sheet = _WORD_LISTS.sub(" ", _MSO.sub("mso-x:0", re.sub(r"/\*[\s\S]*?\*/|<!--|-->", " ", sheet)))
    if "\\" in sheet or "(" in sheet or "!" in sheet or "/*" in sheet or _SYMBOLS.search(sheet):
        return False  # (an escape, a function, an unclosed comment, a font of pictographs)
    end = 0
    for m in _SHEET_RULE.finditer(sheet):
        if m.start() != end:
            return False
        end = m.end()
        page = m.group(1).startswith("@page")  # (a page's margins move no word against another)
        for declaration in (d for d in m.group(2).split(";") if d.strip()) if not page else ():
            if not (_LAYOUT.fullmatch(declaration) or _PLAIN.fullmatch(declaration) and _dark(declaration) and not (
                    re.search(r"font-size\s*:\s*[\d.]+(?:em|rem|%)", declaration, re.IGNORECASE))):
                return False
    return end == len(sheet) or not sheet[end:].strip()


SMALLEST = 0.4  # of the page's type: under ~6px a reader sees no word
_SIZES = {"xx-small": 0.56, "x-small": 0.63, "small": 0.83, "medium": 1.0, "large": 1.13, "x-large": 1.5,
          "xx-large": 2.0}
_FONT_SIZES = {"1": 0.63, "2": 0.81, "3": 1.0, "4": 1.13, "5": 1.5, "6": 2.0, "7": 3.0}
_FONT_SIZE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(px|pt|em|rem|%)|font-size\s*:\s*([a-z-]+)", re.IGNORECASE)


def _scale(tag: str, found: dict[str, str | None], style: str, parent: float, sheet: bool = False) -> float:
    """The element's type size as a share of the page's, from its parent's (under a style sheet that
    sets sizes, ``<font>`` and ``<big>`` make nothing larger: the sheet may size them; red team 60)."""
    scale = parent * 0.83 if tag in ("small", "sub", "sup") else parent * 1.2 if tag == "big" and not sheet else parent
    if tag == "font" and (size := (found.get("size") or "").strip()):
        scale = _FONT_SIZES.get(size, parent * 0.8 ** -int(size) if re.fullmatch(r"[+-]\d", size) else scale)
        scale = min(scale, parent) if sheet else scale
    for m in _FONT_SIZE.finditer(style) if "font-size" in style.lower() else ():
        if m.group(3):
            word = m.group(3).lower()
            scale = _SIZES.get(word, parent * (0.83 if word == "smaller" else 1.2 if word == "larger" else 1.0))
            continue
        number, unit = float(m.group(1)), m.group(2).lower()
        scale = {"px": number / 16, "pt": number / 12, "em": parent * number, "rem": number,
                 "%": parent * number / 100}[unit]
    return scale


def _number(value: str | None, default: int) -> int:
    try:
        return int((value or "").strip()) if value and len(value.strip()) < 10 else default
    except ValueError:
        return default
