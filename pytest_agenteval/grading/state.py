"""Checks from ``expected_final_state``: one per clause, plus the frame condition."""

from __future__ import annotations

from typing import Any

from pytest_agenteval.engine.tracking import same_value
from pytest_agenteval.grading.checks import Check, check
from pytest_agenteval.grading.context import GradeContext

WRONG_STATE = "wrong_final_state"
COLLATERAL = "collateral_change"
MAX_LISTED = 5


def state_checks(ctx: GradeContext) -> list[Check]:
    checks: list[Check] = []
    for table, clauses in ctx.task.expected_final_state.items():
        for key, clause in clauses.items():
            if key == "+":
                checks.append(_added(ctx, table, clause))
            elif key == "-":
                checks.append(_removed(ctx, table, clause))
            else:
                checks.append(_row(ctx, table, key, clause))
    checks.append(_frame(ctx))
    return checks


def matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return all(k in actual and equal(v, actual[k]) for k, v in expected.items())


def equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool):  # SQLite stores booleans as 0/1
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


def _added(ctx: GradeContext, table: str, expected: list[dict[str, Any]]) -> Check:
    added = list(ctx.table(table).added.values())
    name = f"state.{table}.added"
    unmatched = _unmatched(expected, added)
    ok = len(added) == len(expected) and not unmatched
    parts = [f"expected {len(expected)} added {table} row(s), got {len(added)}"]
    if unmatched:
        parts.append("no added row matches " + ", ".join(show(e) for e in unmatched))
    if len(added) > len(expected):
        parts.append("added: " + ", ".join(show(r) for r in added[:MAX_LISTED]))
    return check(name, ok, failure_mode=WRONG_STATE, component="state",
                 ok=f"{len(added)} added {table} row(s) as expected", failed="; ".join(parts))


def _unmatched(expected: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Expected rows left without a distinct matching row (small bipartite matching)."""
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

    return [expected[e] for e in range(len(expected)) if not assign(e, set())]


def _removed(ctx: GradeContext, table: str, pks: list[Any]) -> Check:
    removed = ctx.table(table).removed
    missing = [str(pk) for pk in pks if str(pk) not in removed]
    return check(f"state.{table}.removed", not missing, failure_mode=WRONG_STATE, component="state",
                 ok=f"{table} {', '.join(map(str, pks))} removed",
                 failed=f"{table} {', '.join(missing)} still exist(s); expected removed")


def _frame(ctx: GradeContext) -> Check:
    """Everything the task did not name stays as it was, ``vary`` fields excepted."""
    vary = set(ctx.task.vary)
    violations: list[str] = []
    for table, tdiff in ctx.diff.items():
        expected = ctx.task.expected_final_state.get(table, {})
        # Added rows that match no expected "+" row are collateral (too many matching ones are
        # the "+" check's business).
        wanted = expected.get("+", [])
        violations += [f"added {table} {pk}" for pk, row in tdiff.added.items()
                       if not any(matches(e, row) for e in wanted)]
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
