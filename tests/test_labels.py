"""Labelled runs: ``--agenteval-label``, the git commit and the endpoint, through every output,
``--lf``, ``agenteval report`` and ``agenteval compare``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.labels import LabelError, parse_labels
from tests.test_plugin import write_tasks
from tests.test_report_merge import grade, write

CLOSER = "--agent=agents_mod:Closer"  # passes EX-1, fails EX-3


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write_tasks(pytester)
    return pytester


def run_record(path: Path) -> dict:
    return json.loads(path.read_text().splitlines()[0])["run_record"]


def test_labels_and_endpoint_reach_the_record_header_table_and_html(tasks: pytest.Pytester,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    result = tasks.runpytest(CLOSER, "--agenteval-label", "prompt=v2", "--agenteval-label=model=gpt-x",
                             "--agenteval-results=r.jsonl", "--agenteval-html=r.html")
    named = "labels model=gpt-x, prompt=v2; endpoint http://127.0.0.1:9/v1"
    result.stdout.fnmatch_lines([f"agenteval run: {named}", "*agenteval: 2 episodes, K=1*",
                                 f"agent agents_mod:Closer; {named}"])
    record = run_record(tasks.path / "r.jsonl")
    assert record["labels"] == {"model": "gpt-x", "prompt": "v2"}
    assert record["endpoint"] == "http://127.0.0.1:9/v1" and record["git"] is None  # not a git repository
    assert f"agent agents_mod:Closer; {named}" in (tasks.path / "r.html").read_text()


def test_the_git_commit_and_dirty_flag_are_recorded(tasks: pytest.Pytester) -> None:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tasks.path,
                              check=True, capture_output=True, text=True).stdout.strip()

    git("init", "-q")
    git("add", "tasks")
    git("commit", "-qm", "tasks")
    commit = git("rev-parse", "HEAD")
    tasks.runpytest(CLOSER, "--agenteval-results=r.jsonl").stdout.fnmatch_lines([f"agenteval run: git {commit[:12]}"])
    assert run_record(tasks.path / "r.jsonl")["git"] == {"commit": commit, "dirty": False}
    (tasks.path / "tasks" / "example.jsonl").write_text((tasks.path / "tasks" / "example.jsonl").read_text() + "\n")
    result = tasks.runpytest(CLOSER, "--agenteval-results=r.jsonl")
    result.stdout.fnmatch_lines([f"agenteval run: git {commit[:12]} (dirty)"])
    assert run_record(tasks.path / "r.jsonl")["git"] == {"commit": commit, "dirty": True}


@pytest.mark.parametrize("label", ["model", "=x", "model=", "1x=a", "a b=c"])
def test_a_label_not_key_value_is_one_usage_line(tasks: pytest.Pytester, label: str) -> None:
    result = tasks.runpytest(CLOSER, f"--agenteval-label={label}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --agenteval-label {label!r}: not key=value (write e.g. *"])
    assert "Traceback" not in result.stderr.str()


def test_a_key_given_twice_with_two_values_is_refused() -> None:
    with pytest.raises(LabelError, match=r"--agenteval-label model: given twice \('a' and 'b'\)"):
        parse_labels(["model=a", "model=b"])
    assert parse_labels(["b=2", "a=x y", "b=2"]) == {"a": "x y", "b": "2"}


def test_lf_reruns_only_the_failures_of_this_agent_and_labels(tasks: pytest.Pytester) -> None:
    tasks.runpytest(CLOSER, "--agenteval-label=model=a").assert_outcomes(passed=1, failed=1)
    # Another label: its run has no failures yet, so --lf runs everything (EX-3 failed for model=a only).
    other = tasks.runpytest("--agent=reference", "--agenteval-label=model=b", "--lf")
    other.assert_outcomes(passed=2)
    # Back to model=a: its failure is still remembered, though model=b passed EX-3 since.
    again = tasks.runpytest(CLOSER, "--agenteval-label=model=a", "--lf", "-v")
    again.assert_outcomes(failed=1)  # EX-1 is not collected: what --lf does
    again.stdout.fnmatch_lines(["*test_task[[]EX-3[]] FAILED*"])
    # Another agent, same labels: not its failure either.
    tasks.runpytest("--agent=reference", "--agenteval-label=model=a", "--lf").assert_outcomes(passed=2)


def test_report_refuses_to_merge_differently_labelled_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", [grade("T1", True)], run={"agent": "m:A", "labels": {"model": "a"}})
    b = write(tmp_path / "b.jsonl", [grade("T2", True)], run={"agent": "m:A", "labels": {"model": "b"}})
    assert main(["report", a, b]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"agenteval report: these results are from differently labelled runs ({a}: labels model=a; "
                   f"{b}: labels model=b; they differ in labels (model=a vs model=b)); compare them with "
                   "`agenteval compare BASE NEW` instead, or pass --allow-mixed to merge them anyway"]
    assert main(["report", a, b, "--allow-mixed"]) == 0
    same = write(tmp_path / "c.jsonl", [grade("T3", True)], run={"agent": "m:A", "labels": {"model": "a"}})
    assert main(["report", a, same]) == 0
    assert "agent m:A; labels model=a" in capsys.readouterr().out


def test_compare_names_both_runs_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = write(tmp_path / "base.jsonl", [grade("T1", True)],
                 run={"agent": "m:A", "labels": {"model": "a"}, "git": {"commit": "0123456789abcdef", "dirty": True}})
    new = write(tmp_path / "new.jsonl", [grade("T1", True)], run={"agent": "m:A", "labels": {"model": "b"}})
    assert main(["compare", base, new]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("note: ")]
    assert out[1:3] == ["base run: agent m:A; labels model=a; git 0123456789ab (dirty)",
                        "new run: agent m:A; labels model=b"]
