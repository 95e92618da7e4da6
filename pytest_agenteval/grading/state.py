"""Checks from ``expected_final_state``: one per clause, plus the frame condition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_agenteval.engine.tracking import same_value
from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext

WRONG_STATE = "wrong_final_state"
COLLATERAL = "collateral_change"
MAX_LISTED = 5
MAY_ADD = "+?"  # rows an episode may add (harmless extras: a file note), any number of them


def state_checks(ctx: GradeContext) -> list[Check]:
    checks: list[Check] = []
    stray: dict[str, list[str]] = {}  # per table: added rows no "+" clause accounts for
    for table, clauses in ctx.task.expected_final_state.items():
        if "+" in clauses or MAY_ADD in clauses:
            sorting = AddedRows.sort(clauses.get("+", []), ctx.table(table).added, clauses.get(MAY_ADD, []))
            stray[table] = sorting.stray
        for key, clause in clauses.items():
            if key == "+":
                checks.append(_added(table, clause, sorting))
            elif key == MAY_ADD:
                continue
            elif key == "-":
                checks.append(_removed(ctx, table, clause))
            else:
                checks.append(_row(ctx, table, key, clause))
    checks.append(_frame(ctx, stray))
    return checks


@dataclass(frozen=True)
class AddedRows:
    """How a table's added rows answer its ``"+"`` clause; each row is judged by one check.

    ``missing``: expected rows nothing matches. ``extra``: surplus rows of an expected kind
    (the "+" count's business). ``near``: for a missing row, the added row that comes closest
    (a wrong version of it: the "+" check reports it, not the frame). ``stray``: added rows
    like nothing expected, which the frame reports as collateral. Rows like a ``"+?"`` row
    (``allowed``) are none of these.
    """

    missing: list[dict[str, Any]]
    extra: list[dict[str, Any]]
    near: list[tuple[dict[str, Any], dict[str, Any]]]
    stray: list[str]

    @classmethod
    def sort(cls, expected: list[dict[str, Any]], added: dict[str, dict[str, Any]],
             allowed: Sequence[dict[str, Any]] = ()) -> AddedRows:
        rows = list(added.items())
        owner = _matching(expected, [r for _, r in rows])
        missing = [e for i, e in enumerate(expected) if i not in owner.values()]
        left = [(pk, r) for i, (pk, r) in enumerate(rows)
                if i not in owner and not any(matches(a, r) for a in allowed)]
        extra = [r for _, r in left if any(matches(e, r) for e in expected)]
        unlike = [(pk, r) for pk, r in left if not any(matches(e, r) for e in expected)]
        near: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for want in missing:
            if not unlike:
                break
            best = max(range(len(unlike)), key=lambda i: _agreement(want, unlike[i][1]))
            near.append((want, unlike.pop(best)[1]))
        return cls(missing=missing, extra=extra, near=near, stray=[pk for pk, _ in unlike])

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra


def matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return all(k in actual and equal(v, actual[k]) for k, v in expected.items())


def equal(expected: Any, actual: Any) -> bool:
    # SQLite stores booleans as 0/1; an argument holds the boolean itself. (Converted always, a
    # path step or rule naming ``true`` never matched a call that sent ``true``: red team 18.)
    if isinstance(expected, bool) and not isinstance(actual, bool):
        expected = int(expected)
    return same_value(expected, actual)


def show(mapping: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" for k, v in mapping.items()) + "}"


def _row(ctx: GradeContext, table: str, pk: str, fields: dict[str, Any]) -> Check:
    name = f"state.{table}.{pk}"
    row = ctx.row(table, pk)
    if row is None:
        return check(name, False, failure_mode=WRONG_STATE, component="state", ok="",
                     failed=f"{table} {pk} does not exist at the end; expected {show(fields)}")
    wrong = [
        f"{f} expected {v!r}, got {row.get(f)!r}" for f, v in fields.items() if not equal(v, row.get(f))
    ]
    return check(name, not wrong, failure_mode=WRONG_STATE, component="state",
                 ok=f"{table} {pk} ends with {show(fields)}", failed=f"{table} {pk}: " + "; ".join(wrong))


def _added(table: str, expected: list[dict[str, Any]], rows: AddedRows) -> Check:
    name = f"state.{table}.added"
    parts: list[str] = []
    near = {id(want): got for want, got in rows.near}
    for want in rows.missing:
        got = near.get(id(want))
        if got is None:
            parts.append(f"no added {table} row matches {show(want)}")
        else:
            wrong = ", ".join(f"{f} {got.get(f)!r}" for f, v in want.items() if not equal(v, got.get(f)))
            parts.append(f"no added {table} row matches {show(want)}; the closest has {wrong}")
    if rows.extra:
        parts.append(f"{len(rows.extra)} more than the {len(expected)} expected: "
                     + ", ".join(show(r) for r in rows.extra[:MAX_LISTED]))
    return check(name, rows.ok, failure_mode=WRONG_STATE, component="state",
                 ok=f"{len(expected)} added {table} row(s) as expected", failed="; ".join(parts))


def _agreement(want: dict[str, Any], row: dict[str, Any]) -> int:
    return sum(1 for f, v in want.items() if f in row and equal(v, row[f]))


def _matching(expected: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[int, int]:
    """A largest matching of expected rows to distinct added rows: {row index: expected index}."""
    candidates = [[i for i, r in enumerate(rows) if matches(e, r)] for e in expected]
    owner: dict[int, int] = {}

    def assign(e: int, seen: set[int]) -> bool:
        for i in candidates[e]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or assign(owner[i], seen):
                owner[i] = e
                return True
        return False

    for e in range(len(expected)):
        assign(e, set())
    return owner


def _removed(ctx: GradeContext, table: str, pks: list[Any]) -> Check:
    removed = ctx.table(table).removed
    missing = [str(pk) for pk in pks if str(pk) not in removed]
    return check(f"state.{table}.removed", not missing, failure_mode=WRONG_STATE, component="state",
                 ok=f"{table} {', '.join(map(str, pks))} removed",
                 failed=f"{table} {', '.join(missing)} still exist(s); expected removed")


def _frame(ctx: GradeContext, stray: dict[str, list[str]]) -> Check:
    """Everything the task did not name stays as it was, ``vary`` fields excepted."""
    vary = set(ctx.task.vary)
    violations: list[str] = []
    for table, tdiff in ctx.diff.items():
        expected = ctx.task.expected_final_state.get(table, {})
        # Added rows the "+" clause accounts for (expected ones, surplus of an expected kind,
        # wrong versions of a missing one) are its business; the rest are collateral.
        violations += [f"added {table} {pk}" for pk in stray.get(table, tdiff.added)]
        allowed_removed = {str(pk) for pk in expected.get("-", [])}
        violations += [f"removed {table} {pk}" for pk in tdiff.removed if pk not in allowed_removed]
        for pk, fields in tdiff.changed.items():
            named = expected.get(pk, {})
            for field, (old, new) in fields.items():
                if field in named or f"{table}.{field}" in vary or f"*.{field}" in vary:
                    continue
                violations.append(f"changed {table} {pk}.{field} ({old!r} -> {new!r})")
    shown = "; ".join(violations[:MAX_LISTED])
    if len(violations) > MAX_LISTED:
        shown += f"; and {len(violations) - MAX_LISTED} more"
    return check("frame", not violations, failure_mode=COLLATERAL, component="frame",
                 ok="nothing outside the expected changes changed",
                 failed=f"unexpected changes: {shown} (if intended, name them in "
                        "expected_final_state or vary)")
