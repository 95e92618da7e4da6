"""Results files written gzip-compressed (a path ending in ``.gz``), read back by every reader."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

GZIP_MAGIC = b"\x1f\x8b"


def is_compressed_name(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).endswith(".gz")


def gunzip(data: bytes) -> bytes:
    """Every whole member of gzip ``data`` decompressed, and what a cut-short last member holds
    (an interrupted run's file stops mid-stream); a corrupt stream ends the data there."""
    out = []
    while data[:2] == GZIP_MAGIC:
        member = zlib.decompressobj(wbits=31)
        try:
            out.append(member.decompress(data))
        except zlib.error:
            break
        if not member.eof:
            break
        data = member.unused_data
    return b"".join(out)


def results_bytes(path: str | os.PathLike[str]) -> bytes:
    """A results file's bytes, decompressed if it is gzip-compressed (``OSError`` if unreadable)."""
    data = Path(path).read_bytes()
    return gunzip(data) if data[:2] == GZIP_MAGIC else data
