"""Task tags, environment names and splits become markers: none may be a marker that already
means something to pytest or to a plugin (issue #14, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.results import read_results
from pytest_agenteval.tasks.marks import reserved_marks
from tests.helpers.tasks import task_line

FIX = "rename the tag; `pytest --markers` lists the markers in use"


def write(pytester: pytest.Pytester, *lines: str) -> None:
    (pytester.path / "tasks").mkdir(exist_ok=True)
    good = task_line(task_id="EX-0")
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join([good, *lines]) + "\n")


@pytest.mark.parametrize("tag", ["skip", "skipif", "xfail", "usefixtures", "parametrize", "filterwarnings"])
def test_a_tag_that_is_a_builtin_marker_is_a_line_error(pytester: pytest.Pytester, tag: str) -> None:
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=["wrong_ticket", tag]),
          task_line(task_id="EX-2"))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=2, errors=1)  # the other lines still run
    result.stdout.fnmatch_lines([
        f"tasks/t.jsonl:2: failure_mode_tags[1]: {tag!r} is already a pytest marker (built into pytest); "
        f"as a tag it would change how the task runs ({FIX})"])
    assert "Traceback" not in result.stdout.str() and "INTERNALERROR" not in result.stdout.str()


def test_a_tag_that_a_plugin_registered_is_a_line_error(pytester: pytest.Pytester) -> None:
    # A stand-in for pytest-timeout: a conftest plugin that reads its marker's argument.
    pytester.makeconftest('''
def pytest_configure(config):
    config.addinivalue_line("markers", "deadline(seconds): fail a test that runs longer")

def pytest_runtest_setup(item):
    mark = item.get_closest_marker("deadline")
    if mark is not None:
        float(mark.args[0])
''')
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=["deadline"]))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([
        "tasks/t.jsonl:2: failure_mode_tags[0]: 'deadline' is already a pytest marker (registered by a plugin, "
        f"conftest.py or the ini file); as a tag it would change how the task runs ({FIX})"])


def test_well_known_plugin_markers_are_refused_even_when_the_plugin_is_absent(pytester: pytest.Pytester) -> None:
    """A task file must not be valid on one machine and break on the next (pytest-timeout installed)."""
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=["timeout"]))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([
        "tasks/t.jsonl:2: failure_mode_tags[0]: 'timeout' is already a pytest marker (used by pytest-timeout); "
        f"as a tag it would change how the task runs ({FIX})"])


def test_an_environment_named_like_a_marker_is_a_line_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(skipenv="from pytest_agenteval.domains.example import ExampleEnvironment\n"
                                "class Skip(ExampleEnvironment):\n    name = 'skip'\n")
    pytester.syspathinsert()
    write(pytester, task_line(task_id="EX-1", environment="skipenv:Skip"))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([
        "tasks/t.jsonl:2: environment: its marker 'skip' is already a pytest marker (built into pytest); "
        "it would change how the task runs (register the environment under another name)"])


def test_a_split_whose_marker_a_plugin_registered_is_a_line_error(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('def pytest_configure(config):\n'
                          '    config.addinivalue_line("markers", "eval: evaluated lazily")\n')
    write(pytester, task_line(task_id="EX-1", split="eval"))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)  # EX-0 is split train
    result.stdout.fnmatch_lines([
        "tasks/t.jsonl:2: split: its marker 'eval' is already a pytest marker (registered by a plugin, conftest.py "
        "or the ini file); it would change how the task runs (stop registering that marker, or disable the "
        "plugin that does with -p no:NAME)"])


def test_our_own_markers_do_not_count_as_taken(pytester: pytest.Pytester) -> None:
    """Tags registered from one task file are not "another plugin's" markers for the next."""
    write(pytester, task_line(task_id="EX-1"))
    (pytester.path / "tasks" / "u.jsonl").write_text(task_line(task_id="EX-9") + "\n")
    pytester.runpytest("--agent=reference", "--strict-markers", "-m", "wrong_ticket").assert_outcomes(passed=3)


def test_the_harness_labels_are_not_markers_and_can_be_tags(pytester: pytest.Pytester) -> None:
    """The failure modes the harness itself emits must be usable as tags: none may be a marker."""
    pytester.makepyfile(agents_mod="import time\nclass Sleeps:\n    def run(self, episode):\n"
                                   "        time.sleep(5)\n")
    write(pytester)
    pytester.runpytest("--agent=agents_mod:Sleeps", "--agenteval-timeout=0.2", "--agenteval-results=r.jsonl")
    grade = read_results(pytester.path / "r.jsonl")[0][0]
    labels = {c["failure_mode"] for c in grade["checks"]} | {"agent_error", "step_limit"}
    assert "agent_timeout" in labels
    assert not labels & set(reserved_marks())
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=sorted(labels)))
    pytester.runpytest("--agent=reference").assert_outcomes(passed=2)


def test_validate_refuses_builtin_and_well_known_markers_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(task_line(failure_mode_tags=["xfail", "flaky"]) + "\n")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (f"{path}:1: failure_mode_tags[0]: 'xfail' is already a pytest marker (built into pytest); "
            f"as a tag it would change how the task runs ({FIX})\n") in out
    assert (f"{path}:1: failure_mode_tags[1]: 'flaky' is already a pytest marker (used by flaky and "
            f"pytest-rerunfailures); as a tag it would change how the task runs ({FIX})\n") in out


def test_markers_listing_does_not_claim_a_taken_name(pytester: pytest.Pytester) -> None:
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=["xfail", "slow_close"]))
    out = pytester.runpytest("--markers", "tasks/").stdout.str()
    assert "@pytest.mark.slow_close: failure mode tag (agenteval)" in out
    assert "@pytest.mark.xfail: failure mode tag" not in out


@pytest.mark.parametrize(("tag", "what"), [("eval", "a task split"), ("booking", "an environment")])
def test_a_tag_named_like_our_other_markers_is_a_line_error(pytester: pytest.Pytester, tag: str, what: str) -> None:
    """`-m eval` must select the eval split, not also the tasks tagged eval."""
    write(pytester, task_line(task_id="EX-1", failure_mode_tags=[tag]))
    result = pytester.runpytest("--agent=reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([
        f"tasks/t.jsonl:2: failure_mode_tags[0]: {tag!r} is also the marker of {what}; `-m {tag}` could not "
        "tell them apart (rename the tag)"])
