"""Reset + a typical write episode + grade, as the seeded world grows to ~1,000,000 rows per
domain; and, in the same run, a full-copy baseline (restore by backup(), diff by full scan).

    python bench/scaling.py [--episodes 200] [--max-rows 1000000]

Targets: time at the largest size <= 1.5x time at the default size; under 1 ms per episode
excluding the agent (the agent here is a fixed list of calls, so all the time is ours),
text checks included (the escalation episode writes a letter and a note, new words each time).
"""

from __future__ import annotations

import argparse
import itertools
import sqlite3
import statistics
import time
from collections.abc import Callable
from typing import Any

from _common import table

from pytest_agenteval import Task
from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.environments.base import Environment

Calls = list[tuple[str, dict[str, Any]]]


def booking_episode(env: Environment) -> tuple[Task, Calls]:
    """Book a pending facility to the customer's fitting account, price it, activate it."""
    fid, cid, product, limit, segment, account = env.db.execute(
        "SELECT f.id, f.customer_id, f.product, f.limit_amount, c.segment, a.id FROM facility f "
        "JOIN customer c ON c.id = f.customer_id JOIN account a ON a.customer_id = f.customer_id "
        "AND a.status = 'open' AND a.account_type = CASE f.product WHEN 'overdraft' THEN 'current' ELSE 'loan' END "
        "WHERE f.status = 'PENDING' AND c.kyc_status = 'verified' AND f.limit_amount < 5000000 LIMIT 1").fetchone()
    rate = env.apply("get_rate", {"product": product, "segment": segment, "limit_amount": limit})["result"]["rate_percent"]
    calls: Calls = [("get_facility", {"facility_id": fid}), ("get_customer", {"customer_id": cid}),
                    ("list_accounts", {"customer_id": cid}),
                    ("get_rate", {"product": product, "segment": segment, "limit_amount": limit}),
                    ("book_facility", {"facility_id": fid, "account_id": account}),
                    ("set_rate", {"facility_id": fid, "rate_percent": rate}), ("activate_facility", {"facility_id": fid})]
    task = Task.model_validate({
        "task_id": "BENCH-BK", "environment": "booking", "scenario_seed": 1, "instruction": "x",
        "allowed_actions": sorted({a for a, _ in calls}),
        "expected_final_state": {"facility": {fid: {"status": "ACTIVE", "account_id": account, "rate_percent": rate}},
                                 "booking_event": {"+": [{"facility_id": fid, "event_type": t}
                                                         for t in ("booked", "rate_set", "activated")]}},
        "acceptable_action_paths": [[{"action": a, "arguments": k} for a, k in calls]]})
    return task, calls


def escalation_episode(env: Environment) -> tuple[Task, Calls]:
    """Decide a claim within the handler's authority: approve, pay, tell the claimant, note it."""
    cid, pid = env.db.execute("SELECT id, policy_id FROM claim WHERE handler_id = 'STF-001' LIMIT 1").fetchone()
    calls: Calls = [("get_claim", {"claim_id": cid}), ("get_policy", {"policy_id": pid}),
                    ("get_authority_policy", {}), ("approve_claim", {"claim_id": cid, "amount": 4200.0}),
                    ("issue_payment", {"claim_id": cid, "amount": 4200.0}),
                    ("notify_claimant", {"claim_id": cid, "kind": "approval", "body": LETTER.format(cid=cid, n="{n}")}),
                    ("add_note", {"claim_id": cid, "kind": "decision", "body": NOTE.format(cid=cid, n="{n}")})]
    task = Task.model_validate({
        "task_id": "BENCH-ESC", "environment": "escalation", "scenario_seed": 1, "instruction": "x",
        "allowed_actions": sorted({a for a, _ in calls}),
        "vary": ["note.body", "correspondence.body"],
        "overrides": {"claim": {cid: {"assessed_amount": 4200.0}}, "policy": {pid: {"status": "active"}}},
        "expected_final_state": {"claim": {cid: {"status": "settled", "approved_amount": 4200.0,
                                                       "decided_by": "STF-001"}},
                                 "payment": {"+": [{"claim_id": cid, "amount": 4200.0}]},
                                 "correspondence": {"+": [{"claim_id": cid, "kind": "approval"}]},
                                 "note": {"+": [{"claim_id": cid, "kind": "decision"}]}},
        "acceptable_action_paths": [[{"action": a, "arguments": k} for a, k in calls]]})
    return task, calls


