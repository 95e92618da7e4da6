"""What an e-mail carries that is not the writer's word on the case: markup (``<br>``,
``<b>``), the quoted history below or above a reply ("> We are still reviewing…", "On Tue,
… wrote:", "-----Original Message-----"), and the legal footer ("We cannot accept liability
for any loss arising from this e-mail"). Each goes before the text is read; the ids it named
stay in the text the checks quote."""

from __future__ import annotations

import html
import re

from pytest_agenteval.patterns import lazy
from pytest_agenteval.text.hidden import unseen
from pytest_agenteval.text.markdown import unmarked
from pytest_agenteval.text.numerals import numerals
from pytest_agenteval.text.sentences import unwrapped
from pytest_agenteval.text.visible import visible


def unmailed(text: str) -> str:
    """``text`` without markup, quoted history and disclaimers (each pass only on its cue)."""
    text = marked_up(text)
    if ">" in text or "wrote:" in text or "Original" in text or "From:" in text:
        text = unthreaded(text)
    if "ubject" in text:  # "Subject: Re: Claim approved?": the subject is read as a line of its own (red team 65)
        text = _SUBJECT.sub("", text)
    if "--" in text and (found := _SIGNATURE.search(text)) and text[:found.start()].strip() and _signs(
            text[found.end():]):
        text = text[:found.start()]  # the signature block: name, company, address, its footer
    lowered = text.lower()
    if any(w in lowered for w in _DISCLAIMER_CUES):
        text = _SENTENCE.sub(lambda m: "" if _disclaims(m.group(0)) else m.group(0), text)
    return text


_SUBJECT = lazy(r"^[ \t]*(?:subject|subj)[ \t]*:[ \t]*", re.IGNORECASE | re.MULTILINE)


def marked_up(text: str) -> str:
    """``text`` with its markup read: "<br>" a line break, "<b>" nothing, "&gt;" ">"; what the
    markup hides from a reader is not read (``hidden.unseen``). (Markdown is read once, first, by
    ``shown``: a second reading would take an escaped tilde for a strike.)"""
    text = rendered(unseen(text))
    return html.unescape(text) if "&" in text else text


def shown(text: str) -> str:
    """``text`` as a person sees it, before anything reads it: Markdown as a widget shows it, what
    markup hides taken out, its tags read as what they show, the letters as they look, markup
    shown as text read past, figures in the forms the reader reads (``numerals``)."""
    # (references read after Markdown: "&#126;&#126;x&#126;&#126;" shows tildes, no strike; red team 63)
    return unwrapped(numerals(literal(visible(rendered(unseen(unmarked(visible(text, references=False))))))))


def literal(text: str) -> str:
    """``text`` with markup it shows as text read past: "We paid it &lt;span hidden&gt;twice&lt;/span&gt;"
    shows a reader the tags and *twice* between them (red team 58), so the tags go and the words
    stay, none hidden. Other character references are left to the mail pass."""
    if "&" not in text or not _ESCAPED_MARKUP.search(text):
        return text
    shown = _ESCAPED_MARKUP.sub(lambda m: "<" if m.group(0).lower() in ("&lt;", "&#60;", "&#x3c;") else ">", text)
    # (what is no tag stays escaped, so no later pass takes "<Decision: approved>" for one: red team 63)
    return _LITERAL_TAG.sub(" ", shown).replace("<", "&lt;").replace(">", "&gt;")


_ESCAPED_MARKUP = lazy(r"&(?:lt|gt|#60|#62|#x3c|#x3e);", re.IGNORECASE)
# (a tag's name, then a space, a slash or its end: "<Update: FAC-1 is booked>" is words in brackets; red team 63)
_LITERAL_TAG = lazy(r"<!--|--!?>|</?[A-Za-z][A-Za-z0-9-]*(?:[\s/][^<>]{0,200})?>")


def rendered(text: str) -> str:
    """``text`` with its tags read as what they show between words (``_tag``); an HTML quote of an
    earlier message as "> " lines. Character references are left as they are."""
    if "<blockquote" in text.lower():  # an e-mail's quoted history in HTML is quoted as "> " lines (red team 56)
        text = _BLOCKQUOTE.sub(lambda m: "\n" + "\n".join(f"> {line}" for line in _TAG.sub(
            lambda t: "" if t.group(1).lower() in INLINE else "\n", m.group(1)).split("\n") if line.strip()) + "\n",
                               text)
    return _TAG.sub(_tag, text) if "<" in text and _TAG.search(text) else text


