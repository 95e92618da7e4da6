"""Whether a file in the sandbox's view holds an earlier run's results, reports or logs, by what
it holds, whatever its name and however it is packed (``hiding`` hides what this finds).

A file is read whole, not by its beginning: a CI log whose first 64 KiB are an install's output
and whose end is a run's summary, or a tar holding a results file after a large log, give the
answers away as surely as a results file (red team 39). Compressed files are read through their
compression; an archive is read member by member, and one that holds another archive or
compressed stream, or any tar, is hidden whole (what cannot be read through is taken as a
report); so is a file past ``SCAN_LIMIT``, which is not read at all.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import stat
import zipfile
from collections.abc import Iterable, Iterator
from typing import IO

# Earlier runs' results, reports and logs, by marks they hold: their names are the user's
# ("prev.gz", "junit.xml.bak", "run.log.1", "report.htm"; red team 24). Lower case.
REPORT_MARKS = ((b"<testsuite",), (b'"created"', b'"exitcode"'),  # JUnit XML; pytest-json-report
                (b"test session starts",), (b"agenteval: agent=",),  # a run's terminal output ("> run.log")
                (b"= failures =",), (b"= short test summary info =",), (b"[100%]", b" in "),  # at -q too
                (b"checks failed:",),
                (b'{"run_record"',), (b'"audit_digest"',),  # a results file under another name
                (b"<html", b"pytest-html"), (b"<html", b"pytest-agenteval"))  # an earlier run's HTML report
_MARKS = frozenset(mark for marks in REPORT_MARKS for mark in marks)
_OVERLAP = max(len(mark) for mark in _MARKS) - 1  # (a mark across two chunks is found)
CHUNK = 1 << 20
SCAN_LIMIT = 1 << 28  # 256 MiB read (decompressed) at most: a larger file that is not code is hidden unread
# Compressed streams read through; what no standard module opens (zstd, 7z, rar) is hidden whole.
STREAMS = {b"\x1f\x8b": gzip.open, b"\xfd7zXZ\x00": lzma.open, b"BZh": bz2.open}
ZIP = b"PK\x03\x04"
SEALED = (b"\x28\xb5\x2f\xfd", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07")
# What is code: never looked into. Anything else is (any case), settings too.
NOT_SNIFFED = frozenset({".py", ".pyi", ".pyc", ".pyd", ".so", ".pth", ".typed", ".c", ".h", ".rs", ".js", ".ts",
                         ".css", ".png", ".jpg", ".svg"})
KERNEL_FILES = ("/proc/", "/sys/", "/dev/")


def is_report(path: str) -> bool:
    """A results file, test report or run log (or a file that cannot be read through)."""
    if os.path.splitext(path)[1].lower() in NOT_SNIFFED:  # code, images
        return False
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) or os.path.realpath(path).startswith(KERNEL_FILES):
            # a FIFO, a socket, a device (opening a FIFO waits for a writer: red team 37); a link to
            # a kernel file, whose read may wait for ever though it looks regular ("/proc/kmsg": red
            # team 38): hidden unopened
            return True
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (no read here waits for a writer)
        with os.fdopen(fd, "rb") as file:
            if os.fstat(fd).st_size > SCAN_LIMIT:
                return True
            head = file.read(CHUNK)
            if head.startswith(ZIP):
                return _zip_holds_report(path)
            return _holds_report(head, file)
    except Exception:  # noqa: BLE001  (an encrypted zip, an unknown method, a corrupt stream: red team 26)
        return True  # compressed and unreadable: an agent's own data is rarely so


def _holds_report(head: bytes, rest: IO[bytes]) -> bool:
    """What begins with ``head`` and goes on in ``rest``, read through one compression."""
    opener = next((o for magic, o in STREAMS.items() if head.startswith(magic)), None)
    if opener is not None:
        rest.seek(0)
        with opener(rest, "rb") as stream:  # type: ignore[operator]
            inner = stream.read(CHUNK)
            return _packed(inner) or _marked(_chunks(inner, stream))
    return _packed(head) or _marked(_chunks(head, rest))


def _zip_holds_report(path: str) -> bool:
    """Each member read whole: code is skipped, an archive or a compressed member hides the zip."""
    with zipfile.ZipFile(path) as archive:
        members = [m for m in archive.infolist() if not m.is_dir()
                   and os.path.splitext(m.filename)[1].lower() not in NOT_SNIFFED]
        if sum(m.file_size for m in members) > SCAN_LIMIT:
            return True
        for member in members:
            with archive.open(member) as stream:
                head = stream.read(CHUNK)
                if head.startswith(ZIP) or _packed(head) or _marked(_chunks(head, stream)):
                    return True
    return False


def _packed(head: bytes) -> bool:
    """An archive or a compressed stream within: a tar (its "ustar" at 257), or anything compressed."""
    return head[257:262] == b"ustar" or head.startswith((ZIP, *STREAMS, *SEALED))


def _chunks(head: bytes, rest: IO[bytes]) -> Iterator[bytes]:
    yield head
    read = len(head)
    while chunk := rest.read(CHUNK):
        read += len(chunk)
        if read > SCAN_LIMIT:  # (a small file that decompresses past it: a bomb, or too much to read)
            yield b"".join(sorted(_MARKS))
            return
        yield chunk


def _marked(chunks: Iterable[bytes]) -> bool:
    """Whether every mark of one of ``REPORT_MARKS`` is somewhere in the chunks (any case)."""
    found: set[bytes] = set()
    tail = b""
    for chunk in chunks:
        window = tail + chunk.lower()
        found.update(mark for mark in _MARKS - found if mark in window)
        if any(all(mark in found for mark in marks) for marks in REPORT_MARKS):
            return True
        tail = window[-_OVERLAP:]
    return False