DOMAINS: dict[str, tuple[type[Environment], float, Callable[[Environment], tuple[Task, Calls]]]] = {
    # name: (class, rows per unit of population, episode)
    "booking": (BookingEnvironment, 3.7, booking_episode),
    "escalation": (EscalationEnvironment, 2.0, escalation_episode),
}


# Texts differ in every episode (as a model's do), so each is read afresh: no reading is cached.
LETTER = ("Good news: your claim {cid} has been approved, and we will pay you the assessed amount of "
          "4,200.00 GBP within five working days (letter {n}).")
NOTE = "Approved at 4200.0 within my authority; payment issued and the claimant told (note {n})."
FRESH = itertools.count()


def ours(env: Environment, task: Task, calls: Calls) -> tuple[float, bool]:
    n = next(FRESH)
    calls = [(a, {k: v.replace("{n}", str(n)) if isinstance(v, str) else v for k, v in args.items()})
             for a, args in calls]
    start = time.perf_counter()
    env.reset(task.scenario_seed, task=task)
    for action, arguments in calls:
        env.apply(action, arguments)
    grade = env.grade()
    return time.perf_counter() - start, grade.passed


def full_scan_diff(before: sqlite3.Connection, after: sqlite3.Connection, tables: list[str]) -> int:
    changed = 0
    for name in tables:
        old = {r[0]: r for r in before.execute(f'SELECT * FROM "{name}" ORDER BY 1')}
        new = {r[0]: r for r in after.execute(f'SELECT * FROM "{name}" ORDER BY 1')}
        changed += sum(old.get(k) != v for k, v in new.items()) + len(old.keys() - new.keys())
    return changed


def baseline(env: Environment, task: Task, calls: Calls, pristine: sqlite3.Connection) -> float:
    """Restore the whole database by backup(), act, then diff every row of every table."""
    start = time.perf_counter()
    work = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    pristine.backup(work)
    env.reset(task.scenario_seed, task=task)
    real, env._db = env._db, work  # act on the restored copy
    try:
        for action, arguments in calls:
            env.apply(action, arguments)
        full_scan_diff(pristine, work, list(env.tables))
    finally:
        env._db = real
        work.close()
    return time.perf_counter() - start


def measure(name: str, rows: int, episodes: int) -> list[Any]:
    cls, per, episode = DOMAINS[name]
    population = None if rows == 0 else max(20, int(rows / per))
    env = cls(population=population)
    built = time.perf_counter()
    env.reset(1)
    built = time.perf_counter() - built
    size = sum(env.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in env.tables)
    task, calls = episode(env)
    times, passed = zip(*(ours(env, task, calls) for _ in range(episodes)), strict=True)
    assert all(passed), "the benchmark episode must pass"
    pristine = sqlite3.connect(":memory:")
    env.db.execute("ROLLBACK")
    env.db.backup(pristine)
    env.reset(1)
    base = [baseline(env, task, calls, pristine) for _ in range(max(3, min(episodes, 2_000_000 // max(size, 1))))]
    pristine.close()
    env.close()
    return [name, f"{size:,}", f"{built:.1f}", statistics.median(times) * 1000, statistics.median(base) * 1000]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--max-rows", type=int, default=1_000_000)
    args = parser.parse_args()
    sizes = [0] + [r for r in (10_000, 100_000, 1_000_000) if r <= args.max_rows]
    rows = [measure(name, size, args.episodes) for name in DOMAINS for size in sizes]
    print(table(["domain", "rows", "build s", "ours ms/episode", "full-copy ms/episode", "full-copy / ours"],
                [[n, s, b, f"{o:.3f}", f"{f:.1f}", f"{f / o:,.0f}x"] for n, s, b, o, f in rows]))
    print()
    for name in DOMAINS:
        mine = [r for r in rows if r[0] == name]
        growth = mine[-1][3] / mine[0][3]
        print(f"{name}: largest / default = {growth:.2f} (target <= 1.5: {'met' if growth <= 1.5 else 'NOT met'}); "
              f"default {mine[0][3]:.3f} ms, largest {mine[-1][3]:.3f} ms per episode "
              f"(target < 1 ms: {'met' if mine[-1][3] < 1 else 'NOT met'})")


if __name__ == "__main__":
    main()
