"""Compare two runs of the same tasks, task by task (a paired comparison).

Each task present in both runs gives one pair: its pass rate in BASE and in NEW (over that
run's episodes of the task; 0 or 1 when each was run once). Pairing removes the difference in
difficulty between tasks, which is most of the variance (Miller 2024, "Adding Error Bars to
Evals", arXiv:2411.00640, section 4 "paired differences").

- delta: mean over tasks of (new rate - base rate), with a 95% interval from the standard
  error of that mean (the sample variance of the per-task differences over the number of
  tasks) and Student's t with tasks - 1 degrees of freedom (a tag may have only a few tasks).
- significance: the exact **one-sided sign test** on the tasks whose rate changed (worse vs
  better; ties dropped): ``p`` is the chance of at least that many worse tasks out of the
  changed ones under a fair coin. With one episode per task per run this is the exact McNemar
  test (McNemar 1947) on the discordant pairs. It assumes nothing about the size of a change.
  One-sided because a CI gate asks one question, "did it get worse?": two-sided, 5 tasks lost
  and none gained give p = 0.0625 and nothing of 5 or fewer could ever be flagged at 0.05;
  one-sided, 5 lost and none gained give p = 1/32 = 0.031 (docs/ci.md: the smallest drop it
  detects). ``p_better`` is the same test the other way, for the improvement verdict.
- a significant regression: delta < 0 and p < alpha (0.05) over all tasks. ``agenteval
  compare`` exits 1 on it; the per-failure-mode rows are shown, not tested for the exit code
  (eighteen tests would give false alarms).
- errored episodes (a non-null ``error``: the agent could not play) are left out: they say
  nothing about the agent. A task with no other episode is then missing from that run.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_agenteval.report.metrics import is_errored, played

Z95 = 1.959964
# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval (Cornish-Fisher's first term past 30)."""
    if df <= len(T95):
        return T95[df - 1]
    return Z95 + (Z95**3 + Z95) / (4 * df)


def sign_test(worse: int, better: int) -> float:
    """Exact two-sided p-value of ``worse`` vs ``better`` under a fair coin (1.0 when none changed)."""
    n = worse + better
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, i) for i in range(min(worse, better) + 1)) / 2**n
    return min(1.0, 2 * tail)


def sign_test_worse(worse: int, better: int) -> float:
    """Exact one-sided p-value: P(at least ``worse`` of ``worse + better`` changed tasks got worse)
    under a fair coin (1.0 when none changed)."""
    n = worse + better
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, i) for i in range(worse, n + 1)) / 2**n
    return tail


def task_rates(grades: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    runs: dict[str, list[bool]] = defaultdict(list)
    for grade in grades:
        runs[str(grade["task_id"])].append(bool(grade["passed"]))
    return {task: sum(v) / len(v) for task, v in runs.items()}


@dataclass(frozen=True, kw_only=True)
class Delta:
    group: str
    tasks: int
    base: float
    new: float
    delta: float
    ci_low: float | None
    ci_high: float | None
    worse: int
    better: int
    p_value: float  # one-sided: that NEW is worse
    p_better: float = 1.0  # one-sided: that NEW is better


@dataclass(frozen=True, kw_only=True)
class Change:
    task_id: str
    base: float
    new: float


@dataclass(frozen=True, kw_only=True)
class Comparison:
    overall: Delta
    groups: list[Delta]
    regressed: list[Change]
    improved: list[Change]
    only_base: list[str]
    only_new: list[str]
    alpha: float
    # Errored episodes (docs/errors.md) of each run: left out before pairing, so an outage in
    # NEW is never read as a regression (a task errored in every episode is in one run only).
    errored_base: int = 0
    errored_new: int = 0

    @property
    def significant_regression(self) -> bool:
        return self.overall.delta < 0 and self.overall.p_value < self.alpha


def paired_delta(group: str, pairs: Sequence[tuple[float, float]]) -> Delta:
    n = len(pairs)
    diffs = [new - base for base, new in pairs]
    mean = sum(diffs) / n if n else 0.0
    low = high = None
    if n > 1:
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n * (n - 1)))
        low, high = max(-1.0, mean - t95(n - 1) * se), min(1.0, mean + t95(n - 1) * se)
    worse, better = sum(d < 0 for d in diffs), sum(d > 0 for d in diffs)
    return Delta(group=group, tasks=n, base=sum(b for b, _ in pairs) / n if n else 0.0,
                 new=sum(x for _, x in pairs) / n if n else 0.0, delta=mean, ci_low=low, ci_high=high,
                 worse=worse, better=better, p_value=sign_test_worse(worse, better),
                 p_better=sign_test_worse(better, worse))


