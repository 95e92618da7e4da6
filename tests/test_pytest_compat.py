"""pytest's internals are used in one module, plugin/compat.py, and its public-API fallback
prints, writes and counts the same (issue #16)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from pytest_agenteval.plugin import compat
from tests.test_plugin import write_tasks

PACKAGE = Path(__file__).parent.parent / "pytest_agenteval"
PRIVATE = ("FixtureFunctionDefinition", "xml_key", "check_interactive_exception", "evaluate_skip_marks",
           "SubtestContext", "failed_subtests_key")


def test_only_compat_imports_pytest_internals() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "_pytest" or n.startswith("_pytest.") for n in names):
                found.append(str(path.relative_to(PACKAGE)))
    assert sorted(set(found)) == ["plugin/compat.py"]


def test_the_internals_pass_the_self_test_on_this_pytest() -> None:
    # Otherwise every run here would take the fallback, and the test below would compare it with itself.
    assert compat.self_test() is True


def test_a_failing_self_test_means_the_fallback_without_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> bool:
        raise TypeError("a pytest whose internals changed")

    monkeypatch.setattr(compat, "_verdict", None)
    monkeypatch.setattr(compat, "_probe", broken)
    assert compat.self_test() is False
    monkeypatch.setattr(compat, "_verdict", None)
    monkeypatch.setattr(compat, "_probe", lambda: False)
    assert compat.self_test() is False


def _run(pytester: pytest.Pytester, *args: str) -> tuple[list[str], list[dict[str, object]], str]:
    """(terminal lines, results file, JUnit XML), without what differs between any two runs."""
    result = pytester.runpytest("--agent=agents_mod:Closer", "-p", "no:randomly", "--agenteval-results=r.jsonl",
                                "--junitxml=junit.xml", *args)
    # A time of another width re-centres its line between "=" runs: drop the padding too.
    lines = [re.sub(r" in [0-9.]+s( \(\d+:\d\d:\d\d\))?", " in Ts", line).strip("= ")
             for line in result.stdout.lines]
    records = [json.loads(line) for line in (pytester.path / "r.jsonl").read_text().splitlines()]
    for record in records:
        record.pop("duration", None)
        record.get("run_record", {}).pop("started", None)
    junit = (pytester.path / "junit.xml").read_text()
    junit = re.sub(r' (time|timestamp|hostname)="[^"]*"', "", junit)
    junit = re.sub(r"&quot;started&quot;: &quot;[^&]*&quot;", "", junit)
    return lines, sorted(records, key=lambda r: str(r.get("nodeid", ""))), junit


@pytest.mark.parametrize("args", [("-v",), ("-q",), ("-x",)], ids=["verbose", "quiet", "exitfirst"])
def test_the_public_fallback_prints_and_writes_the_same(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                         args: tuple[str, ...]) -> None:
    write_tasks(pytester)
    internals = _run(pytester, *args)
    assert any("SUBFAILED[frame]" in line for line in internals[0]) == ("-v" in args)
    assert "agenteval_run" in internals[2] and len(internals[1]) == 4  # run record, 2 grades, summary
    monkeypatch.setenv(compat.ENV_VAR, "off")
    for name in PRIVATE:  # the fallback run cannot reach them: using one would be a NameError
        monkeypatch.delattr(compat, name)
    fallback = _run(pytester, *args)
    assert fallback[0] == internals[0]
    assert fallback[1] == internals[1]
    assert fallback[2] == internals[2]


def test_the_public_fallback_under_xdist_is_the_same(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    write_tasks(pytester)
    internals = _run(pytester, "-n", "2", "-v")
    assert len(_xdist_view(internals[0])[0]) == 2 + 2 * 6  # each task's status and its 6 checks'
    monkeypatch.setenv(compat.ENV_VAR, "off")
    fallback = _run(pytester, "-n", "2", "-v")
    assert _xdist_view(fallback[0]) == _xdist_view(internals[0])
    assert fallback[1] == internals[1]
    assert _cases(fallback[2]) == _cases(internals[2])


def _xdist_view(lines: list[str]) -> tuple[list[str], list[str]]:
    """Workers finish in any order, and where the terminal breaks lines depends on when each
    report arrives: every status (``SUBPASSED[frame] tasks/…``), as a sorted list, and the
    failures and summaries from ``FAILURES`` on, without which worker ran what."""
    start = next(n for n, line in enumerate(lines) if line == "FAILURES")
    statuses = sorted(re.findall(r"(?:SUB)?(?:PASSED|FAILED)(?:\[[^\]]*\])? tasks/\S+", "\n".join(lines[:start])))
    return statuses, [re.sub(r"\[gw\d+\] ", "", line) for line in lines[start:]]


def _cases(junit: str) -> list[str]:
    return sorted(re.findall(r"<testcase .*?</testcase>|<testcase [^>]*/>", junit, re.S))


def test_without_internals_a_conftest_agent_still_counts_and_no_agent_is_still_refused(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tasks(pytester)
    pytester.syspathinsert()
    monkeypatch.setenv(compat.ENV_VAR, "off")
    refused = pytester.runpytest()
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["ERROR: no agent to evaluate: pass --agent=MODULE:ATTR (e.g. --agent=reference), "
                                  "or define an `agent` fixture in conftest.py"])
    # tasks/conftest.py is loaded only by collection (no path given): found then.
    (pytester.path / "tasks" / "conftest.py").write_text(
        "import pytest, agents_mod\n@pytest.fixture\ndef agent():\n    return agents_mod.Closer\n")
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1, failed=1)


def test_skip_marks_read_the_same_without_internals(pytester: pytest.Pytester) -> None:
    items = pytester.getitems("""
import pytest
def test_plain(): pass
@pytest.mark.skip
def test_skip(): pass
@pytest.mark.skipif(True, reason="x")
def test_skipif_true(): pass
@pytest.mark.skipif(False, reason="x")
def test_skipif_false(): pass
@pytest.mark.skipif("1 == 1", reason="x")
def test_skipif_string(): pass
""")
    config = items[0].config
    assert compat.uses_internals(config)
    with_internals = [compat.skip_marked(item) for item in items]
    config.stash[compat.USE_INTERNALS] = False
    without = [compat.skip_marked(item) for item in items]
    assert with_internals == without == [False, True, True, False, True]
