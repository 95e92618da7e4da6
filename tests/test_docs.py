"""Every code block of the README and docs/ is run, compared, or marked with why it is not.

The markers are described in tests/helpers/docblocks.py. Shell blocks run in one shared copy of the
project's task files (so pytest's cache warms once), with the README's agents saved beside them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.docblocks import ROOT, RUN, Block, all_blocks, kind

BLOCKS, INDENTED = all_blocks()
BIN = Path(sys.executable).parent


def test_every_block_is_run_or_says_why_not() -> None:
    problems = list(INDENTED)
    for block in BLOCKS:
        if kind(block) in ("unmarked", "unknown"):
            problems.append(f"{block.where}: a {block.lang or 'plain'} block with "
                            f"{'no marker' if block.marker is None else f'an unknown marker {block.marker!r}'}")
    assert not problems, "\n".join(problems)


def test_the_walker_finds_unmarked_and_indented_blocks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text\n\n```sh\nls\n```\n\n<!-- doc: not run: a sample -->\n```text\nx\n```\n\nPara:\n\n"
                    "    indented code\n\n- a list\n\n    its continuation\n")
    found, problems = _blocks_outside_root(page)
    assert [(b.line, kind(b)) for b in found] == [(3, "unmarked"), (8, "not-run")]
    assert len(problems) == 1 and problems[0].startswith("page.md:14: an indented code block")


def _blocks_outside_root(page: Path) -> tuple[list[Block], list[str]]:
    from tests.helpers import docblocks

    saved = docblocks.ROOT
    docblocks.ROOT = page.parent  # type: ignore[misc]  # paths are shown relative to it
    try:
        return docblocks.blocks(page)
    finally:
        docblocks.ROOT = saved  # type: ignore[misc]


def _of(wanted: str) -> list[Block]:
    return [b for b in BLOCKS if kind(b) == wanted]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the task files and the files the docs say to save."""
    here = tmp_path_factory.mktemp("docs-project")
    shutil.copytree(ROOT / "tasks", here / "tasks")
    for block in _of("save-as"):
        assert block.marker is not None
        (here / block.marker.removeprefix("save as ").strip()).write_text(block.text)
    return here


def _env(project: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "AGENTEVAL_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join([str(project), str(ROOT)])  # this tree, and the saved agents
    return env


@pytest.mark.parametrize("block", _of("save-as"), ids=lambda b: b.where)
def test_saved_python_files_import(block: Block, project: Path) -> None:
    assert block.marker is not None
    name = block.marker.removeprefix("save as ").strip()
    if name.endswith(".py"):
        run = subprocess.run([sys.executable, "-c", f"import {name[:-3]}"], cwd=project, env=_env(project),
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("block", _of("python"), ids=lambda b: b.where)
def test_python_blocks_run(block: Block, project: Path) -> None:
    run = subprocess.run([sys.executable, "-c", block.text], cwd=project, env=_env(project),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"{block.where}:\n{run.stdout}\n{run.stderr}"


def _commands(text: str) -> list[str]:
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _narrowed(command: str, k: str | None) -> str:
    if k is None or not re.match(r"\s*pytest\b", command):
        return command
    return f"{command} -k {shlex.quote(k)}"


@pytest.mark.parametrize("block", _of("run"), ids=lambda b: b.where)
def test_shell_blocks_run(block: Block, project: Path) -> None:
    """Exit 0, or 1 for a run with failing tasks or a comparison finding a regression; never a usage error."""
    assert block.marker is not None
    spec = RUN.match(block.marker)
    assert spec is not None
    output = ""
    for command in _commands(block.text):
        run = subprocess.run(["bash", "-c", _narrowed(command, spec["k"])], cwd=project, env=_env(project),
                             capture_output=True, text=True, timeout=300)
        output += run.stdout + run.stderr
        assert run.returncode in (0, 1), f"{block.where}: `{command}` exited {run.returncode}:\n{run.stdout}\n{run.stderr}"
        assert "Traceback" not in run.stdout + run.stderr, f"{block.where}: `{command}`:\n{run.stderr}"
    if spec["expect"]:
        assert spec["expect"] in output, f"{block.where}: expected {spec['expect']!r} in:\n{output[-3000:]}"


def _loose(line: str) -> str:
    """A line without what varies between runs: padding, the duration, a rule's width."""
    line = re.sub(r" in \d+(\.\d+)?s\b.*", "", line)
    line = line.strip("= ")
    return " ".join(line.split())


@pytest.mark.parametrize("block", _of("output-of"), ids=lambda b: b.where)
def test_output_blocks_match_a_real_run(block: Block, project: Path) -> None:
    """Every line of the pasted output, other than `...` and the progress lines, is in a real run's
    output, in the same order."""
    assert block.marker is not None
    command = block.marker.removeprefix("output of: ")
    shutil.copytree(ROOT / "examples", project / "examples", dirs_exist_ok=True)
    run = subprocess.run(["bash", "-c", command], cwd=project, env=_env(project), capture_output=True,
                         text=True, timeout=300)
    # The `pytest` script of a venv holding the test extras: none of their plugins may warn here.
    assert "warning" not in (run.stdout + run.stderr).lower(), run.stdout + run.stderr
    real = [_loose(line) for line in run.stdout.splitlines()]
    position = 0
    for shown in block.text.splitlines():
        if shown.strip() in ("...", "") or shown.startswith(("tasks/", "  ")) or "%]" in shown:
            continue  # elisions, progress dots (their order varies with xdist), abridged failure details
        want = _loose(shown)
        # pytest cuts a summary line to the terminal's width, but not when CI is set: "..." is a prefix.
        fits = [k for k in range(position, len(real)) if real[k] == want or (
            want.endswith("...") and real[k].startswith(want[:-3]))]
        assert fits, f"{block.where}: {want!r} not in the real output (in order):\n{run.stdout}"
        position = fits[0] + 1


def test_the_readme_llm_agent_passes_a_task_through_the_real_sdk(project: Path) -> None:
    """The README's OpenAI-SDK agent, against a scripted OpenAI-compatible server playing BK-001's path."""
    pytest.importorskip("openai")
    from tests.helpers.openai_fake import ScriptedOpenAI

    task = next(json.loads(line) for line in (ROOT / "tasks" / "booking.jsonl").read_text().splitlines()
                if line.startswith('{"task_id": "BK-001"'))
    path = [(step["action"], json.dumps(step.get("arguments", {}))) for step in _flat(task["acceptable_action_paths"][0])]
    with ScriptedOpenAI({task["instruction"]: path}) as model:
        env = {**_env(project), "OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": "test-key",
               "AGENTEVAL_MODEL": "scripted-model"}
        run = subprocess.run([sys.executable, "-m", "pytest", "--agent=llm_agent:Agent", "tasks/booking.jsonl",
                              "-k", "BK-001", "--agenteval-results=llm.jsonl", "-p", "no:randomly"],
                             cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout
    grade = next(g for g in map(json.loads, (project / "llm.jsonl").read_text().splitlines()) if "task_id" in g)
    assert grade["passed"] and grade["usage"]["model_calls"] == len(path) + 1
    assert grade["transcript"][1] == {"role": "user", "content": task["instruction"]}


def _flat(path: list[dict[str, object]]) -> list[dict[str, object]]:
    """A path's steps in their listed order (groups flattened), as the reference agent plays them."""
    steps: list[dict[str, object]] = []
    for step in path:
        if isinstance(step, list):
            steps += _flat(step)
        elif "any_order" in step:
            steps += _flat(step["any_order"])  # type: ignore[arg-type]
        else:
            steps.append(step)
    return steps
