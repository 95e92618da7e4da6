"""One in-memory database per scenario seed, built once per process.

Open scenarios are kept as connections; past ``max_open`` the least recently used is
frozen to bytes with ``serialize()`` and thawed with ``deserialize()`` when needed
again, so a seed is never rebuilt. With a ``disk`` folder, built scenarios are also kept
there as database images named by a fingerprint of the code that built them, so the next
run (or another xdist worker) loads instead of building.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sqlite3
import tempfile
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from pytest_agenteval.engine import audit
from pytest_agenteval.engine.sealing import UNSEALED, NotAnEntry, cache_key, distrusted, read_entry, seal, unseal


def connect() -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/SAVEPOINT ourselves. The agent may run in
    # another thread; the episode serialises access with a lock.
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class ScenarioCache:
    def __init__(self, build: Callable[[sqlite3.Connection, int], None], *, max_open: int,
                 disk: Path | None = None, fingerprint: str = "") -> None:
        self._build = build
        self._max_open = max_open
        self._open: OrderedDict[int, sqlite3.Connection] = OrderedDict()
        self._frozen: dict[int, bytes] = {}
        # Images on disk are sealed with this machine's key (engine/sealing.py); without one, none are kept.
        self._key = cache_key() if disk is not None and hasattr(sqlite3.Connection, "serialize") else None
        self._disk = disk if self._key is not None else None
        self._fingerprint = fingerprint
        self.builds = 0
        self.thaws = 0
        self.loads = 0
        # Images shared by the instances of one environment in a process (episodes in flight).
        self.shared: dict[int, bytes] | None = None

    def get(self, seed: int) -> sqlite3.Connection:
        conn = self._open.get(seed)
        if conn is not None:
            self._open.move_to_end(seed)
            return conn
        image = self._disk / f"{self._fingerprint}-{seed}.sqlite" if self._disk is not None else None
        if self.shared is not None and seed in self.shared:
            conn = connect()
            _thaw(conn, self.shared[seed])
            self.thaws += 1
        elif seed in self._frozen:
            conn = connect()
            _thaw(conn, self._frozen.pop(seed))
            self.thaws += 1
        elif (loaded := _load(image, self._key)) is not None:
            conn = loaded
            self.loads += 1
        else:
            conn = connect()
            self._build(conn, seed)
            self.builds += 1
            if image is not None and self._key is not None:
                data = conn.serialize()  # type: ignore[attr-defined, unused-ignore]  # 3.11+
                write_atomically(image, seal(self._key, image.name, data))
        if self.shared is not None and seed not in self.shared and not conn.in_transaction:
            self.shared[seed] = conn.serialize()  # type: ignore[attr-defined, unused-ignore]  # 3.11+
        conn.set_authorizer(audit.guard)
        self._open[seed] = conn
        while len(self._open) > self._max_open:
            old_seed, old = self._open.popitem(last=False)
            if old.in_transaction:
                old.execute("ROLLBACK")
            serialize = getattr(old, "serialize", None)  # Python 3.11+; 3.10 rebuilds instead
            if serialize is not None and (self.shared is None or old_seed not in self.shared):
                self._frozen[old_seed] = serialize()
            old.close()
        return conn

    def close(self) -> None:
        for conn in self._open.values():
            conn.close()
        self._open.clear()
        self._frozen.clear()


IMAGE_LIMIT = 4 << 30  # a scenario image larger than this is no image of ours


def _load(image: Path | None, key: bytes | None) -> sqlite3.Connection | None:
    """A connection holding a cached image; None if there is none, or (with a one-line warning)
    if it is not to be trusted: not sealed with this machine's key, damaged, or without the
    audit log's append-only triggers. The scenario is then built again."""
    if image is None or key is None:
        return None
    try:
        sealed = read_entry(image, IMAGE_LIMIT)
    except NotAnEntry:
        distrusted(image, "not a regular file of a sane size")
        return None
    except OSError:
        return None
    data = unseal(key, image.name, sealed)
    if data is None:
        distrusted(image, UNSEALED)
        return None
    if not _whole(data):
        distrusted(image, "not a whole SQLite database")
        return None
    conn = connect()
    try:
        _thaw(conn, data)
        intact = audit.log_intact(conn)
    except sqlite3.DatabaseError:
        intact = False
    if not intact:
        conn.close()
        distrusted(image, "its audit log is not the append-only table and triggers this version makes")
        return None
    return conn


def _whole(data: bytes) -> bool:
    """An SQLite image whose header's page size times page count is its length."""
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        return False
    page = int.from_bytes(data[16:18], "big")
    return (65536 if page == 1 else page) * int.from_bytes(data[28:32], "big") == len(data)


def _thaw(conn: sqlite3.Connection, image: bytes) -> None:
    conn.deserialize(image)  # type: ignore[attr-defined, unused-ignore]  # 3.11+
    # SQLite 3.40 hazard: a SAVEPOINT/ROLLBACK TO right after deserialize() can leave a
    # database with no tables. Reading the schema first avoids it (PYTEST_NOTES.md).
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    conn.execute("PRAGMA foreign_keys = ON")


def write_atomically(path: Path, data: bytes) -> None:
    """Other processes (xdist workers) may write the same file: write aside, then rename.

    Caching is best effort: a folder that cannot be written (read-only checkout, full disk)
    costs the next run its head start, never this run its result.
    """
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def fingerprint(cls: type) -> str | None:
    """A hash of the code that builds a scenario: the domain's package (or module), this
    engine's building code, and the SQLite version. Change any and cached images are ignored.
    None when the class has no source file (a notebook, ``exec``): then nothing is cached."""
    module = inspect.getmodule(cls)
    try:
        source = Path(inspect.getfile(cls))
    except (TypeError, OSError):
        return None
    if not source.is_file():
        return None
    files = sorted(source.parent.glob("*.py")) if module and module.__package__ and \
        source.parent.name == module.__package__.rsplit(".", 1)[-1] else [source]
    engine = Path(__file__).parent
    files += [engine / n for n in ("world.py", "scenarios.py", "tracking.py", "audit.py", "schema.py")]
    digest = hashlib.sha256(sqlite3.sqlite_version.encode())
    for path in files:
        digest.update(path.read_bytes())
    for data in data_paths(cls):  # named and sized too, so renaming or moving one counts
        digest.update(f"\0{data.name}\0".encode())
        digest.update(data.read_bytes() if data.is_file() else b"\0missing")
    return digest.hexdigest()[:16]


def data_paths(cls: type) -> list[Path]:
    """An environment's ``data_files``, resolved against its module's folder."""
    declared = getattr(cls, "data_files", ())
    if not declared:
        return []
    base = Path(inspect.getfile(cls)).parent
    return [base / p for p in declared]
