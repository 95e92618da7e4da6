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
import glob
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_agenteval.agents.containment import ContainmentError
from pytest_agenteval.patterns import lazy

INI_SHOW = "agenteval_show"


class CopyError(ContainmentError):
    """The copy could not be made (one line: where, why, and the way out)."""
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
          mounted_inside: Iterable[str] = ()) -> tuple[list[tuple[str, str]], list[str]]:
    """A copy of each folder's code and of what ``shown`` lists (globs under ``root``, or absolute),
    each in a folder of its own under a new private one: (the folder, its copy) for the sandbox to
    mount, and the files too large to copy, to mount as they are over their place in the copy. What
    the sandbox mounts inside a folder (another folder's copy, a virtualenv in the project: in
    ``mounted_inside``) gets its mount point in the copy: a read-only copy cannot take one later."""
    _sweep()
    base = tempfile.mkdtemp(prefix=f"agenteval-view-{os.getpid()}-", dir=_place())
    os.chmod(base, 0o755)  # (the sandbox may run as nobody)
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    skip = {os.path.realpath(p) for p in left_out}
    listed = expand(root, shown)
    views: list[tuple[str, str]] = []
    large: list[str] = []
    budget = [COPIED]
    copied = list(dict.fromkeys(os.path.realpath(f) for f in folders))  # (a link: its target)
    copied += _folders_elsewhere(listed, copied)
    for k, folder in enumerate(copied):
        copy = os.path.join(base, str(k))
        large += _copy_code(folder, copy, listed, skip, budget)
        views.append((folder, copy))
    large += _listed_elsewhere(listed, skip, [f for f, _ in views])
    for folder, copy in views:
        for inner in (*(f for f, _ in views), *mounted_inside, *large):
            inner = os.path.realpath(inner)
            if inner != folder and inner.startswith(folder.rstrip("/") + "/") and os.path.exists(inner):
                _mount_point(inner, os.path.join(copy, os.path.relpath(inner, folder)))
    return views, large


def _folders_elsewhere(listed: set[str], folders: list[str]) -> list[str]:
    """The folders the ini lists outside every copied folder (an absolute path, ``../prompts``):
    copied as the project is, whole, so one mount shows them (a mount per file overflowed the
    sandbox's command line at 30,000 files: red team 44). Not a link: what it leads to is not
    listed."""
    found: list[str] = []
    for path in sorted(listed):  # (sorted: a folder before what it holds)
        if os.path.isdir(path) and not os.path.islink(path) and not any(
                path == f or path.startswith(f.rstrip("/") + "/") for f in (*folders, *found)):
            found.append(path)
    return found


MAX_FILES_ELSEWHERE = 1_000  # files listed one by one outside every copied folder, each its own mount


def _listed_elsewhere(listed: set[str], skip: set[str], folders: list[str]) -> list[str]:
    """The files the ini lists outside every copied folder, shown as they are: regular files only;
    never a link, which the mount would follow, nor what it leads to when that is left out (red
    team 43: a listed "prompt" linked to the task file)."""
    found: list[str] = []
    for path in sorted(listed):
        if any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders):
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(path).st_mode) and os.path.realpath(path) not in skip and not any(
                    os.path.realpath(path).startswith(s.rstrip("/") + "/") for s in skip):
                found.append(path)
    if len(found) > MAX_FILES_ELSEWHERE:
        raise CopyError(f"--agenteval-isolate: {INI_SHOW} lists {len(found):,} files outside the project one by one, "
                        f"more than the sandbox mounts ({MAX_FILES_ELSEWHERE:,}); list their folder instead")
    return found


def _place() -> str:
    """Where the copies go: the temp folder, unless it is mounted ``noexec`` (an extension in the
    copy could not be loaded from it: red team 43), then the next that is not."""
    for place in _places():
        with contextlib.suppress(OSError):
            if os.path.isdir(place) and os.access(place, os.W_OK) and not os.statvfs(place).f_flag & os.ST_NOEXEC:
                return place
    return tempfile.gettempdir()


def _places() -> tuple[str, ...]:
    return tempfile.gettempdir(), "/var/tmp", "/dev/shm", os.path.expanduser("~/.cache")