def compare(base: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]], *, alpha: float = 0.05) -> Comparison:
    errored_base, errored_new = sum(map(is_errored, base)), sum(map(is_errored, new))
    base, new = played(base), played(new)
    base_rates, new_rates = task_rates(base), task_rates(new)
    shared = sorted(set(base_rates) & set(new_rates))
    groups: dict[str, set[str]] = defaultdict(set)
    for grade in [*base, *new]:
        task = str(grade["task_id"])
        if task in base_rates and task in new_rates:
            groups[f"env {grade['environment']}"].add(task)
            for tag in grade.get("failure_mode_tags", []):
                groups[f"tag {tag}"].add(task)
    envs = sorted(g for g in groups if g.startswith("env "))
    tags = sorted(g for g in groups if g.startswith("tag "))
    rows = [paired_delta(name, [(base_rates[t], new_rates[t]) for t in sorted(groups[name])]) for name in envs + tags]
    changes = [Change(task_id=t, base=base_rates[t], new=new_rates[t]) for t in shared]
    return Comparison(
        overall=paired_delta("all", [(base_rates[t], new_rates[t]) for t in shared]), groups=rows,
        regressed=sorted((c for c in changes if c.new < c.base), key=lambda c: (c.new - c.base, c.task_id)),
        improved=sorted((c for c in changes if c.new > c.base), key=lambda c: (c.base - c.new, c.task_id)),
        only_base=sorted(set(base_rates) - set(new_rates)), only_new=sorted(set(new_rates) - set(base_rates)),
        alpha=alpha, errored_base=errored_base, errored_new=errored_new,
    )


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def render(comparison: Comparison) -> list[str]:
    header = ["group", "tasks", "base", "new", "delta", "95% CI", "worse", "better", "p(worse)"]
    body = [
        [d.group, str(d.tasks), f"{d.base:.2f}", f"{d.new:.2f}", _signed(d.delta),
         "-" if d.ci_low is None else f"[{_signed(d.ci_low)}, {_signed(d.ci_high)}]",
         str(d.worse), str(d.better), f"{d.p_value:.3g}"]
        for d in [comparison.overall, *comparison.groups]
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
             .rstrip() for row in [header, *body]]
    for label, changes in (("regressed", comparison.regressed), ("improved", comparison.improved)):
        listed = ", ".join(f"{c.task_id} {c.base:.2f}->{c.new:.2f}" for c in changes) or "none"
        lines.append(f"{label} ({len(changes)}): {listed}")
    for label, missing in (("only in base", comparison.only_base), ("only in new", comparison.only_new)):
        if missing:
            lines.append(f"{label} (not compared, {len(missing)}): {', '.join(missing)}")
    if comparison.errored_base or comparison.errored_new:
        lines.append(f"errored episodes, not compared: {comparison.errored_base} in base, "
                     f"{comparison.errored_new} in new")
    o = comparison.overall
    test = f"exact one-sided sign test over tasks, p(worse) = {o.p_value:.3g}, alpha = {comparison.alpha:g}"
    if comparison.significant_regression:
        lines.append(f"verdict: significant regression ({o.delta:+.2f}; {test})")
    elif o.delta > 0 and o.p_better < comparison.alpha:
        lines.append(f"verdict: significant improvement ({o.delta:+.2f}; exact one-sided sign test over tasks, "
                     f"p(better) = {o.p_better:.3g}, alpha = {comparison.alpha:g})")
    else:
        lines.append(f"verdict: no significant change ({o.delta:+.2f}; {test})")
    return lines
