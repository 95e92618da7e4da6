"""Reliability metrics over graded episodes: pass@1 with an interval clustered by task, pass^k, pass@k.

Episodes of the same task are not independent draws: a deterministic agent run K times gives
K copies of one result. So pass@1 is the mean over tasks of each task's pass rate, and its
interval is a Wilson score interval (Wilson 1927) at the *effective* number of independent
draws, n_eff = p(1 - p) / V, where V is the cluster-robust variance of that mean (the sample
variance of the per-task rates over the number of tasks: Miller 2024, "Adding Error Bars to
Evals", arXiv:2411.00640, section 2.2 "clustered standard errors" and 3 "resampling"). This is
Kish's design-effect correction, with the Wilson interval as Korn & Graubard (1998, Survey
Methodology 24(2):193-201) use it for clustered samples. n_eff is at least the number of tasks
minus one and at most the number of episodes; when V = 0 because every task has the same
rate of 0 or 1 there is no within-sample spread to measure, and n_eff is the number of tasks.
"""

from __future__ import annotations

import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def is_errored(grade: Mapping[str, Any]) -> bool:
    """An errored episode (docs/errors.md): the agent could not play it. The contract: a results
    line is errored if and only if its ``error`` is a non-null object."""
    return isinstance(grade.get("error"), Mapping)


