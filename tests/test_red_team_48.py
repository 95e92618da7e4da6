"""Red team 48 (2 of 14 broke, both minor): an argument of 65,000 emoji was under the 64 KiB cut
in characters but 780 KB as written (ASCII JSON escapes each as 12 bytes: 30 MB results lines,
JUnit XML written long after the time limit); a results file whose summary line or run record
holds a field of another type (an edit) made `report`, `compare` and `replay` end in a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.engine.audit import MAX_STORED_ARGS, stored_arguments, written_size


def test_arguments_are_cut_by_the_size_they_are_written_at() -> None:
    assert written_size("abc") == 3 and written_size("\u00e9") == 6 and written_size("\U0001f600") == 12
    stored = stored_arguments({"body": "\U0001f600" * 65_000})
    assert json.loads(stored)["_truncated"] is True and written_size(stored) <= MAX_STORED_ARGS
    assert stored_arguments({"body": "caf\u00e9"}) == '{"body":"caf\u00e9"}'


@pytest.mark.parametrize(("edit", "said"), [
    (lambda r: r.update(summary=7) if "summary" in r else None, "summary is int, not dict"),
    (lambda r: r["run_record"].update(labels=3) if "run_record" in r else None, "run.labels is int, not dict"),
    (lambda r: r["run_record"].setdefault("options", {}).update(reruns="x") if "run_record" in r else None,
     "run.options.reruns is str, not int"),
])
def test_a_summary_or_run_record_of_the_wrong_shape_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                edit, said: str) -> None:  # type: ignore[no-untyped-def]
    lines = [{"run_record": {"agent": "x", "labels": {}, "options": {}}},
             {"task_id": "EX-1", "run": 1, "passed": True, "score": 1.0, "checks": [], "failure_modes": []},
             {"summary": {"episodes": 1}, "run_record": {"agent": "x", "labels": {}, "options": {}}}]
    for line in lines:
        edit(line)
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for command in (["report", str(path)], ["compare", str(path), str(path)]):
        assert main(command) != 0
        assert said in capsys.readouterr().err