_TAG = lazy(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]{0,200}>")
_BLOCKQUOTE = lazy(r"<blockquote\b[^<>]{0,200}>((?:(?!</?blockquote\b)[\s\S]){0,2000})</blockquote\s*>",
                   re.IGNORECASE)
# Elements that flow within a line; every other one starts a new line (red team 57: "<td>We paid
# it</td><td>twice.</td>" was read "We paid ittwice").
INLINE = frozenset({"a", "abbr", "acronym", "b", "bdi", "big", "blink", "cite", "code", "data", "del", "dfn", "em",
                    "font", "i", "img", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small", "span",
                    "strike", "strong", "sub", "sup", "svg", "time", "tt", "u", "var", "wbr", "math", "tspan"})


def _tag(m: re.Match[str]) -> str:
    """A tag as what it shows between words: a line break ("<br>", "</p>", "<li>"), a space
    between a table's cells, a definition's as its term's value (": "), an element that
    flows within a line ("<b>"; ``hidden`` writes one styled to display inline as a span) as nothing."""
    name, closing = m.group(1).lower(), m.group(0).startswith("</")
    if name in INLINE or closing and name in ("td", "th", "dt"):
        return ""
    if name in ("td", "th"):
        return " "  # ("<td>We paid it</td><td>twice.</td>" shows one line)
    if name == "dd":
        return "\n" if closing else ": "
    return "\n"


# Where the quoted history starts: every line after it is an earlier message.
_HISTORY = lazy(r"^[ \t]*(?:-{2,}\s*(?:original|forwarded)\s+message\s*-{2,}|on\s[^\n]{3,160}\swrote:[ \t]*$|"
                r"from:[^\n]*\n[ \t]*(?:sent|date):)", re.I | re.M)
_QUOTE_LINE = lazy(r"^[ \t]*>[^\n]*(?:\n|$)", re.M)


def unthreaded(text: str) -> str:
    """The reply alone: quoted lines ("> …") dropped, and everything from the header of the
    quoted history ("On Tue, 3 Mar, Sam wrote:", "-----Original Message-----", "From: … Sent:").
    A reply that points to the history as its answer ("See below.", "Status: as below", "our
    decision below still stands") makes it its own: then only the markers go."""
    found = _HISTORY.search(text)
    reply = text[:found.start()] if found else _QUOTE_LINE.sub("", text)
    if not reply.strip():
        return text
    if _ADOPTED.search(reply) and not _DISOWNED.search(reply):
        quoted = text[found.end():] if found else text
        return reply + "\n" + _MARKER.sub("", quoted if found else "".join(_QUOTE_LINE.findall(quoted)))
    return reply


_ADOPTED = lazy(r"\b(?:see|per|as|find|read|status|decision|details?|answer|summary|outcome|update|position|"
                r"amount|figure|sum)\b[^.\n]{0,60}\bbelow\b|\bbelow\b[^.\n]{0,30}\b(?:stands|"
                r"applies|holds|is current|is still)\b", re.I)
_DISOWNED = lazy(r"\b(?:ignore|disregard|withdraw|withdrawn|cancel|cancelled|no longer|superseded|replaces|"
                 r"further to|following)\b", re.I)
_MARKER = lazy(r"^[ \t]*>[ \t]?", re.M)


# The signature separator of mail (a line of "-- "): what follows signs, it says nothing.
_SIGNATURE = lazy(r"^--[ \t]?$", re.M)
_ENDS_SENTENCE = lazy(r"[.!?][ \t]*$")
_FOUR_WORDS = lazy(r"\b\w+\s+\w+\s+\w+\s+\w+")


def _statement(block: str) -> bool:
    """A line of four words or more that ends a sentence, read line by line (one pattern over the
    block was quadratic in a long line: red team 49)."""
    return any(_ENDS_SENTENCE.search(line) and _FOUR_WORDS.search(line) or _TOLD.search(line)
               for line in block.split("\n"))


