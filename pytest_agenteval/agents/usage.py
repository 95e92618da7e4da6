"""What an episode cost, and what was said: model usage and the conversation, for the grade.

An agent reports them through its episode (every adapter does it for you)::

    episode.record_usage(model="gpt-4o-mini", input_tokens=812, output_tokens=64, latency=0.9)
    episode.attach_transcript(messages)

The grade then carries ``usage`` (totals, and per model) and ``transcript`` (the messages,
made JSON-able and size-capped). A grade of an agent that reports neither has neither key, so
its JSON is what it was before usage existed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from collections.abc import Mapping
from typing import Any

# The transcript a grade keeps: each message at most MESSAGE_CAP characters of JSON, the whole
# at most TRANSCRIPT_CAP; past that the middle of the conversation is left out (the start says
# what was asked, the end how it ended) and a marker message says how much.
MESSAGE_CAP = 16 * 1024
TRANSCRIPT_CAP = 256 * 1024
# Every message is at least one character of JSON, so at most this many of the last ones can be
# kept: those before them are left out unread (capping an isolated agent's one frame of seven
# million tiny messages took ~40 s of grading, outside every time limit).
MAX_MESSAGES = TRANSCRIPT_CAP
MARKER_ROLE = "agenteval"
# The largest token or call count one report may give: summed and averaged over a run, counts
# past this would overflow the floats the summary divides into (the run's end would fail).
MAX_COUNT = 2**53
# Model names an episode's usage keeps apart, and each one's length; the rest are OTHER_MODELS.
MAX_MODELS, MAX_NAME = 64, 200
OTHER_MODELS = "(other models)"


class UsageLedger:
    """Accumulates one episode's usage; safe to call from an agent's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: dict[str, dict[str, Any]] = {}
        self._transcript: list[Any] | None = None
        self._skipped = 0  # messages left out of the middle when attached

    def record(self, *, model: str | None, input_tokens: int, output_tokens: int, cost: float | None,
               latency: float | None, calls: int) -> None:
        for name, value in (("input_tokens", input_tokens), ("output_tokens", output_tokens), ("calls", calls)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
                most = " and at most 2**53" if isinstance(value, int) and value > MAX_COUNT else ""
                raise ValueError(f"record_usage: {name} must be a whole number >= 0{most}, got {_short(value)}")
        for name, number in (("cost", cost), ("latency", latency)):
            if number is not None and (isinstance(number, bool) or not isinstance(number, (int, float))
                                       or not _finite(number) or number < 0):
                raise ValueError(f"record_usage: {name} must be a number >= 0 or None, got {_short(number)}")
        with self._lock:
            entry = self._models.setdefault(self._name(model), {
                "model_calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": None, "latency_s": None})
            entry["model_calls"] += calls
            entry["input_tokens"] += input_tokens
            entry["output_tokens"] += output_tokens
            if cost is not None:
                entry["cost_usd"] = _summed(entry["cost_usd"] or 0.0, float(cost))
            if latency is not None:
                entry["latency_s"] = _summed(entry["latency_s"] or 0.0, float(latency))

    def _name(self, model: Any) -> str:
        """The key ``model`` is counted under. Names are sorted together: one that is not a string
        (an isolated agent's frame can send any JSON) would make the grade fail to build, losing
        the episode. Past MAX_MODELS names the rest are counted together: each report sums over
        the names (a budget), so an agent inventing a name per report would make that quadratic."""
        name = "unknown" if not model else encodable((model if isinstance(model, str) else str(model))[:MAX_NAME])
        return name if name in self._models or len(self._models) < MAX_MODELS else OTHER_MODELS

    def attach(self, messages: Any) -> None:
        kept = list(messages) if not isinstance(messages, (str, bytes, Mapping)) else [messages]
        skipped = max(0, len(kept) - 1 - MAX_MESSAGES)
        if skipped:  # (only what ``transcript`` could keep is held till the grade: red team 46)
            kept = [kept[0], *kept[skipped + 1:]]
        with self._lock:
            self._transcript, self._skipped = kept, skipped

    def usage(self) -> dict[str, Any] | None:
        """Totals and per-model figures, or None when nothing was recorded."""
        with self._lock:
            if not self._models:
                return None
            models = {name: _rounded(dict(entry)) for name, entry in sorted(self._models.items())}
        total = {key: sum(m[key] for m in models.values()) for key in ("model_calls", "input_tokens", "output_tokens")}
        for key in ("cost_usd", "latency_s"):
            known = [m[key] for m in models.values() if m[key] is not None]
            total[key] = min(math.fsum(known), CEILING) if known else None
        return {**_rounded(total), "models": models}

    def transcript(self) -> list[Any] | None:
        with self._lock:
            messages, skipped = self._transcript, self._skipped  # (the first is kept, and the last that fit)
        if messages is None:
            return None
        return cap_transcript([jsonable(m) for m in messages], skipped)


# Sums stop here: three reports of 1.7e308 each are finite, their sum is not (stored as null, it
# counted as nothing against the run's budget: red team 71). A sum at the ceiling is over any budget.
CEILING = 1e15


def _summed(a: float, b: float) -> float:
    return min(a + b, CEILING)


def _finite(number: float) -> bool:
    try:
        return math.isfinite(number)
    except OverflowError:  # an int past a float's range (an isolated agent's frame can send one)
        return False


def _short(value: Any) -> str:
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"  # repr of a huge one would fail, or flood the line
    return repr(value)[:80]


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    # Sums of floats carry noise (0.1 + 0.2); a results file should not.
    return {k: round(v, 9) if isinstance(v, float) else v for k, v in figures.items()}


def encodable(value: str) -> str:
    """``value`` with each lone surrogate written out (``\\ud800``): not Unicode text, it cannot be
    encoded, and one in a model's name or a transcript's key made the grade fail to serialize,
    so the episode went ungraded, out of the results file and the reports (red team 17)."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def jsonable(value: Any) -> Any:
    """A framework's message (pydantic model, dataclass, plain data) as JSON data."""
    if hasattr(value, "model_dump") and callable(value.model_dump):
        try:
            return jsonable(value.model_dump(mode="json"))
        except Exception:  # noqa: BLE001 - a message we cannot dump is shown as text, never a crash
            return repr(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"kind": type(value).__name__, **{f.name: jsonable(getattr(value, f.name))
                                                 for f in dataclasses.fields(value)}}
    if isinstance(value, Mapping):
        return {encodable(str(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, str):
        return encodable(value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return str(value)


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, sort_keys=True))


def cap_transcript(messages: list[Any], skipped: int = 0) -> list[Any]:
    """Each message within MESSAGE_CAP, the whole within TRANSCRIPT_CAP (middle left out);
    ``skipped``: messages after the first already left out, counted in the marker."""
    capped = []
    for message in messages:
        size = _size(message)
        if size > MESSAGE_CAP:
            text = json.dumps(message, ensure_ascii=False, sort_keys=True)
            message = {"role": MARKER_ROLE, "truncated_chars": size, "prefix": text[:1024]}
        capped.append(message)
    sizes = [_size(m) for m in capped]
    if sum(sizes) <= TRANSCRIPT_CAP:
        return capped
    # Keep the first message and as many of the last as fit.
    budget = TRANSCRIPT_CAP - sizes[0] - 200
    tail: list[Any] = []
    for message, size in zip(reversed(capped[1:]), reversed(sizes[1:]), strict=True):
        if size > budget:
            break
        tail.append(message)
        budget -= size
    left_out = len(capped) - 1 - len(tail) + skipped
    marker = {"role": MARKER_ROLE, "left_out_messages": left_out,
              "note": f"{left_out} messages left out: the transcript is capped at {TRANSCRIPT_CAP} characters"}
    return [capped[0], marker, *reversed(tail)]
