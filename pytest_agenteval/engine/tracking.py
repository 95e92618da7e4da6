"""Change tracking by trigger: the episode's diff costs what the episode changed.

Every insert, update or delete on a domain table records the row's primary key in
``_changes`` together with the row as it was before the episode first touched it
(``old`` is NULL for a row that did not exist). Only the first touch is kept, so
``old`` is always the scenario's version of the row.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pytest_agenteval.engine.schema import TableInfo, quote

CHANGES_SCHEMA = """
CREATE TABLE _changes (
    tbl TEXT NOT NULL,
    pk  NOT NULL,
    old TEXT,
    PRIMARY KEY (tbl, pk)
) WITHOUT ROWID;
"""


def tracking_triggers(table: TableInfo) -> str:
    t, pk = table.quoted, quote(table.pk)
    name = table.name.replace('"', "")
    old_json = "json_object(" + ", ".join(
        f"'{c}', OLD.{quote(c)}" for c in table.columns
    ) + ")"
    into = "INSERT OR IGNORE INTO _changes (tbl, pk, old)"
    record = f"{into} VALUES"
    return f"""
CREATE TRIGGER "_track_{name}_insert" AFTER INSERT ON {t}
BEGIN {record} ('{name}', NEW.{pk}, NULL); END;
CREATE TRIGGER "_track_{name}_update" AFTER UPDATE ON {t}
BEGIN
  {record} ('{name}', OLD.{pk}, {old_json});
  {into} SELECT '{name}', NEW.{pk}, NULL WHERE NEW.{pk} IS NOT OLD.{pk};
END;
CREATE TRIGGER "_track_{name}_delete" AFTER DELETE ON {t}
BEGIN {record} ('{name}', OLD.{pk}, {old_json}); END;
"""


@dataclass(kw_only=True)
class TableDiff:
    added: dict[str, dict[str, Any]] = field(default_factory=dict)
    removed: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    # The full final row of every changed row, for checks that need unchanged fields too.
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def to_json(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "removed": self.removed,
            "changed": {
                pk: {f: {"old": old, "new": new} for f, (old, new) in fields.items()}
                for pk, fields in self.changed.items()
            },
        }


StateDiff = dict[str, TableDiff]


def same_value(a: Any, b: Any) -> bool:
    kind = type(a)
    if kind is type(b) and not isinstance(a, float):  # the common case first: graders call it a lot
        return bool(a == b)
    # SQLite 3.40's json_object prints REAL with 15 significant digits; compare floats loosely.
    numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
    if numbers and (isinstance(a, float) or isinstance(b, float)):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return False


def changed_keys(conn: sqlite3.Connection) -> list[tuple[str, Any, str | None]]:
    return conn.execute("SELECT tbl, pk, old FROM _changes ORDER BY tbl, pk").fetchall()


def compute_diff(conn: sqlite3.Connection, tables: dict[str, TableInfo]) -> StateDiff:
    """The episode's diff against the scenario, reading only the rows it touched."""
    diff: StateDiff = {}
    for tbl, pk, old_json in changed_keys(conn):
        table = tables[tbl]
        new = fetch_row(conn, table, pk)
        old = json.loads(old_json) if old_json is not None else None
        key = str(pk)
        if old is None and new is None:
            continue  # added, then deleted again
        entry = diff.setdefault(tbl, TableDiff())
        if old is None:
            entry.added[key] = new  # type: ignore[assignment]
        elif new is None:
            entry.removed[key] = old
        else:
            fields = {
                c: (old[c], new[c]) for c in table.columns if not same_value(old[c], new[c])
            }
            if fields:
                entry.changed[key] = fields
                entry.rows[key] = new
    return {t: d for t, d in diff.items() if d}


def fetch_row(conn: sqlite3.Connection, table: TableInfo, pk: Any) -> dict[str, Any] | None:
    row = conn.execute(table.select_by_pk, (pk,)).fetchone()
    return None if row is None else dict(zip(table.columns, row, strict=True))


def revert_changes(conn: sqlite3.Connection, tables: dict[str, TableInfo]) -> None:
    """Put every touched row back as the scenario had it (used inside a savepoint only).

    Parents are restored before children and added children deleted before their
    parents, following the schema's declaration order, so foreign keys hold throughout.
    """
    order = list(tables)
    entries = sorted(changed_keys(conn), key=lambda e: order.index(e[0]))
    for tbl, pk, old_json in entries:
        table = tables[tbl]
        if old_json is None:
            continue
        old = json.loads(old_json)
        values = [old[c] for c in table.columns]
        assignments = ", ".join(f"{quote(c)} = ?" for c in table.columns)
        cursor = conn.execute(
            f"UPDATE {table.quoted} SET {assignments} WHERE {quote(table.pk)} = ?",
            [*values, pk],
        )
        if cursor.rowcount == 0:
            cols = ", ".join(quote(c) for c in table.columns)
            marks = ", ".join("?" for _ in table.columns)
            conn.execute(f"INSERT INTO {table.quoted} ({cols}) VALUES ({marks})", values)
    for tbl, pk, old_json in reversed(entries):
        if old_json is None:
            table = tables[tbl]
            conn.execute(f"DELETE FROM {table.quoted} WHERE {quote(table.pk)} = ?", (pk,))


def install(conn: sqlite3.Connection, tables: Iterable[TableInfo]) -> None:
    conn.executescript(CHANGES_SCHEMA + "".join(tracking_triggers(t) for t in tables))
