"""The results file: JSON Lines, one grade per episode, flushed as each episode ends."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any


class ResultsWriter:
    """Each line is complete when written, so an interrupted run keeps every finished episode."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = open(path, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        self._file.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        self._file.flush()

    def close(self, summary: dict[str, Any] | None = None) -> None:
        if self._file is None:
            return
        if summary is not None:
            self.write({"summary": summary})
        self._file.close()
        self._file = None


def read_results(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(grades, summary or None) from a results file."""
    grades, summary = [], None
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "summary" in record:
            summary = record["summary"]
        else:
            grades.append(record)
    return grades, summary
