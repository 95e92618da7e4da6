"""Signed results files: HMAC-SHA256 under a key the agent cannot reach.

Every line of a signed results file carries

    "signature": {"run": RUN_ID, "line": N, "prev": HMAC OF LINE N-1, "hmac": ...}

where ``hmac`` is HMAC-SHA256 under the key of the line's canonical JSON (sorted keys, ASCII,
no spaces) with ``hmac`` itself left out, so it covers the line, its place, its run and the
line before it (a chain). The run record names the run id, the algorithm and the key's id (a
one-way digest of the key, never the key); the summary line's signature also counts the grade
lines (``grades``). A line edited, taken from another run, moved, added or removed, and a
file cut before its summary, is then found, each as one line naming the file and line.

Without the key nothing can be verified: an unsigned file, or a signed one read without its
key, proves nothing about forgery, and ``verify`` says so.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.readback import KeyTwice
from pytest_agenteval.report.compressed import load_line, results_bytes

KEY_ENV = "AGENTEVAL_SIGNING_KEY"
SIGNATURE = "signature"
RESUMED = "resumed"  # a line saying a resume continued the file after it
SIGNING = "signing"  # the run record's block: algorithm, key id, run id
ALGORITHM = "hmac-sha256"
MIN_KEY_BYTES = 16
HOW_TO_SIGN = f"set {KEY_ENV} or pass --agenteval-signing-key PATH when running pytest"


class SigningKeyError(AgentEvalError):
    """A signing key that cannot be used: one line, with the fix."""


def _key_bytes(path: Path) -> bytes:
    """A key file's bytes: a regular file of at most ``MAX_KEY_FILE`` bytes (a device read on until
    the memory was gone; a FIFO waited for a writer: red team 37)."""
    if path.exists() and not path.is_file():
        raise OSError(errno.EINVAL, "it is not a regular file")
    with path.open("rb") as file:
        data = file.read(MAX_KEY_FILE + 1)
    if len(data) > MAX_KEY_FILE:
        raise OSError(errno.EFBIG, f"it is more than {MAX_KEY_FILE} bytes, too long for a key file")
    return data.strip()


MAX_KEY_FILE = 4096


def load_key(path: str | os.PathLike[str] | None, *, option: str) -> bytes | None:
    """The key from the file at ``path``, else from ``AGENTEVAL_SIGNING_KEY``, else None."""
    if path is not None:
        try:
            key = _key_bytes(Path(path))
        except OSError as exc:
            raise SigningKeyError(f"{option} {path}: cannot read it: {exc.strerror} "
                                  "(name a file holding the key)") from None
        where = f"{option} {path}"
    else:
        text = os.environ.get(KEY_ENV)
        if text is None:
            return None
        key, where = text.strip().encode(), KEY_ENV
    if len(key) < MIN_KEY_BYTES:
        raise SigningKeyError(f"{where}: the key is too short ({len(key)} bytes; use at least {MIN_KEY_BYTES}, "
                              "e.g. python -c 'import secrets; print(secrets.token_hex(32))')")
    return key


def key_id(key: bytes) -> str:
    """Names the key in the run record without revealing it."""
    return hmac.new(key, b"agenteval key id", hashlib.sha256).hexdigest()[:16]


def canonical(record: Any) -> bytes:
    return json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode()


def _mac(key: bytes, record: Mapping[str, Any]) -> str:
    signature = {k: v for k, v in record[SIGNATURE].items() if k != "hmac"}
    return hmac.new(key, canonical({**record, SIGNATURE: signature}), hashlib.sha256).hexdigest()


def _holds(key: bytes, record: Mapping[str, Any]) -> bool:
    """The line's ``hmac`` is its MAC under ``key``. Any string compares (a non-ASCII one made
    ``compare_digest`` raise), and a line nested too deep to encode holds no signature (red team 67)."""
    try:
        mac = _mac(key, record)
    except RecursionError:
        return False
    return hmac.compare_digest(mac.encode(), str(record[SIGNATURE]["hmac"]).encode("utf-8", "replace"))


class Signer:
    """Signs the lines of one results file in the order they are written."""

    def __init__(self, key: bytes, run_id: str | None = None) -> None:
        self.key = key
        self.run_id = run_id or secrets.token_hex(8)
        self._line = 0
        self._prev = ""
        self._grades = 0

    def continue_after(self, *, lines: int, prev: str, grades: int) -> None:
        """Go on signing a file that already holds ``lines`` signed lines (``--agenteval-resume``)."""
        self._line, self._prev, self._grades = lines, prev, grades

    def block(self) -> dict[str, str]:
        """For the run record: how its lines are signed."""
        return {"algorithm": ALGORITHM, "key_id": key_id(self.key), "run_id": self.run_id}

    def sign(self, record: Mapping[str, Any], *, grade: bool = False, closing: bool = False) -> dict[str, Any]:
        self._line += 1
        signature: dict[str, Any] = {"run": self.run_id, "line": self._line, "prev": self._prev}
        if closing:
            signature["grades"] = self._grades
        self._grades += grade
        signed = {**record, SIGNATURE: signature}
        signature["hmac"] = self._prev = _mac(self.key, signed)
        return signed


CUT_SHORT = "cut short, not verified (the run was interrupted)"
NO_SUMMARY = "no signed summary line"


@dataclass(frozen=True, kw_only=True)
class Verification:
    path: str
    signed: bool
    verified: bool  # signed, a key given, and every check held
    said: str  # one line: what was found (for stdout)
    problems: tuple[str, ...] = ()  # one line each: file, line, what does not match
    run_id: str | None = None  # the run the file says it is (evidence only when verified)


def verify(path: str | os.PathLike[str], key: bytes | None) -> Verification:
    """Check every line's signature, place and run, and the summary's count, against ``key``."""
    shown = os.fspath(path)
    # Written with "\n" only (a line may hold U+2028, not a line end), each line decoded strictly:
    # a byte read as U+FFFD would verify a line that is not what was signed (red team 19).
    raw = results_bytes(path).split(b"\n")
    lines: list[tuple[int, Any]] = []
    problems: list[str] = []
    for number, data in enumerate(raw, 1):
        if not data.strip():
            continue
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"{shown}:{number}: not UTF-8 text: edited after the run")
            continue
        try:
            lines.append((number, load_line(line, once=True)))
        except KeyTwice as exc:  # the signature covers what this parser keeps: the last
            problems.append(f"{shown}:{number}: {exc} (a reader keeping the first sees a value that was not "
                            "signed): edited after the run")
            lines.append((number, load_line(line)))
        except ValueError:
            last = all(not rest.strip() for rest in raw[number:])
            problems.append(f"{shown}:{number}: " + (CUT_SHORT if last
                                                     else "not valid JSON, not verified"))
    first: dict[str, Any] = lines[0][1] if lines and isinstance(lines[0][1], dict) else {}
    run: dict[str, Any] = first["run_record"] if isinstance(first.get("run_record"), dict) else {}
    block: dict[str, Any] | None = run[SIGNING] if isinstance(run.get(SIGNING), dict) else None
    signed = block is not None or any(isinstance(r, dict) and SIGNATURE in r for _, r in lines)
    if not signed:
        if key is None:  # no note on what is no results file: its reader says so in one line
            looks = bool(run) or isinstance(first.get("task_id"), str) and "passed" in first
            return Verification(path=shown, signed=False, verified=False,
                                said=f"note: {shown}: unsigned: its lines could have been edited, swapped, "
                                     f"reordered or removed unnoticed (to sign runs, {HOW_TO_SIGN})" if looks else "")
        return Verification(path=shown, signed=False, verified=False, said="", problems=(
            f"{shown}: unsigned, but a signing key was given: nothing shows these lines are what a run wrote "
            "(pass the file the signed run wrote)",))
    if block is None:  # the run record was removed or replaced: the lines' own run id is checked instead
        run_of = next((r[SIGNATURE].get("run") for _, r in lines if _signed(r)), None)
        block = {"run_id": run_of, "key_id": key_id(key) if key is not None else None}
    if key is None:
        return Verification(path=shown, signed=True, verified=False,
                            said=f"note: {shown}: signed (key id {block.get('key_id')}), but no key given: "
                                 f"not verified, nothing about forgery checked (set {KEY_ENV} or pass "
                                 "--signing-key PATH)")
    if block.get("key_id") != key_id(key):
        return Verification(path=shown, signed=True, verified=False, said="", problems=(
            f"{shown}: signed with another key (key id {block.get('key_id')}; the key given has id "
            f"{key_id(key)}): not verified (pass the key the run was signed with)",))
    found, run_id = _check_lines(shown, lines, key, str(block.get("run_id")))
    problems += found
    grades = sum(1 for _, r in lines if isinstance(r, dict) and "task_id" in r)
    said = "" if problems else (f"{shown}: signed and verified: {len(lines)} lines, {grades} grade line(s), "
                                f"run {run_id}, key id {block.get('key_id')}{_uncontained(run)}")
    return Verification(path=shown, signed=True, verified=not problems, said=said, problems=tuple(problems),
                        run_id=run_id)


def _uncontained(run: Mapping[str, Any]) -> str:
    """What a signature cannot show of a run whose agent was not in a sandbox: that agent ran as the
    harness's user and could read the key, so it could have signed lines itself (red team 37)."""
    options = run.get("options")
    isolate = options.get("isolate") if isinstance(options, Mapping) else None
    if isinstance(isolate, str) and isolate.startswith("bwrap"):
        return ""
    where = "at the process level" if isolate == "process" else "unsandboxed"
    return (f"; its agent ran {where}, as the user holding the key: this proves nothing against that agent "
            "(run untrusted agents with --agenteval-isolate)")


