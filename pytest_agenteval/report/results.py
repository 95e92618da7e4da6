"""The results file: JSON Lines, flushed as each episode ends.

    {"run_record": {...}}                     what ran: agent, versions, options, task files
    {"task_id": "BK-017", "run": 1, ...}      one grade per episode, in the order they ended
    {"summary": {...}, "run_record": {...}}   at the end of the session (absent if it was killed)

The run record is the same on the first and the last line. ``read_results`` returns the grades
and the summary; ``load_results`` the run record as well.

A path ending in ``.gz`` is written gzip-compressed, each line flushed whole (a sync flush), so
an interrupted run's file still decompresses to every line it finished. Every reader takes
either (``results_bytes`` tells them apart by gzip's magic number, not by the name).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.report.compressed import GZIP_MAGIC, is_compressed_name, load_line, results_bytes
from pytest_agenteval.report.signing import RESUMED, Signer

RUN_RECORD = "run_record"
SUMMARY = "summary"
FORMAT = 1  # the run record's "format": bumped when a reader would need to know


class ResultsFileError(AgentEvalError):
    """The file is not a results file written by ``--agenteval-results``."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: not a results file: {problem} (pass the file written by --agenteval-results)")


# What str.splitlines() splits on beyond "\n" and JSON leaves unescaped when not ASCII-only.
_SEPARATORS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(record: Any) -> str:
    """One JSON Lines record, ASCII-escaped: no reader splits it anywhere but at its ``\\n``."""
    return json.dumps(record, sort_keys=True) + "\n"


def escape_separators(text: str) -> str:
    """JSON text another encoder wrote (pydantic), with the line separators it left raw escaped."""
    return text.translate(_SEPARATORS)


def json_lines(text: str) -> list[str]:
    """A JSON Lines file's lines, split at ``\\n`` only (a raw U+2028 is inside a string)."""
    return text.split("\n")