def _sweep() -> None:
    """Take away the copies of runs whose process is gone (a run killed by SIGTERM runs no
    ``atexit``: red teams 41 and 42 found their copies left in the temp folder), wherever
    ``_place`` put them (red team 44: in /var/tmp, never swept)."""
    for path in (p for place in dict.fromkeys(_places()) for p in glob.glob(os.path.join(place, "agenteval-view-*-*"))):
        pid = os.path.basename(path).split("-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (another user's: alive)
    return True


def expand(root: Path, shown: Iterable[str]) -> set[str]:
    """What ``agenteval_show`` lists, as absolute paths: each entry a path or a glob as the shell reads it
    (``*`` stays within a folder, ``**`` crosses them), under rootdir or absolute; a folder, whole."""
    found: set[str] = set()
    for pattern in shown:
        full = os.path.join(str(root), pattern)
        fixed = os.path.abspath(_fixed_part(full))
        for path in glob.glob(full, recursive=True):
            path = os.path.abspath(path)  # (not where a link leads: a listed link is copied as a link; red team 42)
            if not _through_link(fixed, path):
                found.add(path)
    return found


WILDCARD = lazy(r"[*?\[]")


def _fixed_part(pattern: str) -> str:
    """The folders of ``pattern`` before its first wildcard: what the user named."""
    parts = pattern.split(os.sep)
    cut = next((k for k, part in enumerate(parts) if WILDCARD.search(part)), len(parts))
    return os.sep.join(parts[:cut]) or os.sep


def _through_link(fixed: str, path: str) -> bool:
    """``path`` was reached through a linked folder a wildcard went into or listed (``../acme/**``
    or ``../acme/shared/*`` with ``acme/shared -> ../old-logs``: an old copy of the task file; red
    team 44). A path named whole is taken as written; what a wildcard found, only where it is."""
    if not path.startswith(fixed.rstrip(os.sep) + os.sep):
        return False
    here = os.path.dirname(path)
    while len(here) >= len(fixed.rstrip(os.sep)):  # (the folder a wildcard lists too: "shared/*")
        if os.path.islink(here):
            return True
        here = os.path.dirname(here)
    return False


def in_view(folder: str | Path, shown: Iterable[str] = (), left_out: Iterable[str] = ()) -> list[str]:
    """The paths (relative to ``folder``) its view holds: what an isolated agent sees there."""
    folder = os.path.realpath(folder)
    listed = expand(Path(folder), shown)
    skip = {os.path.realpath(p) for p in left_out}
    return sorted(os.path.relpath(path, folder) for path, _ in _walk(folder, listed, skip))


LARGE = 16 << 20  # a file this large is mounted as it is, not copied (an 8 GiB sparse .so took 46 s: red team 41)
COPIED = 256 << 20  # past this much copied in a run, the rest is mounted as it is (256 sparse .so files: red team 42)


def _copy_code(folder: str, copy: str, listed: set[str], skip: set[str], budget: list[int]) -> list[str]:
    os.makedirs(copy, mode=0o755, exist_ok=True)
    large = []
    for path, mode in _walk(folder, listed, skip):
        target = os.path.join(copy, os.path.relpath(path, folder))
        _folders(folder, os.path.dirname(path), copy)
        with contextlib.suppress(OSError):  # (gone since the walk, unreadable: not in the view)
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), target)
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as source:
                facts = os.fstat(source.fileno())
                if not stat.S_ISREG(facts.st_mode):
                    continue  # (swapped for a FIFO or a device since the walk)
                if facts.st_size > LARGE or facts.st_size > budget[0]:
                    large.append(path)
                    continue
                budget[0] -= facts.st_size
                try:
                    with open(target, "wb") as out:
                        shutil.copyfileobj(source, out)
                except OSError as exc:  # (a full temp folder cut files short, silently: red team 43)
                    raise CopyError(f"--agenteval-isolate: the copy of the project's code for the sandbox could "
                                    f"not be written in {os.path.dirname(copy)} ({exc.strerror}); free space there "
                                    "or set TMPDIR") from exc
            os.chmod(target, stat.S_IMODE(mode) & 0o777)  # (who may read it is as before: a 0600 file stays so)
            os.utime(target, ns=(facts.st_atime_ns, facts.st_mtime_ns))  # (its .pyc stay fresh: red team 42)
    _modes(folder, copy)
    return large


def _modes(folder: str, copy: str) -> None:
    """Each copied folder, the copy's top included, takes its original's mode once its files are in
    (a 0700 folder stays closed to the sandbox's user; a 0555 one could not take them before it)."""
    for here, dirs, _ in os.walk(copy, topdown=False):
        for path in (*(os.path.join(here, d) for d in dirs), *([here] if here == copy else [])):
            real = os.path.join(folder, os.path.relpath(path, copy))
            with contextlib.suppress(OSError):
                if not os.path.islink(path):
                    os.chmod(path, stat.S_IMODE(os.stat(real).st_mode) | (0o700 if os.geteuid() else 0))


