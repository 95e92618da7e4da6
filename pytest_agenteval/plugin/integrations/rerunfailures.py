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
    """Let go of the exceptions the plugin kept on ``item`` for its ``--only-rerun`` matching.

    Its makereport wrapper appends every failed report's ``ExceptionInfo`` to
    ``item._rerun_condition_excinfos`` in every run, but only its own protocol (``--reruns``
    or ``flaky``) clears them. Items live until the session ends, and a failed check's
    traceback holds its frames and, through them, the whole stack that reported it: the
    episode, its grade and checks (~60 KB per failed episode, and seconds of the cyclic
    collector walking them). Called once the item's protocol is over, when the plugin has
    read them (no attribute: nothing to do)."""
    for name in ("_rerun_condition_excinfos", "_rerun_condition_results"):
        kept = getattr(item, name, None)
        if isinstance(kept, dict):
            kept.clear()
