"""pytest's JUnit XML (``--junitxml``), rewritten after pytest writes it: one test case per task.

pytest's junitxml adds a ``<failure>`` and a count per subtest report (upstream:
pytest-dev/pytest#13876). ``rewrite`` gives each graded test case one ``<failure>`` naming every
failed check (an ``<error>`` with the agent's traceback for an errored episode), and recounts
the suite from its test cases. It reads the file pytest wrote (its element names and the grade
in the ``agenteval_grade`` property), not pytest's internals. Self-test: a file shaped as
pytest writes it is rewritten as expected. Fallback: the XML stays as pytest wrote it.
"""

from __future__ import annotations

import json
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_agenteval.plugin.integrations.switch import enabled

NAME = "junit"
GRADE_PROPERTY = "agenteval_grade"

_PROBE = """<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest"
errors="0" failures="2" skipped="0" tests="3"><testcase classname="t.jsonl" name="test_task[X]"><properties>
<property name="agenteval_grade" value="{grade}"/></properties><failure message="a">a</failure>
<failure message="b">b</failure></testcase></testsuite></testsuites>"""


def self_test() -> bool:
    grade = json.dumps({"passed": False, "checks": [{"name": "a", "passed": False}]}).replace('"', "&quot;")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.xml"
        path.write_text(_PROBE.format(grade=grade))
        rewrite(path, lambda g: "1 of 1 checks failed: a")
        suite = ET.parse(path).getroot().find("testsuite")
        assert suite is not None
        case = suite.find("testcase")
        return (case is not None and len(case.findall("failure")) == 1 and suite.get("tests") == "1"
                and suite.get("failures") == "1" and case[0].tag == "properties")


def _grade(case: ET.Element) -> dict[str, Any] | None:
    for prop in case.iter("property"):
        if prop.get("name") == GRADE_PROPERTY:
            return dict(json.loads(prop.get("value", "")))
    return None


def rewrite_if_enabled(path: Path, failed_text: Callable[[dict[str, Any]], str]) -> None:
    if enabled(NAME, self_test):
        rewrite(path, failed_text)


def rewrite(path: Path, failed_text: Callable[[dict[str, Any]], str]) -> None:
    """One test case per task: its check failures become one ``<failure>`` (``failed_text`` of
    its grade), and the suite's counts are recounted from the test cases."""
    tree = ET.parse(path)
    changed = False
    for suite in tree.iter("testsuite"):
        for case in suite.iter("testcase"):
            grade = _grade(case)
            if grade is None:
                continue
            for failure in case.findall("failure"):
                case.remove(failure)
            if isinstance(grade.get("error"), dict):  # errored (docs/errors.md): an error, not a failure
                for old in case.findall("error"):
                    case.remove(old)
                error = ET.Element("error", {"message": f"errored ({grade['error'].get('kind')}): "
                                                        f"{grade['error'].get('message', '')}"})
                error.text = str(grade["error"].get("traceback", ""))
                case.insert(1 if case.find("properties") is not None else 0, error)
            elif not grade["passed"]:
                text = failed_text(grade)
                failure = ET.Element("failure", {"message": text.splitlines()[0]})
                failure.text = text
                # pytest's order: properties first, then the failure, then captured output.
                case.insert(1 if case.find("properties") is not None else 0, failure)
            changed = True
        if changed:
            cases = list(suite.iter("testcase"))
            suite.set("tests", str(len(cases)))
            suite.set("failures", str(sum(c.find("failure") is not None for c in cases)))
            suite.set("errors", str(sum(c.find("error") is not None for c in cases)))
            suite.set("skipped", str(sum(c.find("skipped") is not None for c in cases)))
    if changed:
        tree.write(path, encoding="utf-8", xml_declaration=True)
