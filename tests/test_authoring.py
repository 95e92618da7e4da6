"""Environment authors: the scaffold, and a new environment in a fresh folder outside this
repository, found by pytest and by every ``agenteval`` subcommand with no path set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.environments.discovery import configured_modules, project_root
from pytest_agenteval.scaffold import ScaffoldError, new_environment
from tests.helpers.tasks import result_lines, task_line

AGENTEVAL = str(Path(sys.executable).parent / "agenteval")


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fresh")
    done = run([AGENTEVAL, "new-environment", "refunds"], folder)
    assert done.returncode == 0, done.stderr
    assert "wrote refunds_env/environment.py" in done.stdout
    return folder


def test_the_scaffold_writes_the_documented_file_set(project: Path) -> None:
    names = {str(p.relative_to(project)) for p in project.rglob("*") if p.is_file() and "__pycache__" not in str(p)}
    assert {"pyproject.toml", "tasks/refunds.jsonl", "tests/test_refunds_env.py"} <= names
    assert {f"refunds_env/{f}.py" for f in ("__init__", "schema", "rules", "environment", "rubric", "saboteurs")} <= names


def test_the_scaffold_is_green_under_validate_strict_and_its_own_tests(project: Path) -> None:
    done = run([AGENTEVAL, "validate", "--strict", "tasks/"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("OK")
    assert "tasks: 3; reference passed 3/3; do-nothing failed 3/3" in done.stdout
    done = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], project)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_fresh_folder_works_with_pytest_and_every_subcommand(project: Path) -> None:
    done = run([sys.executable, "-m", "pytest", "--agent=reference", "tasks/", "-q", "-p", "no:cacheprovider",
                "--agenteval-results=grades.jsonl"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
    done = run([sys.executable, "-m", "pytest", "--agent=noop", "tasks/", "-q", "-p", "no:cacheprovider"], project)
    assert done.returncode == 1
    done = run([AGENTEVAL, "tools", "tasks/refunds.jsonl", "--format", "openai"], project)
    assert done.returncode == 0, done.stderr
    assert [t["function"]["name"] for t in json.loads(done.stdout)] == ["get_order", "issue_refund"]
    done = run([AGENTEVAL, "replay", "grades.jsonl", "tasks/"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replayed 3 episode(s): 3 identical, 0 different, 0 whose task was not found" in done.stdout


def test_the_conversational_scaffold_talks_to_a_customer_and_is_green(tmp_path: Path) -> None:
    done = run([AGENTEVAL, "new-environment", "shop", "--conversational"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "wrote tasks/shop_chat.jsonl" in done.stdout
    done = run([AGENTEVAL, "validate", "--strict", "tasks/"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tasks: 6; reference passed 6/6; do-nothing failed 6/6" in done.stdout
    assert "unconfirmed_write      2         2  100%" in done.stdout  # a write before the customer's yes fails
    done = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    results = tmp_path / "grades.jsonl"
    done = run([sys.executable, "-m", "pytest", "--agent=reference", "tasks/shop_chat.jsonl", "-q", "-p",
                "no:cacheprovider", f"--agenteval-results={results}"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    grades = [g for g in map(json.loads, results.read_text().splitlines()) if "conversation" in g]
    kinds = {g["task_id"]: [turn["kind"] for turn in g["conversation"]] for g in grades}
    assert kinds["SHO-C01"] == ["facts", "confirmed", "closing"]
    assert kinds["SHO-C02"] == ["facts", "declined", "closing"]


def test_load_tasks_finds_the_projects_own_environments_as_the_commands_do(project: Path) -> None:
    """A harness without pytest: load_tasks imports what [tool.agenteval] environments lists."""
    harness = ("from pytest_agenteval import EnvironmentPool, load_tasks\n"
               "with EnvironmentPool() as pool:\n"
               "    for task in load_tasks('refunds.jsonl', pool=pool):\n"
               "        env = pool.get(task.environment)\n"
               "        env.reset(task.scenario_seed, task=task)\n"
               "        print(task.task_id, env.grade().passed)\n")
    done = run([sys.executable, "-c", harness], project / "tasks")  # from a subfolder of the project
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0].endswith(" False")  # doing nothing fails
    assert len(done.stdout.split()) == 6


def test_the_scaffold_refuses_bad_names_and_existing_files(tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError, match="not a usable environment name"):
        new_environment("Bad-Name", tmp_path)
    new_environment("desk", tmp_path)
    with pytest.raises(ScaffoldError, match="already exists"):
        new_environment("desk", tmp_path)


def test_configured_modules_from_pyproject_and_ini(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.agenteval]\nenvironments = ["a_env"]\n'
                                             '[tool.pytest.ini_options]\nagenteval_environments = ["b_env"]\n')
    (tmp_path / "pytest.ini").write_text("[pytest]\nagenteval_environments =\n    c_env\n    a_env\n")
    (tmp_path / "sub").mkdir()
    assert project_root(tmp_path / "sub") == tmp_path.resolve()
    assert configured_modules(tmp_path) == ["a_env", "b_env", "c_env"]


def test_a_listed_module_that_cannot_be_imported_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.agenteval]\nenvironments = ["no_such_env_module"]\n')
    (tmp_path / "t.jsonl").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "t.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "agenteval validate: environment module 'no_such_env_module' (listed in the project's configuration) "
        "cannot be imported: No module named 'no_such_env_module' (put no_such_env_module.py or its package "
        f"folder in {tmp_path.resolve()}, or install it)\n")


def test_an_environment_that_cannot_be_found_is_reported_once_per_file(tmp_path: Path) -> None:
    line = {"task_id": "X-1", "environment": "refunds_nowhere:Refunds", "scenario_seed": 0, "instruction": "x",
            "allowed_actions": ["a"], "expected_final_state": {}}
    (tmp_path / "t.jsonl").write_text("".join(json.dumps({**line, "task_id": f"X-{i}"}) + "\n" for i in range(20)))
    done = run([AGENTEVAL, "validate", "t.jsonl"], tmp_path)
    problems = [ln for ln in done.stdout.splitlines() if ln.startswith("t.jsonl:")]
    assert problems == [
        "t.jsonl:1: environment: cannot import 'refunds_nowhere': No module named 'refunds_nowhere'; 19 more lines "
        "name it, not repeated here (put refunds_nowhere.py in the project root, next to pyproject.toml, and run "
        "from there; or install it)"]
    assert done.returncode == 1


DESK = '''
from pytest_agenteval import register_environment
from pytest_agenteval.domains.example import ExampleEnvironment


class Desk(ExampleEnvironment):
    name = "desk"
    seed_key = "example"


register_environment("desk", Desk)
'''


def test_pytest_imports_the_modules_the_ini_key_lists(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nagenteval_environments = desk_env\n")
    pytester.makepyfile(desk_env=DESK)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "desk.jsonl").write_text(task_line(environment="desk") + "\n")
    result = pytester.runpytest_subprocess("--agent=reference", "tasks/", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_pytest_names_a_listed_module_it_cannot_import(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nagenteval_environments = desk_missing\n")
    result = pytester.runpytest_subprocess("--agent=reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: environment module 'desk_missing' (listed in the project's configuration) "
                                 "cannot be imported: No module named 'desk_missing' (put desk_missing.py or its "
                                 "package folder in *, or install it)"])


BUGGY = '''
from typing import Any

from pytest_agenteval import action, register_environment
from pytest_agenteval.domains.example import ExampleEnvironment


class Buggy(ExampleEnvironment):
    name = "buggy"
    seed_key = "example"

    @action(writes=False)
    def get_ticket(self, ticket_id: str) -> dict[str, Any]:
        """Look up a ticket (with a bug)."""
        return {"subject": {}["subject"]}


register_environment("buggy", Buggy)
'''

SWALLOWS = '''
class Agent:
    def run(self, episode):
        try:
            episode.call("get_ticket", {"ticket_id": "T-0001"})
        except Exception:
            pass
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


def run_buggy(pytester: pytest.Pytester, modules: dict[str, str], lines: list[str], *args: str) -> pytest.RunResult:
    """pytest over ``lines`` in a project whose ``buggy`` environment has a crashing look-up."""
    pytester.makeini("[pytest]\nagenteval_environments = buggy_env\n")
    pytester.makepyfile(buggy_env=BUGGY, **modules)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "buggy.jsonl").write_text("".join(line + "\n" for line in lines))
    return pytester.runpytest_subprocess("tasks/", "-p", "no:cacheprovider", "--agenteval-results=r.jsonl", *args)


@pytest.mark.parametrize("concurrency", ["1", "3"])
def test_an_environment_bug_fails_the_test_ungraded_even_when_the_agent_swallows_it(
        pytester: pytest.Pytester, concurrency: str) -> None:
    result = run_buggy(pytester, {"swallow": SWALLOWS}, [task_line(environment="buggy"),
                                                        task_line(task_id="EX-2", environment="example")],
                       "--agent=swallow:Agent", f"--agenteval-concurrency={concurrency}")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_ EX-1 _*", "EX-1: buggy: action get_ticket raised KeyError: 'subject' (at "
                                 "buggy_env.py:14); the episode is not graded (a bug in the environment, not the "
                                 "agent's doing: fix it, and run check_environment)", "=*"])
    assert "Traceback" not in result.stdout.str() and "During handling" not in result.stdout.str()
    assert [g["task_id"] for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g] == ["EX-2"]


FLIP = '''
import os


class Agent:
    """Does nothing on its first attempt, then calls the buggy look-up."""

    def run(self, episode):
        if os.path.exists("attempted"):
            episode.call("get_ticket", {"ticket_id": "T-0001"})
        open("attempted", "w").close()
'''


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_a_rerun_that_meets_an_environment_bug_carries_no_earlier_grade(
        pytester: pytest.Pytester, concurrency: str) -> None:
    result = run_buggy(pytester, {"flip": FLIP}, [task_line(environment="buggy")],
                       "--agent=flip:Agent", "--reruns=1", f"--agenteval-concurrency={concurrency}")
    outcomes = result.parseoutcomes()
    assert (outcomes["failed"], outcomes["rerun"], outcomes.get("passed", 0)) == (1, 1, 0)
    grades = [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g]
    assert [(g.get("attempt"), g.get("counted")) for g in grades] == [(1, False)]  # the second: no grade
    result.stdout.fnmatch_lines(["not graded, not in the table *tasks/buggy.jsonl::test_task[[]EX-1[]]*"])
