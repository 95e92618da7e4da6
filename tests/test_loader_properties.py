"""Property-based: whatever bytes a line holds, the loader returns a task or problems naming the line."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader
from tests.helpers.tasks import task_dict

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
loader = TaskLoader()


def assert_line_result(result: object, line: int) -> None:
    if result is None or isinstance(result, LoadedTask):
        return
    assert isinstance(result, list) and result
    for problem in result:
        assert str(problem).startswith(f"t.jsonl:{line}: ")
        assert problem.fix and problem.message


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    assert_line_result(loader.load_line(data.replace(b"\n", b" "), path="t.jsonl", line=3), 3)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(task_dict())), JSON)
def test_mutated_valid_lines(field: str, value: object) -> None:
    line = task_dict(task_id="PROP-1")
    line[field] = value
    fresh = TaskLoader()  # no duplicate-id memory between examples
    assert_line_result(fresh.load_line(json.dumps(line).encode(), path="t.jsonl", line=9), 9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=200) | st.builds(lambda d: json.dumps(d).encode(), JSON), max_size=6))
def test_whole_files_raise_only_our_error(tmp_path_factory: object, lines: list[bytes]) -> None:
    import pytest as _pytest  # noqa: F401 - only to show this test needs nothing from the plugin

    from pytest_agenteval import TaskFileError, load_tasks

    path = tmp_path_factory.mktemp("prop") / "t.jsonl"  # type: ignore[attr-defined]
    path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
    try:
        load_tasks(path)
    except TaskFileError as exc:
        assert all(f"t.jsonl:{p.line}: " in str(p) for p in exc.problems)
