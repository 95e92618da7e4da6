"""Table metadata read back from SQLite, so a domain declares its schema once, in SQL."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cached_property

INTERNAL_TABLES = frozenset({"audit_events", "_changes"})


@dataclass(frozen=True, kw_only=True)
class TableInfo:
    name: str
    columns: tuple[str, ...]
    pk: str

    @property
    def quoted(self) -> str:
        return quote(self.name)

    @cached_property
    def select_by_pk(self) -> str:
        """SELECT every column of one row by primary key (built once per table)."""
        return f"SELECT {', '.join(quote(c) for c in self.columns)} FROM {self.quoted} WHERE {quote(self.pk)} = ?"


def quote(identifier: str) -> str:
    """Quote an SQL identifier; identifiers only ever come from our own schema."""
    return '"' + identifier.replace('"', '""') + '"'


def read_tables(conn: sqlite3.Connection) -> dict[str, TableInfo]:
    """The domain tables in declaration order, each with exactly one primary-key column."""
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    tables: dict[str, TableInfo] = {}
    for name in names:
        if name in INTERNAL_TABLES:
            continue
        info = conn.execute(f"PRAGMA table_info({quote(name)})").fetchall()
        pks = [row[1] for row in sorted(info, key=lambda r: r[5]) if row[5] > 0]
        if len(pks) != 1:
            raise TypeError(
                f"table {name!r} needs exactly one primary-key column (has {len(pks)}); "
                "diffs and task files address rows by it"
            )
        tables[name] = TableInfo(name=name, columns=tuple(row[1] for row in info), pk=pks[0])
    return tables
