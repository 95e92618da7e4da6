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

import re
from html.parser import HTMLParser

NEVER_SHOWN = frozenset({"del", "s", "strike", "script", "style", "template", "title", "noscript"})
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "area", "base", "col", "embed", "source", "param",
                  "track", "keygen", "command", "basefont", "bgsound", "frame", "image", "isindex", "nextid"})
# An element a new one of these closes: "<p hidden>x<p>shown" (red team 56)
SELF_ENDING = frozenset({"p", "li", "tr", "td", "th", "option", "dt", "dd"})
# What may style an element out of sight; an element carrying any is read both ways (``strict``).
STYLING = frozenset({"style", "class", "id", "hidden", "color", "bgcolor", "size"})
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
                            "screen-reader-text"})
_COLOUR = re.compile(r"(?<![\w-])color\s*:\s*([^;\"']+)", re.IGNORECASE)
_RULE = re.compile(r"([^{}]{1,200})\{([^{}]{0,400})\}")
_STYLE_BLOCK = re.compile(r"<style\b[^<>]{0,200}>((?:(?!</style)[\s\S]){0,2000})", re.IGNORECASE)
LIGHT = frozenset({"white", "snow", "ghostwhite", "whitesmoke", "ivory", "seashell", "floralwhite", "mintcream",
                   "azure", "aliceblue", "honeydew", "linen", "oldlace", "lavenderblush", "cornsilk", "beige",
                   "lightyellow", "transparent"})


def unseen(text: str) -> str:
    """``text`` without what its markup hides from a reader."""
    return _read(text, strict=False)


def strict(text: str) -> str | None:
    """``text`` without every element whose attributes could style it out of sight (a style, a
    class, an id, a colour), or None when it has none: no reading of style sheets can follow
    every way a browser hides a word (red team 56), so a text is judged both with and without
    such words, and a lie in either reading fails."""
    if "<" not in text or not _TAGGED.search(text):
        return None
    found = _read(text, strict=True)
    return found if found != _read(text, strict=False) else None


def _read(text: str, *, strict: bool) -> str:
    if "~~" in text:
        text = _STRUCK.sub("", text)
    if "<" not in text or not _TAGGED.search(text):
        return text
    if "<!--" in text:  # a comment as a browser ends it: at "--!>" too, or at the text's end
        text = text.replace("--!>", "-->")
        opened = text.rfind("<!--")
        text = text if text.find("-->", opened + 4) >= 0 else text[:opened]
    reader = _Shown(strict)
    for block in _STYLE_BLOCK.finditer(text) if "<style" in text.lower() else ():  # (a rule may follow what it hides)
        reader.rules(block.group(1))
    reader.feed(text)
    reader.close()
    return "".join(reader.out)


def hides(style: str) -> bool:
    """A style under which a reader sees nothing of the text."""
    if _HIDING.search(style):
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
            return alpha < 40 or all(int(digits[k:k + 2], 16) >= 0xE6 for k in (0, 2, 4))
        return False
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", colour)]
    if colour.startswith("rgb") and len(numbers) >= 3:
        opacity = numbers[3] if len(numbers) > 3 else 1.0
        return opacity < 0.15 or all(n >= 230 for n in numbers[:3])
    if colour.startswith("hsl") and len(numbers) >= 3:
        opacity = numbers[3] if len(numbers) > 3 else 1.0
        return opacity < 0.15 or numbers[2] >= 90
    return False


class _Shown(HTMLParser):
    """The source of what shows, element by element."""

    def __init__(self, strict: bool) -> None:
        super().__init__(convert_charrefs=False)
        self.strict = strict
        self.out: list[str] = []
        self.open: list[tuple[str, bool]] = []  # (tag, hidden from here down)
        self.hidden_classes: set[str] = set()
        self.hidden_ids: set[str] = set()
        self.hidden_tags: set[str] = set()

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
        if self.strict and (STYLING.intersection(found) or tag in ("font", "svg", "math", "canvas", "object")):
            hidden = True
        if tag == "details" and "open" not in found:
            hidden = True  # a closed <details> shows only its <summary>
        if tag == "summary" and self.open and self.open[-1][0] == "details" and not (
                len(self.open) > 1 and self.open[-2][1]):
            hidden = False
        if not hidden:
            self.out.append(self.get_starttag_text() or "")
        if tag not in VOID:
            self.open.append((tag, hidden))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:  # a browser ignores the "/" of "<span/>": the element stays open (red team 56)
            self.handle_starttag(tag, attrs)
        elif not self.hidden:
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if not any(t == tag for t, _ in self.open):
            if not self.hidden:
                self.out.append(f"</{tag}>")
            return
        while self.open:
            t, hidden = self.open.pop()
            if t == tag:
                if not hidden:
                    self.out.append(f"</{tag}>")
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
