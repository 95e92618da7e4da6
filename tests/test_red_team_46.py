"""Red team 46 (2 of 14 broke): an isolated agent under a 256 MiB limit sent frames of millions of
empty objects ("{},{},…", just under the 16 MiB frame cap): parsed, each cost the harness ~450 MiB
and was kept whole until the grade (2.5 GB for four episodes); and format characters other than
the few escaped reached the terminal raw ("get_claim\\u2063" printed as "get_claim")."""

from __future__ import annotations

import sys
import unicodedata

from pytest_agenteval.agents.sandbox import MAX_VALUES, frame
from pytest_agenteval.agents.usage import MAX_MESSAGES, UsageLedger
from pytest_agenteval.printable import printable


def test_a_frame_of_too_many_values_is_refused_before_it_is_parsed() -> None:
    line = b'{"transcript": [' + b"{}," * (MAX_VALUES + 1) + b"{}]}\n"
    message, wrong = frame(line, 16 << 20)
    assert message is None and wrong is not None and f"more than {MAX_VALUES:,} JSON values" in wrong
    fine, _ = frame(b'{"transcript": [' + b'{"role": "user", "content": "hi, there"},' * 1000 + b"{}]}\n", 16 << 20)
    assert fine is not None


def test_an_attached_transcript_keeps_only_what_the_grade_can() -> None:
    ledger = UsageLedger()
    ledger.attach([{"n": k} for k in range(MAX_MESSAGES * 3)])
    assert len(ledger._transcript or []) == MAX_MESSAGES + 1  # (held till the grade: no more than it keeps)
    kept = ledger.transcript() or []
    assert kept[0] == {"n": 0} and kept[-1] == {"n": MAX_MESSAGES * 3 - 1}


def test_every_format_character_but_the_joiners_is_escaped() -> None:
    formats = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    shown = [c for c in formats if printable(f"a{c}b") == f"a{c}b"]
    assert shown == ["\u200c", "\u200d"]  # (emoji and scripts need them)
    assert printable("get_claim\u2063 \u3164") == "get_claim\\u2063 \\u3164"
