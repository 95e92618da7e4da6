"""Grader validation: prove every task can be passed, cannot be passed by doing nothing, and
that each failure mode it is tagged with is really caught.

    agenteval validate tasks/

Runs without pytest. For every task: the reference agent must pass, the do-nothing agent must
fail, the saboteur for each of its tags must fail with a check that triggers that tag, every
generated valid variant must pass, and the generated mutants — path mutants and lying texts —
measure how strict the task's success criteria are, and whether they fail each mistake under
its label (see ``agents/variants.py``, ``Strictness``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from os import PathLike

from pytest_agenteval.agents.builtin import NoopAgent, Reference
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.saboteurs import Saboteur, sabotage_for
from pytest_agenteval.agents.variants import Planner, Script, ScriptedCalls
from pytest_agenteval.engine.conformance import check_environment, environment_warnings
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import EnvironmentBug
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.state import COLLATERAL, WRONG_STATE
from pytest_agenteval.taskfiles.loader import LoadedTask, TaskLoader


@dataclass(frozen=True, kw_only=True)
class Finding:
    where: str
    message: str
    error: bool = True

    def __str__(self) -> str:
        return f"{self.where}: {'' if self.error else 'warning: '}{self.message}"


@dataclass(kw_only=True)
class Report:
    findings: list[Finding] = field(default_factory=list)
    tasks: int = 0
    reference_passed: int = 0
    noop_failed: int = 0
    # tag -> [tagged tasks with a saboteur, detected]
    detection: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    splits: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    variants: int = 0
    strictness: list[Strictness] = field(default_factory=list)
    # tag -> (environments, task ids) of tagged tasks no saboteur can check
    unverified: dict[str, tuple[set[str], list[str]]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(f.error for f in self.findings)

    @property
    def survivors(self) -> int:
        return sum(len(s.survived) for s in self.strictness)

    @property
    def mislabelled(self) -> int:
        """Mutants killed, but by no check carrying their label."""
        return sum(len(s.other_label) for s in self.strictness)

    def lines(self, *, strict: bool = False) -> list[str]:
        out = [str(f) for f in self.findings]
        for tag, (envs, ids) in sorted(self.unverified.items()):
            shown = ", ".join(ids[:5]) + (f", … {len(ids) - 5} more" if len(ids) > 5 else "")
            out.append(f"tag {tag}: warning: no saboteur in {', '.join(sorted(envs))}, so its {len(ids)} task(s) "
                       f"({shown}) are unverified (add one to the environment's saboteurs; see docs/environments.md)")
        out.append("")
        out.append(f"tasks: {self.tasks}; reference passed {self.reference_passed}/{self.tasks}; "
                   f"do-nothing failed {self.noop_failed}/{self.tasks}")
        for env, counts in sorted(self.splits.items()):
            out.append(f"{env}: train {counts['train']}, eval {counts['eval']}")
        width = max([len(t) for t in [*self.detection, *self.unverified]] + [3])
        out.append(f"{'tag'.ljust(width)}  tasks  detected  rate")
        rows = {**{t: (n, f"{c:8d}", f"{c / n:.0%}" if n else "-") for t, (n, c) in self.detection.items()},
                **{t: (len(ids), f"{'-':>8}", "unverified") for t, (_, ids) in self.unverified.items()}}
        for tag, (tagged, caught, rate) in sorted(rows.items()):
            out.append(f"{tag.ljust(width)}  {tagged:5d}  {caught}  {rate:>4}")
        out += strictness_lines(self.strictness)
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
        if strict and self.unverified:
            problems += len(self.unverified)
            out.append(f"--strict: {len(self.unverified)} tag(s) without a saboteur count as problems: write a "
                       "saboteur for each, or drop the tag")
        out.append(f"FAILED: {problems} problem(s)" if problems else "OK")
        return out

    def passed(self, *, strict: bool = False) -> bool:
        return self.ok and not (strict and (self.survivors or self.mislabelled or self.unverified))


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


# Failure modes that say a path or the state went wrong, not which mistake was made.
GENERIC = frozenset({"unexpected_path", "step_limit", WRONG_STATE, COLLATERAL})


def judge_mutant(script: Script, grade: Grade, *, rubric: bool) -> tuple[str, list[str]]:
    """("killed" | "other" | "survived", the failure modes that fired besides the path's)."""
    fired = list(dict.fromkeys(c.failure_mode for c in grade.failed_checks() if c.name != "action_path"))
    if not fired:
        return "survived", fired
    if script.expect:
        labelled = bool(script.expect & set(fired))
    else:
        # A write left out is just what the expected state says: its label counts for a drop.
        generic = GENERIC - {WRONG_STATE} if script.kind == "drop" else GENERIC
        labelled = bool(set(fired) - (generic if rubric else {"unexpected_path"}))
    return ("killed" if labelled else "other"), fired


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


def _failed(grade: Grade) -> str:
    return "; ".join(f"{c.name}: {c.detail}" for c in grade.failed_checks())[:400]


def lint(loaded: list[LoadedTask], report: Report) -> None:
    """Static problems, before anything runs."""
    uses: Counter[str] = Counter(tag for t in loaded for tag in t.task.failure_mode_tags)
    for item in loaded:
        task, where = item.task, f"{item.where} {item.task.task_id}"
        report.splits[task.environment][task.split] += 1
        if not task.acceptable_action_paths:
            report.findings.append(Finding(where=where, message="no acceptable_action_paths: nothing to act on"))
        if not task.expected_final_state:
            report.findings.append(Finding(where=where, error=False,
                                           message="expected_final_state is empty: what must change?"))
        for tag in task.failure_mode_tags:
            if sabotage_for(task.environment, tag) is None:  # one line per tag, in Report.lines
                envs, ids = report.unverified.setdefault(tag, (set(), []))
                envs.add(task.environment)
                ids.append(task.task_id)
            if uses[tag] == 1:
                report.findings.append(Finding(where=where, error=False,
                                               message=f"tag {tag} is used by this task only"))


def validate(paths: Iterable[str | PathLike[str]], *, pool: EnvironmentPool | None = None) -> Report:
    pool = pool or EnvironmentPool()
    loader = TaskLoader(pool)
    report = Report()
    loaded: list[LoadedTask] = []
    for path in paths:
        tasks, problems = loader.load_file(path)
        loaded += tasks
        report.findings += [Finding(where=f"{p.path}:{p.line}", message=f"{p.field}: {p.message} ({p.fix})")
                            for p in problems]
    report.tasks = len(loaded)
    lint(loaded, report)
    for name in sorted({t.task.environment for t in loaded}):
        report.findings += [Finding(where=f"environment {name}", message=m)
                            for m in check_environment(pool.get(name))]
        report.findings += [Finding(where=f"environment {name}", message=m, error=False)
                            for m in environment_warnings(pool.get(name), descriptions=False)]
    for item in loaded:
        try:
            _run_task(item, pool, report)
        except EnvironmentBug as exc:  # the rest of this task's runs would only repeat it
            report.findings.append(Finding(where=f"{item.where} {item.task.task_id}", message=str(exc)))
    return report


def _run_task(item: LoadedTask, pool: EnvironmentPool, report: Report) -> None:
    task, where = item.task, f"{item.where} {item.task.task_id}"
    env = pool.get(task.environment)
    reference = run_episode(env, task, Reference(), time_limit=None)
    if reference.passed:
        report.reference_passed += 1
    else:
        report.findings.append(Finding(where=where, message=f"reference agent failed — {_failed(reference)}"))
    if run_episode(env, task, NoopAgent, time_limit=None).passed:
        report.findings.append(Finding(where=where, message="the do-nothing agent passed"))
    else:
        report.noop_failed += 1
    if reference.passed:  # variants and mutants of a failing reference would only repeat its failure
        _both_ways(item, env, report)
    for tag in task.failure_mode_tags:
        if sabotage_for(task.environment, tag) is None:
            continue
        report.detection[tag][0] += 1
        grade = run_episode(env, task, Saboteur(tag), time_limit=None)
        if grade.passed:
            report.findings.append(Finding(where=where, message=f"saboteur {tag} passed — no check caught it"))
        elif tag not in grade.failure_modes:
            report.findings.append(Finding(
                where=where, message=f"saboteur {tag} failed, but no failed check triggered {tag} "
                                     f"(triggered: {', '.join(grade.failure_modes)})"))
        else:
            report.detection[tag][1] += 1


def _both_ways(item: LoadedTask, env: Environment, report: Report) -> None:
    """Valid variants must pass; mutants are counted as killed, caught by the path only, or survived."""
    task, where = item.task, f"{item.where} {item.task.task_id}"
    planner = Planner(env, task)
    for script in planner.variants():
        agent = ScriptedCalls(script)
        grade = run_episode(env, task, agent, time_limit=None)
        if agent.applicable():
            _variant(report, where, script.name, grade)
    for action in planner.unprobed:
        report.findings.append(Finding(where=where, error=False, message=(
            f"look-up {action} was not tried on unrelated records: no arguments could be built for it "
            "(name its id argument <table>_id, or use it in the reference path)")))
    row = Strictness(where=item.where, task_id=task.task_id)
    rubric = type(env).rubric is not Environment.rubric
    for script in planner.mutants():
        agent = ScriptedCalls(script)
        grade = run_episode(env, task, agent, time_limit=None)
        if agent.refused_lie():
            continue  # the environment refused the lying text: the mistake cannot be made
        if agent.refused_repeat() or (not script.free_text and _path_passed(grade)):
            # The environment refused the repeat, or a path allows what took effect: by the
            # task's own data this is a correct way to do the job, so it must pass.
            _variant(report, where, f"{script.name}, which the task allows", grade)
            continue
        row.mutants += 1
        row.texts += script.text
        verdict, fired = judge_mutant(script, grade, rubric=rubric)
        if verdict == "killed":
            row.killed += 1
            row.texts_killed += script.text
        elif verdict == "other":
            expected = f"expected {', '.join(sorted(script.expect))}; " if script.expect else ""
            row.other_label.append(f"{script.name} ({expected}fired: {', '.join(fired)})")
        else:
            row.survived.append(f"{script.name} ({'passed' if grade.passed else 'only action_path noticed'})")
    report.strictness.append(row)


def _variant(report: Report, where: str, name: str, grade: Grade) -> None:
    report.variants += 1
    if not grade.passed:
        report.findings.append(Finding(where=where, message=f"valid variant failed ({name}) — {_failed(grade)}"))



def _path_passed(grade: Grade) -> bool:
    return any(c.name == "action_path" and c.passed for c in grade.checks)