def _folders(folder: str, here: str, copy: str) -> None:
    """The folders from ``folder`` down to ``here`` in the copy (their modes come after: ``_modes``)."""
    os.makedirs(os.path.join(copy, os.path.relpath(here, folder)), mode=0o755, exist_ok=True)


def _mount_point(inner: str, point: str) -> None:
    with contextlib.suppress(OSError):
        if os.path.isdir(inner):
            os.makedirs(point, mode=0o755, exist_ok=True)
        elif not os.path.lexists(point):
            os.makedirs(os.path.dirname(point), mode=0o755, exist_ok=True)
            open(point, "w").close()


def _walk(folder: str, listed: set[str], skip: set[str]) -> Iterable[tuple[str, int]]:
    """(path, lstat mode) of each file and link the view holds: code and what ``listed`` holds
    (or a folder of it holds), regular files and links only (a FIFO or a device is never opened)."""
    walked = 0
    listed_folders = {p.rstrip("/") for p in listed if os.path.isdir(p)}  # (once: red team 44's 9,000 folders
    for here, dirs, files in os.walk(folder):                            # x listed paths took minutes)
        walked += 1
        if walked > MAX_FOLDERS:  # (it stopped in silence, an honest agent's module missing: red team 43)
            raise CopyError(f"--agenteval-isolate: {folder} holds more than {MAX_FOLDERS:,} folders, more than the "
                            "sandbox's copy of the code walks; move data folders out of it, or run from a rootdir "
                            "that holds the agent and not the data")
        metadata = here.endswith(METADATA)
        inside = _listed(here, listed_folders)
        kept_dirs = []
        for name in dirs:
            path = os.path.join(here, name)
            if path in skip or (not inside and path not in listed) and (
                    name in NOT_WALKED or os.path.exists(os.path.join(path, "pyvenv.cfg"))):
                continue
            if os.path.islink(path):  # a link to a folder: a link in the copy, resolved in the sandbox
                yield path, os.lstat(path).st_mode
                continue
            kept_dirs.append(name)
        dirs[:] = kept_dirs
        for name in files:
            path = os.path.join(here, name)
            if path in skip or not (metadata or inside or path in listed or _code(name)) or (
                    name.endswith(".pyc") and not _source_shown(here, name, skip)) or _compiled_hidden(
                    here, name, skip):
                continue
            with contextlib.suppress(OSError):
                mode = os.lstat(path).st_mode
                if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
                    yield path, mode


def _source_shown(here: str, name: str, skip: set[str]) -> bool:
    """A ``.pyc`` is copied only beside its source, in the copy too: the compiled form of a script
    ``agenteval_hide`` leaves out holds its strings (red team 43: the generated task line)."""
    if os.path.basename(here) != "__pycache__":
        return False  # (a module shipped compiled alone: no source to tell it by)
    source = os.path.join(os.path.dirname(here), name.split(".")[0] + ".py")
    return os.path.isfile(source) and source not in skip and not any(
        source.startswith(s.rstrip("/") + "/") for s in skip)


def _compiled_hidden(here: str, name: str, skip: set[str]) -> bool:
    """An extension built from a module left out (``gen_tasks.cpython-311-x86_64-linux-gnu.so``
    beside a hidden ``gen_tasks.py``: mypyc, Cython and Nuitka leave one, and its strings hold
    what the module held; red team 44) is left out with it."""
    stem, _, rest = name.partition(".")
    if not rest or os.path.splitext(name)[1].lower() not in (".so", ".pyd"):
        return False
    return any(os.path.join(here, stem + suffix) in skip for suffix in (".py", ".pyx"))


def _code(name: str) -> bool:
    """A file the agent may import or load: by its suffix (``libz.so.1`` too: red team 42)."""
    return os.path.splitext(name)[1].lower() in CODE or SHARED_LIBRARY.search(name) is not None


SHARED_LIBRARY = lazy(r"\.so(?:\.\d+)+$")


def _listed(here: str, folders: set[str]) -> bool:
    """``here`` is a listed folder or inside one (``folders``: the listed folders, no trailing slash)."""
    while True:
        if here in folders:
            return True
        up = os.path.dirname(here)
        if up == here:
            return False
        here = up
