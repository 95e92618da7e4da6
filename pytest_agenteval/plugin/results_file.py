"""``--agenteval-results PATH``: the results file, an implementation of the plugin's own hooks.

The first line (the run record) is written at configure, each episode's line as the reporter
passes it to ``pytest_agenteval_episode_graded`` (hookspecs), and the closing summary from
``pytest_agenteval_run_finished``. A path ending in ``.gz`` is written gzip-compressed, each
line flushed whole, so an interrupted run keeps every finished episode there too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.plugin.collect import is_task_file
from pytest_agenteval.plugin.resume import continue_file
from pytest_agenteval.plugin.state import State
from pytest_agenteval.report.outputs import not_a_file
from pytest_agenteval.report.results import ResultsWriter
from pytest_agenteval.report.signing import KEY_ENV, Signer, SigningKeyError, load_key

SIGNER = pytest.StashKey[Signer]()
_TAKEN = pytest.StashKey["Signer | None"]()


def take_signing_key(config: pytest.Config) -> None:
    """Read the signing key now, first of all: the variable leaves this process's environment
    before any sandbox (the start-up check of ``--agent``), worker or agent process starts."""
    _signer(config)


def _signer(config: pytest.Config) -> Signer | None:
    """From ``--agenteval-signing-key`` or ``AGENTEVAL_SIGNING_KEY``; the variable is then taken out
    of this process's environment, so that workers and agent processes never inherit it."""
    if _TAKEN in config.stash:
        return config.stash[_TAKEN]
    config.stash[_TAKEN] = _load_signer(config)
    return config.stash[_TAKEN]


def _load_signer(config: pytest.Config) -> Signer | None:
    path = config.getoption("agenteval_signing_key")
    if path is not None and Path(path).resolve().is_relative_to(config.rootpath.resolve()):
        raise pytest.UsageError(f"--agenteval-signing-key={path}: inside the project folder ({config.rootpath}), "
                                "where agents and task files live (keep the key outside it, readable only by you)")
    try:
        key = load_key(path, option="--agenteval-signing-key")
    except SigningKeyError as exc:
        raise pytest.UsageError(str(exc)) from None
    os.environ.pop(KEY_ENV, None)
    return None if key is None else Signer(key)


def signed_line(config: pytest.Config) -> str:
    """The header's line on signing ("" when the results are not signed)."""
    signer = config.stash.get(SIGNER, None)
    if signer is None:
        return ""
    block = signer.block()
    return f"agenteval results: signed ({block['algorithm']}, key id {block['key_id']}, run {block['run_id']})"


def _open_results(path: str, config: pytest.Config, state: State, signer: Signer | None) -> ResultsWriter:
    if is_task_file(Path(path), config, state.explicit):
        raise pytest.UsageError(f"--agenteval-results={path}: that is a task file's path (it matches "
                                "agenteval_task_files); the results would overwrite it or be read as tasks next "
                                "run (write them elsewhere, e.g. results.jsonl)")
    if Path(path).is_dir():
        raise pytest.UsageError(f"--agenteval-results={path}: is a folder (name a file to write)")
    if (special := not_a_file(path, devices=True)) is not None:
        raise pytest.UsageError(f"--agenteval-results={path}: {special}")
    blocking = next((p for p in Path(path).parents if p.is_file()), None)
    if blocking is not None:
        raise pytest.UsageError(f"--agenteval-results={path}: cannot write it: {blocking} is a file, not a folder "
                                "(name a file you can write)")
    try:
        return ResultsWriter(path, signer=signer)
    except OSError as exc:
        raise pytest.UsageError(f"--agenteval-results={path}: cannot write it: {exc.strerror} "
                                "(name a file you can write)") from None




class ResultsFile:
    """Writes each graded episode's line as it arrives, and the summary at the end."""

    def __init__(self, writer: ResultsWriter) -> None:
        self.writer = writer
        self._last: dict[str, Any] | None = None

    @pytest.hookimpl(tryfirst=True)  # the line as graded, before any other implementation sees the dict
    def pytest_agenteval_episode_graded(self, grade: dict[str, Any]) -> None:
        self.writer.write(grade)
        self._last = grade

    def holds(self, grade: dict[str, Any]) -> bool:
        """The episode's line was written (or writing had failed before it: the run says so)."""
        return self._last is grade or bool(self.writer.failure)

    def pytest_agenteval_run_finished(self, summary: dict[str, Any], session: pytest.Session) -> None:
        self.writer.close(summary)
        if self.writer.failure and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # the evidence promised was not written

    @pytest.hookimpl(tryfirst=True)  # before the table
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.writer.failure:
            terminalreporter.write_line(f"agenteval: {self.writer.failure}", red=True)


def open_results_file(config: pytest.Config, state: State, record: dict[str, Any]) -> ResultsFile | None:
    """The results file of this run (``--agenteval-results``, or the file ``--agenteval-resume``
    continues, refused if ``record``, this run's record, is not the run it holds), its first line
    written; None when there is none. ``record`` gains the signing block when the lines are signed."""
    signer = _signer(config)
    if state.resumed is not None:
        writer = continue_file(state.resumed, record, signer)
        if signer is not None:
            config.stash[SIGNER] = signer
        return ResultsFile(writer)
    path = config.getoption("agenteval_results")
    if not path:
        return None
    writer = _open_results(path, config, state, signer)
    if signer is not None:
        config.stash[SIGNER] = signer
        record["signing"] = signer.block()
    writer.start(record)
    return ResultsFile(writer)