def expected_run(check: Verification, runs: list[str]) -> str | None:
    """The problem, if the file is not one of the runs the user recorded (``--run-id``): a whole
    signed file of another run verifies as that run, so only the run id says which run it is."""
    if not check.verified:
        return None if check.problems else (f"{check.path}: --run-id {', '.join(runs)}: its run cannot be checked: "
                                            f"the file is not verified ({HOW_TO_SIGN}, and verify with its key)")
    if check.run_id in runs:
        return None
    return (f"{check.path}: signed as run {check.run_id}, not the run you named (--run-id {', '.join(runs)}): "
            "a whole results file of another run")


def runs_named(checks: list[Verification], runs: list[str], *, ordered: bool = False) -> list[str]:
    """Problems with the files as a set, against the runs the user recorded (``--run-id``): each
    file checked alone is one of them, so a file replaced by a copy of another named run's, or
    (``ordered``: compare's base and new) two files swapped, would pass that check."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for check in checks:
        if not check.verified or check.run_id is None:
            continue  # said already (expected_run)
        if check.run_id in seen:
            problems.append(f"{check.path}: signed as run {check.run_id}, as {seen[check.run_id]} is: one run "
                            "given twice (a copy of another file, not the run you named)")
        seen.setdefault(check.run_id, check.path)
    if ordered and not problems and len(runs) == len(checks) and all(c.verified for c in checks):
        problems += [f"{check.path}: signed as run {check.run_id}, but the --run-id in its place names {run} "
                     "(give the run ids in the order of the files): files swapped"
                     for check, run in zip(checks, runs, strict=True)
                     if check.run_id != run and check.run_id in runs]
    if all(c.verified for c in checks):
        problems += [f"--run-id {run}: no file given is that run (its file was replaced by another)"
                     for run in runs if run not in seen]
    return problems


def _check_lines(shown: str, lines: list[tuple[int, Any]], key: bytes, run_id: str) -> tuple[list[str], str]:
    """The problems, and the run the file ends as: a resume signs what it appends as a new run,
    its ``resumed`` line naming the run it continues (``plugin/resume.py``)."""
    problems: list[str] = []
    holds = {number: _signed(r) and _holds(key, r) for number, r in lines}
    present = {r[SIGNATURE]["line"] for number, r in lines if holds[number]}
    expected, prev, prev_ok, grades, closed = 1, "", True, 0, False
    counted: set[Any] = set()  # the episodes the summary counts: one per item, its last counted line
    for number, record in lines:
        where = f"{shown}:{number}"
        if not _signed(record):
            problems.append(f"{where}: not signed (a line added after the run)")
            prev_ok = False
            continue
        signature = record[SIGNATURE]
        line, mac = signature["line"], signature["hmac"]
        if holds[number] and _continues(record, run_id):
            run_id, closed = str(signature.get("run")), False  # resumed: a new run, to be closed again
        closed = closed or "summary" in record
        if not holds[number]:
            problems.append(f"{where}: signature does not match (the line was edited after the run)")
        elif signature.get("run") != run_id:
            problems.append(f"{where}: a line of another run (run {signature.get('run')}; this file is run "
                            f"{run_id}): taken from another results file")
        else:
            problem = _out_of_place(line, expected, present) or (
                "the line before it is not the one signed before it (replaced or moved)"
                if prev_ok and signature.get("prev") != prev else None)
            if problem is None and "summary" in record and signature.get("grades") != grades:
                problem = (f"the summary counts {signature.get('grades')} grade line(s), the file has {grades} "
                           "(lines removed or added)")
            if problem is None and "summary" in record and _episodes(record) not in (None, len(counted)):
                problem = (f"the summary counts {_episodes(record)} episode(s), the file has {len(counted)} counted "
                           "grade line(s) (the run was cut between counting an episode and writing it)")
            if problem is not None:
                problems.append(f"{where}: {problem}")
            grades += "task_id" in record
            _count(counted, record)
            expected, prev, prev_ok = max(expected, line + 1), mac, problem is None
            continue
        expected, prev, prev_ok = expected + 1, mac, False  # a line not to be trusted takes one place
        grades += "task_id" in record
        _count(counted, record)
    if not closed:
        problems.append(f"{shown}: {NO_SUMMARY}: the run was interrupted, or lines were removed from "
                        "its end (nothing shows the file is complete)")
    return problems, run_id


def _continues(record: Mapping[str, Any], run_id: str) -> bool:
    """A ``resumed`` line signed as a new run that continues ``run_id``."""
    mark = record.get(RESUMED)
    return isinstance(mark, dict) and mark.get("continues_run") == run_id and record[SIGNATURE].get("run") != run_id


def _count(counted: set[Any], record: dict[str, Any]) -> None:
    if "task_id" in record and record.get("counted") is not False:
        counted.add(record.get("nodeid") or (str(record.get("task_id")), str(record.get("run"))))


def _episodes(record: dict[str, Any]) -> int | None:
    """What a summary line counts: its episodes, played and errored (``metrics.summary_json``)."""
    summary = record.get("summary")
    if not isinstance(summary, dict):
        return None
    numbers = [n for n in (summary.get("episodes"), summary.get("errored", 0))
               if isinstance(n, int) and not isinstance(n, bool)]
    return sum(numbers) if len(numbers) == 2 else None


def _signed(record: Any) -> bool:
    signature = record.get(SIGNATURE) if isinstance(record, dict) else None
    return (isinstance(signature, dict) and isinstance(signature.get("hmac"), str)
            and isinstance(signature.get("line"), int) and not isinstance(signature.get("line"), bool))


def _out_of_place(line: int, expected: int, present: set[int]) -> str | None:
    if line < expected:
        return f"signed as line {line}, after line {expected - 1}: moved or repeated"
    if line == expected:
        return None
    gone = [n for n in range(expected, line) if n not in present]
    if not gone:
        return f"signed as line {line}, where line {expected} belongs: moved"
    shown = (f"line {gone[0]}" if len(gone) == 1 else f"lines {gone[0]}-{gone[-1]}"
             if gone[-1] - gone[0] == len(gone) - 1 else "lines " + ", ".join(map(str, gone)))
    return f"signed as line {line}: {shown} of the run missing before it (removed)"
