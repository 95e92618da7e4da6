"""The append-only audit log: its table, the triggers that keep it append-only, its digest."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any, NamedTuple

from pytest_agenteval.patterns import lazy

AUDIT_SCHEMA = """
CREATE TABLE audit_events (
    seq        INTEGER PRIMARY KEY,
    step       INTEGER NOT NULL CHECK (step >= 0),
    actor_role TEXT NOT NULL,
    actor_id   TEXT NOT NULL,
    action     TEXT NOT NULL,
    args_json  TEXT NOT NULL,
    args_hash  TEXT NOT NULL CHECK (length(args_hash) = 64),
    ts         TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'refused')),
    error      TEXT,
    fault      TEXT
);
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
"""

AUDIT_COLUMNS = (
    "seq", "step", "actor_role", "actor_id", "action", "args_json", "args_hash",
    "ts", "outcome", "error", "fault",
)


class AuditEvent(NamedTuple):
    """One row of the log. A tuple: immutable, and made in a fraction of a frozen dataclass's
    time (the log is read back for every grading)."""

    seq: int
    step: int
    actor_role: str
    actor_id: str
    action: str
    args_json: str
    args_hash: str
    ts: str
    outcome: str
    error: str | None
    fault: str | None
    # The arguments as sent, parsed once when the log is read.
    arguments: Any = None


def _shown_by_type(value: Any) -> str:
    return f"<{type(value).__name__}>"


# Built once: json.dumps with options builds a new encoder on every call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_shown_by_type)


def canonical_json(value: Any) -> str:
    """Stable JSON text: sorted keys, no spaces; unknown objects shown by type, never crash.

    What the encoder refuses is shown as text too: an integer past Python's 4300 digits, keys
    that are not text (a tuple) or cannot be sorted together (1 and "a"), nesting past the
    recursion limit, a cycle. Raised here, each reached an in-process agent as an exception from
    ``episode.call`` after the action had run, and the call was missing from the log."""
    try:
        return _CANONICAL.encode(value)
    except (ValueError, TypeError, RecursionError):
        return _CANONICAL.encode(_plain(value, 0))


_MAX_DEPTH = 64  # nesting kept of a value the encoder refused (a cycle ends here too)


def _plain(value: Any, depth: int) -> Any:
    """``value`` as data the encoder takes: deeper than ``_MAX_DEPTH``, and huge integers, as text."""
    if depth > _MAX_DEPTH:
        return "<nested too deep>"
    if isinstance(value, dict):
        return {_key(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            str(value)
        except ValueError:  # past sys.get_int_max_str_digits()
            return f"<int of {value.bit_length()} bits>"
    return value


def _key(key: Any) -> str:
    """A key as JSON writes it (1 -> "1", None -> "null"); one JSON cannot hold, by its type."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        try:
            return _CANONICAL.encode(key)
        except ValueError:  # a huge integer
            return f"<int of {key.bit_length() if isinstance(key, int) else 0} bits>"
    return _shown_by_type(key)


MAX_STORED_ARGS = 64 * 1024
PROTECTED = frozenset({"audit_events", "audit_events_no_update", "audit_events_no_delete"})


def guard(action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None) -> int:
    """SQLite authorizer: nobody on this connection may drop or alter the log or its triggers."""
    if action in (sqlite3.SQLITE_DROP_TABLE, sqlite3.SQLITE_DROP_TRIGGER) and arg1 in PROTECTED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_ALTER_TABLE and arg2 in PROTECTED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA and arg1 == "writable_schema":
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


_SURROGATE = lazy("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """A lone surrogate: not Unicode text, so UTF-8 (SQLite, JSON output) cannot hold it."""
    return _SURROGATE.search(text) is not None


def without_surrogates(text: str, *, json_text: bool = False) -> str:
    """``text`` with each lone surrogate written out as the six characters ``\\udXXX``
    (escaped once more inside JSON text, where it can only be inside a string)."""
    escape = "\\\\" if json_text else "\\"
    return _SURROGATE.sub(lambda m: f"{escape}u{ord(m.group()):04x}", text)


_AUDIT_OBJECTS = "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'audit_events' ORDER BY name"
# Any other trigger that writes to the log would put rows in it the agent did not cause.
_OTHER_TRIGGERS = ("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name != 'audit_events' "
                   "AND sql LIKE '%audit_events%'")


def _expected_objects() -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(AUDIT_SCHEMA)
        return conn.execute(_AUDIT_OBJECTS).fetchall()
    finally:
        conn.close()


EXPECTED_OBJECTS = _expected_objects()


def log_intact(conn: sqlite3.Connection) -> bool:
    """The log's table and append-only triggers are exactly ``AUDIT_SCHEMA``'s, and no other
    trigger names the log (checked on every scenario image loaded from disk)."""
    return (conn.execute(_AUDIT_OBJECTS).fetchall() == EXPECTED_OBJECTS
            and not conn.execute(_OTHER_TRIGGERS).fetchall())


def stored_arguments(arguments: Any) -> str:
    """The arguments' canonical JSON; a huge payload is kept as its size, prefix and hash; a
    lone surrogate is written out, so the log can hold every call."""
    text = without_surrogates(canonical_json(arguments), json_text=True)
    if len(text) <= MAX_STORED_ARGS and written_size(text) <= MAX_STORED_ARGS:
        return text
    return canonical_json({"_truncated": True, "chars": len(text), "sha256": sha256_text(text), "prefix": text[:1024]})


def written_size(text: str) -> int:
    """How long ``text`` is written as ASCII JSON (results files, reports): a character past ASCII
    is a ``\\uXXXX`` escape, one past the BMP two (65,000 emoji were 780 KB: red team 48)."""
    if text.isascii():
        return len(text)
    ascii_chars = len(text.encode("ascii", "ignore"))
    units = len(text.encode("utf-16-le", "surrogatepass")) // 2
    return ascii_chars + 6 * (units - ascii_chars)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def append(conn: sqlite3.Connection, **fields: Any) -> None:
    conn.execute(
        "INSERT INTO audit_events (step, actor_role, actor_id, action, args_json, args_hash,"
        " ts, outcome, error, fault) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            fields["step"], fields["actor_role"], fields["actor_id"], fields["action"],
            fields["args_json"], sha256_text(fields["args_json"]), fields["ts"],
            fields["outcome"], fields.get("error"), fields.get("fault"),
        ),
    )


_READ = f"SELECT {', '.join(AUDIT_COLUMNS)} FROM audit_events ORDER BY seq"


def read_events(conn: sqlite3.Connection) -> list[AuditEvent]:
    return [AuditEvent._make((*row, json.loads(row[5]))) for row in conn.execute(_READ)]


def digest(events: list[AuditEvent]) -> str:
    """sha256 over the log's canonical JSON: lets a results file be checked against a replay."""
    return sha256_text(canonical_json([list(e[:len(AUDIT_COLUMNS)]) for e in events]))
