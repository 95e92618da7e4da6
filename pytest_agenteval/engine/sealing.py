"""Cache entries sealed with a per-machine key: whoever writes into the cache folder without the
key (an agent, a checked-in ``.pytest_cache``, another tool) gets the entry rebuilt, not trusted.

A sealed entry is ``HMAC-SHA256(key, name NUL data)`` (32 bytes) followed by the data; the
entry's name is covered, so one seed's image cannot stand in for another's. The key is 32
random bytes made on first use, mode 0600, *outside* every cache folder: the file named by
``AGENTEVAL_CACHE_KEY_FILE``, else ``$XDG_CONFIG_HOME/agenteval/cache.key``, else
``~/.config/agenteval/cache.key``.

Limits: anything that can read that file can forge entries, so it guards against an agent
only when the agent cannot read your home folder (an isolated agent under an OS sandbox);
an in-process agent is trusted code and can. Where no key can be made (a read-only home),
nothing is cached on disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

KEY_FILE_ENV = "AGENTEVAL_CACHE_KEY_FILE"
TAG = 32


class CacheWarning(UserWarning):
    """A cache entry that was not trusted (not sealed with this machine's key): it is rebuilt."""


def key_file() -> Path:
    named = os.environ.get(KEY_FILE_ENV)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "agenteval" / "cache.key"


@lru_cache(maxsize=4)
def _key_at(path: Path) -> bytes | None:
    key: bytes | None
    try:
        key = read_entry(path, TAG)
    except FileNotFoundError:
        key = _make(path)
    except OSError:  # (a FIFO, a device, a link: no key, nothing cached)
        return None
    return key if key is not None and len(key) == TAG else None


def _make(path: Path) -> bytes | None:
    """Made aside and linked into place, so that two processes making it at once agree on one key."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # mode 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(TAG))
        with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
            os.link(tmp, path)
        return path.read_bytes()
    except OSError:
        return None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def cache_key() -> bytes | None:
    """This machine's cache key, made on first use; None where it cannot be made or read."""
    try:
        return _key_at(key_file())
    except (RuntimeError, KeyError):  # no home folder to keep it in
        return None


def _tag(key: bytes, name: str, data: bytes) -> bytes:
    return hmac.new(key, name.encode() + b"\0" + data, hashlib.sha256).digest()


def seal(key: bytes, name: str, data: bytes) -> bytes:
    return _tag(key, name, data) + data


def unseal(key: bytes, name: str, sealed: bytes) -> bytes | None:
    """The data, or None if the seal does not match (forged, damaged, or another machine's)."""
    data = sealed[TAG:]
    return data if hmac.compare_digest(sealed[:TAG], _tag(key, name, data)) else None


def seal_record(key: bytes, name: str, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with a ``seal`` field: for caches of JSON lines, where each line is an entry
    (appended by several processes, so a whole-file seal would not do)."""
    return {**record, "seal": _tag(key, name, _canonical(record)).hex()}


def unseal_record(key: bytes, name: str, record: dict[str, Any]) -> dict[str, Any] | None:
    """The record without its seal, or None if the seal does not match (or there is none)."""
    found = record.get("seal")
    rest = {k: v for k, v in record.items() if k != "seal"}
    if not isinstance(found, str) or not hmac.compare_digest(found, _tag(key, name, _canonical(rest)).hex()):
        return None
    return rest


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode()


UNSEALED = "not sealed with this machine's cache key (written by something else, or damaged)"


class NotAnEntry(OSError):
    """What stands at a cache entry's place is no regular file of a sane size (a FIFO, a link to
    ``/dev/zero``: reading it hung the run; red team 44)."""


def read_entry(path: Path, limit: int) -> bytes:
    """A cache entry's bytes, read without following a link, blocking on a FIFO or reading a
    device; ``NotAnEntry`` for any of those or for more than ``limit`` bytes, ``OSError`` as
    ``open`` gives it (``FileNotFoundError``: none yet)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise NotAnEntry(f"{path} is a link") from exc
        raise
    with os.fdopen(fd, "rb") as handle:
        facts = os.fstat(handle.fileno())
        if not stat.S_ISREG(facts.st_mode):
            raise NotAnEntry(f"{path} is not a regular file")
        if facts.st_size > limit:
            raise NotAnEntry(f"{path} is larger than {limit:,} bytes")
        return handle.read(limit + 1)[:limit]


def distrusted(path: Path, why: str) -> None:
    """One line naming the cache entry: it is ignored and rebuilt."""
    warnings.warn(CacheWarning(f"agenteval cache: {path}: {why}; ignored and rebuilt"), stacklevel=3)
