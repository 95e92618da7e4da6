"""pytest-rerunfailures: whether it will run an item again if this attempt fails.

Reads the plugin's ``get_reruns_count(item)``, ``_is_rerun_path_excluded(item)`` and
``get_reruns_condition(item)`` (module functions, the last two not public) and the item's
``execution_count`` it sets. Fallback: every attempt is treated as final (its checks are
reported as subtests; a rerun still happens, and only its last attempt counts, but JUnit
keeps the superseded attempt's failed checks).
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "rerunfailures"


def self_test() -> bool:
    import pytest_rerunfailures as plugin

    return all(callable(getattr(plugin, name, None))
               for name in ("get_reruns_count", "_is_rerun_path_excluded", "get_reruns_condition"))


def will_rerun(item: pytest.Item) -> bool:
    """Reruns left, the path not excluded, the marker's condition met."""
    plugin: Any = item.config.pluginmanager.get_plugin("rerunfailures")
    if plugin is None or not enabled(NAME, self_test):
        return False
    try:
        reruns = plugin.get_reruns_count(item)
        if not reruns or getattr(item, "execution_count", 0) > reruns:
            return False
        if plugin._is_rerun_path_excluded(item):
            return False
        return bool(plugin.get_reruns_condition(item))
    except Exception:  # noqa: BLE001 - a version whose internals moved: report checks as usual
        return False


def release_attempt(item: pytest.Item) -> None:
    """Let go of what the plugin keeps on ``item`` for one attempt, once the item is done.

    Its makereport wrapper appends every failed report's ``ExceptionInfo`` to
    ``item._rerun_condition_excinfos`` in every run, but only its own protocol (``--reruns``
    or ``flaky``) clears them. Items live until the session ends, and a failed check's
    traceback holds its frames and, through them, the whole stack that reported it: the
    episode, its grade and checks (~60 KB per failed episode, and seconds of the cyclic
    collector walking them). With them go the four other per-attempt tables it sets at each
    setup (~0.8 KB per item) and reads only during the item's protocol. Called once the
    item's protocol is over (an attribute not there: nothing to do)."""
    for name in ATTEMPT_STATE:
        if isinstance(item.__dict__.get(name), dict):
            del item.__dict__[name]


# What the plugin's makereport sets on an item at each attempt's setup.
ATTEMPT_STATE = ("_rerun_condition_excinfos", "_rerun_condition_results", "_test_failed_statuses", "_terminal_errors",
                 "_test_xfailed")
