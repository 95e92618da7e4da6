"""Markdown as a chat widget or a mail client shows it (red team 62: "a**pp**roved" showed a
reader "approved" and the judge read neither word; "~~ declined ~~" was struck though no widget
strikes it).

Read with markdown-it (CommonMark, with GitHub's strikethrough and tables): emphasis marks go
and the words they wrap join; struck words (``~~x~~``, and a single ``~x~`` as GitHub, Slack and
WhatsApp strike) go; a link shows its text, an image its alt text, a code span its characters
(markup in one is shown as text: ``literal`` reads past it); a reference definition
(``[1]: https://…``) shows nothing; a backslash escape shows the character. Only the inline text
of each block is rewritten, in place: a list's dashes, a heading's hashes and a table's pipes
stay for the readers of forms (``prepass``). Then what no widget draws as words: a web address
(``…/approved-and-paid`` names a page, it says nothing), a footnote's label where the text
defines it (``has[^not] been`` shows "has¹ been"), and a word hyphenated across a line break
("de-⏎clined" is "declined")."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MD = MarkdownIt("commonmark", {"html": True}).enable(["strikethrough", "table"])
# What markdown could change: emphasis, strikes, code, links, escapes, a table's pipes.
_CUE = re.compile(r"[*_~`\\]|\]\(|\]\[|\]:|!\[|\|")
_SINGLE_TILDE = re.compile(r"(?<![~\\])~(?!~)")
_ONE = "\u2063"  # (an invisible separator: no flanking rule reads it as space or punctuation)
_TILDES = re.compile(r"(?<=[^\n])~{3,}")  # "~~~x~~~" strikes nothing in GitHub's Markdown (a fence starts a line)
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()\[\]\"']+", re.IGNORECASE)
_WRAPPED = re.compile(r"(?<=[A-Za-z]{2})-[ \t]*\n[ \t]*(?=[a-z]{2})")


def unmarked(text: str) -> str:
    """``text`` as a Markdown widget shows it (the module's docstring); as it is when it holds no
    Markdown."""
    if "\n" in text and "-" in text:
        text = _WRAPPED.sub("", text)  # "has been de-⏎clined"
    if "http" in text or "www." in text:
        text = _URL.sub(" ", text)
    if "[^" in text:
        text = _footnotes(text)
    if not _CUE.search(text):
        return text
    # a single tilde strikes as two do (marked, so one no strike takes is shown as it was)
    if "~" in text:
        text = _SINGLE_TILDE.sub(_marked, _TILDES.sub(lambda m: "\\~" * len(m.group(0)), text))
    source = text
    lines = source.split("\n")
    covered: set[int] = set()
    at: dict[int, int] = {}  # per line, where the next inline text is looked for
    for token in _MD.parse(source):
        if token.map:
            covered.update(range(*token.map))
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
    # a reference definition ("[1]: https://…") is in no block: it shows nothing
    shown = "\n".join(line for k, line in enumerate(lines) if k in covered or not _DEFINITION.match(line))
    return shown.replace(_ONE + "~~", "~").replace("~~" + _ONE, "~").replace(_ONE, "") if _ONE in shown else shown


def _marked(m: re.Match[str]) -> str:
    """A single tilde as two, marked on the side that leaves its flanking as it was: after one
    that follows a space (it can only open), before one that follows a character (it can close)."""
    before = m.string[m.start() - 1:m.start()]
    return "~~" + _ONE if not before or before.isspace() else _ONE + "~~"


_DEFINITION = re.compile(r"[ ]{0,3}\[[^\]\n]{1,100}\]:")


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
            out.append(c.content)  # its alt text
        elif c.type == "html_inline":
            out.append(c.content)  # read by the HTML passes
    return "".join(out)


def _footnotes(text: str) -> str:
    """A footnote's label goes where the text defines it: "has[^not] been … [^not]: see below"
    shows "has¹ been"; the definition's text stays, as the footnote a reader sees."""
    labels = set(re.findall(r"^[ \t]*\[\^([^\]\s]{1,40})\]:", text, re.MULTILINE))
    if not labels:
        return text
    pattern = "|".join(re.escape(label) for label in labels)
    return re.sub(rf"\[\^(?:{pattern})\]:?", " ", text)
