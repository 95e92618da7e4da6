"""Customers can grade in their own harness: no pytest fixtures of ours, just the hooks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers.tasks import task_line

HARNESS = '''
import json, sys
from pytest_agenteval import EnvironmentPool, load_tasks

pool = EnvironmentPool()
for task in load_tasks(sys.argv[1], pool=pool):
    env = pool.get(task.environment)
    env.reset(task.scenario_seed, task=task)
    env.apply("get_ticket", {"ticket_id": "T-0001"})
    env.apply("close_ticket", {"ticket_id": "T-0001"})
    print(env.grade(task.task_id).model_dump_json())
pool.close()
'''


def test_standalone_harness_without_pytest(tmp_path: Path) -> None:
    (tmp_path / "tasks.jsonl").write_text(task_line() + "\n")
    (tmp_path / "harness.py").write_text(HARNESS)
    # -X importtime is not needed: we check pytest is never imported by the hooks.
    code = "import sys, runpy; sys.argv = ['harness.py', 'tasks.jsonl']; runpy.run_path('harness.py');" \
           "assert 'pytest' not in sys.modules and '_pytest' not in sys.modules, 'pytest was imported'"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    grade = json.loads(out.stdout)
    assert grade["task_id"] == "EX-1" and grade["passed"] is True


def test_only_the_plugin_package_imports_pytest() -> None:
    """pytest ends at pytest_agenteval/plugin/: nothing below it imports pytest, even in a function."""
    root = Path(__file__).parent.parent / "pytest_agenteval"
    leaks = [
        str(p.relative_to(root)) for p in root.rglob("*.py")
        if p.relative_to(root).parts[0] != "plugin"
        and any(line.strip().startswith(("import pytest", "from pytest ", "from pytest.", "from _pytest",
                                         "import _pytest"))
                for line in p.read_text().splitlines())
    ]
    assert leaks == []
    assert (root / "plugin" / "__init__.py").is_file()  # the layout this test assumes
