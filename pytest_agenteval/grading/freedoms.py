"""A task's ``path_freedoms``: the writes ``action_path`` compares, and lists read as multisets.

Outcome-style benchmarks accept a repeated idempotent write, a write a later one overwrites,
and a list argument in any order; a task says which of its actions have those freedoms
(docs/grading-modes.md). The final state is graded regardless, so a wrong last write fails.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pytest_agenteval.grading.state import equal

if TYPE_CHECKING:
    from pytest_agenteval.engine.audit import AuditEvent
    from pytest_agenteval.grading.context import GradeContext


def freed_writes(ctx: GradeContext, trace: list[AuditEvent]) -> list[AuditEvent]:
    """The writes ``action_path`` compares, after the task's ``path_freedoms``: an exact repeat
    of a ``repeat`` action is left out, and an ``overwrite`` call replaced by a later one on the
    same key arguments is left out (only the last counts)."""
    freedoms = ctx.task.path_freedoms
    if not (freedoms.repeat or freedoms.overwrite):
        return trace
    # Overwrites first (only the last call per key stays), then exact repeats of what is left.
    last = [e for i, e in enumerate(trace) if not (e.action in freedoms.overwrite and any(
        later.action == e.action and _same_key(e, later, freedoms.overwrite[e.action]) for later in trace[i + 1:]))]
    kept: list[AuditEvent] = []
    seen: set[tuple[str, str]] = set()
    for event in last:
        if event.action in freedoms.repeat:
            key = (event.action, canonical(event.arguments, freedoms.multiset_arguments(event.action)))
            if key in seen:
                continue
            seen.add(key)
        kept.append(event)
    return kept


def _same_key(a: AuditEvent, b: AuditEvent, names: list[str]) -> bool:
    if not (isinstance(a.arguments, dict) and isinstance(b.arguments, dict)):
        return False
    return all(equal(a.arguments.get(n), b.arguments.get(n)) for n in names)


def canonical(arguments: Any, multisets: frozenset[str] = frozenset()) -> str:
    """Arguments as sorted JSON, the ``multisets`` lists in sorted order."""
    if isinstance(arguments, dict):
        arguments = {k: (sorted(v, key=_sort_key) if k in multisets and isinstance(v, list) else v)
                     for k, v in arguments.items()}
    return json.dumps(arguments, sort_keys=True, default=str)


def _sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def same_multiset(want: Any, got: Any) -> bool:
    if not (isinstance(want, list) and isinstance(got, list) and len(want) == len(got)):
        return False
    left = list(got)
    for item in want:
        hit = next((i for i, g in enumerate(left) if equal(item, g)), None)
        if hit is None:
            return False
        del left[hit]
    return True
