"""Report each check as a pytest subtest, without the per-subtest capture setup.

``subtests.test()`` starts output and log capture around every subtest: about 0.3 ms each,
more than everything else an episode costs. Our checks run no user code (the grade is
computed before any is reported), so there is nothing to capture. ``report_checks`` emits the
very same ``SubtestReport``s through the same hooks — makereport, logreport, the failed-subtest
count that fails the parent, ``-x``, ``--pdb`` — and skips only the capture. If pytest's
internals move, it falls back to ``subtests.test()``.

Under xdist every report crosses from worker to controller and is decoded there, one at a
time; passed checks were most of that traffic. A worker therefore sends only the names of its
passed checks, with the test's own report, and the controller turns each back into the same
``SubtestReport`` (``replay_passed``) before that report goes on, so terminal, JUnit, JSON
report and counts see what a serial run shows. Failed checks travel as they are.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

import pytest

from pytest_agenteval.grading.checks import Check

GRADE_PROPERTY = "agenteval_grade"
PASSED_PROPERTY = "agenteval_passed_checks"  # names of passed checks a worker did not send
# Set on the item while its checks are reported: their reports are made by the same
# makereport hook as the test's own, and plugin_outcomes must tell them apart.
REPORTING_CHECKS = pytest.StashKey[bool]()

try:
    from _pytest._code import ExceptionInfo
    from _pytest.runner import CallInfo, check_interactive_exception
    from _pytest.subtests import SubtestContext, SubtestReport, failed_subtests_key

    FAST = True
except ImportError:  # pragma: no cover - a future pytest without these internals
    FAST = False


def report_checks(request: pytest.FixtureRequest, subtests: Any, checks: Iterable[Check]) -> None:
    request.node.stash[REPORTING_CHECKS] = True
    try:
        _report_checks(request, subtests, checks)
    finally:
        request.node.stash[REPORTING_CHECKS] = False


def _report_checks(request: pytest.FixtureRequest, subtests: Any, checks: Iterable[Check]) -> None:
    if not FAST:  # pragma: no cover
        for check in checks:
            with subtests.test(msg=check.name):
                if not check.passed:
                    pytest.fail(message(check), pytrace=False)
        return
    node = request.node
    config = request.config
    capman = config.pluginmanager.getplugin("capturemanager")
    suspend = capman.global_and_fixture_disabled if capman is not None else nullcontext
    passed_unsent: list[str] | None = [] if hasattr(config, "workerinput") else None
    try:
        _report(request, checks, passed_unsent, suspend)
    finally:
        if passed_unsent is not None:
            node.user_properties.append((PASSED_PROPERTY, passed_unsent))


def _report(request: pytest.FixtureRequest, checks: Iterable[Check], passed_unsent: list[str] | None,
            suspend: Any) -> None:
    # Capture is suspended once for all the checks, not once per check (each suspension swaps
    # file descriptors): the reports are made and logged uncaptured, as pytest does for a
    # test's own report; it resumes for --pdb's interaction, which suspends it itself.
    node, config = request.node, request.config
    pending = iter(checks)
    while True:
        interact = None
        with suspend():
            for check in pending:
                if passed_unsent is not None and check.passed:
                    passed_unsent.append(check.name)
                    continue
                call, sub = _log(node, config, check)
                if check_interactive_exception(call, sub):
                    interact = call, sub
                    break
        if interact is None:
            return
        node.ihook.pytest_exception_interact(node=node, call=interact[0], report=interact[1])
        # No early return under -x: a failed check does not count towards it (plugin_outcomes),
        # so every check is reported and the run stops after the task.


def _log(node: Any, config: pytest.Config, check: Check) -> tuple[Any, Any]:
    start, precise = time.time(), time.perf_counter()
    excinfo = None
    if not check.passed:
        try:
            pytest.fail(message(check), pytrace=False)
        except pytest.fail.Exception as exc:
            excinfo = ExceptionInfo.from_exception(exc)
    call = CallInfo[None](None, excinfo, start=start, stop=time.time(),
                          duration=time.perf_counter() - precise, when="call", _ispytest=True)
    report = node.ihook.pytest_runtest_makereport(item=node, call=call)
    sub = SubtestReport._new(report, SubtestContext(msg=check.name, kwargs={}), captured_output=None,
                             captured_logs=None)
    # pytest copies the item's user_properties into every report; the grade belongs to the
    # test's own report, not to each check's (under xdist each copy crosses the wire).
    sub.user_properties = [p for p in sub.user_properties if p[0] not in (GRADE_PROPERTY, PASSED_PROPERTY)]
    if sub.failed:
        config.stash[failed_subtests_key][node.id] += 1
    node.ihook.pytest_runtest_logreport(report=sub)
    return call, sub


def replay_passed(config: pytest.Config, report: pytest.TestReport) -> None:
    """On the controller: one passed ``SubtestReport`` per check name a worker sent with the
    test's own call report, in the order the checks ran. The names come off every report
    (teardown carries the item's properties too), so JUnit and JSON never show them."""
    if not any(p[0] == PASSED_PROPERTY for p in report.user_properties):
        return
    names = [str(n) for key, value in report.user_properties
             if key == PASSED_PROPERTY and isinstance(value, list) for n in value]
    report.user_properties = [p for p in report.user_properties if p[0] != PASSED_PROPERTY]
    if report.when != "call":
        return
    own = [p for p in report.user_properties if p[0] != GRADE_PROPERTY]
    for name in names:
        sub = SubtestReport(report.nodeid, report.location, report.keywords, "passed", None, "call",
                            duration=0.0, start=report.start, stop=report.start, user_properties=own,
                            context=SubtestContext(msg=name, kwargs={}))
        if hasattr(report, "node"):  # xdist's worker handle: JUnit keys its test cases by it
            sub.node = report.node  # type: ignore[attr-defined]
        config.hook.pytest_runtest_logreport(report=sub)


def message(check: Check) -> str:
    return f"[{check.failure_mode}] {check.detail}"
