"""The one module that touches pytest's private names, each with a fallback on public API.

pytest 9 makes public what this plugin reads: ``pytest.SubtestReport``, ``pytest.Subtests``,
``pytest.CallInfo``, ``pytest.ExceptionInfo``, ``pytest.StashKey``. What it does not, and what
this module uses it for (the fallback in parentheses):

- ``_pytest.subtests.SubtestContext``, a ``SubtestReport`` made as ``SubtestReport._new`` makes
  it (without its round trip through JSON; a test's passed checks after the first, as copies),
  ``failed_subtests_key``, the ``CallInfo`` constructor, ``_pytest.runner.check_interactive_exception``
  and the capture manager's ``global_and_fixture_disabled``: report checks as subtests without setting up
  output capture around each (``subtests.test()``, ~0.3 ms more per check), and under xdist
  send only the names of passed checks (every report is sent);
- ``SubtestReport._sub_test_description``: the status line of a check (the same text, built
  from the public ``report.context``);
- ``_pytest.junitxml.xml_key``: the run record as a JUnit global property (the ``LogXML``
  plugin found among the registered plugins);
- ``_pytest.skipping.evaluate_skip_marks``: items ``--agenteval-concurrency`` must not start
  ahead (their ``skip``/``skipif`` marks read directly; a ``skipif`` string condition counts
  as skipping, so that item simply is not started ahead);
- ``_pytest.fixtures.FixtureFunctionDefinition``: finding ``agent`` fixtures in conftests
  (a callable attribute whose ``name`` is ``agent``);
- ``PytestPluginManager._loadconftestmodules``: loading the task folders' conftests before the
  header names the agent (they load at collection; the header then names ``--agent`` only);
- ``TerminalReporter._tw.width_of_current_line``: a progress line of its own after ``-q``'s
  dots (a line break before it whatever the current line holds);
- ``TerminalReporter._get_teardown_reports``: the teardown sections printed after each failure
  (looked up in an index built once, not by a scan of every report filed under "" per failure;
  without it, pytest's own scan);
- ``Item._fixtureinfo``: whether an ``agent`` fixture overrides ours, when no ``--agent`` is
  given (the ``agent`` fixtures of the conftests collection loaded).

``configure(config)`` runs once per process, from ``pytest_configure``: it checks that the
internals import and behave as this module expects, and if they do not, the run uses every
fallback, silently. Setting the environment variable ``AGENTEVAL_PYTEST_INTERNALS=off`` forces
the fallbacks (read at each configure; the tests use it to show both paths print the same).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest

ENV_VAR = "AGENTEVAL_PYTEST_INTERNALS"

try:
    from _pytest.fixtures import FixtureFunctionDefinition
    from _pytest.junitxml import xml_key
    from _pytest.runner import check_interactive_exception
    from _pytest.skipping import evaluate_skip_marks
    from _pytest.subtests import SubtestContext, failed_subtests_key

    IMPORTED = True
except ImportError:  # pragma: no cover - a pytest that moved them: the self-test fails
    IMPORTED = False

USE_INTERNALS = pytest.StashKey[bool]()
_verdict: bool | None = None  # the self-test's, once per process


def configure(config: pytest.Config) -> None:
    """Decide, for this run, between pytest's internals and the public-API fallbacks."""
    forced_off = os.environ.get(ENV_VAR, "").strip().lower() in ("off", "0", "no", "false")
    config.stash[USE_INTERNALS] = not forced_off and self_test()


def uses_internals(config: pytest.Config) -> bool:
    return config.stash.get(USE_INTERNALS, False)


def self_test() -> bool:
    """Whether pytest's internals behave as this module expects (checked once per process)."""
    global _verdict
    if _verdict is None:
        try:
            _verdict = IMPORTED and _probe()
        except Exception:  # noqa: BLE001 - any surprise means: use the public API
            _verdict = False
    return _verdict


def _probe() -> bool:
    try:
        pytest.fail("probe", pytrace=False)
    except pytest.fail.Exception as exc:
        excinfo = pytest.ExceptionInfo.from_exception(exc)
    failed_call = make_call(excinfo, start=1.0, stop=2.0, duration=1.0)
    base = pytest.TestReport("t.jsonl::test_task[X]", ("t.jsonl", 0, "X"), {}, "failed", "x", "call",
                             duration=1.0, start=1.0, stop=2.0, user_properties=[("p", "v")])
    sub = subtest_report(base, "a check")
    replayed = passed_subtest_report(base, "b check", [])
    back = pytest.SubtestReport._from_json(replayed._to_json())  # as xdist carries it
    like = passed_subtest_like(replayed, "c check")
    probe_fixture = pytest.fixture(name="agenteval_probe")(lambda: None)
    return (
        failed_call.excinfo is excinfo and failed_call.when == "call" and failed_call.duration == 1.0
        and isinstance(sub, pytest.SubtestReport) and sub.failed and sub.nodeid == base.nodeid
        and sub.user_properties == [("p", "v")]
        and sub._sub_test_description() == _description(sub) == "[a check]"
        and isinstance(back, pytest.SubtestReport) and back.passed and back.context.msg == "b check"
        and back._sub_test_description() == _description(back)
        and like.passed and like.nodeid == base.nodeid and like._sub_test_description() == "[c check]"
        and replayed.context.msg == "b check"
        and check_interactive_exception(failed_call, sub) is True
        and check_interactive_exception(make_call(None, start=1.0, stop=2.0, duration=1.0), replayed) is False
        and isinstance(failed_subtests_key, pytest.StashKey) and isinstance(xml_key, pytest.StashKey)
        and callable(evaluate_skip_marks)
        and isinstance(probe_fixture, FixtureFunctionDefinition) and probe_fixture.name == "agenteval_probe"
        and callable(getattr(pytest.PytestPluginManager, "_loadconftestmodules", None))
    )


