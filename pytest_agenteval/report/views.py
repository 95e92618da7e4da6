"""One episode as a person reads it: the transcript as turns, the state diff as rows.

Shared by ``agenteval show`` (terminal) and the HTML report, so both say the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Turn:
    role: str
    text: str  # what was said ("" if nothing)
    tool_calls: tuple[str, ...] = ()  # name(arguments) of each tool the turn called


@dataclass(frozen=True, kw_only=True)
class DiffRow:
    table: str
    key: str
    change: str  # added, removed, changed
    field: str = ""
    old: Any = None
    new: Any = None


def compact(value: Any, limit: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def turns(transcript: Any) -> list[Turn]:
    """Messages in the common shapes (OpenAI chat, Anthropic content blocks, plain dicts) as turns."""
    out = []
    for message in transcript if isinstance(transcript, list) else []:
        if not isinstance(message, Mapping):
            out.append(Turn(role="message", text=compact(message)))
            continue
        role = str(message.get("role") or message.get("kind") or message.get("type") or "message")
        texts, calls = [], []
        content = message.get("content")
        for block in content if isinstance(content, list) else [content]:
            if isinstance(block, str):
                texts.append(block)
            elif isinstance(block, Mapping):
                kind = block.get("type")
                if kind == "tool_use":
                    calls.append(f"{block.get('name')}({compact(block.get('input'), 200)})")
                elif "text" in block:
                    texts.append(str(block["text"]))
                elif kind == "tool_result":
                    texts.append(compact(block.get("content")))
                else:
                    texts.append(compact(block))
        listed = message.get("tool_calls")
        for call in listed if isinstance(listed, list) else []:
            function = call.get("function", call) if isinstance(call, Mapping) else {}
            function = function if isinstance(function, Mapping) else {}
            calls.append(f"{function.get('name')}({compact(function.get('arguments'), 200)})")
        if not texts and not calls:
            rest = {k: v for k, v in message.items() if k not in ("role", "content")}
            texts.append(compact(rest) if rest else "")
        out.append(Turn(role=role, text="\n".join(t for t in texts if t), tool_calls=tuple(calls)))
    return out


def diff_rows(diff: Any) -> list[DiffRow]:
    """A grade's ``final_state_diff`` as one row per added or removed row and per changed field."""
    rows = []
    for table, tdiff in sorted((diff or {}).items()) if isinstance(diff, Mapping) else []:
        if not isinstance(tdiff, Mapping):
            continue
        added, removed, changed = (_mapping(tdiff.get(part)) for part in ("added", "removed", "changed"))
        for key, row in sorted(added.items()):
            rows.append(DiffRow(table=table, key=str(key), change="added", new=row))
        for key in sorted(removed):
            rows.append(DiffRow(table=table, key=str(key), change="removed", old=removed[key]))
        for key, fields in sorted(changed.items()):
            for name, values in sorted(_mapping(fields).items()):
                pair = values if isinstance(values, Mapping) else {}
                rows.append(DiffRow(table=table, key=str(key), change="changed", field=name,
                                    old=pair.get("old"), new=pair.get("new")))
    return rows


def _mapping(value: Any) -> Mapping[str, Any]:
    """A part of a diff read from a results file (anyone's): what is not an object shows as nothing."""
    return value if isinstance(value, Mapping) else {}


def usage_line(usage: Any) -> str:
    if not isinstance(usage, Mapping):
        return "none reported"
    cost = usage.get("cost_usd")
    latency = usage.get("latency_s")
    return (f"{usage.get('model_calls', 0)} model calls, {usage.get('input_tokens', 0)} input + "
            f"{usage.get('output_tokens', 0)} output tokens, "
            f"{'cost unknown' if cost is None else f'${cost:.4f}'}"
            f"{'' if latency is None else f', {latency:.1f} s'}")
