"""Verdicts remembered by content hash, so a rerun asks the judge nothing and grades the same.

One JSON object per line, appended as each verdict arrives (a run stopped half way keeps what
it paid for; xdist workers append to the same file, each line one small write). The key is
``judge.cache_key``: the judge's identity, the rubric, the action, the argument, the text and
the prompt version. Judge errors are never cached: the next run asks again.

Each line is sealed with this machine's cache key (``engine/sealing.py``), like every cache the
harness trusts: a line not sealed with it (written by an agent, edited, another machine's) is not
believed. Reading such a file warns once, naming it, and rewrites it without those lines, so
their verdicts are asked again. Without a key (a read-only home) nothing is kept on disk.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path
from typing import Any

from pytest_agenteval.engine.scenarios import write_atomically
from pytest_agenteval.engine.sealing import UNSEALED, cache_key, distrusted, read_entry, seal_record, unseal_record
from pytest_agenteval.grading.judge import Judge, JudgeRequest, Verdict, as_verdict, identity_of
from pytest_agenteval.grading.judge import cache_key as request_key

SEALED_AS = "judge-verdict"  # the seal's name: the line's own ``key`` field binds it to its request


class CachedJudge:
    """``judge`` behind the verdict file at ``path`` (made on first write)."""

    def __init__(self, judge: Judge, path: str | Path) -> None:
        self.judge = judge
        self.path = Path(path)
        self.identity = identity_of(judge)  # the wrapped judge's, so the cache never names itself
        self.calls = 0  # verdicts asked of the judge (not answered from the file)
        self._known: dict[str, Verdict] | None = None
        self._seal_key = cache_key()  # None: nothing kept on disk
        self._lock = threading.Lock()

    def __call__(self, request: JudgeRequest) -> Verdict:
        key = request_key(self.identity, request)
        with self._lock:
            known = self._load()
            if key in known:
                return known[key]
            self.calls += 1
            verdict = as_verdict(self.judge(request), self.identity)
            known[key] = verdict
            self._append(key, verdict)
            return verdict

    def _load(self) -> dict[str, Verdict]:
        # Read again only by a new process: what this one writes it also keeps in memory.
        if self._known is None:
            self._known = read_verdicts(self.path, self._seal_key) if self._seal_key is not None else {}
        return self._known

    def _append(self, key: str, verdict: Verdict) -> None:
        if self._seal_key is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = {"key": key, "judge": self.identity, "passed": verdict.passed, "reason": verdict.reason}
        # ASCII JSON: a reason holding U+2028 stays on its line for any reader that splits lines.
        line = json.dumps(seal_record(self._seal_key, SEALED_AS, record))
        with self.path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def read_verdicts(path: Path, key: bytes | None = None) -> dict[str, Verdict]:
    """The verdicts of a cache file sealed with ``key`` (default: this machine's). A torn line (a
    run killed mid-write) is skipped; a whole line not sealed with the key is too, and then the
    file is named in one warning and rewritten with its sealed lines only."""
    key = key if key is not None else cache_key()
    found: dict[str, Verdict] = {}
    if key is None:  # no key here: nothing on disk is believed, and nothing is touched
        return found
    try:
        lines = read_entry(path, 1 << 30).decode("utf-8", errors="replace").split("\n")
    except FileNotFoundError:
        return found
    except OSError:  # (a FIFO, a device, a link in its place: red team 44; appending to it would hang too)
        distrusted(path, "not a regular file of a sane size")
        with contextlib.suppress(OSError):
            write_atomically(path, b"")
        return found
    kept: list[str] = []
    forged = False
    for line in lines:
        try:
            record: Any = json.loads(line)
        except ValueError:
            continue
        entry = unseal_record(key, SEALED_AS, record) if isinstance(record, dict) else None
        if (entry is not None and isinstance(entry.get("key"), str)
                and isinstance(entry.get("passed"), bool) and isinstance(entry.get("reason"), str)):
            found[entry["key"]] = Verdict(passed=entry["passed"], reason=entry["reason"])
            kept.append(line)
        else:
            forged = True
    if forged:
        distrusted(path, UNSEALED)
        write_atomically(path, "".join(f"{line}\n" for line in kept).encode())
    return found
