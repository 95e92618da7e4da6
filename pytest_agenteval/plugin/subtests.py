"""Report each check as a pytest subtest, without the per-subtest capture setup.

``subtests.test()`` starts output and log capture around every subtest: about 0.3 ms each,
more than everything else an episode costs. Our checks run no user code (the grade is
computed before any is reported), so there is nothing to capture. ``report_checks`` emits the
very same ``SubtestReport``s through the same hooks — makereport, logreport, the failed-subtest
count that fails the parent, ``-x``, ``--pdb`` — and skips only the capture. That takes
pytest internals (``compat``); without them, each check goes through ``subtests.test()``.

Under xdist every report crosses from worker to controller and is decoded there, one at a
time; passed checks were most of that traffic. A worker therefore sends only the names of its
passed checks, with the test's own report, and the controller turns each back into the same
``SubtestReport`` (``replay_passed``) before that report goes on, so terminal, JUnit, JSON
report and counts see what a serial run shows. Failed checks travel as they are. (Without
the internals every check travels.)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import pytest

from pytest_agenteval.grading.checks import Check
from pytest_agenteval.plugin.compat import (
    capture_suspended,
    count_failed_subtest,
    is_interactive,
    make_call,
    passed_subtest_like,
    passed_subtest_report,
    subtest_report,
    uses_internals,
)
from pytest_agenteval.plugin.integrations import xdist

GRADE_PROPERTY = "agenteval_grade"
PASSED_PROPERTY = "agenteval_passed_checks"  # names of passed checks a worker did not send
# Set on the item while its checks are reported: their reports are made by the same
# makereport hook as the test's own, and outcomes must tell them apart.
REPORTING_CHECKS = pytest.StashKey[bool]()
# How many of the item's checks failed: outcomes fails the test's own report by it.
FAILED_CHECKS = pytest.StashKey[int]()


def report_checks(request: pytest.FixtureRequest, subtests: Any, checks: Iterable[Check]) -> None:
    checks = list(checks)
    request.node.stash[REPORTING_CHECKS] = True
    request.node.stash[FAILED_CHECKS] = sum(not check.passed for check in checks)
    try:
        _report_checks(request, subtests, checks)
    finally:
        request.node.stash[REPORTING_CHECKS] = False


def _report_checks(request: pytest.FixtureRequest, subtests: Any, checks: Iterable[Check]) -> None:
    if not uses_internals(request.config):
        for check in checks:
            with subtests.test(msg=check.name):
                if not check.passed:
                    pytest.fail(message(check), pytrace=False)
        return
    node = request.node
    config = request.config
    suspend = capture_suspended(config)
    passed_unsent: list[str] | None = [] if xdist.is_worker(config) else None
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
    passed: Any = None  # the first passed check's report: the others' are copies of it
    while True:
        interact = None
        with suspend():
            for check in pending:
                if passed_unsent is not None and check.passed:
                    passed_unsent.append(check.name)
                    continue
                if check.passed and passed is not None:
                    # Every passed check of a test makes the same report but for its name: the
                    # makereport hooks see the same item, outcome and call. The first goes
                    # through them, the others are copies (as the xdist controller replays those
                    # a worker names, which never went through them either).
                    node.ihook.pytest_runtest_logreport(report=passed_subtest_like(passed, check.name))
                    continue
                call, sub = _log(node, config, check)
                if check.passed:
                    passed = sub
                if is_interactive(call, sub):
                    interact = call, sub
                    break
        if interact is None:
            return
        node.ihook.pytest_exception_interact(node=node, call=interact[0], report=interact[1])
        # No early return under -x: a failed check does not count towards it (outcomes),
        # so every check is reported and the run stops after the task.


def _log(node: Any, config: pytest.Config, check: Check) -> tuple[Any, Any]:
    start, precise = time.time(), time.perf_counter()
    excinfo: pytest.ExceptionInfo[BaseException] | None = None
    if not check.passed:
        try:
            pytest.fail(message(check), pytrace=False)
        except pytest.fail.Exception as exc:
            excinfo = pytest.ExceptionInfo.from_exception(exc)
    call = make_call(excinfo, start=start, stop=time.time(), duration=time.perf_counter() - precise)
    report = node.ihook.pytest_runtest_makereport(item=node, call=call)
    sub = subtest_report(report, check.name)
    # pytest copies the item's user_properties into every report; the grade belongs to the
    # test's own report, not to each check's (under xdist each copy crosses the wire).
    sub.user_properties = [p for p in sub.user_properties if p[0] not in (GRADE_PROPERTY, PASSED_PROPERTY)]
    if sub.failed:
        count_failed_subtest(config, node)
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
    if report.when != "call" or not uses_internals(config):  # without them, workers send every check
        return
    own = [p for p in report.user_properties if p[0] != GRADE_PROPERTY]
    for name in names:
        sub = passed_subtest_report(report, name, own)
        xdist.copy_worker(report, sub)  # JUnit keys its test cases by the worker
        config.hook.pytest_runtest_logreport(report=sub)


def message(check: Check) -> str:
    return f"[{check.failure_mode}] {check.detail}"
