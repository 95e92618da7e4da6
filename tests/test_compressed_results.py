"""Compressed results files (``--agenteval-results=r.jsonl.gz``): written line by line, read by
every command (report, compare, show, replay; resume and signing in test_resume.py)."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report.compressed import GZIP_MAGIC, gunzip
from pytest_agenteval.report.results import ResultsWriter, load_results
from tests.helpers.tasks import write_ex1_and_ex3

AGENT = '''
class Agent:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.fixture
def runs(pytester: pytest.Pytester) -> Path:
    pytester.makepyfile(closer=AGENT)
    write_ex1_and_ex3(pytester.path)
    result = pytester.runpytest("--agent=closer:Agent", "--runs=2", "--agenteval-results=r.jsonl.gz")
    result.assert_outcomes(passed=2, failed=2)
    return pytester.path


def test_the_plugin_writes_gzip_that_decompresses_to_the_plain_lines(runs: Path) -> None:
    data = (runs / "r.jsonl.gz").read_bytes()
    assert data[:2] == GZIP_MAGIC
    lines = [json.loads(line) for line in gzip.decompress(data).decode().splitlines()]
    assert "run_record" in lines[0] and "summary" in lines[-1]
    assert sorted((g["task_id"], g["run"]) for g in lines[1:-1]) == [("EX-1", 1), ("EX-1", 2), ("EX-3", 1),
                                                                     ("EX-3", 2)]
    assert load_results(runs / "r.jsonl.gz").grades == lines[1:-1]


def test_every_command_reads_a_compressed_file_as_the_plain_one(runs: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(runs)
    (runs / "plain.jsonl").write_bytes(gzip.decompress((runs / "r.jsonl.gz").read_bytes()))
    for command in (["report", "{}"], ["compare", "{}", "{}"], ["show", "{}", "EX-3"],
                    ["replay", "{}", "tasks/example.jsonl"]):
        said = []
        for name in ("r.jsonl.gz", "plain.jsonl"):
            status = main([part.format(name) for part in command])
            out = capsys.readouterr()
            said.append((status, out.out.replace(name, "FILE"), out.err.replace(name, "FILE")))
        assert said[0] == said[1], command
        assert said[0][0] in (0, 1) and said[0][1], command


def test_a_killed_writer_leaves_every_whole_line_readable(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path / "r.jsonl.gz")
    writer.start({"agent": "a"})
    writer.write({"task_id": "EX-1", "run": 1, "passed": True, "checks": []})
    data = (tmp_path / "r.jsonl.gz").read_bytes()  # as a kill leaves it: no end of stream
    with pytest.raises((EOFError, zlib.error)):
        gzip.decompress(data)
    assert gunzip(data).decode().splitlines() == ['{"run_record": {"agent": "a"}}',
                                                  '{"checks": [], "passed": true, "run": 1, "task_id": "EX-1"}']
    writer.close()
