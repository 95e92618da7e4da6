"""Resuming a results file (``--agenteval-resume``): what it already holds, and whether it may be continued.

An episode is ``(task_id, run)``. The file's latest counted line for an episode decides: an
episode graded there is done; one missing or errored (a non-null ``error``) is run again. New
lines are appended after the last complete line (a line cut short by a kill is dropped), so the
file stays one results file: its first line is still the run record, the latest line of each
episode is the one that counts, and a new summary line closes it. A signed file is continued
with the same key, its chain of signatures unbroken, as a new run (its id in the header): the
``resumed`` line names the run it continues, so the file cut back to an earlier summary is that
earlier run, not the one the header named (red team 67).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.report.compressed import load_line, results_bytes
from pytest_agenteval.report.labels import describe, differences
from pytest_agenteval.report.merge import task_files_of
from pytest_agenteval.report.metrics import is_errored
from pytest_agenteval.report.results import grade_problem
from pytest_agenteval.report.signing import SIGNATURE, SIGNING

OPTION = "--agenteval-resume"


class ResumeError(AgentEvalError):
    """A results file this run may not continue: one line naming it, what differs, and the fix."""

    def __init__(self, path: str, problem: str, fix: str = "start a new results file instead") -> None:
        super().__init__(f"{OPTION}={path}: {problem} ({fix})")


@dataclass(kw_only=True)
class Resumed:
    path: str
    run_record: dict[str, Any]
    kept: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)  # graded episodes: not rerun
    errored: int = 0  # episodes whose latest line is errored: run again
    end: int = 0  # bytes of whole lines: new lines are appended here
    lines: int = 0  # whole lines (the signature chain's next line is lines + 1)
    grade_lines: int = 0
    last_mac: str = ""  # the last whole line's signature (the chain's ``prev``)
    last_run: str = ""  # the run the last whole line is signed as (a resume signs as a new run after it)
    cut_short: bool = True  # its last whole line is not the closing one: killed, or cut by hand

    @property
    def signing(self) -> dict[str, Any] | None:
        block = self.run_record.get(SIGNING)
        return block if isinstance(block, dict) else None


def read_resumable(path: str | os.PathLike[str]) -> Resumed:
    shown = os.fspath(path)
    try:
        data = results_bytes(path)
    except OSError as exc:
        raise ResumeError(shown, f"cannot read it: {exc.strerror or exc}",
                          "name the results file of the run to continue") from None
    out: Resumed | None = None
    latest: dict[tuple[str, int], dict[str, Any]] = {}
    offset = 0
    for raw in data.split(b"\n")[:-1]:  # the part after the last "\n" is cut short (or empty)
        offset += len(raw) + 1
        if not raw.strip():
            continue
        try:
            record = load_line(raw)
        except ValueError:
            raise ResumeError(shown, f"line {_count(data, offset)} is not valid JSON",
                              "resume only a file written by --agenteval-results") from None
        if out is None:
            if not isinstance(record, dict) or not isinstance(record.get("run_record"), dict):
                raise ResumeError(shown, "does not start with a run record",
                                  "resume only a file written by --agenteval-results")
            out = Resumed(path=shown, run_record=record["run_record"])
        if isinstance(record, dict) and "task_id" in record and (problem := grade_problem(record)) is not None:
            raise ResumeError(shown, f"line {_count(data, offset)} is not a grade: {problem}",
                              "resume only a file written by --agenteval-results")
        if isinstance(record, dict) and "task_id" in record:
            out.grade_lines += 1  # as the summary's signature counts them
        if isinstance(record, dict) and "task_id" in record and "run" in record and record.get("counted", True):
            latest[(str(record["task_id"]), int(record["run"]))] = record
        out.lines += 1
        out.end = offset
        out.cut_short = not (isinstance(record, dict) and "summary" in record)
        signature = record.get(SIGNATURE) if isinstance(record, dict) else None
        if isinstance(signature, dict):
            out.last_mac, out.last_run = str(signature.get("hmac", "")), str(signature.get("run", ""))
    if out is None:
        raise ResumeError(shown, "holds no whole line", "resume only a file written by --agenteval-results")
    out.kept = {key: grade for key, grade in latest.items() if not is_errored(grade)}
    out.errored = len(latest) - len(out.kept)
    return out


def _count(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n")


def refuse_other_run(resumed: Resumed, current: Mapping[str, Any]) -> None:
    """``ResumeError`` if ``current`` (this run's record) is not the run the file holds."""
    mine, theirs = task_files_of(current), task_files_of(resumed.run_record)
    if mine != theirs:
        differ = sorted(p for p in set(mine) | set(theirs) if mine.get(p) != theirs.get(p))
        raise ResumeError(resumed.path, f"ran other task files than this run (differing: {', '.join(differ)})",
                          "resume with the task files it ran, unchanged, or start a new results file")
    differ = differences(resumed.run_record, current)
    if differ:
        was = f"agent {resumed.run_record.get('agent')}" + (f"; {describe(resumed.run_record)}"
                                                               if describe(resumed.run_record) else "")
        raise ResumeError(resumed.path, f"is a run of another agent or labels ({was}; they differ in "
                                        f"{', '.join(differ)})",
                          "resume with the same --agent and --agenteval-label, or start a new results file")
    # (a second try with more reruns would read as the same run: red team 67)
    for option, flag in (("runs", "--runs"), ("reruns", "--reruns")):
        ran = (resumed.run_record.get("options") or {}).get(option)
        if ran != (current.get("options") or {}).get(option):
            raise ResumeError(resumed.path, f"ran {flag} {ran}", f"resume with {flag} {ran}")
    # The kept grades are what the agent did under the file's isolation: an in-process agent is
    # trusted code (it may read the task files), so its passes are no isolated run's.
    isolated = (resumed.run_record.get("options") or {}).get("isolate")
    now = (current.get("options") or {}).get("isolate")
    if isolated != now:
        raise ResumeError(resumed.path, f"ran with isolation {isolated or 'none (in process)'}, this run has "
                                        f"{now or 'none (in process)'}",
                          "resume with the isolation it ran with, or start a new results file")