# Subtests without per-subtest capture (subtests.report_checks); only when uses_internals().

def make_call(excinfo: pytest.ExceptionInfo[BaseException] | None, *, start: float, stop: float,
              duration: float) -> pytest.CallInfo[None]:
    return pytest.CallInfo[None](None, excinfo, start=start, stop=stop, duration=duration, when="call",
                                 _ispytest=True)


def subtest_report(report: pytest.TestReport, msg: str) -> pytest.SubtestReport:
    """The subtest report ``subtests.test(msg=msg)`` makes from its makereport result.

    ``SubtestReport._new`` copies the report through its JSON form (``_to_json``, then
    ``_from_json``): for a failed check that is ``dataclasses.asdict`` over the whole failure
    representation and a rebuild of it, most of what a failed check cost. The same fields are
    copied here as they are (the representation prints the same; xdist still serialises it once,
    on its way to the controller), with what ``_to_json`` changes: paths become strings, no
    ``result``."""
    sub = pytest.SubtestReport.__new__(pytest.SubtestReport)
    sub.__dict__.update({key: os.fspath(value) if isinstance(value, os.PathLike) else value
                         for key, value in report.__dict__.items()})
    if "result" in sub.__dict__:
        sub.__dict__["result"] = None
    sub.sections = list(report.sections)
    sub.keywords = dict(report.keywords)
    sub.user_properties = list(report.user_properties)
    sub.context = SubtestContext(msg=msg, kwargs={})
    return sub


def passed_subtest_report(report: pytest.TestReport, msg: str, user_properties: list[Any]) -> pytest.SubtestReport:
    """A passed subtest of ``report``'s test, as a worker would have sent it."""
    return pytest.SubtestReport(report.nodeid, report.location, report.keywords, "passed", None, "call",
                                duration=0.0, start=report.start, stop=report.start,
                                user_properties=user_properties, context=SubtestContext(msg=msg, kwargs={}))


def passed_subtest_like(passed: pytest.SubtestReport, msg: str) -> pytest.SubtestReport:
    """Another passed subtest of ``passed``'s test: its copy, named ``msg``, timed now."""
    sub = pytest.SubtestReport.__new__(pytest.SubtestReport)
    sub.__dict__.update(passed.__dict__)
    sub.sections = list(passed.sections)
    sub.keywords = dict(passed.keywords)
    sub.user_properties = list(passed.user_properties)
    sub.context = SubtestContext(msg=msg, kwargs={})
    sub.start = sub.stop = time.time()
    sub.duration = 0.0
    return sub


def count_failed_subtest(config: pytest.Config, item: pytest.Item) -> None:
    """What pytest's subtests plugin counts for each failed subtest of an item."""
    config.stash[failed_subtests_key][item.id] += 1


def capture_suspended(config: pytest.Config) -> Callable[[], AbstractContextManager[None]]:
    """What suspends output capture while a subtest report is logged, as ``subtests.test()`` does."""
    capman = config.pluginmanager.getplugin("capturemanager")
    return getattr(capman, "global_and_fixture_disabled", None) or nullcontext


def is_interactive(call: pytest.CallInfo[None], report: pytest.TestReport) -> bool:
    """Whether ``--pdb`` and friends should see this report's exception."""
    return bool(check_interactive_exception(call, report))


# Each with its fallback.

def subtest_description(config: pytest.Config, report: pytest.SubtestReport) -> str:
    """``[check name]``, as pytest shows a subtest in a status line."""
    if uses_internals(config):
        return report._sub_test_description()
    return _description(report)


def _description(report: pytest.SubtestReport) -> str:
    parts = []
    if report.context.msg is not None:
        parts.append(f"[{report.context.msg}]")
    if report.context.kwargs:
        parts.append("(" + ", ".join(f"{k}={v}" for k, v in report.context.kwargs.items()) + ")")
    return " ".join(parts) or "(<subtest>)"


