"""Results files any JSON Lines reader splits right, written whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval.report.merge import read_results_file
from pytest_agenteval.report.results import ResultsWriter, load_results
from tests.helpers.tasks import task_dict

SEPARATORS = "a\u2028b\u2029c\x85d"


def test_line_separators_in_an_argument_stay_inside_their_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    writer = ResultsWriter(path)
    writer.start({"agent": "x"})
    grade = {"task_id": "EX-1", "run": 1, "passed": True, "checks": [],
             "actions": [{"action": "add_comment", "arguments": {"body": SEPARATORS}}]}
    writer.write(grade)
    writer.close({"episodes": 1})
    text = path.read_bytes()
    assert text.isascii() and len(text.splitlines()) == 3  # every reader's way of splitting agrees
    assert load_results(path).grades == [grade]
    assert read_results_file(path).grades == [grade]


def test_a_full_disk_is_one_line_and_no_internal_error(pytester: pytest.Pytester) -> None:
    tasks = pytester.path / "tasks"
    tasks.mkdir()
    (tasks / "t.jsonl").write_text(json.dumps(task_dict()) + "\n")
    result = pytester.runpytest("--agent=reference", "-p", "no:cacheprovider", "--agenteval-results=/dev/full")
    assert "INTERNALERROR" not in result.stdout.str() and result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["agenteval: --agenteval-results /dev/full: writing failed after 0 whole lines: "
                                 "No space left on device (free space or write elsewhere, and run again)"])