def played(grades: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The episodes every pass rate is over: the graded ones that are not errored."""
    return [g for g in grades if not is_errored(g)]


# What the table, the summary and the gate read of a grade, and nothing more: a run keeps one
# of these per episode instead of the grade (a few hundred bytes against tens of kilobytes).
_TALLY_USAGE = ("input_tokens", "output_tokens", "cost_usd")


def tally(grade: Mapping[str, Any]) -> dict[str, Any]:
    """A grade cut to what ``summarize``, ``summary_json``, ``summary_lines`` and the gate read.

    Every function here gives the same answer for the tallies as for the grades they came
    from. Repeated strings (task ids, environments, tags, modes) are interned: shared, not copied."""
    out: dict[str, Any] = {
        "task_id": sys.intern(str(grade["task_id"])), "run": grade["run"],
        "environment": sys.intern(str(grade.get("environment", ""))), "passed": bool(grade["passed"]),
        "failure_modes": tuple(sys.intern(str(m)) for m in grade.get("failure_modes", ())),
        "failure_mode_tags": tuple(sys.intern(str(t)) for t in grade.get("failure_mode_tags", ())),
    }
    if is_errored(grade):
        out["error"] = {"kind": sys.intern(str(grade["error"].get("kind", "unknown")))}
    usage = grade.get("usage")
    if isinstance(usage, Mapping):
        out["usage"] = {k: usage.get(k) for k in _TALLY_USAGE if k in usage}
    if grade.get("not_judged"):
        out["not_judged"] = tuple(grade["not_judged"])
    return out


def errored_counts(grades: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Errored episodes by kind (``provider``, ``agent_code``), most first."""
    counts = Counter(str(g["error"].get("kind", "unknown")) for g in grades if is_errored(g))
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a binomial proportion."""
    if n == 0:
        return 0.0, 0.0
    return _wilson_fraction(successes / n, n, z)


def task_interval(rates: Sequence[float], episodes: int, z: float = 1.959964) -> tuple[float, float]:
    """95% interval for the mean of per-task pass rates, clustered by task (see the module's doc)."""
    tasks = len(rates)
    if tasks == 0:
        return 0.0, 0.0
    p = sum(rates) / tasks
    n_eff = float(tasks)
    if tasks > 1:
        variance = sum((r - p) ** 2 for r in rates) / (tasks * (tasks - 1))
        if variance > 0:
            n_eff = p * (1 - p) / variance
        elif 0 < p < 1:  # every task has the same fractional rate: as good as independent episodes
            n_eff = float(episodes)
    n_eff = min(max(n_eff, 1.0), float(max(episodes, tasks)))
    return _wilson_fraction(p, n_eff, z)


def _wilson_fraction(p: float, n: float, z: float) -> tuple[float, float]:
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 episode``, ``2 episodes``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def pass_hat_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Unbiased pass^k: mean over tasks of C(c, k) / C(n, k).

    A task with fewer than k graded episodes (the others errored) counts 0 when one of them
    failed: its k runs did not all pass. Leaving it out let an errored run erase a graded
    failure of the same task from the rate (and from the gate). With all of them passed, it is
    left out (nothing says how the missing runs would have gone)."""
    values = [math.comb(c, k) / math.comb(n, k) if n >= k else 0.0 for c, n in counts if n >= k or c < n]
    return sum(values) / len(values) if values else None


def pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Unbiased pass@k: mean over tasks of 1 - C(n - c, k) / C(n, k). A task with fewer than
    k graded episodes counts 1 when one of them passed, and is left out when none did."""
    values = [1 - math.comb(n - c, k) / math.comb(n, k) if n >= k else 1.0 for c, n in counts if n >= k or c > 0]
    return sum(values) / len(values) if values else None


@dataclass(frozen=True, kw_only=True)
class Row:
    group: str
    tasks: int
    episodes: int
    passed: int
    pass_at_1: float
    ci_low: float
    ci_high: float
    pass_hat_k: float | None
    pass_at_k: float | None
    # For a failure-mode tag: in how many of the group's episodes that mode was triggered.
    triggered: int | None
    # Mean tokens (input + output) and cost (USD) per episode, over the episodes that reported
    # them (README, "Usage and transcripts"); None when none did.
    tokens_per_episode: float | None = None
    cost_per_episode: float | None = None


def _row(group: str, grades: Sequence[Mapping[str, Any]], k: int, tag: str | None) -> Row:
    per_task: dict[str, list[bool]] = defaultdict(list)
    for g in grades:
        per_task[g["task_id"]].append(bool(g["passed"]))
    counts = [(sum(v), len(v)) for v in per_task.values()]
    passed = sum(c for c, _ in counts)
    rates = [c / n for c, n in counts]
    low, high = task_interval(rates, len(grades))
    return Row(
        group=group, tasks=len(per_task), episodes=len(grades), passed=passed,
        # The mean of per-task rates: a task run more often than another does not weigh more.
        pass_at_1=sum(rates) / len(rates) if rates else 0.0, ci_low=low, ci_high=high,
        pass_hat_k=pass_hat_k(counts, k), pass_at_k=pass_at_k(counts, k),
        triggered=None if tag is None else sum(tag in g["failure_modes"] for g in grades),
        tokens_per_episode=_mean([u["input_tokens"] + u["output_tokens"] for u in _usages(grades)]),
        cost_per_episode=_mean([u["cost_usd"] for u in _usages(grades) if u.get("cost_usd") is not None]),
    )


def _usages(grades: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [g["usage"] for g in grades if isinstance(g.get("usage"), Mapping)]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(grades: Sequence[Mapping[str, Any]], k: int) -> list[Row]:
    """Rows for all episodes, each environment, and each failure-mode tag (sorted)."""
    # Grades arrive in the order episodes end (under xdist, any order); sums of floats taken in
    # that order differ in the last digit, so sum them in one order.
    grades = sorted(grades, key=lambda g: (str(g.get("task_id")), str(g.get("run"))))
    rows = [_row("all", grades, k, None)] if grades else []
    by_env: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    by_tag: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for g in grades:
        by_env[g["environment"]].append(g)
        for tag in g.get("failure_mode_tags", []):
            by_tag[tag].append(g)
    rows += [_row(f"env {name}", by_env[name], k, None) for name in sorted(by_env)]
    rows += [_row(f"tag {name}", by_tag[name], k, name) for name in sorted(by_tag)]
    return rows


def triggered_modes(grades: Iterable[Mapping[str, Any]]) -> list[tuple[str, int]]:
    counts = Counter(mode for g in grades for mode in g["failure_modes"])
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def render_table(rows: list[Row], k: int) -> list[str]:
    """The reliability table; tokens and cost per episode appear when some episode reported usage.

    At K=1, pass^1 and pass@1 are pass@1 itself: one column, not three."""
    header = ["group", "tasks", "episodes", "pass@1", "95% CI"]
    if k > 1:
        header += [f"pass^{k}", f"pass@{k}"]
    header.append("triggered")
    body = [
        [r.group, str(r.tasks), str(r.episodes), _fmt(r.pass_at_1), f"[{r.ci_low:.2f}, {r.ci_high:.2f}]",
         *([_fmt(r.pass_hat_k), _fmt(r.pass_at_k)] if k > 1 else []),
         "" if r.triggered is None else f"{r.triggered}/{r.episodes}"]
        for r in rows
    ]
    if any(r.tokens_per_episode is not None for r in rows):
        header += ["tokens/ep", "cost/ep"]
        for r, cells in zip(rows, body, strict=True):
            cells += ["-" if r.tokens_per_episode is None else f"{r.tokens_per_episode:,.0f}",
                      "-" if r.cost_per_episode is None else f"${r.cost_per_episode:.4f}"]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        padded = (c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))
        return "  ".join(padded).rstrip()

    return [line(header), *(line(b) for b in body)]


_USAGE_FIELDS = ("tokens_per_episode", "cost_per_episode")


# A summary key, present (true) only when the run did not play every task it selected (Ctrl-C,
# a stop): a gate over its file fails, as the run's own would have.
INTERRUPTED = "interrupted"
# A summary key, present only when tests of selected tasks failed before their episode was graded
# (the judge or the environment failed): the item ids. They are in no line and no rate, and the
# run failed on them; a gate over its file fails too (an agent whose text made the judge fail on
# the tasks it was failing left a file that passed `agenteval report --fail-under`: red team 13).
NOT_GRADED = "not_graded"
# A summary key, present only when the agent skipped tasks the run selected (a replay file without
# them): the item ids. A gate over its file fails, as the run's own did (red team 71).
SKIPPED_TASKS = "skipped_tasks"


def summary_json(grades: Sequence[Mapping[str, Any]], k: int) -> dict[str, Any]:
    """``episodes`` counts the played ones; errored episodes are apart (``errored``, by kind)."""
    errors = errored_counts(grades)
    grades = played(grades)
    return {
        "k": k,
        "episodes": len(grades),
        **({"errored": sum(errors.values()), "errored_by_kind": errors} if errors else {}),
        # Usage figures only where some episode reported usage: the summary is otherwise unchanged.
        "groups": [{k: v for k, v in r.__dict__.items() if v is not None or k not in _USAGE_FIELDS}
                   for r in summarize(grades, k)],
        "failure_modes_triggered": dict(triggered_modes(grades)),
    }


def summary_title(grades: Sequence[Mapping[str, Any]], k: int) -> str:
    errors = sum(errored_counts(grades).values())
    return f"agenteval: {plural(len(played(grades)), 'episode')}, K={k}" + (f", {errors} errored" if errors else "")


def summary_lines(grades: Sequence[Mapping[str, Any]], k: int) -> list[str]:
    """The reliability table and the triggered failure modes: what the plugin and ``agenteval report`` print.

    Errored episodes are in no row: one line counts them by kind and names them."""
    errors = errored_counts(grades)
    errored = [g for g in grades if is_errored(g)]
    grades = played(grades)
    modes = ", ".join(f"{m} {n}" for m, n in triggered_modes(grades)) or "none"
    lines = [*render_table(summarize(grades, k), k)] if grades else []
    lines.append(f"failure modes triggered (episodes): {modes}")
    if errors:
        kinds = ", ".join(f"{kind} {n}" for kind, n in errors.items())
        names = ", ".join(f"{g['task_id']} run {g['run']}" for g in errored[:10]) + (", …" if len(errored) > 10 else "")
        lines.append(f"{sum(errors.values())} errored (not in any pass rate): {kinds}; {names}")
    return lines
