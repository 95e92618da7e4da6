"""Reporting on the controller: grades from every worker, the reliability table, outputs."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.plugin.collect import is_task_file
from pytest_agenteval.plugin.compat import junit_xml
from pytest_agenteval.plugin.judging import skipped_line
from pytest_agenteval.plugin.record import run_record
from pytest_agenteval.plugin.resume import continue_file, kept_grades
from pytest_agenteval.plugin.state import State
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY, replay_passed
from pytest_agenteval.report.gate import Gate, GateConfigError, Verdict, judge, read_gate
from pytest_agenteval.report.labels import describe
from pytest_agenteval.report.metrics import summary_json, summary_lines, summary_title
from pytest_agenteval.report.results import ResultsWriter
from pytest_agenteval.report.signing import KEY_ENV, Signer, SigningKeyError, load_key

SIGNER = pytest.StashKey[Signer]()


def _signer(config: pytest.Config) -> Signer | None:
    """From ``--agenteval-signing-key`` or ``AGENTEVAL_SIGNING_KEY``; the variable is then taken out
    of this process's environment, so that workers and agent processes never inherit it."""
    path = config.getoption("agenteval_signing_key")
    if path is not None and Path(path).resolve().is_relative_to(config.rootpath.resolve()):
        raise pytest.UsageError(f"--agenteval-signing-key={path}: inside the project folder ({config.rootpath}), "
                                "where agents and task files live (keep the key outside it, readable only by you)")
    try:
        key = load_key(path, option="--agenteval-signing-key")
    except SigningKeyError as exc:
        raise pytest.UsageError(str(exc)) from None
    os.environ.pop(KEY_ENV, None)
    return None if key is None else Signer(key)


def signed_line(config: pytest.Config) -> str:
    """The header's line on signing ("" when the results are not signed)."""
    signer = config.stash.get(SIGNER, None)
    if signer is None:
        return ""
    block = signer.block()
    return f"agenteval results: signed ({block['algorithm']}, key id {block['key_id']}, run {block['run_id']})"


def _open_results(path: str, config: pytest.Config, state: State, signer: Signer | None) -> ResultsWriter:
    if is_task_file(Path(path), config, state.explicit):
        raise pytest.UsageError(f"--agenteval-results={path}: that is a task file's path (it matches "
                                "agenteval_task_files); the results would overwrite it or be read as tasks next "
                                "run (write them elsewhere, e.g. results.jsonl)")
    if Path(path).is_dir():
        raise pytest.UsageError(f"--agenteval-results={path}: is a folder (name a file to write)")
    blocking = next((p for p in Path(path).parents if p.is_file()), None)
    if blocking is not None:
        raise pytest.UsageError(f"--agenteval-results={path}: cannot write it: {blocking} is a file, not a folder "
                                "(name a file you can write)")
    try:
        return ResultsWriter(path, signer=signer)
    except OSError as exc:
        raise pytest.UsageError(f"--agenteval-results={path}: cannot write it: {exc.strerror} "
                                "(name a file you can write)") from None


