"""Other plugins' interfaces (plugin/integrations/): each self-test holds with the installed
plugins, and each forced fallback leaves that plugin's output as the plugin makes it, with
the run still graded (tests/test_reporters.py shows the integrations at work)."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from pytest_agenteval.plugin.integrations import (
    allure,
    json_report,
    junit,
    pytest_html,
    rerunfailures,
    sugar,
    switch,
    xdist,
)
from tests.test_plugin import write_tasks

MODULES = [allure, json_report, junit, pytest_html, rerunfailures, sugar, xdist]
EX3_FAILED = ["action_path", "state.ticket.T-0003", "frame"]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_each_self_test_holds_with_the_installed_plugin(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(switch.ENV_VAR, raising=False)
    assert module.self_test() is True
    assert switch.enabled(module.NAME, module.self_test)


@pytest.mark.parametrize("value", ["off", "off:allure,junit"])
def test_the_environment_forces_the_fallbacks(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switch.ENV_VAR, value)
    assert not switch.enabled("allure", allure.self_test) and not switch.enabled("junit", junit.self_test)
    assert switch.enabled("sugar", sugar.self_test) == (value != "off")


def test_a_self_test_that_raises_means_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(switch.ENV_VAR, raising=False)

    def moved() -> bool:
        raise AttributeError("the plugin's internals moved")

    assert switch.enabled("a-plugin-that-moved", moved) is False


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> pytest.Pytester:
    write_tasks(pytester)
    return pytester


def test_forced_fallbacks_leave_each_plugins_output_as_it_makes_it(tasks: pytest.Pytester,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switch.ENV_VAR, "off")
    result = tasks.runpytest("--agent=agents_mod:Closer", "--junitxml=junit.xml", "--json-report",
                             "--json-report-file=report.json", "--html=report.html", "--self-contained-html",
                             "--alluredir=allure", "--agenteval-results=r.jsonl")
    assert result.parseoutcomes() == {"failed": 1, "passed": 1, "checks": 3}  # our own counts: no integration
    # JUnit as pytest writes it: a <failure> per failed check (not rewritten).
    suite = ET.parse(tasks.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    cases = [c for c in suite.iter("testcase") if c.get("name") == "test_task[EX-3]"]
    assert sum(len(c.findall("failure")) for c in cases) > 1
    # json-report: no grade attached or outcome repaired; the run record still there.
    report = json.loads((tasks.path / "report.json").read_text())
    assert all("agenteval" not in t for t in report["tests"]) and report["agenteval_run"]["agent"]
    # pytest-html: the failed task's passed checks make a second, "Passed", row.
    page = (tasks.path / "report.html").read_text()
    blob = json.loads(html.unescape(re.search(r'data-jsonblob="([^"]*)"', page)[1]))  # type: ignore[index]
    assert sorted(r["result"] for r in blob["tests"]["tasks/example.jsonl::test_task[EX-3]"]) == ["Failed", "Passed"]
    # allure: the first failed check's message, not every failed check.
    results = [json.loads(p.read_text()) for p in Path(tasks.path / "allure").glob("*-result.json")]
    failed = next(r for r in results if r["name"] == "test_task[EX-3]")
    assert not failed["statusDetails"]["message"].startswith("3 of 6 checks failed")
    # The results file does not depend on any of them.
    graded = [json.loads(line) for line in (tasks.path / "r.jsonl").read_text().splitlines()]
    assert sorted(g["task_id"] for g in graded if "task_id" in g) == ["EX-1", "EX-3"]


def test_forced_sugar_fallback_counts_checks_as_sugar_does(tasks: pytest.Pytester,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switch.ENV_VAR, "off:sugar")  # the subprocess inherits it
    result = tasks.runpytest_subprocess("--agent=agents_mod:Closer", "--force-sugar")
    tail = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout.str()).split("Results (")[1]
    passed = re.search(r"^\s*(\d+) passed$", tail, re.M)
    assert passed is not None and int(passed.group(1)) > 1  # passed checks counted as tests
