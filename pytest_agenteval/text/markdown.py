"""Markdown as a chat widget or a mail client shows it (red team 62: "a**pp**roved" showed a
reader "approved" and the judge read neither word; "~~ declined ~~" was struck though no widget
strikes it).

Read with markdown-it (CommonMark, with GitHub's strikethrough and tables): emphasis marks go
and the words they wrap join; struck words (``~~x~~``, and a single ``~x~`` as GitHub, Slack and
WhatsApp strike; runs of uneven length strike nothing) go; a link shows its text, a code span its
characters (markup in one is shown as text: ``literal`` reads past it); an image (the widget draws
the picture), a reference definition (``[1]: https://…``, its title line too), a fence's info
string and a footnote nothing points to show nothing (red team 63); a backslash escape shows the
character; an emoji shortcode is the mark it draws (``:x:`` is ❌). Only the inline text
of each block is rewritten, in place: a list's dashes, a heading's hashes and a table's pipes
stay for the readers of forms (``prepass``). Then what no widget draws as words: a web address
(``…/approved-and-paid`` names a page, it says nothing), a footnote's label where the text
defines it (``has[^not] been`` shows "has¹ been"), and a word hyphenated across a line break
("de-⏎clined" is "declined")."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pytest_agenteval.patterns import lazy

_MD = MarkdownIt("commonmark", {"html": True}).enable(["strikethrough", "table"])
# What markdown could change: emphasis, strikes, code, links, escapes, a table's pipes.
_CUE = lazy(r"[*_~`\\]|\]\(|\]\[|\]:|!\[|\||<[A-Za-z][\w ]*:")  # (and "<Update: …>", shown as text)
_SINGLE_TILDE = lazy(r"(?<![~\\])~(?!~)")
_ONE = "\u2063"  # (an invisible separator: no flanking rule reads it as space or punctuation)
_TILDES = lazy(r"(?<=[^\n])~{3,}")  # "~~~x~~~" strikes nothing in GitHub's Markdown (a fence starts a line)
_URL = lazy(r"\b(?:https?://|www\.)[^\s<>()\[\]\"']+", re.IGNORECASE)
# (not a dash typed before a word of its own: "declined-⏎not approved"; red team 63)
_LINE_DASH = lazy(r"(?<=\w)-[ \t]*\n")
_WRAPPED = lazy(r"(?<=[A-Za-z]{2})-[ \t]*\n[ \t]*(?!(?:not|and|or|the|an|to|we|it|is|was|but|no)\b)(?=[a-z]{2})")


def unmarked(text: str) -> str:
    """``text`` as a Markdown widget shows it (the module's docstring); as it is when it holds no
    Markdown."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # a mail's line ends (red team 63)
    if ":" in text and _SHORTCODE.search(text):
        text = _SHORTCODE.sub(lambda m: SHORTCODES[m.group(1).lower()], text)  # ":x:" is drawn ❌ (red team 63)
    if "\n" in text and "-" in text:
        text = _WRAPPED.sub("", text)  # "has been de-⏎clined"
        text = _LINE_DASH.sub(" -\n", text)  # "declined-⏎not approved": a dash, not a word's hyphen
    if "[^" in text:
        text = _footnotes(text)
    if not _CUE.search(text):
        return _URL.sub(" ", text) if "http" in text or "www." in text else text
    # a single tilde strikes as two do (marked, so one no strike takes is shown as it was); not beside
    # a double, since GitHub strikes only runs of one length ("~approved~~" strikes nothing: red team 63)
    if "~" in text and "~~" not in text:
        text = _SINGLE_TILDE.sub(_marked, text)
    if "~" in text:
        text = _TILDES.sub(lambda m: "\\~" * len(m.group(0)), text)
        text = _UNEVEN.sub(lambda m: m.group(0).replace("~", "\\~"), text)
    source = text
    lines = source.split("\n")
    covered: set[int] = set()
    at: dict[int, int] = {}  # per line, where the next inline text is looked for
    for token in _MD.parse(source):
        if token.map:
            covered.update(range(*token.map))
        if token.type == "fence" and token.map:  # a fence's own lines (its info string) are not shown
            for line in (token.map[0], token.map[1] - 1):
                if line < len(lines) and _FENCE.match(lines[line]):
                    lines[line] = ""
        if token.type != "inline" or not token.map or not token.children:
            continue
        wrote = _shown(token.children).split("\n")
        for k, (was, now) in enumerate(zip(token.content.split("\n"), wrote, strict=False)):
            line = token.map[0] + k
            if line >= len(lines) or was == now:
                continue
            found = lines[line].find(was, at.get(line, 0)) if was else -1
            if found >= 0:
                lines[line] = lines[line][:found] + now + lines[line][found + len(was):]
                at[line] = found + len(now)
    # a reference definition ("[1]: https://…", its title on the next line too) is in no block: it shows nothing
    shown = "\n".join(line for k, line in enumerate(lines) if k in covered or not line.strip())
    if "http" in shown or "www." in shown:
        shown = _URL.sub(" ", shown)
    return shown.replace(_ONE + "~~", "~").replace("~~" + _ONE, "~").replace(_ONE, "") if _ONE in shown else shown


def _marked(m: re.Match[str]) -> str:
    """A single tilde as two, marked on the side that leaves its flanking as it was: after one
    that follows a space (it can only open), before one that follows a character (it can close)."""
    before = m.string[m.start() - 1:m.start()]
    return "~~" + _ONE if not before or before.isspace() else _ONE + "~~"


_FENCE = lazy(r"\s{0,3}(?:`{3,}|~{3,})")
# Tildes of uneven runs around words ("~~approved~" or "~approved~~"): no strike in GitHub's Markdown.
_UNEVEN = lazy(r"(?<!~)(?:~(?!~)[^~\n]+~~(?!~)|~~(?!~)[^~\n]+(?<!~)~(?!~))")
# Emoji shortcodes a chat or GitHub draws as marks a checklist uses (text/marks.py reads the marks).
SHORTCODES = {"x": "\u274c", "white_check_mark": "\u2705", "heavy_check_mark": "\u2714", "check": "\u2714",
              "ballot_box_with_check": "\u2611", "negative_squared_cross_mark": "\u274e", "heavy_multiplication_x":
              "\u2716", "hourglass": "\u231b", "hourglass_flowing_sand": "\u23f3", "no_entry": "\u26d4",
              "no_entry_sign": "\U0001f6ab", "warning": "\u26a0"}
_SHORTCODE = lazy(rf":({'|'.join(SHORTCODES)}):", re.IGNORECASE)


def _shown(children: list[Token]) -> str:
    out: list[str] = []
    struck = 0
    for c in children:
        if c.type == "s_open":
            struck += 1
        elif c.type == "s_close":
            struck = max(0, struck - 1)
        elif c.type in ("softbreak", "hardbreak"):
            out.append("\n")  # (kept when struck: one line of the source is one line shown)
        elif struck:
            continue
        elif c.type in ("text", "code_inline"):  # shown as text: "`<b>`" shows "<b>", kept escaped for the
            out.append(c.content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))  # HTML passes
        elif c.type == "image":
            continue  # a widget draws the picture, not its alt text (red team 63: "![not](spacer.gif)")
        elif c.type == "html_inline":
            out.append(c.content)  # read by the HTML passes
    return "".join(out)


def _footnotes(text: str) -> str:
    """A footnote's label goes where the text defines it: "has[^not] been … [^not]: see below"
    shows "has¹ been"; the definition's text stays, as the footnote a reader sees."""
    labels = set(re.findall(r"^[ \t]*\[\^([^\]\s]{1,40})\]:", text, re.MULTILINE))
    if not labels:
        return text
    for label in labels:  # one nothing points to is not drawn at all (red team 63)
        if not re.search(rf"\[\^{re.escape(label)}\](?!:)", text):
            text = re.sub(rf"^[ \t]*\[\^{re.escape(label)}\]:[^\n]*(?:\n(?:[ \t]{{2,}}|\t)[^\n]*)*", "", text,
                          flags=re.MULTILINE)
    pattern = "|".join(re.escape(label) for label in labels)
    return re.sub(rf"\[\^(?:{pattern})\]:?", " ", text)
