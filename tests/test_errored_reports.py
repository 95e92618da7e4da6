"""Errored results lines (``error`` is an object) in the reports built on results files: the
table and summary, merge, compare, replay and the HTML report count them apart and in no pass
rate (docs/errors.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.replay import replay_results
from pytest_agenteval.report.compare import compare, render
from pytest_agenteval.report.html import render_html, unpacked
from pytest_agenteval.report.merge import ResultsFile, merge
from pytest_agenteval.report.metrics import is_errored, summary_json, summary_lines, summary_title
from tests.helpers.tasks import make_task, task_line

ERROR = {"kind": "provider", "message": "connection: APIConnectionError: refused", "traceback": "Traceback …"}


def grade(task_id: str, passed: bool, *, run: int = 1, error: dict[str, str] | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {"task_id": task_id, "run": run, "environment": "example", "scenario_seed": 1,
                            "passed": passed, "failure_modes": [] if passed else ["agent_error"],
                            "failure_mode_tags": ["wrong_ticket"], "split": "train", "checks": []}
    if error is not None:
        line["error"] = error
    return line


def test_the_contract_errored_iff_error_is_an_object() -> None:
    assert is_errored(grade("A", False, error=ERROR))
    assert not is_errored(grade("A", False)) and not is_errored({**grade("A", False), "error": None})


def test_the_table_and_summary_leave_errored_episodes_out() -> None:
    grades = [grade("A", True), grade("B", False, error=ERROR), grade("C", False, error=ERROR)]
    assert summary_title(grades, 1) == "agenteval: 1 episode, K=1, 2 errored"
    lines = summary_lines(grades, 1)
    assert lines[1].split()[:4] == ["all", "1", "1", "1.00"]  # A alone
    assert lines[-2] == "failure modes triggered (episodes): none"  # not the errored ones' agent_error
    assert lines[-1] == "2 errored (not in any pass rate): provider 2; B run 1, C run 1"
    summary = summary_json(grades, 1)
    assert (summary["episodes"], summary["errored"], summary["errored_by_kind"]) == (1, 2, {"provider": 2})
    assert "errored" not in summary_json([grade("A", True)], 1)  # unchanged when nothing errored


def test_compare_does_not_read_an_outage_as_a_regression() -> None:
    base = [grade(t, True) for t in "ABCDEFGH"]
    new = [grade(t, True) for t in "AB"] + [grade(t, False, error=ERROR) for t in "CDEFGH"]
    result = compare(base, new)
    assert not result.significant_regression and result.regressed == []
    assert result.only_base == list("CDEFGH") and (result.errored_base, result.errored_new) == (0, 6)
    assert "errored episodes, not compared: 0 in base, 6 in new" in render(result)


def test_merge_keeps_the_played_episode_over_the_errored_one() -> None:
    first = ResultsFile(path="a.jsonl", grades=[grade("A", False, error=ERROR), grade("B", True)])
    second = ResultsFile(path="b.jsonl", grades=[grade("A", True)])
    for files in ([first, second], [second, first]):
        merged = merge(files)
        assert [(g["task_id"], g["passed"], "error" in g) for g in merged.grades] == [("A", True, False),
                                                                                       ("B", True, False)]
        assert merged.k == 1
        assert any("A run 1: errored in a.jsonl, played in b.jsonl: the played episode is kept" in n
                   for n in merged.notes), merged.notes


def test_replay_keeps_an_errored_episode_errored(tmp_path: Path) -> None:
    class Raises:
        def run(self, episode: Any) -> None:
            episode.call("get_ticket", {"ticket_id": "T-0001"})
            raise ConnectionRefusedError("no model today")

    task = make_task()
    with ExampleEnvironment() as env:
        played = run_episode(env, task, Raises, time_limit=60)  # type: ignore[arg-type]
    assert played.error is not None and played.error["kind"] == "provider"
    (tmp_path / "t.jsonl").write_text(task_line() + "\n")
    record = json.loads(played.model_dump_json())
    replayed = replay_results([record], [tmp_path / "t.jsonl"])
    assert replayed.different == [] and replayed.grades[0].error == played.error


def test_the_html_report_shows_errored_episodes_apart() -> None:
    page = unpacked(render_html([grade("A", True), grade("B", False, error=ERROR)], 1))
    assert '<span class="tag error">errored</span>' in page
    assert "connection: APIConnectionError: refused" in page and "Traceback …" in page
    assert "1 episode, and 1 errored, in no pass rate." in page
