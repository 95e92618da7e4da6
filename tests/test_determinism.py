"""Same tasks and agent => identical per-episode grades, whatever the workers, the order, the run, or how
many episodes are in flight at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_agenteval.report.results import read_results
from tests.helpers.tasks import episode_grades

ROOT = Path(__file__).parent.parent
REVERSE = "def pytest_collection_modifyitems(items):\n    items.reverse()\n"


def test_grades_do_not_depend_on_workers_order_or_run(pytester: pytest.Pytester) -> None:
    (pytester.path / "tasks").mkdir()
    for name in ("booking.jsonl", "escalation.jsonl"):
        shutil.copy(ROOT / "tasks" / name, pytester.path / "tasks" / name)
    shutil.copy(ROOT / "examples" / "rule_agent.py", pytester.path / "rule_agent.py")
    common = ["--agent=rule_agent:Agent", "--runs", "2", "-p", "no:cacheprovider", "-q"]
    runs = {
        "serial": [],
        "serial again": [],
        "-n 2": ["-n", "2"],
        "-n 4": ["-n", "4"],
        "8 in flight": ["--agenteval-concurrency", "8"],
        "-n 2, 4 in flight each": ["-n", "2", "--agenteval-concurrency", "4"],
        # a window wider than each worker's share; and xdist's own scheduler with ours refilling
        "-n 2, 64 in flight each": ["-n", "2", "--agenteval-concurrency", "64"],
        "-n 2, 4 in flight each, xdist scheduler": ["-n", "2", "--agenteval-concurrency", "4",
                                                      "--agenteval-schedule", "xdist"],
    }
    results, summaries = {}, {}
    for label, extra in runs.items():
        out = pytester.path / f"{label.replace(' ', '_').replace(',', '')}.jsonl"
        pytester.runpytest_subprocess(*common, *extra, f"--agenteval-results={out}")
        results[label] = episode_grades(out)
        summaries[label] = (read_results(out)[1] or {}).get("groups")
    pytester.makeconftest(REVERSE)
    out = pytester.path / "reversed.jsonl"
    pytester.runpytest_subprocess(*common, f"--agenteval-results={out}")
    results["reversed"] = episode_grades(out)
    baseline = results["serial"]
    episodes = 2 * sum(line.startswith("{") for name in ("booking.jsonl", "escalation.jsonl")
                       for line in (ROOT / "tasks" / name).read_text().splitlines())  # --runs 2
    assert len(baseline) == episodes and 0 < sum(g["passed"] for g in baseline) < episodes
    for label, got in results.items():
        assert got == baseline, label
    # the closing summary too, to the last digit (before: under xdist its intervals differed there)
    assert summaries["serial"]
    for label, groups in summaries.items():
        assert groups == summaries["serial"], label
