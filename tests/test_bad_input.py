"""The malformed-input corpus (tests/data/bad_tasks): exact messages, no tracebacks, nothing lost."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_agenteval.taskfiles.loader import TaskLoader
from tests.helpers.tasks import task_line

CORPUS = Path(__file__).parent / "data" / "bad_tasks"
EXPECTED: dict[str, list[str]] = json.loads((CORPUS / "expected.json").read_text())


def test_corpus_is_large_enough() -> None:
    assert len(EXPECTED) >= 30
    assert sorted(EXPECTED) == sorted(p.name for p in CORPUS.glob("*.jsonl"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_malformed_file_gives_its_exact_message(name: str) -> None:
    _, problems = TaskLoader().load_file(CORPUS / name, display=name)
    assert [str(p) for p in problems] == EXPECTED[name]
    for p in problems:  # every message names the file and line, the field, and a fix
        assert str(p).startswith(f"{name}:{p.line}: {p.field}: ") and str(p).endswith(")")


def test_the_whole_corpus_under_pytest(pytester: pytest.Pytester) -> None:
    tasks = pytester.path / "tasks"
    tasks.mkdir()
    for name in EXPECTED:
        shutil.copy(CORPUS / name, tasks / name)
    (tasks / "zz_good.jsonl").write_text(task_line(task_id="GOOD-1") + "\n")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "-rE")
    # The good file runs, and so does the one valid line of 03_bom_on_line_2 (its first EX-1);
    # that EX-1 makes the other files' EX-1 lines duplicates, which are errors of their own.
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] == 2 and outcomes["errors"] >= len(EXPECTED)
    out = result.stdout.str()
    assert "Traceback" not in out and "INTERNALERROR" not in out
    for name, messages in EXPECTED.items():
        assert f"ERROR tasks/{name}::line" in out
        for message in messages:
            if "task_id:" not in message:
                assert f"tasks/{message}" in out, message
