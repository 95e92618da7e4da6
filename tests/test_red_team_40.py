"""Red team 40: the sniff that hid earlier runs' results by what they hold could not be complete (a
log saved as UTF-16, a notebook, a PDF, an e-mail's attachment, a results file cut in parts, a
tox log, a results file a second run wrote during this one: full marks from each; forty tiny bzip2
bombs held the run 74 s; an honest agent's notes with "[100%] in" were hidden). The sandbox now
shows a copy of the project's code and of what ``agenteval_show`` lists, taken as the run starts.
And an agent holding memory through mmap died unlabelled (ENOMEM is an OSError)."""

from __future__ import annotations

import base64
import bz2
import json
import os
from pathlib import Path

import pytest

from pytest_agenteval.plugin import view
from tests.helpers.sandboxing import BWRAP, needs_bwrap
from tests.helpers.tasks import result_lines, task_line

STRONGEST = "--agenteval-isolate" if BWRAP else "--agenteval-isolate=process"
RESULTS = '{"run_record": {"agent": "x"}}\n{"task_id": "EX-1", "checks": [{"detail": "acceptable: close_ticket"}]}\n'


def _forms(folder: Path) -> None:
    (folder / "run.log").write_bytes(("===== test session starts =====\n" + RESULTS).encode("utf-16"))
    (folder / "analysis.ipynb").write_text(json.dumps({"cells": [{"outputs": [{"text": [RESULTS]}]}]}))
    (folder / "ci-report.pdf").write_bytes(b"%PDF-1.4\n" + bz2.compress(RESULTS.encode()))
    (folder / "nightly.eml").write_text("Content-Transfer-Encoding: base64\n\n" + base64.b64encode(
        RESULTS.encode()).decode())
    (folder / "artifacts").mkdir()
    for k in range(0, len(RESULTS), 40):
        (folder / "artifacts" / f"part.{k:03d}").write_text(RESULTS[k:k + 40])
    (folder / ".tox" / "py311" / "log").mkdir(parents=True)
    (folder / ".tox" / "py311" / "log" / "1-commands.log").write_text(RESULTS)
    for k in range(40):  # each a few hundred bytes that decompress far: never opened now
        (folder / f"cache-{k}.bz2").write_bytes(bz2.compress(b"\0" * (1 << 20)))


def test_whatever_form_an_earlier_runs_results_take_only_code_is_in_view(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    _forms(tmp_path)
    assert view.in_view(tmp_path) == ["agent.py"]


def test_a_file_written_into_the_project_after_the_view_is_taken_is_not_in_it(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, ["*.jsonl"], [])
    (tmp_path / "second-run.jsonl").write_text(RESULTS)  # another run, started in the same folder
    (tmp_path / "later.py").write_text(f"RESULTS = {RESULTS!r}\n")
    assert sorted(os.listdir(copy)) == ["agent.py"]


def test_the_run_left_out_of_the_view_even_when_listed_or_code(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "make_tasks.py").write_text("")
    (tmp_path / "t.jsonl").write_text(task_line() + "\n")
    assert view.in_view(tmp_path, shown=["*.jsonl"], left_out=[tmp_path / "t.jsonl", tmp_path / "scripts"]) == [
        "agent.py"]


READS_NOTES = '''
import os

class Agent:
    def run(self, episode):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "kb", "handbook.md")) as f:
            f.read()
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@needs_bwrap
def test_an_agents_own_notes_are_read_when_listed_and_the_error_says_how(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(notes=READS_NOTES)
    (pytester.path / "kb").mkdir()
    (pytester.path / "kb" / "handbook.md").write_text("A settled claim shows its payment at [100%] in the ledger.\n")
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    args = ["--agent=notes:Agent", "--agenteval-isolate", "--agenteval-timeout=60", "-p", "no:cacheprovider", "t.jsonl"]
    result = pytester.runpytest(*args)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*isolated agents see the project's code only: agenteval_show = kb/handbook.md in "
                                 "the ini shows them this file*"])
    pytester.makeini("[pytest]\nagenteval_show = kb/*.md\n")
    pytester.runpytest(*args).assert_outcomes(passed=1)


HOLDS_MAPS = '''
import mmap

class Agent:
    def run(self, episode):
        held = []
        while True:
            held.append(mmap.mmap(-1, 16 << 20))
'''


def test_memory_held_through_mmap_is_told_as_the_memory_limit(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(maps=HOLDS_MAPS)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=maps:Agent", STRONGEST, "--agenteval-limits=memory=512M",
                                "--agenteval-results=r.jsonl", "--agenteval-timeout=60", "-p", "no:cacheprovider",
                                "t.jsonl")
    result.assert_outcomes(failed=1)
    check = next(c for c in result_lines(pytester.path / "r.jsonl")[0]["checks"] if c["name"] == "agent_completed")
    assert check["failure_mode"] == "agent_resource_limit" and "memory limit" in check["detail"]