# A line under the signature's dashes that tells, not signs (red team 62): a label over words
# ("Outcome: approved and paid in full"; not "Tel: 0123 456"), or a word of an act done.
_TOLD = lazy(r"^[ \t]*(?!(?:tel|phone|mobile|mob|fax|e-?mail|web|website|address|direct|office|ext|dept|"
             r"department|team|role|title|[tmefw])\b)[A-Za-z]+[ \t]*:[ \t]*[A-Za-z][\w'-]*(?:[ ,]+[\w'-]+)+|"
             r"\b(?!(?:registered|authorised|authorized|regulated|limited|incorporated|intended|addressed)\b)"
             r"[a-z]{3,}ed\b|\b(?:paid|active|live|pending)\b|"
             r"\b(?:we|i|you|it|this)(?:'ll|'re|'ve|\s+(?:will|shall|have|are|can|is|was))\b",  # "Claims Team -
             re.IGNORECASE)  # we will pay you in full" (red team 63)


def _signs(block: str) -> bool:
    """A signature block only signs: names, roles, an address, a footer; a line that makes a
    statement ("Your claim has been declined.") or gives a figure is the writer's word (red team 24)."""
    kept = _SENTENCE.sub(lambda m: "" if _disclaims(m.group(0)) else m.group(0), block)
    return not _statement(kept) and not _FIGURE.search(kept)


_FIGURE = lazy(r"[£$€]\s?\d|\b\d[\d,.]*\s*(?:%|k\b)|\b[A-Z]{2,5}-\d+")


def quoted(text: str) -> list[str]:
    """The lines ``unthreaded`` would take as earlier mail, markers stripped: what a reply may
    quote only if it was said before it (``pytest_agenteval.grading.texts``). ``text`` as the
    reader sees it: made visible and its markup read ("&gt; …", "＞ …", "<br>> …" quote too)."""
    if not (">" in text or "wrote:" in text or "Original" in text or "From:" in text):
        return []
    found = _HISTORY.search(text)
    lines = text[found.end():].splitlines() if found else _QUOTE_LINE.findall(text)
    return [" ".join(_MARKER.sub("", line).split()) for line in lines if _MARKER.sub("", line).strip()]


def unquoted(text: str) -> str:
    """``text`` with the marks of quoting taken out ("> ", "On … wrote:", "-----Original
    Message-----"), so what they held is read as the writer's own words."""
    return _MARKER.sub("", _HISTORY.sub("", text))


_DISCLAIMER_CUES = ("e-mail", "email", "message", "communication", "transmission", "attachment", "recipient",
                    "regulated", "registered")
_SENTENCE = lazy(r"[^.!?\n]+[.!?]*")
_DISCLAIMER = lazy(
    r"\b(?:this|the|its|any)\s+(?:e-?mail|message|communication|transmission|attachments?)\b", re.I)
_DISCLAIMING = lazy(r"\b(?:liab|confidential|privileged|intended\s+(?:solely\s+|only\s+)?for|recipient|"
                    r"virus|viruses|in\s+error|delete|disclos|monitor|regulated|views\s+expressed)", re.I)


_FOOTER = lazy(r"\b(?:intended\s+recipient|notify\s+the\s+sender|authori[sz]ed\s+and\s+regulated|"
               r"registered\s+(?:in\s+england|office|number)|received\s+this\s+in\s+error)", re.I)


def _disclaims(sentence: str) -> bool:
    """A sentence of the legal footer: it speaks of the message itself in a disclaimer's words,
    or in words only a footer uses ("If you are not the intended recipient…", "authorised and
    regulated by…")."""
    if _TELLS.search(sentence):
        return False  # "This e-mail confirms the claim is approved and is confidential": it tells (red team 62)
    return bool(_DISCLAIMER.search(sentence)) and bool(_DISCLAIMING.search(sentence)) or bool(
        _FOOTER.search(sentence))


_TELLS = lazy(r"\bconfirm\w*|\b[A-Z]{2,5}-\d+|\b(?:approv|declin|paid|book|activ|pending)\w*", re.IGNORECASE)
