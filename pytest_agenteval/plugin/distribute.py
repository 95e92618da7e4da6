"""Under xdist with ``--agenteval-concurrency C``: each worker holds a full window of items.

xdist's ``load`` scheduler was made for many short tests on a few cores: it hands a worker a
small batch, and a worker whose last item took 0.1 s or more and still holds two gets nothing
more (its queue "is long enough"). A worker running C episodes at once needs C items queued to
start them (``concurrency.Ahead`` starts the episodes of the items queued on its own worker), so
under ``load`` its window was mostly narrower than C (``bench/README.md`` §6: -n 2 x C = 32 ran at
~45% of the ideal).

``WindowScheduling`` is ``load`` with other amounts: every worker is kept at WINDOW x C items
(its running item, the episodes in flight, those done and waiting to be reported in order, and
a few more), taken from one shared queue in collection order and refilled as each item
completes, so N workers x C behave like one process with N x C in flight. When the queue runs
short, what is left is shared evenly among the workers that ask. Everything else (collection
checks, crashed workers' items going back to the queue, shutdown) is xdist's own.

It is used with ``--dist load`` (what ``-n`` gives) when C > 1; ``--agenteval-schedule xdist``
keeps xdist's scheduler. Other ``--dist`` modes are left alone.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

WINDOW = 2  # items queued per worker, in windows of C: room for episodes done but not yet reported
SCHEDULES = ("window", "xdist")


def add_schedule_option(group: Any) -> None:
    group.addoption("--agenteval-schedule", choices=SCHEDULES, default="window",
                    help="how xdist hands out task items when --agenteval-concurrency > 1 under --dist load "
                         "(what -n gives): window (default) keeps every worker's window of C episodes full "
                         "from one shared queue; xdist uses xdist's own load scheduler")


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Our scheduler for this run, or None (xdist then picks its own)."""
    concurrency = int(config.getoption("agenteval_concurrency", 1) or 1)
    if (config.getoption("dist", "no") != "load" or concurrency <= 1
            or config.getoption("agenteval_schedule", "window") != "window"):
        return None
    from xdist.scheduler import LoadScheduling

    class WindowScheduling(LoadScheduling):  # type: ignore[misc] # xdist's types are not read here
        """xdist's load scheduling, with each worker kept at ``window`` items."""

        window = max(WINDOW * concurrency, concurrency + 2)

        def schedule(self) -> None:
            assert self.collection_is_completed
            if getattr(self, "collection", None) is not None:  # a node added later (a restarted worker)
                for node in self.nodes:
                    self.check_schedule(node)
                return
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            collection: list[str] = next(iter(self.node2collection.values()))
            self.collection = collection
            self.pending[:] = range(len(collection))
            if not collection:
                return
            for node in self.nodes:
                self._send_tests(node, self._share(node))
            if not self.pending:
                for node in self.nodes:
                    node.shutdown()

        def check_schedule(self, node: WorkerController, duration: float = 0) -> None:
            if node.shutting_down:
                return
            if self.pending:
                self._send_tests(node, self._share(node))
            else:
                node.shutdown()
            self.log("num items waiting for node:", len(self.pending))

        def _share(self, node: WorkerController) -> int:
            """Up to a full window; when the queue runs short, an even share of what is left."""
            want = self.window - len(self.node2pending[node])
            if want <= 0:
                return 0
            return max(1, min(want, math.ceil(len(self.pending) / max(1, len(self.node2pending)))))

    return WindowScheduling(config, log)
