"""Red team 6: signed results read twice, reports written during the run, and in-process agents'
thread pools, each one that got through pinned here."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.report import commands
from pytest_agenteval.report.signing import KEY_ENV, Verification
from pytest_agenteval.report.signing import verify as real_verify
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line

KEY = "k" * 32

READS_THE_REPORTS = '''
import os


class Agent:
    """Does nothing; if any file under the report folder is readable, says what it read."""

    def run(self, episode):
        for folder, _, files in os.walk(os.path.join(os.path.dirname(__file__), "{folder}")):
            for name in files:
                try:
                    with open(os.path.join(folder, name)) as file:
                        text = file.read()
                except OSError:
                    continue
                if "{mark}" in text:
                    raise RuntimeError("read a report of this run: " + name)
'''


def _read_reports(pytester: pytest.Pytester) -> list[str]:
    """The agent_completed detail of every grade that read a report of its own run."""
    details = [c["detail"] for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g
               for c in g["checks"] if c["name"] == "agent_completed"]
    return [d for d in details if "read a report of this run" in d]


@needs_bwrap
def test_a_report_the_hide_list_globs_is_hidden_though_written_during_the_run(pytester: pytest.Pytester) -> None:
    """``agenteval_hide = reports/*.json`` was globbed once, at the start: a report a plugin writes
    after each test (here a conftest; allure-pytest does it) matched nothing then, so the run's
    later episodes read the earlier ones' failed checks (their details name the acceptable path)."""
    pytester.makeini("[pytest]\nagenteval_hide = reports/*.json\n")
    (pytester.path / "reports").mkdir()
    pytester.makeconftest('''
import json, os

def pytest_runtest_logreport(report):
    if report.when == "call":
        name = "".join(c if c.isalnum() else "_" for c in report.nodeid)
        with open(os.path.join(os.path.dirname(__file__), "reports", name + ".json"), "w") as file:
            json.dump({"nodeid": report.nodeid, "detail": "ANSWERS-IN-HERE"}, file)
''')
    pytester.makepyfile(reader=READS_THE_REPORTS.format(folder="reports", mark="ANSWERS-IN-HERE"))
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    os.chmod(pytester.path, 0o755)
    pytester.runpytest("--agent=reader:Agent", "--agenteval-isolate", "--runs", "3", "-p", "no:randomly",
                       "--agenteval-results=r.jsonl", "t.jsonl")
    assert _read_reports(pytester) == []


@needs_bwrap
@pytest.mark.skipif(importlib.util.find_spec("allure_pytest") is None, reason="allure-pytest not installed")
def test_this_runs_allure_results_are_hidden_from_its_later_episodes(pytester: pytest.Pytester) -> None:
    """allure-pytest (a reporter the plugin feeds every failed check's message) writes a result
    file per test as it ends; ``--alluredir`` was not hidden as ``--junitxml`` is, so a task's
    second run read its first run's failed checks."""
    pytester.makepyfile(reader=READS_THE_REPORTS.format(folder="allure", mark="checks failed"))
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    os.chmod(pytester.path, 0o755)
    pytester.runpytest("--agent=reader:Agent", "--agenteval-isolate", "--runs", "3", "-p", "no:randomly",
                       "--alluredir=allure", "--agenteval-results=r.jsonl", "t.jsonl")
    assert any("checks failed" in p.read_text() for p in (pytester.path / "allure").iterdir())
    assert _read_reports(pytester) == []


def test_report_reads_the_bytes_it_verified(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``report`` verified a file, then opened it again to merge it: a path that gives other bytes
    the second time (a FIFO fed twice, a file replaced in between: measured with a FIFO) was said
    to be "signed and verified" and its forged grades were reported. Here the file is replaced
    right after it is verified, by the same run with its grade turned to passed."""
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    monkeypatch.setenv(KEY_ENV, KEY)
    pytester.runpytest("--agent=noop", "-p", "no:cacheprovider", "--agenteval-results=r.jsonl", "t.jsonl")
    path = pytester.path / "r.jsonl"
    genuine = path.read_bytes()
    forged = genuine.replace(b'"passed": false', b'"passed": true')
    assert forged != genuine
    capsys.readouterr()

    def verify_then_swap(where: str | os.PathLike[str], key: bytes | None) -> Verification:
        check = real_verify(where, key)
        path.write_bytes(forged)
        return check

    monkeypatch.setattr(commands, "verify", verify_then_swap)
    monkeypatch.setenv(KEY_ENV, KEY)
    status = main(["report", str(path)])
    out, err = capsys.readouterr()
    passing = [line for line in out.splitlines() if line.startswith("all ")]
    assert status == 0, err
    assert passing and passing[0].split()[3] == "0.00", out  # pass@1 of the bytes verified


HANGING_POOL = '''
import concurrent.futures
import threading


class Agent:
    """Waits on a job in a thread pool that never ends (a model call that never answers)."""

    def run(self, episode):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(threading.Event().wait).result()
'''


def test_an_agent_whose_thread_pool_job_hangs_times_out_and_the_run_ends(pytester: pytest.Pytester) -> None:
    """In process, the timed-out agent's thread is abandoned, but the job in its pool is not:
    ``concurrent.futures`` joins every pool thread at interpreter exit, so pytest printed its
    summary and never exited (no exit code for CI), serially and with --agenteval-concurrency."""
    pytester.makepyfile(hangs=HANGING_POOL)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    try:
        result = pytester.runpytest_subprocess("--agent=hangs:Agent", "--agenteval-timeout=2", "-p", "no:randomly",
                                               "--agenteval-results=r.jsonl", "t.jsonl", timeout=120)
    except pytester.TimeoutExpired:
        pytest.fail("the run did not end after its summary: the agent's pool thread held the interpreter")
    result.assert_outcomes(failed=1)
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    assert "agent_timeout" in json.dumps(grade)
