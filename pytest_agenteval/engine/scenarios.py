"""One in-memory database per scenario seed, built once per process.

Open scenarios are kept as connections; past ``max_open`` the least recently used is
frozen to bytes with ``serialize()`` and thawed with ``deserialize()`` when needed
again, so a seed is never rebuilt.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Callable

from pytest_agenteval.engine import audit


def connect() -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/SAVEPOINT ourselves. The agent may run in
    # another thread; the episode serialises access with a lock.
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class ScenarioCache:
    def __init__(self, build: Callable[[sqlite3.Connection, int], None], *, max_open: int) -> None:
        self._build = build
        self._max_open = max_open
        self._open: OrderedDict[int, sqlite3.Connection] = OrderedDict()
        self._frozen: dict[int, bytes] = {}
        self.builds = 0
        self.thaws = 0

    def get(self, seed: int) -> sqlite3.Connection:
        conn = self._open.get(seed)
        if conn is not None:
            self._open.move_to_end(seed)
            return conn
        conn = connect()
        if seed in self._frozen:
            conn.deserialize(self._frozen.pop(seed))  # type: ignore[attr-defined]
            # SQLite 3.40 hazard: a SAVEPOINT/ROLLBACK TO right after deserialize() can leave
            # a database with no tables. Reading the schema first avoids it (PYTEST_NOTES.md).
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("PRAGMA foreign_keys = ON")
            self.thaws += 1
        else:
            self._build(conn, seed)
            self.builds += 1
        conn.set_authorizer(audit.guard)
        self._open[seed] = conn
        while len(self._open) > self._max_open:
            old_seed, old = self._open.popitem(last=False)
            if old.in_transaction:
                old.execute("ROLLBACK")
            serialize = getattr(old, "serialize", None)  # Python 3.11+; 3.10 rebuilds instead
            if serialize is not None:
                self._frozen[old_seed] = serialize()
            old.close()
        return conn

    def close(self) -> None:
        for conn in self._open.values():
            conn.close()
        self._open.clear()
        self._frozen.clear()
