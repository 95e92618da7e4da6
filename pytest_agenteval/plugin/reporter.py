"""Reporting on the controller: each graded episode to the plugin's hooks, the reliability table."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_agenteval.plugin.agent_skips import SELECTIVE
from pytest_agenteval.plugin.compat import junit_xml
from pytest_agenteval.plugin.held import interrupts_held
from pytest_agenteval.plugin.judging import skipped_line
from pytest_agenteval.plugin.record import run_record
from pytest_agenteval.plugin.resume import kept_grades
from pytest_agenteval.plugin.state import State
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY, replay_passed
from pytest_agenteval.report.gate import Gate, GateConfigError, Verdict, judge, read_gate
from pytest_agenteval.report.labels import describe
from pytest_agenteval.report.metrics import (
    INTERRUPTED,
    NOT_GRADED,
    SKIPPED_TASKS,
    summary_json,
    summary_lines,
    summary_title,
    tally,
)


class Reporter:
    """Registered only where reports arrive: the xdist controller, or a serial run.

    It turns each task's call report into a graded episode and passes it to the
    ``pytest_agenteval_episode_graded`` hook (hookspecs), keeping only a compact tally of it
    (``metrics.tally``) for the table, the gate and the summary; at the session's end it calls
    ``pytest_agenteval_run_finished``. The results file, the HTML report and the JSON report's
    grades are implementations of those hooks.

    One counted episode per task and run: when a rerun plugin runs an item again
    (pytest-rerunfailures marks the superseded attempt's report ``"rerun"``), only the final
    attempt counts. A superseded attempt is still passed to the hook with ``counted`` False
    (the results file writes it marked ``"counted": false``), and its grade is taken off its
    reports so JUnit and the JSON report carry one grade per item.
    """

    def __init__(self, config: pytest.Config, state: State) -> None:
        self.config = config
        self.k = state.runs
        self.tallies: dict[str, dict[str, Any]] = {}  # the counted episode of each item, as a tally
        self.superseded: set[str] = set()  # items whose last call report was a superseded attempt
        # Task items that failed before their episode was graded (a setup error, a timeout in
        # setup): no episode to count, but the table must not look complete without them.
        self.ungraded: dict[str, str] = {}
        self.other_failures = 0  # failed reports that are not a graded episode (a plain test, a teardown)
        # Tasks the agent itself skipped (a replay file without their calls): a gate over the rest
        # would pass a run that never tried them.
        self.agent = state.agent
        self.agent_skipped: dict[str, str] = {}
        self.gate = _gate(config)
        self.kept_failed = 0  # --agenteval-resume: failed episodes kept from the file
        self.results: Any = None  # the results file (results_file.ResultsFile), when there is one
        # The test loop returned: only then did the run play what it selected (a Ctrl-C pressed
        # again while pytest handles the first ended the session with status OK: red team 28).
        self.finished = False
        self.resumed = state.resumed is not None
        self.verdict: Verdict | None = None
        self.run_record = run_record(config, state)  # in every output: results, JUnit, JSON report
        self.this_run = self.run_record  # with --agenteval-resume, what the file's run record is checked against
        if state.resumed is not None:  # --agenteval-resume: the file's episodes count, new ones are appended
            self.run_record = state.resumed.run_record
            self.tallies.update({nodeid: tally(g) for nodeid, g in kept_grades(state.resumed).items()})
            # Episodes kept from the file that failed fail this run too, as they did the run that was cut.
            self.kept_failed = sum(not g.get("passed") for g in state.resumed.kept.values())

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Any:
        try:
            result = yield
        except session.Failed:  # -x, --maxfail: stopped on purpose (the gate says so itself)
            self.finished = True
            raise
        self.finished = True
        return result

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
        reason = self.agent.skip_reason if isinstance(self.agent, SELECTIVE) else None
        if report.skipped and reason and _is_task_item(report.nodeid) and reason in str(report.longrepr):
            self.agent_skipped[report.nodeid] = reason
        values = [value for name, value in report.user_properties if name == GRADE_PROPERTY]
        # (any item of a task file: a bad task line's error item too, a task never graded; red team 71)
        if report.failed and not values and report.when != "teardown" and report.nodeid.partition("::")[0].endswith(
                ".jsonl"):
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
        # Counted only once its line is in the results file, so the two agree whenever the run is
        # cut (CI once saw a summary of 3 episodes over 2 lines): a Ctrl-C is held across the
        # hook, and a second one, which ends it at once, ends it before or after both.
        with interrupts_held():
            try:
                self.config.hook.pytest_agenteval_episode_graded(grade=record, counted=not rerun, report=report,
                                                                 config=self.config)
            finally:
                if not rerun and (self.results is None or self.results.holds(record)):
                    self.tallies[report.nodeid] = tally(grade)

    @property
    def grades(self) -> list[dict[str, Any]]:
        """The counted episodes' tallies (``metrics.tally``): what the table and the gate read."""
        return list(self.tallies.values())

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        tr = terminalreporter
        grades = self.grades
        if not grades and not self.ungraded:
            return
        tr.write_sep("=", summary_title(grades, self.k))
        named = describe(self.run_record)
        if named:
            tr.write_line(f"agent {self.run_record['agent']}; {named}")
        if grades:
            for line in summary_lines(grades, self.k):  # the same lines as `agenteval report`
                tr.write_line(line)
            skipped = skipped_line(grades)
            if skipped:
                tr.write_line(skipped)
        if self.ungraded:
            items = ", ".join(f"{nodeid} ({when})" for nodeid, when in sorted(self.ungraded.items()))
            tr.write_line(f"not graded, not in the table (the test failed before its episode was graded): {items}")
        if self.kept_failed:
            fate = "the gate below decides the exit code" if self.gate.active else \
                "the run fails as the interrupted one would have"
            tr.write_line(f"agenteval resume: {self.kept_failed} failed episode(s) kept from the results file "
                          f"(in the table; {fate})")
        if self.verdict is not None:
            for line in self.verdict.lines:
                tr.write_line(line, red="FAILED" in line, green="passed" in line)

    # First: under xdist a second Ctrl-C during the workers' teardown (xdist's own sessionfinish
    # waits for them) ended the run before the summary line was written.
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        grades = self.grades
        if not self.finished and getattr(session, "exitstatus", None) in (pytest.ExitCode.OK,
                                                                           pytest.ExitCode.TESTS_FAILED):
            session.exitstatus = pytest.ExitCode.INTERRUPTED  # the loop never returned: not every task was played
        if self.resumed and session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and grades:
            session.exitstatus = pytest.ExitCode.OK  # the file held every episode: nothing left to run
        if self.kept_failed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if self.gate.active and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            self._apply_gate(session)
        summary = summary_json(grades, self.k)
        # Ctrl-C, xdist's -x, or -x/--maxfail serially: tasks left unplayed (a session made by hand may
        # have no status yet); a file's gate fails on it as the run's own did (red team 71)
        if getattr(session, "exitstatus", None) == pytest.ExitCode.INTERRUPTED or session.shouldfail or (
                session.shouldstop):
            summary[INTERRUPTED] = True
        if self.agent_skipped:
            summary[SKIPPED_TASKS] = sorted(self.agent_skipped)
        if self.ungraded:
            summary[NOT_GRADED] = sorted(self.ungraded)
        self.config.hook.pytest_agenteval_run_finished(summary=summary, run_record=self.run_record, session=session)

    def _apply_gate(self, session: pytest.Session) -> None:
        """The gate decides the exit code when only graded episodes failed; a failure it does not
        cover (a plain test, an item that errored before its episode was graded) still fails the run."""
        self.verdict = judge(self.grades, self.k, self.gate)
        if self.agent_skipped and self.verdict.passed:
            reason = next(iter(self.agent_skipped.values()))
            self.verdict = Verdict(passed=False, lines=[*self.verdict.lines, (
                f"agenteval gate: FAILED: {len(self.agent_skipped)} selected task(s) skipped ({reason}): a gate "
                "holds only a run that tried every task it selected (select them out with -k, or replay a file "
                "that covers them)")])
        stopped = session.shouldfail or session.shouldstop  # -x, --maxfail: the tasks after it never ran
        if stopped and self.verdict.passed:
            self.verdict = Verdict(passed=False, lines=[*self.verdict.lines, (
                f"agenteval gate: FAILED: the run stopped early ({stopped}), so the tasks after that were never "
                "played: a gate holds only a run that tried every task it selected (drop -x/--maxfail)")])
        if not self.verdict.passed:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        elif self.other_failures or self.ungraded:
            self.verdict.lines.append("agenteval gate: the run still fails: some tests failed that are not graded "
                                      "episodes (see above)")
        else:
            session.exitstatus = pytest.ExitCode.OK


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