class ResultsWriter:
    """Each line is complete when written, so an interrupted run keeps every finished episode.

    A write that fails (a full disk) is cut back to the last whole line and ends the writing;
    ``failure`` then says so in one line, for the reporter to print.
    """

    def __init__(self, path: str | os.PathLike[str], *, signer: Signer | None = None,
                 append_at: int | None = None) -> None:
        """``append_at``: continue an existing file after its first ``append_at`` bytes (its whole
        lines; a line cut short after them is dropped) instead of starting it anew."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = os.fspath(path)
        self._gzip: gzip.GzipFile | None = None
        self._file: IO[bytes] | None
        if is_compressed_name(path) or (append_at is not None and Path(path).read_bytes()[:2] == GZIP_MAGIC):
            kept = results_bytes(path)[:append_at] if append_at is not None else b""
            if append_at is not None:  # a compressed file is written anew with the lines it kept
                scratch = Path(f"{self.path}.agenteval-tmp")
                with gzip.open(scratch, "wb") as fresh:
                    fresh.write(kept)
                os.replace(scratch, path)
            self._file = open(path, "ab" if append_at is not None else "wb", buffering=0)  # noqa: SIM115
            self._gzip = gzip.GzipFile(fileobj=self._file, mode="wb", mtime=0)
        else:
            plain = open(path, "wb" if append_at is None else "r+b", buffering=0)  # noqa: SIM115 - unbuffered: nothing left to flush after a failure
            if append_at is not None:
                plain.truncate(append_at)
                plain.seek(append_at)
            self._file = plain
        self.run_record: dict[str, Any] | None = None
        self.failure: str | None = None
        self._lines = 0
        self._signer = signer  # with a key: every line signed (report/signing.py)

    def start(self, run_record: dict[str, Any]) -> None:
        """The first line: what ran."""
        self.run_record = run_record
        self._write({RUN_RECORD: run_record})

    def write(self, record: dict[str, Any]) -> None:
        """One grade line."""
        self._write(record, grade=True)

    def mark_resumed(self, mark: dict[str, Any]) -> None:
        """A line saying a resume continues the file here (``RESUMED``): signed like the others,
        so every reader can tell the grades after it are a second try of what the file lacked."""
        self._write({RESUMED: mark})

    def _write(self, record: dict[str, Any], *, grade: bool = False, closing: bool = False) -> None:
        if self._file is None:
            return
        if self._signer is not None:
            record = self._signer.sign(record, grade=grade, closing=closing)
        data = json_line(record).encode("ascii")
        end = self._file.tell()
        try:
            if self._gzip is not None:
                self._gzip.write(data)
                self._gzip.flush()  # a sync flush: the line is whole in the file
            else:
                view = memoryview(data)
                while view:
                    view = view[self._file.write(view) or 0:]
        except OSError as exc:
            self._give_up(end, exc)
            return
        self._lines += 1

    def _give_up(self, end: int, exc: OSError) -> None:
        assert self._file is not None
        self.failure = (f"--agenteval-results {self.path}: writing failed after {self._lines} whole lines: "
                        f"{exc.strerror or exc} (free space or write elsewhere, and run again)")
        with contextlib.suppress(OSError):  # a device cannot be truncated
            os.truncate(self._file.fileno(), end)  # no cut last line
        self._gzip = None  # its buffer is lost with the line: closing it would write again
        self._file.close()
        self._file = None

    def close(self, summary: dict[str, Any] | None = None) -> None:
        if self._file is None:
            return
        if summary is not None:
            closing = {SUMMARY: summary}
            if self.run_record is not None:
                closing[RUN_RECORD] = self.run_record
            self._write(closing, closing=True)
        if self._file is not None:
            if self._gzip is not None:
                with contextlib.suppress(OSError):
                    self._gzip.close()  # the stream's end (leaves the file open)
            self._file.close()
            self._file = None


@dataclass(kw_only=True)
class Results:
    grades: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    run_record: dict[str, Any] | None = None
    resumed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, what the resume found)


def load_results(path: str | os.PathLike[str]) -> Results:
    """Every record of a results file; ``ResultsFileError`` (one line, with the fix) if it is not one.

    Files written before run records existed (grades, then a summary) read the same.
    """
    shown = os.fspath(path)
    try:
        text = results_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise ResultsFileError(shown, "not UTF-8 text") from None
    out = Results()
    for number, line in enumerate(json_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = load_line(line)
        except ValueError:
            raise ResultsFileError(f"{shown}:{number}", "not valid JSON") from None
        if not isinstance(record, dict):
            raise ResultsFileError(f"{shown}:{number}", "this line is not a grade")
        if RUN_RECORD in record or SUMMARY in record:
            out.run_record = record.get(RUN_RECORD, out.run_record)
            out.summary = record.get(SUMMARY, out.summary)
            continue
        if isinstance(record.get(RESUMED), dict):
            out.resumed.append((number, record[RESUMED]))
            continue
        problem = grade_problem(record)
        if problem is not None:
            raise ResultsFileError(f"{shown}:{number}", f"this line is not a grade ({problem})")
        out.grades.append(record)
    if out.run_record is None and out.summary is None and not out.grades:
        raise ResultsFileError(shown, "it is empty")
    return out


def resumed_notes(path: str, resumed: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """One note per resume a file records (``RESUMED`` lines): a file cut by hand and resumed is
    signed as a killed run resumed is, so the note says the grades after it are a second try."""
    notes = []
    for line, mark in resumed:
        where = f"{path}:{line}: " + (f"(merged from {mark['source']}) " if isinstance(mark.get("source"), str) else "")
        if mark.get("cut_short"):
            notes.append(f"{where}resumed after line {mark.get('after_line')}, where the file was cut short "
                         "(by a kill, or by hand: no signature can tell which): the grades after it are a second "
                         "try at what it lacked")
        else:
            notes.append(f"{where}resumed after its summary: {mark.get('errored_run_again', 0)} errored "
                         "episode(s) run again")
    return notes


_STRINGS = "a list of strings"
# Optional fields, by the type readers expect: (type, said as, type of each item or None).
_OPTIONAL: dict[str, tuple[type | tuple[type, ...], str, type | None]] = {
    "environment": (str, "a string", None), "split": (str, "a string", None),
    "score": ((int, float), "a number", None), "duration": ((int, float), "a number", None),
    "steps_used": (int, "a whole number", None), "usage": (dict, "an object", None),
    "components": (dict, "an object", None), "final_state_diff": (dict, "an object", None),
    "transcript": (list, "a list", None), "conversation": (list, "a list of objects", dict),
    "failure_modes": (list, _STRINGS, str), "failure_mode_tags": (list, _STRINGS, str),
    "not_judged": (list, _STRINGS, str)}


def grade_problem(record: dict[str, Any]) -> str | None:
    """What a grade line holds that the readers (report, compare, show, replay, resume, the HTML
    report) cannot use, naming the field; None for a grade. A results file may come from anyone:
    a wrong type is one line naming it, never a traceback."""
    run, checks, actions = record.get("run"), record.get("checks"), record.get("actions", [])
    if not isinstance(record.get("task_id"), str):
        return "task_id is not a string"
    if not isinstance(run, int) or isinstance(run, bool):
        return "run is not a whole number"
    if not isinstance(record.get("passed"), bool):
        return "passed is not true or false"
    if not (isinstance(checks, list) and all(map(_is_check, checks))):
        return "checks is not a list of checks with name, passed, and failure_mode and detail when failed"
    if not (isinstance(actions, list)
            and all(isinstance(a, dict) and isinstance(a.get("action"), str) for a in actions)):
        return "actions is not a list of objects with an action name"
    for name, (kind, said, item) in _OPTIONAL.items():
        if name not in record:
            continue
        value = record[name]
        if (not isinstance(value, kind) or isinstance(value, bool)
                or (item is not None and not all(isinstance(v, item) for v in record[name]))):
            return f"{name} is not {said}"
    usage = record.get("usage")
    if usage is not None and not (all(_number(usage.get(k)) for k in ("input_tokens", "output_tokens"))
                                  and all(usage.get(k) is None or _number(usage[k]) for k in _USAGE_NUMBERS)):
        return f"usage is not an object of numbers ({', '.join(_USAGE_NUMBERS)}; the token counts required)"
    error = record.get("error")
    if error is not None and not (isinstance(error, dict) and all(isinstance(error.get(k, ""), str)
                                                                  for k in ("kind", "message", "traceback"))):
        return "error is not null or an object of strings kind, message and traceback"
    return None


_USAGE_NUMBERS = ("input_tokens", "output_tokens", "cost_usd", "latency_s", "model_calls")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_check(check: Any) -> bool:
    return (isinstance(check, dict) and isinstance(check.get("name"), str) and isinstance(check.get("passed"), bool)
            and all(isinstance(check.get(k, ""), str) for k in ("failure_mode", "detail", "component"))
            and (check["passed"] or (isinstance(check.get("failure_mode"), str)
                                     and isinstance(check.get("detail"), str))))


def read_results(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(grades, summary or None) from a results file; the run record lines are skipped."""
    results = load_results(path)
    return results.grades, results.summary
