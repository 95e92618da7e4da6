"""pytest-xdist, outside its scheduling (``plugin/concurrency.py``): which process this is, the
worker a report came from, and the controller's failure count for ``-x``/``--maxfail``.

- ``config.workerinput`` (public: documented for plugins) tells a worker from the controller;
- ``report.node`` is the worker's handle on a report the controller received;
- ``DSession.shouldstop`` (not public): set to stop the workers (a run's usage budget spent);
- ``DSession.countfailures`` (not public): what the controller counts towards ``-x``; a failed
  check gives back what it added (``outcomes``). Fallback: nothing given back, so under xdist
  ``-x`` stops after the first failed check rather than the first failed task (serial runs
  are unaffected: pytest's own count is public).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "xdist"


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def self_test() -> bool:
    """The controller's session object counts failures in ``countfailures``."""
    from xdist.dsession import DSession

    return "self.countfailures" in inspect.getsource(DSession)


def give_back_failure(config: pytest.Config) -> None:
    """Take one failure off the xdist controller's count towards ``-x``/``--maxfail``."""
    dsession = config.pluginmanager.getplugin("dsession")
    if dsession is None or not enabled(NAME, self_test):
        return
    if isinstance(getattr(dsession, "countfailures", None), int):
        dsession.countfailures -= 1


def stop_workers(config: pytest.Config, reason: str) -> None:
    """Ask the xdist controller to stop its workers (``DSession.shouldstop``, read by its loop)."""
    dsession = config.pluginmanager.get_plugin("dsession")
    if dsession is not None:
        dsession.shouldstop = reason


def copy_worker(source: Any, target: Any) -> None:
    """Give ``target`` the worker handle of ``source`` (JUnit keys its test cases by it)."""
    if hasattr(source, "node"):
        target.node = source.node
