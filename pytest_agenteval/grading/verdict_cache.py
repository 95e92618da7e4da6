"""Verdicts remembered by content hash, so a rerun asks the judge nothing and grades the same.

One JSON object per line, appended as each verdict arrives (a run stopped half way keeps what
it paid for; xdist workers append to the same file, each line one small write). The key is
``judge.cache_key``: the judge's identity, the rubric, the action, the argument, the text and
the prompt version. Judge errors are never cached: the next run asks again.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from pytest_agenteval.grading.judge import Judge, JudgeRequest, Verdict, as_verdict, cache_key, identity_of


class CachedJudge:
    """``judge`` behind the verdict file at ``path`` (made on first write)."""

    def __init__(self, judge: Judge, path: str | Path) -> None:
        self.judge = judge
        self.path = Path(path)
        self.identity = identity_of(judge)  # the wrapped judge's, so the cache never names itself
        self.calls = 0  # verdicts asked of the judge (not answered from the file)
        self._known: dict[str, Verdict] | None = None
        self._lock = threading.Lock()

    def __call__(self, request: JudgeRequest) -> Verdict:
        key = cache_key(self.identity, request)
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
            self._known = read_verdicts(self.path)
        return self._known

    def _append(self, key: str, verdict: Verdict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # ASCII JSON: a reason holding U+2028 stays on its line for any reader that splits lines.
        line = json.dumps({"key": key, "judge": self.identity, "passed": verdict.passed, "reason": verdict.reason})
        with self.path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def read_verdicts(path: Path) -> dict[str, Verdict]:
    """The verdicts of a cache file; a torn or foreign line is skipped (its text is asked again)."""
    found: dict[str, Verdict] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    except FileNotFoundError:
        return found
    for line in lines:
        try:
            record: Any = json.loads(line)
        except ValueError:
            continue
        if (isinstance(record, dict) and isinstance(record.get("key"), str)
                and isinstance(record.get("passed"), bool) and isinstance(record.get("reason"), str)):
            found[record["key"]] = Verdict(passed=record["passed"], reason=record["reason"])
    return found
