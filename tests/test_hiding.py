"""What an isolated agent sees of the project folder (``plugin.view``: code, and what
``agenteval_show`` lists) and what is left out even so (``plugin.hiding``: the run's own files,
the ``agenteval_hide`` list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_agenteval.plugin.hiding import hidden_paths
from pytest_agenteval.plugin.state import STATE
from pytest_agenteval.plugin.view import in_view


def test_the_view_holds_code_and_what_the_ini_lists(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "nightly.xml").write_text('<?xml version="1.0"?>\n<testsuites><testsuite name="pytest"/>')
    (tmp_path / "ci" / "run-7.json").write_text('{"created": 1.0, "duration": 2.0, "exitcode": 1, "root": "/p"}')
    (tmp_path / "ci" / "helper.py").write_text("")
    (tmp_path / "settings.json").write_text('{"model": "gpt", "temperature": 0}')  # the agent's own
    (tmp_path / "pom.xml").write_text("<project></project>")
    assert in_view(tmp_path) == ["agent.py", "ci/helper.py"]
    assert in_view(tmp_path, shown=["settings.json"]) == ["agent.py", "ci/helper.py", "settings.json"]


def test_the_hide_list_and_this_runs_reports_are_hidden(pytester: pytest.Pytester) -> None:
    """A glob's folder without Python is hidden whole (a report written there later is too);
    in a folder of code, only what the glob matches."""
    pytester.makeini("[pytest]\nagenteval_hide =\n    scripts\n    reports/*.json\n    lib/*.csv\n")
    for name in ("scripts/gen.py", "reports/old.txt", "lib/answers.csv", "lib/helper.py", "lib/readme.txt"):
        (pytester.path / name).parent.mkdir(exist_ok=True)
        (pytester.path / name).write_text("")
    config = pytester.parseconfigure("--junitxml=out/junit.xml", "-p", "no:cacheprovider")
    hidden = {Path(p).relative_to(pytester.path).as_posix() for p in hidden_paths(config, config.stash[STATE])
              if Path(p).is_relative_to(pytester.path)}
    assert {"scripts", "reports", "lib/answers.csv", "out/junit.xml"} <= hidden
    assert not {"lib", "lib/helper.py", "lib/readme.txt"} & hidden
