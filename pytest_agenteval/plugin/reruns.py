"""One counted episode per task and run, whatever plugin runs tests again.

- pytest-rerunfailures (``--reruns N``, or its ``flaky`` marker) runs a failed item again.
  Each attempt is a fresh episode; only the final attempt counts. An attempt that will be
  run again fails as one plain failure naming its failed checks instead of reporting them
  as subtests (which would stay in JUnit as failures of an item that then passed); the
  rerun plugin marks its report ``rerun`` and the reporter writes it to the results file
  with ``"counted": false`` and takes its grade off its reports (``reporter``).
- pytest-repeat's ``--count N`` would run each task N times as the same run, with the same
  seed, counted as N tasks: refused, pointing at ``--runs N``. Any other plugin that
  collects a task's run twice is refused the same way, at collection.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from pytest_agenteval.grading.checks import Check
from pytest_agenteval.plugin.integrations import rerunfailures


def refuse_repeat(config: pytest.Config, has_tasks: bool) -> None:
    count = getattr(config.option, "count", None)
    if has_tasks and isinstance(count, int) and count > 1:
        raise pytest.UsageError(
            f"--count={count} (pytest-repeat) would run each task {count} times as the same run, with the "
            f"same seed; use --runs {count}: each run gets its own seed and the table reports pass^{count}")


def refuse_duplicate_runs(items: Iterable[pytest.Item], case_of: Any) -> None:
    """A task's run collected twice (a plugin that parametrizes or copies every test)."""
    seen: dict[tuple[str, int], str] = {}
    for item in items:
        case = case_of(item)
        if case is None:
            continue
        key = (case.task.task_id, case.run)
        if key in seen:
            callspec = getattr(item, "callspec", None)
            extra = sorted(k for k in (callspec.params if callspec else {}) if k != "agenteval_case")
            why = f"parametrized again by {', '.join(extra)}" if extra else "collected twice"
            raise pytest.UsageError(
                f"{seen[key]} and {item.nodeid} are both {key[0]} run {key[1]} ({why}): each task run is one "
                "episode; use --runs K to run tasks K times (each run gets its own seed and the table reports "
                "pass^K), and one session per agent")
        seen[key] = item.nodeid


def rerun_message(task_id: str, checks: Iterable[Check]) -> str:
    """What a superseded attempt fails with: each failed check and the mode it triggers, so
    ``--only-rerun``/``--rerun-except`` can pick attempts by failure mode (``timeout``)."""
    failed = [f"{c.name} [{c.failure_mode}]" for c in checks if not c.passed]
    return (f"{task_id}: {len(failed)} failed checks: {', '.join(failed)} (if the rerun plugin runs it again, "
            "only the final attempt counts)")


def will_rerun(item: pytest.Item) -> bool:
    """Whether pytest-rerunfailures may run this item again if this attempt fails: reruns
    left, the path not excluded, the marker's condition met (``integrations.rerunfailures``).
    ``--only-rerun``/``--rerun-except`` are left to the plugin, matched against
    ``rerun_message``: an attempt they keep from a rerun is final, counted, and reported as that
    one failure (the plugin does not apply them to failed subtests at all, so reporting
    subtests would rerun it regardless)."""
    return rerunfailures.will_rerun(item)
