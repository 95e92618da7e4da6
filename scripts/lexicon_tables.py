"""Rewrite the lexicon tables of docs/text.md from the code (tests/test_text.py checks they agree).

    python scripts/lexicon_tables.py
"""

from __future__ import annotations

import re
from pathlib import Path

from pytest_agenteval.domains.booking.environment import BookingEnvironment
from pytest_agenteval.domains.escalation.texts import LEXICON as CLAIMS
from pytest_agenteval.text import ENGLISH, Lexicon

DOC = Path(__file__).parent.parent / "docs" / "text.md"
ROW = re.compile(r"\| `(\w+)` \|")


def own_terms(lexicon: Lexicon, base: Lexicon | None, name: str) -> tuple[str, ...]:
    terms = tuple(lexicon.classes[name])
    return terms if base is None else terms[len(base.classes.get(name, ())):]


def table(section: str, lexicon: Lexicon, base: Lexicon | None) -> str:
    """The section with each class's row as the code has it, and rows for new classes at its end."""
    lines, seen = [], set()
    for line in section.split("\n"):
        if (m := ROW.match(line)) and m.group(1) in lexicon.classes:
            seen.add(m.group(1))
            line = f"| `{m.group(1)}` | {', '.join(own_terms(lexicon, base, m.group(1)))} |"
        lines.append(line)
    last = max(i for i, line in enumerate(lines) if ROW.match(line))
    new = [f"| `{n}` | {', '.join(own_terms(lexicon, base, n))} |" for n in lexicon.classes
           if n not in seen and own_terms(lexicon, base, n)]
    return "\n".join(lines[:last + 1] + new + lines[last + 1:])


def main() -> None:
    text = DOC.read_text()
    claims, booking = text.index("Claims escalation adds:"), text.index("Booking adds:")
    end = text.index("## What the shipped domains check")
    DOC.write_text(table(text[:claims], ENGLISH, None) + table(text[claims:booking], CLAIMS, ENGLISH)
                   + table(text[booking:end], BookingEnvironment.lexicon, ENGLISH) + text[end:])


if __name__ == "__main__":
    main()
