"""Text from an agent (or a results file anyone could write), made safe to print.

An agent's exception message, its stderr, the names and arguments of its calls reach the
terminal, JUnit XML, the HTML report and the commands' output. Raw, an escape sequence there
is a command to the user's terminal: ``ESC ] 0 ; title BEL`` retitles it, ``ESC [ 2 J`` clears
it, ``CR`` or backspaces overwrite what was printed before (a failure made to read as a pass).
``printable`` writes every control character as its escape (``\\x1b``), C0, DEL and C1 alike,
the bidirectional overrides and marks that reorder what a line shows, line separators (U+2028)
and zero-width characters; newline and tab are kept where
the layout needs them (a traceback), else escaped too. Lone surrogates and U+FFFE/U+FFFF are
escaped as well: no UTF-8 file can hold the first (writing one failed), no XML file the second
(a JUnit XML holding one was not well-formed, so a CI parser read none of its failures).

A CI log is read by the CI runner too, and some of its lines are commands to it (red team 17):
GitHub Actions takes a line that begins with ``::`` (after spaces) as a workflow command
(``::add-mask::failed`` hides that word from the rest of the log, ``::group::`` folds it,
``::set-output`` sets a step's output), and ``##[command]`` anywhere in a line as one too, as
Azure Pipelines takes ``##vso[`` and TeamCity ``##teamcity[``. So the ``:`` that starts a line's
``::`` and the first ``#`` of such a ``##word[`` are escaped (``\\x3a:``, ``\\x23#[``).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from pytest_agenteval.patterns import lazy

_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
# Line and paragraph separators (a terminal or an editor may start a new line at one: a forged
# line; red team 45) and invisible characters (zero width, the byte-order mark).
# Every format character (Unicode category Cf) but the joiners emoji and scripts need (ZWNJ, ZWJ),
# and the Hangul fillers, which show as blanks (red team 46: "get_claim\u2063" printed as
# "get_claim"; a sentence hidden in tag characters).
_UNSEEN = ("\u2028\u2029\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b\u200e\u200f"
           "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
           "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
           "\u115f\u1160\u3164\uffa0"
           # variation selectors but the emoji's (below), the grapheme joiner, the ignorables not yet
           # assigned (red team 47: "get_claim\ufe0f", a sentence in variation selectors)
           "\ufe00-\ufe0e\U000e0100-\U000e01ef\u034f\u180b-\u180d\u180f\u2065\ufff0-\ufff8\U000e0000"
           "\U000e0002-\U000e001f\U000e0080-\U000e00ff\U000e01f0-\U000e0fff")
# The emoji presentation selector (U+FE0F) is kept after a symbol ("\u27a1\ufe0f"), escaped elsewhere.
_BARE_VS16 = "(?<![\u00a9\u00ae\u2000-\u2bff\u3030\u303d\u3297\u3299\U0001f000-\U0001faff\u20e3])\ufe0f"
_NOT_TEXT = "\ud800-\udfff\ufffe\uffff"
# (printable to Python, blank or nothing to the eye)
_FILLERS = lazy("[\u115f\u1160\u3164\uffa0\ufe00-\ufe0e\U000e0100-\U000e01ef\u034f\u180b-\u180d\u180f]")
_CONTROLS = lazy(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_UNSEEN}{_NOT_TEXT}]|{_BARE_VS16}")
_CONTROLS_AND_LAYOUT = lazy(f"[\x00-\x1f\x7f-\x9f{_BIDI}{_UNSEEN}{_NOT_TEXT}]|{_BARE_VS16}")
# A CI runner's commands: "::" at a line's start (after white space), "##name[" anywhere in it.
_LINE_COMMAND = lazy(r"(^|\n)(\s*):(?=:)")
_ANYWHERE_COMMAND = lazy(r"#(?=#[A-Za-z]*\[)")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, *, layout: bool = True) -> str:
    """``text`` with control characters and CI log commands escaped; newline and tab kept unless
    ``layout`` is False."""
    if text.isprintable() and "::" not in text and "##" not in text and not _FILLERS.search(text) and (
            "\ufe0f" not in text):
        return text  # most text: every character escaped below is one ``str.isprintable`` refuses (or a filler)
    text = (_CONTROLS if layout else _CONTROLS_AND_LAYOUT).sub(_escape, text)
    text = _LINE_COMMAND.sub(lambda m: f"{m.group(1)}{m.group(2)}\\x3a", text)
    return _ANYWHERE_COMMAND.sub(lambda m: "\\x23", text)


class PrintableStream:
    """A text stream whose writes are made ``printable`` (the commands' stdout and stderr: every
    line they print may hold a results file's text)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def printable_output() -> Iterator[None]:
    """While it lasts, this process's ``sys.stdout`` and ``sys.stderr`` write ``printable`` text."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
