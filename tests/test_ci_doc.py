"""docs/ci.md's GitHub Actions workflow: its shell steps, run as the jobs would, in a copy of the project."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ci.md"


def workflow() -> str:
    found = re.search(r"```yaml\n(.*?)```", DOC.read_text(), re.S)
    assert found, "docs/ci.md has no ```yaml block"
    return found.group(1)


def jobs(text: str) -> dict[str, list[str]]:
    """Each job's ``run:`` steps (a one-line ``run: x`` or a ``run: |`` block), in order."""
    out: dict[str, list[str]] = {}
    lines = text.splitlines()
    job = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^  [a-z][\w-]*:$", line):
            job = line.strip()[:-1]
            out[job] = []
        step = re.match(r"^(\s*)(?:- )?run: (.*)$", line)
        if step and job is not None:
            indent, value = len(step.group(1)), step.group(2)
            if value == "|":
                block = []
                while i + 1 < len(lines) and (not lines[i + 1].strip()
                                              or len(lines[i + 1]) - len(lines[i + 1].lstrip()) > indent):
                    i += 1
                    block.append(lines[i].strip())
                value = "\n".join(block).strip()
            out[job].append(value)
        i += 1
    return out


def matrix(text: str) -> list[str]:
    found = re.search(r"suite: \[(.*?)\]", text)
    assert found
    return [s.strip() for s in found.group(1).split(",")]


def run(step: str, cwd: Path, **values: str) -> int:
    for name, value in values.items():
        step = step.replace("${{ matrix.%s }}" % name, value)  # noqa: UP031 - the braces are GitHub's
    assert "${{" not in step, f"a GitHub expression the test does not fill in: {step}"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["bash", "-e", "-c", step], cwd=cwd, env=env, capture_output=True, check=False).returncode


def test_the_workflow_parses_into_the_expected_steps() -> None:
    found = jobs(workflow())
    assert list(found) == ["shard", "merge"]
    assert any("--agenteval-fail-under=0" in s and "-n 2" in s for s in found["shard"])
    assert any(s.startswith("agenteval compare baseline/results.jsonl") for s in found["merge"])


def test_the_workflows_shell_steps_run_green_on_this_project(tmp_path: Path) -> None:
    text = workflow()
    steps = jobs(text)
    project = tmp_path / "project"
    shutil.copytree(ROOT / "tasks", project / "tasks")
    shutil.copytree(ROOT / "examples", project / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    install = [s for job in steps.values() for s in job if s.startswith("pip install")]
    assert install, "the install step is what the test leaves out: the package is installed here already"
    shard = [s for s in steps["shard"] if not s.startswith("pip install")]
    for suite in matrix(text):
        for step in shard:
            assert run(step, project, suite=suite) == 0, f"shard {suite}: {step}"
    merge = [s for s in steps["merge"] if not s.startswith("pip install")]
    compare = [s for s in merge if s.startswith("agenteval compare")]
    for step in merge:
        if step in compare:
            # The baseline is the merged results of a run you accept: this one.
            (project / "baseline").mkdir(exist_ok=True)
            shutil.copy(project / "results.jsonl", project / "baseline" / "results.jsonl")
        assert run(step, project) == 0, f"merge: {step}"
    assert (project / "report.html").stat().st_size > 0
    # The gate is real: the same merge above the rule agent's pass rate fails.
    gate = next(s for s in merge if "--fail-under" in s)
    assert run(gate.replace("--fail-under 0.7", "--fail-under 0.9"), project) == 1
    # And compare is real: a shard whose artifact never arrived leaves the merged run short of tasks.
    (project / "results-booking.jsonl").unlink()
    assert run(gate, project) == 0
    assert run(compare[0], project) == 2
