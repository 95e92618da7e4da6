"""The pass-rate gate (``--agenteval-fail-under``, ``agenteval report --fail-under``).

A run passes the gate when its rate is at or above the threshold, whatever single tasks did.
The rate is pass@1 at K = 1 and pass^K with ``--runs K`` (every run of a task must pass: the
reliability a CI gate is about). Errored episodes (a grade whose ``error`` is not null: the
agent could not play) are left out of the rate; a run with no graded episode left never passes.
Nor does one with more errored episodes than ``max_errored`` allows (a share, 0 by default): an
agent that raised, or said its provider failed, on every task it was about to fail would else
pass on the rest (re-run the errored ones with ``--agenteval-resume``, then gate).

Thresholds come from the command line and from the project's ``pyproject.toml``::

    [tool.agenteval]
    fail_under = 0.8                                  # overridden by the command line
    fail_under_tags = {duplicate_account = 0.9}       # per failure-mode tag
    max_errored = 0.02                                # errored episodes allowed (a share; 0 by default)

A tag with no graded episode in this run (deselected with ``-m``, ``-k``) is named, not gated.
A gated tag whose own episodes errored past ``max_errored`` fails: an agent that raised on just
the tagged tasks would else pass the tag's gate on episodes it never played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.pyproject import PyprojectError, agenteval_section
from pytest_agenteval.report.metrics import is_errored, summarize

OVERALL_KEY = "fail_under"
TAGS_KEY = "fail_under_tags"
ERRORED_KEY = "max_errored"


class GateConfigError(AgentEvalError):
    """A threshold that is not a rate: one line naming where, with the fix."""


@dataclass(frozen=True, kw_only=True)
class Gate:
    overall: float | None = None
    tags: dict[str, float] = field(default_factory=dict)
    max_errored: float = 0.0  # the share of errored episodes a passing run may have

    @property
    def active(self) -> bool:
        return self.overall is not None or bool(self.tags)


def parse_rate(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:  # also refuses nan
        raise GateConfigError(f"{where}={text}: not a pass rate (give a number from 0 to 1, e.g. {where}=0.8)")
    return value


def read_gate(root: Path, command_line: str | None, *, option: str) -> Gate:
    """The thresholds: ``option``'s value (if given) over ``[tool.agenteval] fail_under``, plus the tags'."""
    section = _section(root)
    where = f"{root / 'pyproject.toml'} [tool.agenteval]"
    overall = None
    if command_line is not None:
        overall = parse_rate(command_line, option)
    elif OVERALL_KEY in section:
        overall = _rate(section[OVERALL_KEY], f"{where} {OVERALL_KEY}")
    tags = section.get(TAGS_KEY, {})
    if not isinstance(tags, dict):
        raise GateConfigError(f"{where} {TAGS_KEY} = {tags!r}: not a table of tag = rate "
                              f"(write {TAGS_KEY} = {{duplicate_account = 0.9}})")
    errored = _rate(section[ERRORED_KEY], f"{where} {ERRORED_KEY}") if ERRORED_KEY in section else 0.0
    return Gate(overall=overall, tags={str(t): _rate(v, f"{where} {TAGS_KEY}.{t}") for t, v in tags.items()},
                max_errored=errored)


def _rate(value: Any, where: str) -> float:
    # bool is an int in Python: `= true` must not read as 1.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise GateConfigError(f"{where} = {value!r}: not a pass rate (use a number from 0 to 1, e.g. 0.8)")
    return float(value)


def _section(root: Path) -> dict[str, Any]:
    try:
        return agenteval_section(root)
    except PyprojectError as exc:
        raise GateConfigError(str(exc)) from None


@dataclass(frozen=True, kw_only=True)
class Verdict:
    passed: bool
    lines: list[str]  # one line per threshold: the rate, the threshold, and the verdict


def metric_name(k: int) -> str:
    return "pass@1" if k == 1 else f"pass^{k}"


def judge(grades: Sequence[Mapping[str, Any]], k: int, gate: Gate) -> Verdict:
    """Each threshold against the counted, non-errored grades."""
    graded = [g for g in grades if not is_errored(g)]
    errored = len(grades) - len(graded)
    name = metric_name(k)
    excluded = f"; {errored} errored episode(s) left out" if errored else ""
    if not graded:
        return Verdict(passed=False, lines=[
            f"agenteval gate: FAILED: no graded episode ({errored} errored), so no {name} to hold against the "
            "threshold (a run that graded nothing never passes)"])
    rows = {r.group: r for r in summarize(graded, k)}
    lines, passed = [], True
    wanted = ([("all", "all", gate.overall)] if gate.overall is not None else []) + [
        (f"tag {t}", f"tag {t}", rate) for t, rate in sorted(gate.tags.items())]
    for group, shown, threshold in wanted:
        row = rows.get(group)
        if group != "all":  # a tag's episodes errored past max_errored: its rate is not the tag's
            tag = group.removeprefix("tag ")
            ran = [g for g in grades if tag in g.get("failure_mode_tags", ())]
            failed = sum(is_errored(g) for g in ran)
            if failed > gate.max_errored * len(ran) + 1e-9:
                passed = False
                lines.append(f"agenteval gate: FAILED: {shown}: {failed} of {len(ran)} episodes errored, more than "
                             f"the {gate.max_errored:g} allowed ([tool.agenteval] {ERRORED_KEY}): the tag's gate "
                             "holds only the episodes it graded")
                continue
        if row is None:
            lines.append(f"agenteval gate: {shown}: no graded episode in this run, not gated")
            continue
        rate = row.pass_at_1 if k == 1 else row.pass_hat_k
        if rate is None:  # no task of the group has K graded episodes
            rate = 0.0
        ok = rate >= threshold - 1e-12
        passed &= ok
        lines.append(f"agenteval gate: {'passed' if ok else 'FAILED'}: {shown} {name} {rate:.3f} "
                     f"{'>=' if ok else '<'} {threshold:g} ({row.tasks} tasks, {row.episodes} episodes{excluded})")
    if errored > gate.max_errored * len(grades) + 1e-9:
        passed = False
        lines.append(f"agenteval gate: FAILED: {errored} of {len(grades)} episodes errored, more than the "
                     f"{gate.max_errored:g} allowed ([tool.agenteval] {ERRORED_KEY}): a gate holds only a run that "
                     "graded its episodes (re-run the errored ones with --agenteval-resume FILE, then gate)")
    return Verdict(passed=passed, lines=lines)
