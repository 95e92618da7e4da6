"""``agenteval show results.jsonl TASK [--run K]``: one episode, readable, in the terminal."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.printable import printable
from pytest_agenteval.report.episodes import EpisodeDetail
from pytest_agenteval.report.views import compact, diff_rows, turns, usage_line


class ShowError(AgentEvalError):
    """The episode asked for is not in the results file: one line naming what is."""


def pick(grades: Sequence[Mapping[str, Any]], task_id: str, run: int | None, where: str) -> Mapping[str, Any]:
    """The counted grade of ``task_id``'s run ``run`` (default: its first)."""
    mine = [g for g in grades if str(g.get("task_id")) == task_id and g.get("counted", True) is not False]
    if not mine:
        known = sorted({str(g.get("task_id")) for g in grades})
        close = difflib.get_close_matches(task_id, known, n=1)
        hint = (f"did you mean {close[0]}?" if close else f"it holds {len(known)} tasks, e.g. {', '.join(known[:3])}"
                if known else "it holds no graded episode")
        raise ShowError(f"{where}: no episode of task {task_id!r} ({hint})")
    runs = sorted({int(g["run"]) for g in mine})
    chosen = runs[0] if run is None else run
    found = [g for g in mine if int(g["run"]) == chosen]
    if not found:
        raise ShowError(f"{where}: task {task_id} has no run {run} (its runs: {', '.join(map(str, runs))}; "
                        "use --run with one of them)")
    return found[-1]


def render(grade: Mapping[str, Any], detail: EpisodeDetail | None) -> list[str]:
    verdict = "errored" if grade.get("error") else ("passed" if grade.get("passed") else "failed")
    out = [f"{grade.get('task_id')} run {grade.get('run')} ({grade.get('environment')}, seed "
           f"{grade.get('scenario_seed')}): {verdict}, score {float(grade.get('score', 0)):.2f}, "
           f"{grade.get('steps_used', 0)} steps"]
    if detail is not None:
        out += ["", "instruction:", f"  {detail.instruction}"]
        if detail.warning:
            out.append(f"  warning: {detail.warning}")
    error = grade.get("error")
    if isinstance(error, Mapping):
        out += ["", "error:", *(f"  {line}" for line in str(error.get("traceback") or error).splitlines())]
    out += ["", "actions:"]
    steps: list[tuple[str, Any, Any]] = (
        [(s.action, s.arguments, s.observation) for s in detail.steps] if detail is not None
        else [(a["action"], a.get("arguments"), None) for a in grade.get("actions", [])])
    for n, (action, arguments, observation) in enumerate(steps, 1):
        args = ", ".join(f"{_line(k)}={v!r}" for k, v in arguments.items()) if isinstance(arguments, Mapping) else ""
        out.append(f"  {n}. {_line(action)}({args})")
        if detail is not None:
            out.append(f"     -> {compact(observation)}")
    if not steps:
        out.append("  (none)")
    elif detail is None:
        out.append("  (observations: give the task files with --tasks to replay them)")
    conversation = turns(grade.get("transcript"))
    out += ["", f"transcript ({len(conversation)} messages):" if conversation else "transcript: none attached"]
    for turn in conversation:
        text = turn.text.replace("\n", "\n      ")
        out.append(f"  [{_line(turn.role)}] {text}".rstrip())
        out += [f"      calls {_line(call)}" for call in turn.tool_calls]
    out += ["", f"usage: {usage_line(grade.get('usage'))}"]
    rows = diff_rows(grade.get("final_state_diff"))
    out += ["", "state diff:" if rows else "state diff: nothing changed"]
    for row in rows:
        if row.change == "changed":
            out.append(f"  {row.table} {_line(row.key)}.{row.field}: {_line(compact(row.old, 120))} -> "
                       f"{_line(compact(row.new, 120))}")
        else:
            row_values = row.new if row.change == "added" else row.old
            out.append(f"  {row.table} {_line(row.key)} {row.change}: {_line(compact(row_values))}")
    failed = [c for c in grade.get("checks", []) if not c.get("passed")]
    total = len(grade.get("checks", []))
    out += ["", f"failed checks ({len(failed)} of {total}):" if failed else "failed checks: none"]
    out += [f"  {c.get('name')} [{c.get('failure_mode')}] {_line(c.get('detail'))}" for c in failed]
    return out


def _line(value: Any) -> str:
    """What the agent chose (a call's name or keys, a role, a changed field's text), on its own line's
    part of it: a newline there began a line of the agent's (a fake verdict, a CI command; red team 17)."""
    return printable(str(value), layout=False)
