"""One contract, run over every registered environment (as Gymnasium runs its checker over
every registered spec): conformant, and, on the shipped tasks that use it (and
``tests/data/contract/`` for a domain without shipped tasks), the reference
agent passes, the do-nothing agent fails, and each tag's saboteur is caught under that tag.

A third domain registered by entry point is picked up here with no edit to this file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_agenteval.agents.builtin import NoopAgent, Reference
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.saboteurs import Saboteur, sabotage_for
from pytest_agenteval.engine.conformance import check_environment
from pytest_agenteval.environments.registry import EnvironmentPool, known_names
from pytest_agenteval.taskfiles.loader import TaskLoader

ROOT = Path(__file__).parent.parent
NAMES = known_names()


@pytest.fixture(scope="module")
def pool() -> Iterator[EnvironmentPool]:
    pool = EnvironmentPool()
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def shipped(pool: EnvironmentPool) -> dict[str, list]:
    loader, by_env = TaskLoader(pool), {}
    for path in [*sorted((ROOT / "tasks").glob("*.jsonl")), *sorted((ROOT / "tests/data/contract").glob("*.jsonl"))]:
        tasks, problems = loader.load_file(path)
        assert not problems, problems
        for t in tasks:
            by_env.setdefault(t.environment, []).append(t.task)
    return by_env


def test_the_shipped_domains_are_registered_by_entry_point() -> None:
    assert {"booking", "escalation", "example"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_conformance(pool: EnvironmentPool, name: str) -> None:
    assert check_environment(pool.get(name)) == []


@pytest.mark.parametrize("name", NAMES)
def test_reference_passes_noop_fails_and_each_saboteur_is_caught(
        pool: EnvironmentPool, shipped: dict[str, list], name: str) -> None:
    tasks = shipped.get(name, [])
    if not tasks:
        pytest.skip(f"no shipped task uses {name}")
    env = pool.get(name)
    for task in tasks:
        assert run_episode(env, task, Reference(), time_limit=None).passed, task.task_id
        assert not run_episode(env, task, NoopAgent, time_limit=None).passed, task.task_id
        for tag in task.failure_mode_tags:
            assert sabotage_for(name, tag) is not None, f"{task.task_id}: no saboteur for {tag}"
            grade = run_episode(env, task, Saboteur(tag), time_limit=None)
            assert tag in grade.failure_modes, (task.task_id, tag, grade.failure_modes)


def test_with_no_entry_points_installed_the_error_says_to_reinstall(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_agenteval.environments import registry
    from pytest_agenteval.errors import EnvironmentSpecError

    monkeypatch.setattr(registry, "_entry_points", lambda: {})
    monkeypatch.setattr(registry, "_registered", {})
    with pytest.raises(EnvironmentSpecError, match=r"reinstall pytest-agenteval \(pip install -e \.\)"):
        registry.environment_class("booking")
