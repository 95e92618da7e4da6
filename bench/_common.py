"""Shared helpers for the benchmarks: timing whole pytest runs, medians, markdown tables."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TASK_FILES = [ROOT / "tasks" / "booking.jsonl", ROOT / "tasks" / "escalation.jsonl"]


def pytest_seconds(args: Sequence[str], cwd: Path, *, repeat: int, warm_up: bool = True) -> float:
    """Median wall time of ``python -m pytest ARGS`` (a fresh process each time, as users run it).

    Bytecode caching is switched on (this workplace sets PYTHONDONTWRITEBYTECODE, which makes
    every run recompile and re-rewrite every module) and one warm-up run is discarded, so both
    sides of a comparison run as they would on a user's machine.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    times = []
    for i in range(repeat + 1 if warm_up else repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", *args],
                              cwd=cwd, env=env, capture_output=True, text=True)
        if i or not warm_up:
            times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"pytest failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return statistics.median(times)


def copy_tasks(work: Path) -> None:
    """The shipped task files, copied into ``work/tasks``."""
    (work / "tasks").mkdir()
    for path in TASK_FILES:
        shutil.copy(path, work / "tasks" / path.name)


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def shipped_lines() -> list[dict[str, object]]:
    return [json.loads(line) for path in TASK_FILES for line in path.read_text().splitlines()
            if line.startswith("{")]
