"""``--lf`` and ``--ff`` per run identity: a failure of another agent, label or endpoint is not
"what failed last time" for this run.

pytest keeps one table of failed node ids per project (``cache/lastfailed``), and a task's node
id is the same whatever agent played it. So the task items' entries are also kept in our own
cache entry, one list per identity (agent, labels, endpoint: ``report/labels.py``), and at
configure the ``--lf`` plugin's table is given this identity's task failures only (other tests'
entries are left as pytest keeps them). The first run after upgrading, with no entry of ours,
keeps pytest's table as it is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import pytest

from pytest_agenteval.plugin.compat import last_failed, set_last_failed

CACHE_KEY = "agenteval/lastfailed"


def identity_key(identity: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def is_task_nodeid(nodeid: str) -> bool:
    path, _, name = nodeid.partition("::")
    return path.endswith(".jsonl") and name.startswith("test_task[")


def scope(config: pytest.Config, key: str) -> None:
    """At configure, before collection: this identity's task failures in place of any other's."""
    cache, table = getattr(config, "cache", None), last_failed(config)
    if cache is None or table is None:
        return
    stored = cache.get(CACHE_KEY, {})
    if not isinstance(stored, dict) or not stored:
        return
    kept = {str(n): v for n, v in table.items() if not is_task_nodeid(str(n))}
    kept.update(dict.fromkeys(stored.get(key, []), True))
    set_last_failed(config, kept)


def remember(config: pytest.Config, key: str) -> None:
    """At the end of a run (controller or serial): this identity's task failures, as pytest now has them."""
    cache, table = getattr(config, "cache", None), last_failed(config)
    if cache is None or table is None or hasattr(config, "workerinput"):
        return
    stored = cache.get(CACHE_KEY, {})
    stored = stored if isinstance(stored, dict) else {}
    stored[key] = sorted(str(n) for n in table if is_task_nodeid(str(n)))
    cache.set(CACHE_KEY, stored)
