"""Statistics, ``agenteval report`` (merging results files) and ``agenteval compare``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.compare import compare, sign_test
from pytest_agenteval.report.merge import MergeError, read_and_merge
from pytest_agenteval.report.metrics import render_table, summarize, task_interval


def grade(task_id: str, passed: bool, run: int = 1, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "task_id": task_id, "run": run, "environment": "example", "scenario_seed": 1, "passed": passed,
        "score": 1.0 if passed else 0.5, "components": {}, "split": "train", "failure_mode_tags": ["wrong_ticket"],
        "checks": [{"name": "frame", "passed": passed, "detail": "ok" if passed else "T-0009 changed",
                    "failure_mode": "collateral_change", "component": "frame"}],
        "failure_modes": [] if passed else ["collateral_change"], "forbidden_actions_taken": [], "steps_used": 1,
        "final_state_diff": {}, "audit_digest": f"{task_id}-{run}-{passed}", "actions": [],
        "nodeid": f"tasks/x.jsonl::test_task[{task_id}]", "duration": 0.01,
    }
    return {**base, **changes}


def write(path: Path, grades: list[dict[str, Any]], run: dict[str, Any] | None = None) -> str:
    lines = ([json.dumps({"run_record": run})] if run else []) + [json.dumps(g) for g in grades]
    path.write_text("\n".join([*lines, json.dumps({"summary": {}})]) + "\n")
    return str(path)


# -- the interval -----------------------------------------------------------------------------

def test_interval_matches_a_hand_computed_case() -> None:
    # Three tasks run twice: rates 1, 1/2, 0. Mean 1/2; clustered variance
    # ((1/2)^2 + 0 + (1/2)^2) / (3 * 2) = 1/12; n_eff = (1/2 * 1/2) / (1/12) = 3.
    # Wilson at p = 1/2, n = 3, z = 1.959964: centre 0.5 + z^2/6 = 1.140245, denominator
    # 1 + z^2/3 = 2.280490, spread z * sqrt(1/12 + z^2/36) = 0.854435 -> [0.1253, 0.8747].
    low, high = task_interval([1.0, 0.5, 0.0], episodes=6)
    assert low == pytest.approx(0.1253, abs=1e-4) and high == pytest.approx(0.8747, abs=1e-4)


def test_repeating_a_deterministic_agent_does_not_narrow_the_interval() -> None:
    once = [grade(f"T{i}", i % 3 != 0) for i in range(30)]
    thrice = [grade(g["task_id"], g["passed"], run=r) for g in once for r in (1, 2, 3)]
    (row1,), (row3,) = summarize(once, 1)[:1], summarize(thrice, 3)[:1]
    assert row3.episodes == 90 and row1.episodes == 30
    assert (row3.ci_low, row3.ci_high) == pytest.approx((row1.ci_low, row1.ci_high))
    assert row3.pass_at_1 == pytest.approx(row1.pass_at_1)


def test_all_passed_gives_the_interval_of_the_number_of_tasks() -> None:
    low, high = task_interval([1.0] * 10, episodes=50)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=1e-4)  # Wilson 10/10


def test_table_headings_are_distinct_at_k1_and_k3() -> None:
    grades = [grade("T1", True), grade("T2", False)]
    header = render_table(summarize(grades, 1), 1)[0].split()
    assert len(header) == len(set(header)) and "pass^1" not in header
    header3 = render_table(summarize(grades, 3), 3)[0].split()
    assert {"pass@1", "pass^3", "pass@3"} <= set(header3) and len(header3) == len(set(header3))


# -- merge ------------------------------------------------------------------------------------

def test_disjoint_shards_merge_into_one_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", [grade("T1", True), grade("T2", False)])
    b = write(tmp_path / "b.jsonl", [grade("T3", True)])
    assert main(["report", a, b, "--out", str(tmp_path / "m.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "agenteval: 3 episodes, K=1" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("all "))
    assert row[1:4] == ["3", "3", "0.67"]
    merged = [json.loads(x) for x in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in merged[:-1]] == ["T1", "T2", "T3"] and merged[-1]["summary"]["episodes"] == 3


def test_overlapping_shards_keep_a_shared_episode_once(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [grade("T1", True), grade("T2", False)])
    b = write(tmp_path / "b.jsonl", [grade("T2", False, nodeid="elsewhere", duration=9.0), grade("T3", True)])
    merged = read_and_merge([a, b])
    assert [(g["task_id"], g["run"]) for g in merged.grades] == [("T1", 1), ("T2", 1), ("T3", 1)]
    assert merged.duplicates == 1 and "kept once" in merged.notes[0]


def test_shards_that_disagree_keep_both_episodes_unless_told(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [grade("T1", False), grade("T2", True)])
    b = write(tmp_path / "b.jsonl", [grade("T1", True)])  # a rerun of the failed task
    merged = read_and_merge([a, b])
    assert sorted((g["task_id"], g["run"], g["passed"]) for g in merged.grades) == [
        ("T1", 1, False), ("T1", 2, True), ("T2", 1, True)]
    assert merged.notes == [f"T1 run 1: {a} (failed) and {b} (passed) differ in audit_digest, checks, failure_modes, "
                            "passed, score; both kept as episodes (--prefer-last keeps only the later file's)"]
    assert summarize(merged.grades, merged.k)[0].pass_at_1 == pytest.approx((0.5 + 1) / 2)  # per-task mean
    last = read_and_merge([a, b], prefer_last=True)
    assert sorted((g["task_id"], g["passed"]) for g in last.grades) == [("T1", True), ("T2", True)]
    assert last.notes == [f"T1 run 1: {b} replaces {a} (--prefer-last)"]


def test_different_task_versions_are_refused_unless_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", [grade("T1", True)])
    b = write(tmp_path / "b.jsonl", [grade("T1", True, run=2, scenario_seed=7)])
    assert main(["report", a, b]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"agenteval report: task T1 differs between {a} and {b} ") and "--allow-mixed" in err
    assert main(["report", a, b, "--allow-mixed"]) == 0


def test_run_records_of_different_agents_or_task_files_are_refused(tmp_path: Path) -> None:
    files = [{"path": "tasks/x.jsonl", "sha256": "aa" * 32}]
    a = write(tmp_path / "a.jsonl", [grade("T1", True)], run={"agent": "mymod:A", "task_files": files})
    b = write(tmp_path / "b.jsonl", [grade("T2", True)], run={"agent": "mymod:B", "task_files": files})
    with pytest.raises(MergeError, match=r"different agents \(.*a.jsonl ran mymod:A, .*b.jsonl ran mymod:B\)"):
        read_and_merge([a, b])
    c = write(tmp_path / "c.jsonl", [grade("T2", True)],
              run={"agent": "mymod:A", "task_files": [{"path": "tasks/x.jsonl", "sha256": "bb" * 32}]})
    with pytest.raises(MergeError, match=r"tasks/x.jsonl differs between .*a.jsonl \(sha256 aaaa.*different task"):
        read_and_merge([a, c])
    assert len(read_and_merge([a, b], allow_mixed=True).grades) == 2


def test_a_file_that_is_not_a_results_file_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "T1", "passed": true, "run": 1, "checks": []}\nnot json\n{"x": 1}\n')
    assert main(["report", str(bad)]) == 2
    assert capsys.readouterr().err.strip() == (f"agenteval report: {bad}:2: not valid JSON: Expecting value "
                                               "(is this a results file written by --agenteval-results?)")


def test_a_task_file_given_as_results_gets_one_line_and_no_signing_note(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('# tasks\n{"task_id": "T1", "instruction": "x"}\n')
    assert main(["compare", str(tasks), str(tasks)]) == 2
    out = capsys.readouterr()
    assert "unsigned" not in out.out + out.err  # before: a note on signing, then the error
    assert out.err.strip().startswith(f"agenteval compare: {tasks}:1: not valid JSON")


def test_an_interrupted_files_cut_last_line_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text(json.dumps(grade("T1", True)) + "\n" + json.dumps(grade("T2", True))[:40])
    assert [g["task_id"] for g in read_and_merge([path]).grades] == ["T1"]


# -- compare ----------------------------------------------------------------------------------

def test_sign_test_is_exact() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(1, 6) == pytest.approx(2 * (1 + 7) / 128)


def test_compare_pairs_tasks_and_flags_a_significant_regression(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    tasks = [f"T{i:02}" for i in range(20)]
    base = [grade(t, True, failure_mode_tags=["a" if i % 2 else "b"]) for i, t in enumerate(tasks)]
    # NEW fails the first 8 tasks and passes a task BASE failed.
    new = [grade(t, i >= 8, failure_mode_tags=["a" if i % 2 else "b"]) for i, t in enumerate(tasks)]
    base[19] = grade("T19", False, failure_mode_tags=["a"])
    b, n = write(tmp_path / "base.jsonl", base), write(tmp_path / "new.jsonl", new)
    result = compare(base, new)
    assert (result.overall.worse, result.overall.better) == (8, 1)
    assert result.overall.delta == pytest.approx(-7 / 20)
    assert result.overall.p_value == pytest.approx((1 + 9) / 512)  # one-sided: P(>= 8 of 9 worse)
    assert [c.task_id for c in result.regressed] == tasks[:8] and [c.task_id for c in result.improved] == ["T19"]
    assert main(["compare", b, n]) == 1
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines() if line.startswith("all "))
    assert row[1:5] == ["20", "0.95", "0.60", "-0.35"]
    assert "tag a " in out and "tag b " in out
    assert "verdict: significant regression (-0.35; exact one-sided sign test over tasks, p(worse) = 0.0195" in out
    assert main(["compare", n, b]) == 0  # the other way round it is an improvement


def test_compare_uses_every_run_of_a_task_and_lists_tasks_in_one_run_only(tmp_path: Path) -> None:
    base = [grade("T1", True, run=1), grade("T1", False, run=2), grade("T2", True), grade("T9", True)]
    new = [grade("T1", True, run=1), grade("T1", True, run=2), grade("T2", True), grade("T5", False)]
    result = compare(base, new)
    assert result.overall.tasks == 2 and result.overall.delta == pytest.approx(0.25)
    assert result.only_base == ["T9"] and result.only_new == ["T5"]
    assert not result.significant_regression


def test_compare_refuses_different_task_versions_unless_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = lambda digest: [{"path": "tasks/x.jsonl", "sha256": digest * 32}]  # noqa: E731
    base = write(tmp_path / "base.jsonl", [grade("T1", True)], run={"agent": "a:A", "task_files": files("aa")})
    new = write(tmp_path / "new.jsonl", [grade("T1", False)], run={"agent": "b:B", "task_files": files("bb")})
    assert main(["compare", base, new]) == 2
    assert "tasks/x.jsonl differs between" in capsys.readouterr().err
    assert main(["compare", base, new, "--allow-mixed"]) == 0  # one task: not significant


def test_compare_interval_is_a_paired_t_interval() -> None:
    # Four tasks: differences -1, 0, 0, 0. Mean -0.25; standard error sqrt(0.75 / (4 * 3)) = 0.25;
    # t(3) = 3.182: [-0.25 - 0.7955, -0.25 + 0.7955], bounded below by -1.
    base = [grade(f"T{i}", True) for i in range(4)]
    new = [grade("T0", False), *(grade(f"T{i}", True) for i in range(1, 4))]
    overall = compare(base, new).overall
    assert overall.ci_low == -1.0 and overall.ci_high == pytest.approx(0.5455, abs=1e-4)
    assert overall.p_value == 0.5  # one task worse of one changed: a coin flip, one-sided


# -- compare as a CI gate: small losses, missing tasks, errored episodes ------------------------

def forty(failing: int = 0) -> list[dict[str, Any]]:
    """40 tasks, the first ``failing`` of them failed."""
    return [grade(f"T{i:02}", i >= failing) for i in range(40)]


def test_a_loss_of_five_of_forty_passing_tasks_is_a_significant_regression(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    base, new = write(tmp_path / "base.jsonl", forty()), write(tmp_path / "new.jsonl", forty(failing=5))
    assert compare(forty(), forty(failing=5)).overall.p_value == pytest.approx(1 / 32)
    assert sign_test(5, 0) > 0.05  # the two-sided test used before could not flag it
    assert main(["compare", base, new]) == 1
    assert "verdict: significant regression (-0.12; exact one-sided sign test over tasks, p(worse) = 0.0312, " \
           "alpha = 0.05)" in capsys.readouterr().out


@pytest.mark.parametrize(("lost", "alpha"), [(3, "0.15"), (4, "0.1")])
def test_three_or_four_lost_are_flagged_at_the_alpha_the_docs_give(tmp_path: Path, lost: int, alpha: str) -> None:
    base, new = write(tmp_path / "base.jsonl", forty()), write(tmp_path / "new.jsonl", forty(failing=lost))
    assert main(["compare", base, new]) == 0  # 1/8 and 1/16: not at 0.05 (docs/ci.md)
    assert main(["compare", base, new, "--alpha", alpha]) == 1


def test_an_improvement_is_not_a_regression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, new = write(tmp_path / "base.jsonl", forty(failing=6)), write(tmp_path / "new.jsonl", forty())
    assert main(["compare", base, new]) == 0
    assert "verdict: significant improvement (+0.15; exact one-sided sign test over tasks, p(better) = 0.0156" \
        in capsys.readouterr().out


def test_a_candidate_missing_tasks_of_the_baseline_fails_unless_allowed(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    base = write(tmp_path / "base.jsonl", forty())
    new = write(tmp_path / "new.jsonl", forty()[:4])  # a Ctrl-C'd run: 4 of 40
    assert main(["compare", base, new]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"agenteval compare: {new} lacks 36 of the 40 tasks of {base} (T04, T05, T06, T07, T08, T09, "
                   "T10, T11, T12, T13, … and 26 more) or has only errored episodes of them: not evidence of no "
                   "regression (run them, or pass --allow-missing to compare the tasks in both)"]
    assert main(["compare", base, new, "--allow-missing"]) == 0
    assert "only in base (not compared, 36)" in capsys.readouterr().out


def test_errored_episodes_are_not_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    error = {"kind": "endpoint", "message": "connection refused"}
    new_grades = [grade(f"T{i:02}", False, error=error) if i < 5 else grade(f"T{i:02}", True) for i in range(40)]
    result = compare(forty(), new_grades)
    assert result.overall.tasks == 35 and result.overall.worse == 0  # an outage is not a regression
    base, new = write(tmp_path / "base.jsonl", forty()), write(tmp_path / "new.jsonl", new_grades)
    assert main(["compare", base, new]) == 2  # ... but those five tasks were not measured
    assert "lacks 5 of the 40 tasks" in capsys.readouterr().err
