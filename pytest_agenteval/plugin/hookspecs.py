"""The hooks pytest-agenteval calls, for plugins of your own (a conftest.py or an installed plugin).

Registered with ``pytest_addhooks``, as pytest-xdist registers its ``newhooks``. Both are called
only where reports arrive: in a serial run, that process; under xdist, the controller (never a
worker), so each episode is seen once whatever ``-n`` is. The results file
(``--agenteval-results``) and the HTML report (``--agenteval-html``) are implementations of
them (``plugin/results_file.py``, ``plugin/html.py``). docs/hooks.md states the lifecycle and shows
a plugin writing grades to SQLite.
"""

from __future__ import annotations

from typing import Any

import pytest

hookspec = pytest.hookspec


@hookspec
def pytest_agenteval_episode_graded(grade: dict[str, Any], counted: bool, report: pytest.TestReport,
                                    config: pytest.Config) -> None:
    """An episode was graded and its test's call report has arrived (the checks' reports before it).

    ``grade``: the episode's line of the results file: the grade object (docs/results.md) plus
    ``nodeid`` and ``duration``, and ``attempt`` when a rerun plugin ran the test again. The same
    dict goes to every implementation (the results file's first): treat it as read-only, and
    copy it to keep a changed version.

    ``counted``: False for an attempt a rerun plugin (pytest-rerunfailures) supersedes: the
    test runs again and only its final attempt counts; the grade then carries
    ``"counted": false`` too. Each counted episode (one per task and run) is passed exactly
    once with ``counted`` True. An *errored* episode (the agent could not play it,
    docs/errors.md) is passed with its errored grade: ``grade["error"]`` is then an object
    (``None`` or absent otherwise); it is in no pass rate. A test that failed before its
    episode was graded (a setup error) has no grade and is not passed. Episodes kept from a
    results file by ``--agenteval-resume`` were passed in the run that graded them, not again.

    ``report``: the test's call report (its ``nodeid``, ``outcome``, ``duration``; under xdist
    ``report.node`` is the worker). Called on the controller's main thread, as each report
    arrives: keep it quick, or hand the work to a thread of your own.
    """


@hookspec
def pytest_agenteval_run_finished(summary: dict[str, Any], run_record: dict[str, Any],
                                  session: pytest.Session) -> None:
    """The session is finishing: every episode has been passed to ``pytest_agenteval_episode_graded``.

    ``summary``: the reliability table as data, the results file's closing ``summary``
    (counted, non-errored episodes in its groups; errored ones counted apart), including any
    episodes kept by ``--agenteval-resume``. ``run_record``: what ran (the results file's first
    line). Called once per session from ``pytest_sessionfinish``, before the terminal summary
    is written, also when the run was interrupted (Ctrl-C) or stopped by ``-x``, and when no
    episode was graded (``summary["episodes"]`` is then 0). ``session.exitstatus`` is the run's exit code so far (an
    implementation may set it, as the results file does when it could not be written).
    """
