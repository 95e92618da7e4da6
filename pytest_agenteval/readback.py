"""Results files read back, gzip-compressed (a path ending in ``.gz``) or not, within bounds.

A results file may come from someone else (a vendor's run, a CI artefact), so reading one is
bounded: a gzip stream decompresses to at most ``RATIO`` times its size, or ``FLOOR`` bytes if
that is more, and never past ``CEILING`` (a few megabytes of "gzip bomb" would otherwise fill
the memory: deflate reaches 1,000 to 1; results files, one line flushed at a time, reach about
70 to 1 when every line is nearly the same, 10 to 1 otherwise), and a
line nested too deep for the JSON parser is a line that is not valid JSON, not a
``RecursionError``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import zlib
from collections.abc import Iterator
from typing import Any

GZIP_MAGIC = b"\x1f\x8b"
RATIO = 250  # what a compressed results file may decompress to, times its size ...
FLOOR = 64 * 2**20  # ... or this, if more ...
CEILING = 2**30  # ... but never more than this (~170,000 episodes; reading holds them all)


class TooLarge(OSError):
    """A compressed file that decompresses past its bound: it cannot be read (``strerror`` says so)."""

    def __init__(self, limit: int) -> None:
        super().__init__(errno.EFBIG, f"it decompresses to more than {limit // 2**20:,} MiB, the most a results "
                                      f"file of its size may ({RATIO} times its size, at least {FLOOR // 2**20} MiB, "
                                      f"at most {CEILING // 2**30} GiB): a gzip bomb, or a run too large to read "
                                      "at once")


def is_compressed_name(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).endswith(".gz")


def gunzip(data: bytes, limit: int | None = None) -> bytes:
    """Every whole member of gzip ``data`` decompressed, and what a cut-short last member holds
    (an interrupted run's file stops mid-stream); a corrupt stream ends the data there.
    ``TooLarge`` past ``limit`` bytes (default: the bound above), found before more is held."""
    limit = min(CEILING, max(FLOOR, RATIO * len(data))) if limit is None else limit
    out: list[bytes] = []
    size = 0
    while data[:2] == GZIP_MAGIC:
        member = zlib.decompressobj(wbits=31)
        # fed a piece at a time, so a corrupt byte (or trailer) loses only what comes after it: the
        # plugin writes one member, and one flipped byte lost the whole run (red team 24)
        for at in range(0, len(data), PIECE):
            saved = member.copy()
            try:
                chunk = member.decompress(data[at:at + PIECE], limit - size + 1)
            except zlib.error:
                return b"".join([*out, _salvaged(saved, data[at:at + PIECE], limit - size)])
            size += len(chunk)
            if size > limit:
                raise TooLarge(limit)
            out.append(chunk)
            if member.eof:
                break
        if not member.eof:
            break
        data = member.unused_data
    return b"".join(out)


PIECE = 1 << 16


def _salvaged(member: Any, piece: bytes, room: int) -> bytes:
    """What ``piece`` decompresses to before its corrupt byte, fed a byte at a time (the trailer's
    checksum is checked on its last bytes: the data before it is whole)."""
    out, size = [], 0
    for at in range(len(piece)):
        try:
            out.append(member.decompress(piece[at:at + 1], max(0, room - size) + 1))
        except zlib.error:
            break
        size += len(out[-1])
    return b"".join(out)[:room]


def results_bytes(path: str | os.PathLike[str]) -> bytes:
    """A results file's bytes, decompressed if it is gzip-compressed (``OSError`` if unreadable,
    ``TooLarge``, an ``OSError`` too, past the bound). Within ``pinned_reads``, the bytes of its
    first read."""
    key = os.path.abspath(path)
    if _pinned is not None and key in _pinned:
        return _pinned[key]
    data = _bounded_bytes(path)
    data = gunzip(data) if data[:2] == GZIP_MAGIC else data
    if _pinned is not None:
        _pinned[key] = data
    return data


def _bounded_bytes(path: str | os.PathLike[str]) -> bytes:
    """At most ``CEILING`` bytes of a regular file or a pipe (``<(zcat r.jsonl.gz)``; a named pipe
    with no writer reads as empty): a device never ends (``--agenteval-resume=/dev/zero`` read on,
    filling the memory), so it is refused."""
    # O_NONBLOCK: a named pipe opens at once instead of waiting for a writer that may never come
    # (red team 69); read as a pipe, it then ends when no writer holds it.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with open(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise OSError(errno.EINVAL, "it is a device, not a results file")
        if stat.S_ISDIR(mode):
            raise OSError(errno.EISDIR, "it is a folder, not a results file")
        os.set_blocking(fd, True)
        data = file.read(CEILING + 1)
    if len(data) > CEILING:
        raise OSError(errno.EFBIG, f"it is more than {CEILING // 2**30} GiB, the most a results file "
                                   "may be read at once")
    return data


_pinned: dict[str, bytes] | None = None


@contextlib.contextmanager
def pinned_reads() -> Iterator[None]:
    """Each results file read from disk once: a command that verifies a file and then merges it
    merges the bytes it verified (a file replaced in between, or a FIFO fed twice, is not read
    again)."""
    global _pinned
    _pinned = {}
    try:
        yield
    finally:
        _pinned = None


class KeyTwice(ValueError):
    """A line with a key given twice in one object (``load_line(..., once=True)``)."""


def load_line(line: str | bytes, *, once: bool = False) -> Any:
    """One JSON line; ``ValueError`` for one that is not JSON, nested too deep to parse included.

    Bytes are UTF-8, strictly: ``json.loads`` would also take UTF-16, UTF-32 and a byte-order
    mark, which the signature check (reading UTF-8 text) sees as a line cut short, so every
    reader must read a line as the others do. ``once``: ``KeyTwice`` for a key given twice in
    one object (this parser keeps the last, a reader that keeps the first sees another line)."""
    text = line.decode("utf-8") if isinstance(line, bytes) else line
    try:
        return json.loads(text, object_pairs_hook=_once) if once else json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep to read") from None


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise KeyTwice(f"the key {key!r} is given twice in one object")
            seen.add(key)
    return record
