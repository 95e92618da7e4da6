"""An independent audit, kept as a regression suite: the auditor's own agents (tests/helpers/audit_agents.py,
written from what a user sees, not from our rubrics) get the right verdict on every shipped task.

Correct agents (they explore, re-read, reorder, correct typos, reword free text) must pass
every task. Each wrong agent commits one mistake; where the mistake applies it must fail, with
the failure mode that names the mistake. Which tasks each mistake applies to is pinned in
tests/data/audit_expected.json, so a mistake that stops being caught, or a task that starts
failing a wrong agent on a task where it behaved correctly, both show up.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import EnvironmentPool, load_tasks, run_episode
from tests.helpers.audit_agents import Booking, Escalation, make

ROOT = Path(__file__).parent.parent
EXPECTED = json.loads((Path(__file__).parent / "data" / "audit_expected.json").read_text())
AGENTS = {"booking": Booking, "escalation": Escalation}


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    pool = EnvironmentPool()
    return {d: (pool, list(load_tasks(ROOT / "tasks" / f"{d}.jsonl", pool=pool))) for d in AGENTS}


def grades(shipped: dict[str, Any], domain: str, agent: type) -> dict[str, Any]:
    pool, tasks = shipped[domain]
    return {t.task_id: run_episode(pool.get(t.environment), t, agent, time_limit=None) for t in tasks}


@pytest.mark.parametrize(("domain", "variant"), [(d, v) for d in AGENTS for v in EXPECTED[d]["correct"]])
def test_a_correct_agent_passes_every_task(shipped: dict[str, Any], domain: str, variant: str) -> None:
    failed = {tid: [f"{c.name}: {c.detail}" for c in g.failed_checks()]
              for tid, g in grades(shipped, domain, make(AGENTS[domain], variant, "")).items() if not g.passed}
    assert not failed, failed


@pytest.mark.parametrize(("domain", "mistake"), [(d, m) for d in AGENTS for m in EXPECTED[d]["wrong"]])
def test_a_wrong_agent_fails_where_its_mistake_applies_under_its_label(shipped: dict[str, Any], domain: str,
                                                                       mistake: str) -> None:
    want = EXPECTED[domain]["wrong"][mistake]
    got = grades(shipped, domain, make(AGENTS[domain], "", mistake))
    assert sorted(tid for tid, g in got.items() if not g.passed) == want["fails"]
    if want["labels"]:  # any of them names the mistake (a needless escalation of a lapsed neighbour…)
        unlabelled = {tid: g.failure_modes for tid, g in got.items() if not g.passed
                      and not set(want["labels"]) & set(g.failure_modes)}
        assert not unlabelled, unlabelled
