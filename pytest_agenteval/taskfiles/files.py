"""Reading a task file: only regular files, up to a size bound, never blocking.

A task folder may hold anything: a dangling symbolic link, a link to ``/dev/zero`` (reading
it never ends), a FIFO (opening it waits for a writer), a socket. Each is one problem naming
the file, not a hang, a MemoryError or an INTERNALERROR. Folders (even one named ``x.jsonl``)
are folders: the caller looks inside them and never reads them as files.
"""

from __future__ import annotations

import errno
import os
import stat
from os import PathLike
from pathlib import Path

from pytest_agenteval.errors import TaskProblem

MAX_FILE_BYTES = 256 << 20
_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def resolved(path: str | PathLike[str]) -> Path:
    """``Path.resolve()``, or the absolute path where links cannot be followed: a link to itself
    raises RuntimeError on Python 3.11 (red team 69: an INTERNALERROR); it is then read, and
    refused, as the one file it is."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def is_folder(path: Path) -> bool:
    """``Path.is_dir()``, False where it cannot be looked at (a file in a folder that can be listed
    but not entered raises PermissionError): reading it then says so, in one line."""
    try:
        return path.is_dir()
    except OSError:
        return False


def present(path: Path) -> bool:
    """Something is at ``path``: a file, a folder, a link (dangling or looping), or an entry of a
    folder that cannot be entered (``Path.exists()`` raises PermissionError there)."""
    try:
        os.lstat(path)
    except PermissionError:
        return True  # (reading it says so)
    except OSError:
        return False
    return True


def read_task_file(path: str | PathLike[str], *, shown: str) -> bytes | TaskProblem:
    """The file's bytes, or the one problem that stops them being read."""
    try:
        # O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            return _problem(shown, f"is a symbolic link to {os.readlink(path)!r}, which does not exist",
                            "point it at a task file, or remove it")
        return _problem(shown, "no such file", "check the path")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _problem(shown, "is a symbolic link that leads back to itself",
                            "point it at a task file, or remove it")
        return _problem(shown, f"cannot read it: {exc.strerror}", "check its permissions")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((word for test, word in _KINDS if test(info.st_mode)), "not a regular file")
            return _problem(shown, f"is {kind}, not a regular file",
                            "only regular files are read as task files; move it out of the task folder")
        if info.st_size > MAX_FILE_BYTES:
            return _too_big(shown, info.st_size)
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:  # grew while being read
                return _too_big(shown, size)
        return b"".join(chunks)
    except OSError as exc:
        return _problem(shown, f"cannot read it: {exc.strerror}", "check the file")
    finally:
        os.close(fd)


def _too_big(shown: str, size: int) -> TaskProblem:
    return _problem(shown, f"the file is {size:,} bytes; the limit is {MAX_FILE_BYTES >> 20} MiB",
                    "split it into several task files")


def _problem(shown: str, message: str, fix: str) -> TaskProblem:
    return TaskProblem(path=shown, line=1, field="<file>", message=message, fix=fix)
