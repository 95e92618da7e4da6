"""What an output path may be: a regular file, or nothing yet. A FIFO waits for ever for a program
to read it, a device fails (``/dev/full``) or swallows the report, and a socket cannot be opened:
each is refused before any work, in one line (red team 37)."""

from __future__ import annotations

import os
import stat


def not_a_file(path: str | os.PathLike[str], *, devices: bool = False) -> str | None:
    """Why ``path`` cannot take a report or a results file, or None (missing: it is made).
    ``devices``: a device is let through where each write's failure is told in one line (the
    results file: ``--agenteval-results=/dev/full`` says "writing failed after 0 whole lines")."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # (a folder that cannot be made is named where the file is written)
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or devices and (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)):
        return None  # (a folder is refused by each option in its own words)
    kind = "a FIFO (it would wait for a program to read it)" if stat.S_ISFIFO(mode) else (
        "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket")
    return f"is {kind}, not a file (name a regular file to write)"
