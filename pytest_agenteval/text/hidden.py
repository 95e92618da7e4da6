"""What markup hides from a reader, taken out before a text is read (red teams 54 and 55: "We did
<!-- not --> pay it twice" showed a reader "We did pay it twice" and the judge read "not").

Read with the standard library's HTML parser, so nesting, comments in any closing form and
unclosed elements are read as a browser reads them: a comment; struck-out words (``<del>``,
``<s>``, ``<strike>``; Markdown's ``~~…~~`` is ``markdown``'s); what is never shown (``<script>``, ``<style>``,
``<template>``, ``<head>``, ``<noscript>``, a closed ``<details>`` but its ``<summary>``); an
element hidden by its ``hidden`` attribute, by its style or by a class a ``<style>`` rule hides
(what a style does: ``styles``). What the markup shows is kept for the mail pass
(``mail.rendered``), with what it draws itself (an image's text, an ordered list's numbers).
``strict`` gives the other readings of a text with styled words; markup no reading follows is
``unreadable``'s.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.styles import (
    COLOUR,
    FONT_SIZE,
    LAYOUT,
    PLAIN,
    SMALLEST,
    dark,
    hides,
    light,
    scale,
)

NEVER_SHOWN = frozenset({"del", "s", "strike", "script", "style", "template", "title", "noscript", "noembed"})
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "area", "base", "col", "embed", "source", "param",
                  "track", "keygen", "command", "basefont", "bgsound", "frame", "image", "isindex", "nextid"})
# An element a new one of these closes: "<p hidden>x<p>shown" (red team 56)
SELF_ENDING = frozenset({"p", "li", "tr", "td", "th", "option", "dt", "dd"})
# What may style an element out of sight; an element carrying any is read both ways (``strict``),
# as is one with a class or an id (a page's own style sheet may hide it: Tailwind's "opacity-0"),
# unless the mailers' own: Outlook puts a class on every paragraph (red team 59).
STYLING = frozenset({"style", "hidden", "color", "bgcolor", "size"})
_MAILERS = lazy(r"Mso\w*|WordSection\d*|gmail[\w-]*|x_\w*|elementToProof|ContentPasted\d*|yiv\w*|"
                r"divRplyFwdMsg|appendonsend|Signature|ms-outlook\w*|apple-\w*|moz-\w*", re.IGNORECASE)
TAGGED = lazy(r"<[A-Za-z!/]")
# Classes that hide in the common style sheets (Bootstrap, Tailwind, accessibility helpers).
HIDING_CLASSES = frozenset({"hidden", "d-none", "invisible", "sr-only", "visually-hidden", "hide", "is-hidden",
                            "screen-reader-text", "visuallyhidden", "is-invisible", "u-hidden", "offscreen",
                            "hidden-xs", "hidden-sm", "hidden-md", "hidden-lg", "d-sm-none", "d-md-none", "d-lg-none",
                            "display-none", "element-invisible", "a11y-hidden", "hide-text"})
_INLINE_STYLE = lazy(r"display\s*:\s*(?:inline|contents)", re.IGNORECASE)
_RULE = lazy(r"([^{}]{1,200})\{([^{}]{0,400})\}")
# (a start tag of any length: red team 60)
STYLE_BLOCK = lazy(r"<style\b[^<>]*>([\s\S]*?)(?:</style\s*>|$)", re.IGNORECASE)
EMPTY_COMMENT = lazy(r"<!---?>")  # "<!-->", "<!--->": a comment a browser closes at once


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
    if "<" not in text or not TAGGED.search(text):
        return []
    every = _Shown(strict=True)
    shown = _read(text, strict=False)
    out = [(found, True)] if (found := _read(text, reader=every)) != shown else []
    if 1 < every.styled <= ONE_BY_ONE:
        out += [(found, False) for k in range(every.styled)
                if (found := _read(text, reader=_Shown(True, only=k))) not in (shown, out[0][0] if out else None)]
    return list(dict.fromkeys(out))


def _read(text: str, *, strict: bool = False, reader: _Shown | None = None) -> str:
    if "<" not in text or not TAGGED.search(text):
        return text
    if "<!--" in text:  # a comment as a browser ends it: at "--!>" too, or at the text's end
        text = EMPTY_COMMENT.sub("", text.replace("--!>", "-->"))
        opened = text.rfind("<!--")
        text = text if text.find("-->", opened + 4) >= 0 else text[:opened]
    reader = reader or _Shown(strict)
    for block in STYLE_BLOCK.finditer(text) if "<style" in text.lower() else ():  # (a rule may follow what it hides)
        reader.rules(block.group(1))
        # (a sheet's "font-size:8px" and three <small>s inside: the smallest it sets is taken as the page's)
        sizes = [scale("", {}, m.group(0), 1.0) for m in FONT_SIZE.finditer(block.group(1))]
        reader.root = min([reader.root, *sizes])
    reader.feed(text)
    reader.close()
    return "".join(reader.out)


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
            found.get("id") or "") in self.hidden_ids or tag == "font" and light((found.get("color") or "").lower())
        backed = bool(self.open) and self.open[-1][3] or "bgcolor" in found or "background" in found or (
            tag == "mark") or "background" in style.lower() or "shadow" in style.lower()  # (box-shadow: red team 58)
        size = scale(tag, found, style, self.open[-1][4] if self.open else self.root, self.root < 1)
        sure = scale(tag, found, style, self.open[-1][5] if self.open else 1.0)  # (with no sheet's size)
        hidden = hidden or sure < SMALLEST  # (sizes that compound: sixteen <small>s deep; red team 58)
        # (a sheet's size may not reach the element: "tiny" under it is read both ways; red team 61)
        if self.strict and (_styled(tag, found, backed) or size < SMALLEST or tag in (
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
            self.open.append((tag, hidden, shown_as, backed, size, sure))

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


def _styled(tag: str, found: dict[str, str | None], backed: bool = False) -> bool:
    """The element carries what could style it out of sight (``STYLING``) beyond a plain colour
    or type (any colour, on a background set here or above); a ``<font>`` beyond a colour, face or size."""
    rest = STYLING.intersection(found) - {"style"} | {a for a in ("class", "id") if not all(
        _MAILERS.fullmatch(name) for name in (found.get(a) or "").split())}
    style = found.get("style")
    if backed and ("color" in found or COLOUR.search(style or "")):  # (not "background-color")
        return True
    if tag == "font":
        return bool(set(found) - {"color", "face", "size"}) or light((found.get("color") or "").lower()) or (
            (found.get("size") or "3").strip() in ("0", "1", "-1", "-2", "-3"))
    if rest or style is None:
        return bool(rest)
    parts = [p for p in style.split(";") if p.strip()]
    # (a paragraph's margin or line height hides nothing: "<p style='margin:0 0 12px'>" is plain)
    return not parts or not all(PLAIN.fullmatch(p) and dark(p) or LAYOUT.fullmatch(p) for p in parts)


def _number(value: str | None, default: int) -> int:
    try:
        return int((value or "").strip()) if value and len(value.strip()) < 10 else default
    except ValueError:
        return default
