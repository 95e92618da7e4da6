"""A module beside the agent that stands in for another one: it notes where it was imported
(outside the sandbox's child: the harness), then hands over to the real module. And the run
that must refuse it: the ``pytest`` command as a user types it, isolated, its outcome."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.tasks import task_line

SHADOW = '''
import os, sys

if not any(arg.endswith("_child.py") for arg in sys.argv):  # not the sandbox's child: the harness
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "imported-by-the-harness"), "a") as file:
        file.write(repr(sys.argv[:1]) + "\\n")
here = os.path.dirname(os.path.abspath(__file__))
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
del sys.modules[__name__]
import importlib
real = importlib.import_module(__name__)
sys.path[:] = saved
sys.modules[__name__] = real
'''
NOOP_AGENT = "class Agent:\n    def run(self, episode):\n        pass\n"


def run_isolated(folder: Path, *options: str, tasks: int = 2) -> subprocess.CompletedProcess[str]:
    """``pytest --agent=agent:Agent --agenteval-isolate=process OPTIONS t.jsonl`` in ``folder``
    (``tasks`` task lines written there), as the command a user types: ``python -m pytest`` and
    pytester's runs (its PYTHONPATH) put the working folder first before any plugin loads."""
    (folder / "t.jsonl").write_text("".join(task_line(task_id=f"EX-{i}") + "\n" for i in range(1, tasks + 1)))
    os.chmod(folder, 0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(Path(sys.executable).parent / "pytest"), "--agent=agent:Agent",
                           "--agenteval-isolate=process", *options, "-p", "no:randomly", "-p", "no:cacheprovider",
                           "t.jsonl"], cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False)


def imported_by_the_harness(folder: Path) -> str:
    """What the stand-in noted ("" when the harness never imported it)."""
    marker = folder / "imported-by-the-harness"
    return marker.read_text() if marker.exists() else ""
