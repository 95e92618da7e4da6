"""Packaged suites: ``--agenteval-suite`` in-process, and from a built wheel in a fresh venv."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from pytest_agenteval.environments.suites import resolve_suites, shipped_suites
from pytest_agenteval.errors import EnvironmentSpecError

ROOT = Path(__file__).parent.parent


def test_the_shipped_suites_are_the_repository_task_files() -> None:
    suites = shipped_suites()
    assert sorted(suites) == ["booking", "escalation"]
    for name, files in suites.items():
        # One source of truth: the package's files are the repository's tasks/ files.
        shipped = {"booking": ["booking", "booking_chat"], "escalation": ["escalation"]}[name]
        assert [f.resolve() for f in files] == [(ROOT / "tasks" / f"{n}.jsonl").resolve() for n in shipped]
    assert resolve_suites(["all", "booking"]) == [*suites["booking"], *suites["escalation"]]


def test_an_unknown_suite_names_the_ones_there_are() -> None:
    with pytest.raises(EnvironmentSpecError, match=r"'bookings' is not a known environment \(use one of booking, "
                                                    r"escalation, all\)"):
        resolve_suites(["bookings"])
    with pytest.raises(EnvironmentSpecError, match="'example' ships no suite"):
        resolve_suites(["example"])


def test_a_suite_runs_from_a_folder_without_tasks(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--agent=reference", "--agenteval-suite=escalation", "-p", "no:randomly")
    result.stdout.fnmatch_lines(["agenteval task files: */escalation/tasks/escalation.jsonl (42)"])
    result.assert_outcomes(passed=42)


def test_a_suite_combines_with_paths_given(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--agent=noop", "--agenteval-suite=booking,escalation", "-m", "booking",
                                "-q", "-p", "no:randomly")
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] > 0 and "passed" not in outcomes  # noop fails every booking task
    assert outcomes["deselected"] == 42  # the escalation suite was collected, then deselected


def test_an_unknown_suite_is_one_line(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--agent=reference", "--agenteval-suite=nope")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-suite=nope: 'nope' is not a known environment (use one of "
                                 "booking, escalation, all)"])


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout")
def test_a_built_wheel_runs_a_suite_from_an_empty_folder(tmp_path: Path) -> None:
    """pip wheel, a fresh venv, pip install of the wheel; the dependencies are this test run's
    (a .pth naming its site-packages: no index, no network), never this checkout."""
    # Not this run's PYTHONPATH (a checkout): pip would take the package as installed already.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True, env=env)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    wheel = next(wheels.glob("pytest_agenteval-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True, env=env)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True, env=env).stdout.strip())
    # A plain path line: that folder's own .pth files (this checkout's editable install) are not run.
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    run = subprocess.run([str(python), "-m", "pytest", "--agent=reference", "--agenteval-suite=all",
                          "-p", "no:randomly", "-p", "no:cacheprovider"],
                         cwd=empty, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"agenteval task files: {site}/pytest_agenteval/domains/booking/tasks/booking.jsonl" in run.stdout
    assert " 92 passed" in run.stdout.splitlines()[-1]  # booking (42 + 8 chat) and escalation (42)
    # The example agents came with it.
    agent = subprocess.run([str(python), "-m", "pytest", "--agent=pytest_agenteval.examples.rule_agent:Agent",
                            "--agenteval-suite=booking", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"],
                           cwd=empty, env=env, capture_output=True, text=True, timeout=600)
    assert agent.returncode == 1 and " passed" in agent.stdout.splitlines()[-1], agent.stdout[-3000:]
    assert list(empty.iterdir()) == []
