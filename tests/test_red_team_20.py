"""Red team 20: a report or a verdict file the run makes while it runs (none at its start), a
cut signed file resumed until it passes, and an agent declaring its own outage."""

from __future__ import annotations

import pytest

from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line

SPY = '''
class Agent:
    """Reads the reports the run writes as it goes; fails the episode when it could."""
    def run(self, episode):
        seen = []
        for name in ("out/report.html", "verdicts.jsonl"):
            try:
                seen.append(f"{name}: {len(open(name).read())} characters")
            except OSError as exc:
                seen.append(f"{name}: {type(exc).__name__}")
        episode.call("close_ticket", {"ticket_id": "T-0001"})
        if any("characters" in s for s in seen):
            raise RuntimeError("read " + "; ".join(seen))
'''


@needs_bwrap
def test_a_report_made_during_the_run_is_hidden(pytester: pytest.Pytester) -> None:
    """pytest-html rewrites its report after every test (``generate_report_on_test``), in a folder
    that did not exist at the start: the sandboxes of later episodes read every earlier failed
    check in it. The run's outputs are now made before any sandbox starts, and covered."""
    pytester.makeini("[pytest]\ngenerate_report_on_test = true\n")
    pytester.makepyfile(spy=SPY)
    (pytester.path / "t.jsonl").write_text("".join(task_line(task_id=f"EX-{i}") + "\n" for i in range(3)))
    pytester.runpytest_subprocess("--agent=spy:Agent", "--agenteval-isolate", "--html=out/report.html",
                                  "--agenteval-results=r.jsonl", "-p", "no:cacheprovider", "t.jsonl")
    grades = [line for line in result_lines(pytester.path / "r.jsonl") if "task_id" in line]
    assert len(grades) == 3 and all(g["passed"] for g in grades), [g.get("agent_error") for g in grades]
    assert (pytester.path / "out" / "report.html").stat().st_size > 0  # written, in place


SAYS_OUTAGE = '''
class Agent:
    """Closes the wrong ticket on one task and then says its provider failed; on the other, says
    so before doing anything."""
    def run(self, episode):
        if "EX-1" in episode.instruction:
            episode.call("close_ticket", {"ticket_id": "T-0002"})
        raise ConnectionError("the model endpoint went away")
'''


@pytest.mark.parametrize("isolate", [[], ["--agenteval-isolate=process"]])
def test_an_agent_that_raised_after_a_write_is_failed_not_errored(pytester: pytest.Pytester,
                                                                  isolate: list[str]) -> None:
    """Errored episodes are run again: an agent that wrote something wrong and then claimed an
    outage had its mistake replaced by a fresh try (resumed until it passed, the gate passed).
    What it changed is now graded as it stands; an outage before any write still errs."""
    pytester.makepyfile(outage=SAYS_OUTAGE)
    (pytester.path / "t.jsonl").write_text(
        task_line(task_id="EX-1", instruction="Close ticket T-0001 (EX-1).") + "\n"
        + task_line(task_id="EX-2", instruction="Close ticket T-0001 (EX-2).") + "\n")
    pytester.runpytest_subprocess("--agent=outage:Agent", *isolate, "--agenteval-results=r.jsonl",
                                  "-p", "no:cacheprovider", "t.jsonl")
    grades = {g["task_id"]: g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g}
    assert grades["EX-1"].get("error") is None and not grades["EX-1"]["passed"]
    assert grades["EX-2"]["error"]["kind"] == "provider"


def test_a_resume_is_signed_into_the_file_and_told_by_every_reader(pytester: pytest.Pytester,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Someone without the key cut a signed file before its first failed line and had CI resume
    it, again and again, until every line passed: the file verified and said nothing of it. A
    cut at a line's end is what a kill leaves, so the resume now signs where it began, and
    replay, report and compare say so."""
    from pytest_agenteval.cli import main

    monkeypatch.setenv("AGENTEVAL_SIGNING_KEY", "k" * 32)
    (pytester.path / "t.jsonl").write_text("".join(task_line(task_id=f"EX-{i}") + "\n" for i in range(2)))
    run = ("--agent=reference", "-p", "no:cacheprovider", "t.jsonl")
    pytester.runpytest_subprocess("--agenteval-results=r.jsonl", *run)
    lines = (pytester.path / "r.jsonl").read_bytes().split(b"\n")
    (pytester.path / "r.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n")  # cut after the first grade
    pytester.runpytest_subprocess("--agenteval-resume=r.jsonl", *run)
    monkeypatch.chdir(pytester.path)
    for command in (["replay", "r.jsonl", "t.jsonl"], ["report", "r.jsonl"], ["compare", "r.jsonl", "r.jsonl"]):
        main(command)
        out = capsys.readouterr().out
        assert ("r.jsonl:3: resumed after line 2, where the file was cut short (by a kill, or by hand: no "
                "signature can tell which)") in out, (command, out)