def junit_xml(config: pytest.Config) -> Any:
    """``--junitxml``'s writer (``LogXML``), once its configure has run; else None."""
    if uses_internals(config):
        return config.stash.get(xml_key, None)
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "LogXML" and callable(getattr(plugin, "add_global_property", None)):
            return plugin
    return None


def skip_marked(item: pytest.Item) -> bool:
    """Whether the item's ``skip``/``skipif`` marks will skip it (may raise on a broken condition)."""
    if uses_internals(item.config):
        return evaluate_skip_marks(item) is not None
    if any(True for _ in item.iter_markers("skip")):
        return True
    for mark in item.iter_markers("skipif"):
        conditions = mark.args if mark.args else (mark.kwargs.get("condition", True),)
        if any(isinstance(c, str) or bool(c) for c in conditions):
            return True
    return False


def is_fixture(config: pytest.Config, value: Any, name: str) -> bool:
    """Whether a module attribute is a fixture definition named ``name``."""
    if uses_internals(config):
        return isinstance(value, FixtureFunctionDefinition) and getattr(value, "name", None) == name
    return callable(value) and not isinstance(value, type) and getattr(value, "name", None) == name


def load_conftests(config: pytest.Config, folder: Any) -> None:
    """Load ``folder``'s conftests now, as pytest does for the folders named on the command line
    (fallback: nothing; collection loads them)."""
    if not uses_internals(config):
        return
    config.pluginmanager._loadconftestmodules(
        folder, config.getoption("importmode"), config.rootpath,
        consider_namespace_packages=config.getini("consider_namespace_packages"))


def fixture_overridden(item: pytest.Item, name: str, ours: Any) -> bool | None:
    """Whether the fixture ``name`` that ``item`` gets is not ``ours`` (None: cannot tell)."""
    if not uses_internals(item.config):
        return None
    try:
        defs = item._fixtureinfo.name2fixturedefs.get(name, ())  # type: ignore[attr-defined]
        return bool(defs) and defs[-1].func is not ours
    except (AttributeError, IndexError, TypeError):  # a pytest that reshaped it: cannot tell
        return None


def write_own_line(tr: Any, line: str) -> None:
    """``line`` on a line of its own: ``write_line`` breaks the line only after a file's path,
    not after ``-q``'s bare dots."""
    width = getattr(getattr(tr, "_tw", None), "width_of_current_line", 1)
    if width and not tr.currentfspath:
        tr.write("\n")
    tr.write_line(line)


def last_failed(config: pytest.Config) -> dict[Any, bool] | None:
    """The ``--lf`` plugin's table of failed node ids (``LFPlugin.lastfailed``), or None where it is
    not there (``-p no:cacheprovider``, or a pytest that moved it: then ``--lf`` is not scoped)."""
    plugin = config.pluginmanager.get_plugin("lfplugin")
    table = getattr(plugin, "lastfailed", None)
    return table if isinstance(table, dict) else None


def set_last_failed(config: pytest.Config, nodeids: dict[str, bool]) -> None:
    """Replace the ``--lf`` plugin's table before collection reads it (keys as its own type)."""
    plugin = config.pluginmanager.get_plugin("lfplugin")
    table = last_failed(config)
    if table is None:
        return
    try:
        from _pytest.nodeid import NodeId

        parse: Callable[[str], Any] = NodeId.parse
    except ImportError:  # before pytest 9.1 node ids were plain strings
        parse = str
    table.clear()
    table.update({parse(nodeid): value for nodeid, value in nodeids.items()})
    if hasattr(plugin, "_last_failed_paths"):  # computed at its configure when --lf is given
        plugin._last_failed_paths = plugin.get_last_failed_paths()  # type: ignore[union-attr]


def index_teardown_reports(tr: Any) -> None:
    """pytest's failure summary looks up each failed test's teardown reports by scanning every
    report filed under "" (each passed check's is one): with 640 failed tasks of 17 checks, 640
    scans of ~12,000 reports, seconds at the session's end growing with the square of the run.
    Here the same reports, in the same order, come from an index built on the first lookup (and
    again if more reports were filed since)."""
    if not callable(getattr(type(tr), "_get_teardown_reports", None)) or not isinstance(getattr(tr, "stats", None),
                                                                                          dict):
        return
    built: dict[str, Any] = {"key": None, "index": {}}

    def teardown_reports(node_id: Any) -> list[Any]:
        filed = tr.stats.get("", [])
        if built["key"] != (id(filed), len(filed)):
            index: dict[Any, list[Any]] = {}
            for report in filed:  # getreports(""): what --pdb has shown is left out
                if not hasattr(report, "_pdbshown") and report.when == "teardown":
                    index.setdefault(report.id, []).append(report)
            built["key"], built["index"] = (id(filed), len(filed)), index
        return list(built["index"].get(node_id, ()))

    tr._get_teardown_reports = teardown_reports
