"""Remembered verdicts: good lines are validated once; anything that could change a verdict
(the line, its environment's code or population, the validating code) validates it again."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.engine import sealing
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.taskfiles import loader as loader_module
from pytest_agenteval.taskfiles import verdicts
from pytest_agenteval.taskfiles.loader import TaskLoader
from tests.helpers.tasks import task_line


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The task ids validated against their environment, in order."""
    seen: list[str] = []
    real = loader_module.validate_task

    def counting(env, task):  # type: ignore[no-untyped-def]
        seen.append(task.task_id)
        return real(env, task)

    monkeypatch.setattr(loader_module, "validate_task", counting)
    return seen


def load(tmp_path: Path, lines: list[str], *, population: int | None = None, name: str = "t.jsonl"
         ) -> tuple[list[tuple[str, int]], list[str]]:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    cache = tmp_path / "cache"
    pool = EnvironmentPool(population=population, cache_dir=cache / "scenarios")
    tasks, problems = TaskLoader(pool, cache_dir=cache / "tasks").load_file(path, display=name)
    pool.close()
    return [(t.task_id, t.line) for t in tasks], [str(p) for p in problems]


def test_a_second_load_validates_nothing_and_gives_the_same_tasks(tmp_path: Path, validated: list[str]) -> None:
    lines = [task_line(), task_line(task_id="EX-2", failure_mode_tags=["wrong_status"], split="train")]
    first = load(tmp_path, lines)
    assert validated == ["EX-1", "EX-2"]
    validated.clear()
    assert load(tmp_path, lines) == first == ([("EX-1", 1), ("EX-2", 2)], [])
    assert validated == []
    path = tmp_path / "t.jsonl"
    again, _ = TaskLoader(EnvironmentPool(cache_dir=tmp_path / "cache" / "scenarios"),
                          cache_dir=tmp_path / "cache" / "tasks").load_file(path)
    # The remembered summary agrees with the task parsed (on demand) from the line.
    assert [(t.failure_mode_tags, t.split) for t in again] == [
        (tuple(t.task.failure_mode_tags), t.task.split) for t in again]
    assert (again[1].failure_mode_tags, again[1].split) == (("wrong_status",), "train")


def test_only_edited_lines_are_validated_again(tmp_path: Path, validated: list[str]) -> None:
    load(tmp_path, [task_line(), task_line(task_id="EX-2")])
    validated.clear()
    bad = task_line(task_id="EX-2", overrides={"ticket": {"T-0001": {"status": "exploded"}}})
    tasks, problems = load(tmp_path, [task_line(), bad])
    assert validated == ["EX-2"]
    assert tasks == [("EX-1", 1)]
    assert len(problems) == 1 and problems[0].startswith("t.jsonl:2: overrides.ticket.T-0001.status:")


def test_bad_lines_are_never_remembered(tmp_path: Path, validated: list[str]) -> None:
    bad = task_line(overrides={"ticket": {"T-0001": {"status": "exploded"}}})
    first = load(tmp_path, [bad])
    second = load(tmp_path, [bad])
    assert validated == ["EX-1", "EX-1"] and first == second and len(first[1]) == 1


def test_another_population_validates_again(tmp_path: Path, validated: list[str]) -> None:
    load(tmp_path, [task_line()])
    load(tmp_path, [task_line()], population=7)
    assert validated == ["EX-1", "EX-1"]


def test_changed_validating_code_validates_again(tmp_path: Path, validated: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    load(tmp_path, [task_line()])
    monkeypatch.setattr(verdicts, "CODE", "another")
    load(tmp_path, [task_line()])
    assert validated == ["EX-1", "EX-1"]


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[]", b'{"code": 1}', b'{"code": "C", "lines": 3}'])
def test_a_damaged_cache_file_is_ignored(tmp_path: Path, validated: list[str], damage: bytes,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    load(tmp_path, [task_line()])
    monkeypatch.setattr(verdicts, "CODE", "C")
    (stored,) = (tmp_path / "cache" / "tasks").iterdir()
    stored.write_bytes(damage)
    with pytest.warns(sealing.CacheWarning, match="not sealed") if damage else contextlib.nullcontext():
        assert load(tmp_path, [task_line()]) == ([("EX-1", 1)], [])
    assert validated == ["EX-1", "EX-1"]


def stored_json(stored: Path) -> dict[str, Any]:
    """A verdict file's content (sealed with this machine's cache key, engine/sealing.py)."""
    data = sealing.unseal(sealing.cache_key() or b"", stored.name, stored.read_bytes())
    assert data is not None
    return dict(json.loads(data))


def test_a_damaged_entry_is_ignored(tmp_path: Path, validated: list[str]) -> None:
    load(tmp_path, [task_line()])
    (stored,) = (tmp_path / "cache" / "tasks").iterdir()
    data = stored_json(stored)
    for key in data["lines"]:
        data["lines"][key][2] = "not a list"
    stored.write_bytes(sealing.seal(sealing.cache_key() or b"", stored.name, json.dumps(data).encode()))
    assert load(tmp_path, [task_line()]) == ([("EX-1", 1)], [])
    assert validated == ["EX-1", "EX-1"]


def test_remembered_lines_still_catch_duplicate_ids(tmp_path: Path) -> None:
    load(tmp_path, [task_line()], name="a.jsonl")
    load(tmp_path, [task_line()], name="b.jsonl")
    cache = tmp_path / "cache"
    loader = TaskLoader(EnvironmentPool(cache_dir=cache / "scenarios"), cache_dir=cache / "tasks")
    loader.load_file(tmp_path / "a.jsonl", display="a.jsonl")
    tasks, problems = loader.load_file(tmp_path / "b.jsonl", display="b.jsonl")
    assert tasks == [] and [str(p) for p in problems] == [
        "b.jsonl:1: task_id: 'EX-1' is already used at a.jsonl:1 (give each task a unique task_id)"]


def test_removed_lines_are_forgotten(tmp_path: Path) -> None:
    load(tmp_path, [task_line(), task_line(task_id="EX-2")])
    load(tmp_path, [task_line()])
    (stored,) = (tmp_path / "cache" / "tasks").iterdir()
    assert len(stored_json(stored)["lines"]) == 1


def test_without_a_cache_folder_nothing_is_written(tmp_path: Path, validated: list[str]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(task_line() + "\n")
    TaskLoader().load_file(path)
    TaskLoader().load_file(path)
    assert validated == ["EX-1", "EX-1"] and sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_a_cache_folder_that_cannot_be_written_costs_nothing(tmp_path: Path, validated: list[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    path = tmp_path / "t.jsonl"
    path.write_text(task_line() + "\n")
    pool = EnvironmentPool(cache_dir=blocker / "scenarios")  # mkdir fails: a file is in the way
    for _ in range(2):
        tasks, problems = TaskLoader(pool, cache_dir=blocker / "tasks").load_file(path)
        assert [t.task_id for t in tasks] == ["EX-1"] and problems == []
    pool.close()
    assert validated == ["EX-1", "EX-1"]
