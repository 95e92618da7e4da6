"""What an isolated agent sees of its project: a copy of its code, taken as the run starts.

The sandbox showed the agent the project folder itself, with what must not be seen hidden over
it: the run's files by name, and earlier runs' results and logs by what they hold. A blocklist by
content cannot be complete: red team 40 read the answers from a log saved as UTF-16, a notebook,
a PDF, an e-mail's attachment, a results file cut in parts, a tox log, and a results file a
second run wrote after the hiding was decided (red team 39: a tar, a zip's ninth member).

So the agent sees a copy of what it may run, and nothing else: the project's code (Python
files, compiled extensions, ``.pth`` and package metadata), and the files the ``agenteval_show``
ini value lists (an agent's own prompts or settings), copied into a folder of this run's that
the sandbox mounts where the project is. A file made or changed later is not in it; version
control, virtualenvs, caches and tox folders are not walked; ``agenteval_hide`` and the run's
own files are left out even when they are code. Symbolic links are copied as links: they
resolve inside the sandbox, to the copy or to nothing.
"""

from __future__ import annotations

import atexit
import contextlib
import fnmatch
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

import pytest

INI_SHOW = "agenteval_show"
# What an agent may import and run: code, and what the import system reads beside it.
CODE = frozenset({".py", ".pyi", ".pyc", ".pyd", ".so", ".pth", ".typed"})
METADATA = (".dist-info", ".egg-info")  # an installed package's metadata (importlib.metadata)
NOT_WALKED = frozenset({".git", ".hg", ".svn", ".jj", ".bzr", "node_modules", ".tox", ".nox", ".mypy_cache",
                        ".ruff_cache", ".pytest_cache", ".hypothesis", ".ipynb_checkpoints"})
MAX_FOLDERS = 20_000  # a walk of a huge project stops here: the rest is not in the view


def add_show_option(parser: pytest.Parser) -> None:
    parser.addini(INI_SHOW, type="linelist", default=[],
                  help="paths or glob patterns, relative to rootdir, of files besides code that isolated agents "
                       "may read (their prompts, settings); everything else in the project is not in their view")


def build(folders: Iterable[str], root: Path, shown: list[str], left_out: Iterable[str],
          mounted_inside: Iterable[str] = ()) -> list[tuple[str, str]]:
    """A copy of each folder's code (and, under ``root``, of what ``shown`` lists), each in a folder
    of its own under a new private one: (the folder, its copy), for the sandbox to mount. What the
    sandbox mounts inside a folder (another folder's copy, a virtualenv in the project: in
    ``mounted_inside``) gets its mount point in the copy: a read-only copy cannot take one later."""
    base = tempfile.mkdtemp(prefix="agenteval-view-")
    os.chmod(base, 0o755)  # (the sandbox may run as nobody)
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    skip = {os.path.abspath(p) for p in left_out}
    views = []
    for k, folder in enumerate(dict.fromkeys(os.path.abspath(f) for f in folders)):
        copy = os.path.join(base, str(k))
        patterns = [os.path.normpath(os.path.join(root, p)) for p in shown] if Path(folder) == root else []
        _copy_code(folder, copy, patterns, skip)
        views.append((folder, copy))
    for folder, copy in views:
        for inner in (*(f for f, _ in views), *mounted_inside):
            inner = os.path.abspath(inner)
            if inner != folder and inner.startswith(folder.rstrip("/") + "/") and os.path.exists(inner):
                point = os.path.join(copy, os.path.relpath(inner, folder))
                with contextlib.suppress(OSError):
                    if os.path.isdir(inner):
                        os.makedirs(point, mode=0o755, exist_ok=True)
                    elif not os.path.lexists(point):
                        os.makedirs(os.path.dirname(point), mode=0o755, exist_ok=True)
                        open(point, "w").close()
    return views


def in_view(folder: str | Path, shown: Iterable[str] = (), left_out: Iterable[str] = ()) -> list[str]:
    """The paths (relative to ``folder``) its view holds: what an isolated agent sees there."""
    folder = os.path.abspath(folder)
    patterns = [os.path.normpath(os.path.join(folder, p)) for p in shown]
    skip = {os.path.abspath(p) for p in left_out}
    return sorted(os.path.relpath(path, folder) for path, _ in _walk(folder, patterns, skip))


def _copy_code(folder: str, copy: str, patterns: list[str], skip: set[str]) -> None:
    os.makedirs(copy, mode=0o755, exist_ok=True)
    for path, mode in _walk(folder, patterns, skip):
        target = os.path.join(copy, os.path.relpath(path, folder))
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with contextlib.suppress(OSError):  # (gone since the walk, unreadable: not in the view)
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), target)
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as source, open(target, "wb") as out:
                if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
                    continue  # (swapped for a FIFO or a device since the walk)
                shutil.copyfileobj(source, out)
            os.chmod(target, stat.S_IMODE(mode) & 0o777)  # (who may read it is as before: a 0600 file stays so)


def _walk(folder: str, patterns: list[str], skip: set[str]) -> Iterable[tuple[str, int]]:
    """(path, lstat mode) of each file and link the view holds: code and what ``patterns`` match,
    regular files and links only (a FIFO or a device is never opened)."""
    walked = 0
    for here, dirs, files in os.walk(folder):
        walked += 1
        if walked > MAX_FOLDERS:
            return
        metadata = here.endswith(METADATA)
        kept_dirs = []
        for name in dirs:
            path = os.path.join(here, name)
            if name in NOT_WALKED or path in skip or os.path.exists(os.path.join(path, "pyvenv.cfg")):
                continue
            if os.path.islink(path):  # a link to a folder: a link in the copy, resolved in the sandbox
                yield path, os.lstat(path).st_mode
                continue
            kept_dirs.append(name)
        dirs[:] = kept_dirs
        for name in files:
            path = os.path.join(here, name)
            if path in skip:
                continue
            shown = metadata or os.path.splitext(name)[1].lower() in CODE or any(
                fnmatch.fnmatch(path, p) or path.startswith(p.rstrip("/") + "/") for p in patterns)
            if not shown:
                continue
            with contextlib.suppress(OSError):
                mode = os.lstat(path).st_mode
                if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
                    yield path, mode
