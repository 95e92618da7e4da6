"""What ``agenteval validate`` found: findings on a task's line, and the whole picture.

A finding is an ``error``, a ``warning`` or ``info``; ``--strict`` fails on errors and
warnings. The per-task runs (``runs.py``) fill the counters; each task-set check
(``taskset.py``) adds a ``Section``: its findings, its lines of the printed summary, and its
data for the JSON and HTML reports.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["error", "warning", "info"]


@dataclass(frozen=True, kw_only=True)
class Finding:
    where: str
    message: str
    level: Level = "error"

    @property
    def error(self) -> bool:
        return self.level == "error"

    def __str__(self) -> str:
        return f"{self.where}: {'' if self.error else self.level + ': '}{self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"where": self.where, "level": self.level, "message": self.message}


@dataclass(kw_only=True)
class Section:
    """One task-set check's part of the report (guessability, leakage, coverage…)."""

    name: str
    lines: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(kw_only=True)
class Strictness:
    """The mutants of one task's reference path: how many the success criteria catch, and how.

    A mutant is *killed under its label* when a check carrying one of the failure modes it
    expects fails (``Script.expect``: a lying text expects its text check's; the environment
    may declare the others' in ``mutant_failure_modes``). Undeclared, its label is any failure
    mode but the path's and the state's (``GENERIC``; a dropped write's may be the state's) —
    or, in an environment without a rubric, any but the path's. A mutant other checks fail, but none with its label, is
    *killed under another label* (listed with the labels that fired): a grade that fails for
    the wrong reason. One no check but ``action_path`` notices is a survivor: either harmless
    (free it in the path, and it becomes a valid variant) or a gap in the criteria.
    """

    where: str
    task_id: str
    mutants: int = 0
    killed: int = 0
    texts: int = 0  # lying texts among the mutants
    texts_killed: int = 0
    other_label: list[str] = field(default_factory=list)
    survived: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Report:
    findings: list[Finding] = field(default_factory=list)
    tasks: int = 0
    reference_passed: int = 0
    noop_failed: int = 0
    # Tasks that expect no change: how many, passed by doing nothing, writes made anyway and caught.
    refusals: int = 0
    refusals_noop_passed: int = 0
    refusal_writes: int = 0
    refusal_writes_caught: int = 0
    # tag -> [tagged tasks with a saboteur, detected]
    detection: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    splits: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    variants: int = 0
    strictness: list[Strictness] = field(default_factory=list)
    # tag -> (environments, task ids) of tagged tasks no saboteur can check
    unverified: dict[str, tuple[set[str], list[str]]] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.error for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.level == "warning" for f in self.findings)

    @property
    def survivors(self) -> int:
        return sum(len(s.survived) for s in self.strictness)

    @property
    def mislabelled(self) -> int:
        """Mutants killed, but by no check carrying their label."""
        return sum(len(s.other_label) for s in self.strictness)

    def lines(self, *, strict: bool = False) -> list[str]:
        out = once_per_file(self.findings)
        for tag, (envs, ids) in sorted(self.unverified.items()):
            shown = ", ".join(ids[:5]) + (f", … {len(ids) - 5} more" if len(ids) > 5 else "")
            out.append(f"tag {tag}: warning: no saboteur in {', '.join(sorted(envs))}, so its {len(ids)} task(s) "
                       f"({shown}) are unverified (add one to the environment's saboteurs; see docs/environments.md)")
        out.append("")
        others = self.tasks - self.refusals
        out.append(f"tasks: {self.tasks}; reference passed {self.reference_passed}/{self.tasks}; "
                   f"do-nothing failed {self.noop_failed}/{others}")
        if self.refusals:
            out.append(f"expecting no change: {self.refusals} task(s); do-nothing passed {self.refusals_noop_passed}/"
                       f"{self.refusals}; writes made anyway caught {self.refusal_writes_caught}/{self.refusal_writes}")
        for env, counts in sorted(self.splits.items()):
            out.append(f"{env}: train {counts['train']}, eval {counts['eval']}")
        width = max([len(t) for t in [*self.detection, *self.unverified]] + [3])
        out.append(f"{'tag'.ljust(width)}  tasks  detected  rate")
        rows = {**{t: (n, f"{c:8d}", f"{c / n:.0%}" if n else "-") for t, (n, c) in self.detection.items()},
                **{t: (len(ids), f"{'-':>8}", "unverified") for t, (_, ids) in self.unverified.items()}}
        for tag, (tagged, caught, rate) in sorted(rows.items()):
            out.append(f"{tag.ljust(width)}  {tagged:5d}  {caught}  {rate:>4}")
        out += strictness_lines(self.strictness)
        for section in self.sections:
            out += ["", *section.lines]
        false_failures = sum(f.error and f.message.startswith("valid variant") for f in self.findings)
        out.append(f"valid variants: {self.variants} run, {self.variants - false_failures} passed")
        problems = sum(f.error for f in self.findings)
        if strict and self.survivors:
            problems += self.survivors
            out.append(f"--strict: {self.survivors} surviving mutant(s) count as problems: tighten the expected "
                       "state or checks, or free a harmless change in the path")
        if strict and self.mislabelled:
            problems += self.mislabelled
            out.append(f"--strict: {self.mislabelled} mutant(s) killed under another label count as problems: "
                       "make the check for the mistake fail (or declare the label it carries: "
                       "mutant_failure_modes)")
        if strict and self.warnings:
            problems += self.warnings
            out.append(f"--strict: {self.warnings} warning(s) count as problems")
        if strict and self.unverified:
            problems += len(self.unverified)
            out.append(f"--strict: {len(self.unverified)} tag(s) without a saboteur count as problems: write a "
                       "saboteur for each, or drop the tag")
        out.append(f"FAILED: {problems} problem(s)" if problems else "OK")
        return out

    def passed(self, *, strict: bool = False) -> bool:
        return self.ok and not (strict and (self.survivors or self.mislabelled or self.unverified
                                            or self.warnings))

    def as_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The whole report as JSON-able data (``--report PATH.json``)."""
        return {
            "passed": self.passed(strict=strict), "strict": strict, "tasks": self.tasks,
            "reference_passed": self.reference_passed, "noop_failed": self.noop_failed,
            "refusals": {"tasks": self.refusals, "noop_passed": self.refusals_noop_passed,
                         "writes": self.refusal_writes, "writes_caught": self.refusal_writes_caught},
            "findings": [f.as_dict() for f in self.findings],
            "splits": {env: dict(counts) for env, counts in sorted(self.splits.items())},
            "detection": {tag: {"tasks": n, "detected": c} for tag, (n, c) in sorted(self.detection.items())},
            "unverified": {tag: sorted(ids) for tag, (_, ids) in sorted(self.unverified.items())},
            "variants": self.variants,
            "strictness": [{"where": r.where, "task_id": r.task_id, "mutants": r.mutants, "killed": r.killed,
                            "texts": r.texts, "texts_killed": r.texts_killed, "other_label": r.other_label,
                            "survived": r.survived} for r in self.strictness],
            "sections": {section.name: section.data for section in self.sections},
        }




def once_per_file(findings: list[Finding]) -> list[str]:
    """Each finding's line, but a warning or info repeated word for word by tasks of one file
    printed once, with the count and the tasks (``--strict`` still counts each)."""
    groups: dict[tuple[str, Level, str], list[Finding]] = defaultdict(list)
    for f in findings:
        path, _, task_id = f.where.partition(" ")
        if not f.error and task_id and ":" in path:
            groups[(path.rsplit(":", 1)[0], f.level, f.message)].append(f)
    out: list[str] = []
    shown: set[tuple[str, Level, str]] = set()
    for f in findings:
        path, _, task_id = f.where.partition(" ")
        key = (path.rsplit(":", 1)[0], f.level, f.message)
        group = groups.get(key, []) if not f.error and task_id else []
        if len(group) < 2:
            out.append(str(f))
        elif key not in shown:
            shown.add(key)
            ids = [g.where.partition(" ")[2] for g in group]
            listed = ", ".join(ids[:8]) + (f", … {len(ids) - 8} more" if len(ids) > 8 else "")
            out.append(f"{key[0]}: {f.level}: {f.message} ({len(group)} tasks: {listed})")
    return out


def strictness_lines(rows: list[Strictness]) -> list[str]:
    if not rows:
        return []
    out = ["", "strictness: mutants of each reference path (texts: lying texts among them), killed when a check "
               "carrying their label fails",
           f"{'task':<12} mutants  texts  killed  other label  survived"]
    for r in rows:
        out.append(f"{r.task_id:<12} {r.mutants:7d}  {r.texts:5d}  {r.killed:6d}  {len(r.other_label):11d}  "
                   f"{len(r.survived):8d}")
        out += [f"  killed under another label: {name}" for name in r.other_label]
        out += [f"  survived: {name}" for name in r.survived]
    files: dict[str, list[Strictness]] = defaultdict(list)
    for r in rows:
        files[r.where.rsplit(":", 1)[0]].append(r)
    for path, group in files.items():
        total, killed = sum(r.mutants for r in group), sum(r.killed for r in group)
        other, survived = sum(len(r.other_label) for r in group), sum(len(r.survived) for r in group)
        texts, texts_killed = sum(r.texts for r in group), sum(r.texts_killed for r in group)
        rate = f" ({killed / total:.0%})" if total else ""
        out.append(f"{path}: {total} mutants, {killed} killed under their label{rate}, "
                   f"{other} under another label, {survived} survived; "
                   f"{texts} lying texts, {texts_killed} killed under their label")
    return out