class Reporter:
    """Registered only where reports arrive: the xdist controller, or a serial run.

    One counted episode per task and run: when a rerun plugin runs an item again
    (pytest-rerunfailures marks the superseded attempt's report ``"rerun"``), only the final
    attempt counts. A superseded attempt is still written to the results file, marked
    ``"counted": false``, and its grade is taken off its reports so JUnit and the JSON report
    carry one grade per item.
    """

    def __init__(self, config: pytest.Config, state: State) -> None:
        self.config = config
        self.k = state.runs
        self.by_nodeid: dict[str, dict[str, Any]] = {}  # the counted grade of each item
        self.superseded: set[str] = set()  # items whose last call report was a superseded attempt
        # Task items that failed before their episode was graded (a setup error, a timeout in
        # setup): no episode to count, but the table must not look complete without them.
        self.ungraded: dict[str, str] = {}
        self.other_failures = 0  # failed reports that are not a graded episode (a plain test, a teardown)
        self.gate = _gate(config)
        self.kept_failed = 0  # --agenteval-resume: failed episodes kept from the file
        self.resumed = state.resumed is not None
        self.verdict: Verdict | None = None
        path = config.getoption("agenteval_results")
        signer = _signer(config)
        self.run_record = run_record(config, state)  # in every output: results, JUnit, JSON report
        if state.resumed is not None:  # --agenteval-resume: the file's episodes count, new ones are appended
            self.writer: ResultsWriter | None = continue_file(state.resumed, self.run_record, signer)
            self.run_record = state.resumed.run_record
            self.by_nodeid.update(kept_grades(state.resumed))
            # Episodes kept from the file that failed fail this run too, as they did the run that was cut.
            self.kept_failed = sum(not g.get("passed") for g in state.resumed.kept.values())
            if signer is not None:
                config.stash[SIGNER] = signer
            return
        self.writer = _open_results(path, config, state, signer) if path else None
        if signer is not None and self.writer is not None:
            config.stash[SIGNER] = signer
            self.run_record["signing"] = signer.block()
        if self.writer is not None:
            self.writer.start(self.run_record)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        xml = junit_xml(self.config)  # set up by --junitxml's own configure
        if xml is not None:
            xml.add_global_property("agenteval_run", json.dumps(self.run_record, sort_keys=True))

    @pytest.hookimpl(tryfirst=True)  # passed checks are replayed before the test's own report
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if isinstance(report, pytest.SubtestReport):
            return
        replay_passed(self.config, report)
        if report.when == "teardown" and report.nodeid in self.superseded:
            self.superseded.discard(report.nodeid)
            _drop_grade(report)  # JUnit reads the properties off the teardown report
        values = [value for name, value in report.user_properties if name == GRADE_PROPERTY]
        if report.failed and not values and report.when != "teardown" and _is_task_item(report.nodeid):
            self.ungraded[report.nodeid] = report.when
        elif report.failed and not (values and report.when == "call"):
            self.other_failures += 1
        if report.when != "call" or not values:
            return
        self.ungraded.pop(report.nodeid, None)
        grade = json.loads(str(values[-1]))
        record = {**grade, "nodeid": report.nodeid, "duration": round(report.duration, 6)}
        attempt = getattr(report, "rerun", 0) + 1  # set by pytest-rerunfailures, from 0
        rerun = str(report.outcome) == "rerun"  # an outcome pytest-rerunfailures adds
        if attempt > 1 or rerun:
            record["attempt"] = attempt
        if rerun:
            record["counted"] = False
            self.superseded.add(report.nodeid)
            _drop_grade(report)
        else:
            self.by_nodeid[report.nodeid] = grade
        if self.writer is not None:
            self.writer.write(record)

    @property
    def grades(self) -> list[dict[str, Any]]:
        return list(self.by_nodeid.values())

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        tr = terminalreporter
        if self.writer is not None and self.writer.failure:
            tr.write_line(f"agenteval: {self.writer.failure}", red=True)
        if not self.grades and not self.ungraded:
            return
        tr.write_sep("=", summary_title(self.grades, self.k))
        named = describe(self.run_record)
        if named:
            tr.write_line(f"agent {self.run_record['agent']}; {named}")
        if self.grades:
            for line in summary_lines(self.grades, self.k):  # the same lines as `agenteval report`
                tr.write_line(line)
            skipped = skipped_line(self.grades)
            if skipped:
                tr.write_line(skipped)
        if self.ungraded:
            items = ", ".join(f"{nodeid} ({when})" for nodeid, when in sorted(self.ungraded.items()))
            tr.write_line(f"not graded, not in the table (the test failed before its episode was graded): {items}")
        if self.kept_failed:
            tr.write_line(f"agenteval resume: {self.kept_failed} failed episode(s) kept from the results file "
                          "(in the table; the run fails as the interrupted one would have)")
        if self.verdict is not None:
            for line in self.verdict.lines:
                tr.write_line(line, red="FAILED" in line, green="passed" in line)

    # First: under xdist a second Ctrl-C during the workers' teardown (xdist's own sessionfinish
    # waits for them) ended the run before the summary line was written.
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.resumed and session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and self.grades:
            session.exitstatus = pytest.ExitCode.OK  # the file held every episode: nothing left to run
        if self.kept_failed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if self.gate.active and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            self._apply_gate(session)
        if self.writer is not None:
            self.writer.close(summary_json(self.grades, self.k))
            if self.writer.failure and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED  # the evidence promised was not written

    def _apply_gate(self, session: pytest.Session) -> None:
        """The gate decides the exit code when only graded episodes failed; a failure it does not
        cover (a plain test, an item that errored before its episode was graded) still fails the run."""
        self.verdict = judge(self.grades, self.k, self.gate)
        if not self.verdict.passed:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        elif self.other_failures or self.ungraded:
            self.verdict.lines.append("agenteval gate: the run still fails: some tests failed that are not graded "
                                      "episodes (see above)")
        else:
            session.exitstatus = pytest.ExitCode.OK

    @pytest.hookimpl(optionalhook=True)
    def pytest_json_modifyreport(self, json_report: dict[str, Any]) -> None:
        """Repair pytest-json-report 1.5 under subtests; attach each test's grade and the run record."""
        json_report["agenteval_run"] = self.run_record
        tests = json_report.get("tests", [])
        for test in tests:
            if test.get("outcome") == "rerun":  # kept from a superseded attempt: the final one decides
                test["outcome"] = test.get("call", {}).get("outcome", "rerun")
            if test.get("outcome") == "subtests passed":
                test["outcome"] = "passed"
            grade = self.by_nodeid.get(test.get("nodeid", ""))
            if grade is not None:
                test["agenteval"] = grade
                # Stored once: the same grade as a JSON string among the user properties was half the file.
                test["user_properties"] = [p for p in test.get("user_properties", []) if GRADE_PROPERTY not in p]
                if not test["user_properties"]:
                    del test["user_properties"]
        summary = json_report.get("summary", {})
        kept = {k: summary[k] for k in ("collected", "deselected") if k in summary}
        json_report["summary"] = {**dict(Counter(t["outcome"] for t in tests)), "total": len(tests), **kept}


def _gate(config: pytest.Config) -> Gate:
    try:
        return read_gate(config.rootpath, config.getoption("agenteval_fail_under"), option="--agenteval-fail-under")
    except GateConfigError as exc:
        raise pytest.UsageError(str(exc)) from None


def _drop_grade(report: pytest.TestReport) -> None:
    report.user_properties = [p for p in report.user_properties if p[0] != GRADE_PROPERTY]


def _is_task_item(nodeid: str) -> bool:
    path, _, name = nodeid.partition("::")
    return path.endswith(".jsonl") and name.startswith("test_task[")
