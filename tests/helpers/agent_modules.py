"""Agents written as a module of their own, importable in process and by a sandbox (whose search
path is the module's folder), for tests that play one agent in every placement."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from pytest_agenteval.agents.pool import close_pools, open_pools


@contextlib.contextmanager
def agent_module(folder: Path, name: str, source: str) -> Iterator[Path]:
    """``source`` as module ``name`` in ``folder``, on ``sys.path``, with the sandbox pools open
    as a run opens them (an in-process pytester run before may have closed them)."""
    (folder / f"{name}.py").write_text(source)
    sys.path.insert(0, str(folder))
    open_pools()
    try:
        yield folder
    finally:
        close_pools()
        sys.path.remove(str(folder))
        sys.modules.pop(name, None)
