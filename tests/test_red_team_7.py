"""Red team 7: resuming another isolation level's file, folders the sandbox shows outside rootdir,
and the agent's folder shadowing the standard library, each one that got through pinned here."""

from __future__ import annotations

import os
import subprocess

import pytest

from pytest_agenteval.report.signing import KEY_ENV
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.shadowing import NOOP_AGENT, SHADOW, imported_by_the_harness, run_isolated
from tests.helpers.tasks import task_line

KEY = "k" * 32

READS_THE_TASK_FILE = '''
import json, os


class Agent:
    """Plays the acceptable path of the task file next to it, when it can read it."""

    def run(self, episode):
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "t.jsonl")) as file:
                tasks = [json.loads(line) for line in file if line.strip()]
        except OSError:
            return
        for task in tasks:
            if task["task_id"] == episode.task_id:
                for step in task["acceptable_action_paths"][0]:
                    episode.call(step["action"], step["arguments"])
'''


def test_a_run_in_process_is_not_resumed_as_an_isolated_one(pytester: pytest.Pytester,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``--agenteval-resume`` checked task files, agent, labels and ``--runs``, not the isolation:
    a signed file of an in-process run (where the agent is trusted code and here read the task
    file) was resumed by ``--agenteval-isolate``, its passes kept, under a header naming the
    isolation, exit 0. The kept grades are not what an isolated agent did."""
    pytester.makepyfile(reader=READS_THE_TASK_FILE)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    monkeypatch.setenv(KEY_ENV, KEY)
    first = pytester.runpytest("--agent=reader:Agent", "-p", "no:randomly", "--agenteval-results=r.jsonl", "t.jsonl")
    first.assert_outcomes(passed=1)
    monkeypatch.setenv(KEY_ENV, KEY)
    again = pytester.runpytest("--agent=reader:Agent", "--agenteval-isolate=process", "-p", "no:randomly",
                               "--agenteval-resume=r.jsonl", "t.jsonl")
    assert again.ret == pytest.ExitCode.USAGE_ERROR, again.stdout.str()
    again.stderr.fnmatch_lines(["*--agenteval-resume=r.jsonl*isolat*"])


READS_GIT_OBJECTS = '''
import json, os, zlib

ROOT = os.path.dirname(os.path.abspath(__file__))


def task_lines():
    for folder, _, files in os.walk(os.path.join(ROOT, ".git", "objects")):
        for name in files:
            try:
                with open(os.path.join(folder, name), "rb") as file:
                    data = zlib.decompress(file.read())
            except (OSError, zlib.error):
                continue
            for line in data.split(b"\\0", 1)[-1].splitlines():
                try:
                    yield json.loads(line)
                except ValueError:
                    continue


class Agent:
    """Plays its task's acceptable path, found in the objects of the repository it lives in."""

    def run(self, episode):
        for task in task_lines():
            if isinstance(task, dict) and task.get("task_id") == episode.task_id:
                for step in task["acceptable_action_paths"][0]:
                    episode.call(step["action"], step["arguments"])
                return
        raise RuntimeError("no task found in .git")
'''


@needs_bwrap
def test_a_folder_on_the_agents_path_outside_rootdir_hides_its_version_control(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox shows every folder on the child's ``sys.path`` (PYTHONPATH, ``.pth`` files,
    editable installs), but only rootdir was searched for what to hide. A repository whose evals
    have their own ``pytest.ini`` (rootdir ``evals/``) and whose agent is found through
    PYTHONPATH: the agent read its task, committed, from the repository's ``.git`` and passed."""
    (pytester.path / "evals").mkdir()
    (pytester.path / "evals" / "pytest.ini").write_text("[pytest]\n")
    (pytester.path / "evals" / "t.jsonl").write_text(task_line() + "\n")
    (pytester.path / "cheat.py").write_text(READS_GIT_OBJECTS)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(pytester.path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "tasks"], check=True)
    for folder, dirs, files in os.walk(pytester.path):
        for name in dirs + files:
            os.chmod(os.path.join(folder, name), 0o755)
    os.chmod(pytester.path, 0o755)
    monkeypatch.setenv("PYTHONPATH", str(pytester.path))
    result = pytester.runpytest_subprocess("--agent=cheat:Agent", "--agenteval-isolate", "-p", "no:randomly",
                                           "-p", "no:cacheprovider", "evals/t.jsonl")
    assert "rootdir: " + str(pytester.path / "evals") in result.stdout.str()
    assert result.parseoutcomes().get("passed", 0) == 0
    assert "no task found in .git" in result.stdout.str()


def test_a_file_in_the_agents_folder_named_like_a_standard_module_is_not_run_by_the_harness(
        pytester: pytest.Pytester) -> None:
    """xdist's workers start with the working folder first on ``sys.path``, and the plugin puts
    rootdir first: ``textwrap.py`` beside the agent's module was imported by both workers, as
    the harness's user, outside every sandbox (34 standard modules were; the controller also
    imported a ``getpass.py`` there). Its code could rewrite the grader."""
    pytester.makepyfile(textwrap=SHADOW, agent=NOOP_AGENT)
    done = run_isolated(pytester.path, "-n", "2")
    assert not imported_by_the_harness(pytester.path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout
    assert "textwrap.py (shadows textwrap)" in done.stderr

