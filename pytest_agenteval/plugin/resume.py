"""``--agenteval-resume PATH``: run only the episodes a results file lacks or has errored, and append to it.

Every process reads the file at configure (workers to deselect the same items as the controller);
only the controller checks that it is this run's file and writes to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.report.results import ResultsWriter
from pytest_agenteval.report.resume import OPTION, Resumed, ResumeError, read_resumable, refuse_other_run
from pytest_agenteval.report.signing import CUT_SHORT, NO_SUMMARY, Signer, verify

# Fields of a results line that are not part of the grade the reporter keeps.
_LINE_ONLY = ("nodeid", "duration", "attempt", "counted", "signature")


def read(config: pytest.Config) -> Resumed | None:
    path = config.getoption("agenteval_resume")
    if path is None:
        return None
    results = config.getoption("agenteval_results")
    if results is not None and Path(results).resolve() != Path(path).resolve():
        raise pytest.UsageError(f"{OPTION}={path} appends to that file, but --agenteval-results={results} names "
                                "another (give only one of them)")
    try:
        return read_resumable(path)
    except ResumeError as exc:
        raise pytest.UsageError(str(exc)) from None


def deselect(config: pytest.Config, resumed: Resumed, items: list[pytest.Item], case_of: Any) -> None:
    """Leave out the items whose episode the file already graded."""
    done = [item for item in items if _episode(case_of(item)) in resumed.kept]
    if done:
        config.hook.pytest_deselected(items=done)
        dropped = set(map(id, done))
        items[:] = [item for item in items if id(item) not in dropped]


def _episode(case: Any) -> tuple[str, int] | None:
    loaded = getattr(case, "loaded", None)
    return None if loaded is None else (str(loaded.task_id), int(case.run))


def header_line(resumed: Resumed) -> str:
    cut = f", cut short after line {resumed.lines} (the file will say so)" if resumed.cut_short else ""
    return (f"agenteval resume: {resumed.path}{cut}: {len(resumed.kept)} episode(s) graded there are kept, "
            f"{resumed.errored} errored one(s) run again, with every episode it lacks")


def kept_grades(resumed: Resumed) -> dict[str, dict[str, Any]]:
    """The file's graded episodes, by node id, as the reporter keeps grades."""
    return {str(line.get("nodeid", f"{key[0]}-run{key[1]}")): {k: v for k, v in line.items() if k not in _LINE_ONLY}
            for key, line in resumed.kept.items()}


def continue_file(resumed: Resumed, current: dict[str, Any], signer: Signer | None) -> ResultsWriter:
    """A writer appending to the file, after checking it is this run's; signed lines continue its chain."""
    try:
        refuse_other_run(resumed, current)
    except ResumeError as exc:
        raise pytest.UsageError(str(exc)) from None
    where, block = f"{OPTION}={resumed.path}", resumed.signing
    if block is not None and signer is None:
        raise pytest.UsageError(f"{where}: is signed (key id {block.get('key_id')}); pass the key it was signed "
                                "with (--agenteval-signing-key PATH or AGENTEVAL_SIGNING_KEY) to append to it")
    if block is None and signer is not None:
        raise pytest.UsageError(f"{where}: is unsigned; resume it without a signing key (or start a new, "
                                "signed results file)")
    if block is not None and signer is not None:
        if block.get("key_id") != signer.block()["key_id"]:
            raise pytest.UsageError(f"{where}: is signed with another key (key id {block.get('key_id')}, given "
                                    f"{signer.block()['key_id']}); pass the key it was signed with")
        _refuse_forged(resumed, signer, where)
        signer.continue_after(lines=resumed.lines, prev=resumed.last_mac, grades=resumed.grade_lines)
    try:
        writer = ResultsWriter(resumed.path, signer=signer, append_at=resumed.end)
    except OSError as exc:
        raise pytest.UsageError(f"{where}: cannot write it: {exc.strerror} (name a file you can write)") from None
    writer.run_record = resumed.run_record  # the closing line repeats the file's own run record
    # Lasting, signed: a file cut by hand and resumed until it passes looks like a killed run
    # resumed, and only this line tells a reader the grades after it are a second try.
    writer.mark_resumed({"after_line": resumed.lines, "cut_short": resumed.cut_short,
                         "errored_run_again": resumed.errored,
                         **({"continues_run": resumed.last_run} if signer is not None else {})})
    return writer


def _refuse_forged(resumed: Resumed, signer: Signer, where: str) -> None:
    """A signed file is verified before anything is appended: else the new summary, signed with
    the key, would count lines nobody signed (an edited grade, a line added). A file cut by a kill
    (no summary, a last line cut short) is what resuming is for."""
    problems = [p for p in verify(resumed.path, signer.key).problems if CUT_SHORT not in p and NO_SUMMARY not in p]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise pytest.UsageError(f"{where}: does not verify under its key: {problems[0]}{more} (resume only a file "
                                "a signed run wrote, untouched; agenteval replay names every problem)")
