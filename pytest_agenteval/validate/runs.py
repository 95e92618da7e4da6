"""The per-task runs of ``agenteval validate``: the reference must pass, the do-nothing agent
must fail, each tag's saboteur must fail under that tag, valid variants must pass, and the
mutants of the reference path — path mutants and lying texts — are killed under their label
(see ``agents/variants.py``).
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from pytest_agenteval.agents.builtin import NoopAgent, Reference
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.saboteurs import Saboteur, sabotage_for
from pytest_agenteval.agents.scripts import Script, ScriptedCalls
from pytest_agenteval.agents.variants import Planner
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.grading.state import COLLATERAL, WRONG_STATE
from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.validate.report import Finding, Report, Strictness
from pytest_agenteval.validate.taskset import TaskSet

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


def _failed(grade: Grade) -> str:
    return "; ".join(f"{c.name}: {c.detail}" for c in grade.failed_checks())[:400]


def lint(loaded: list[LoadedTask], report: Report) -> None:
    """Static problems, before anything runs."""
    uses: Counter[str] = Counter(tag for t in loaded for tag in t.task.failure_mode_tags)
    for item in loaded:
        task, where = item.task, f"{item.where} {item.task.task_id}"
        report.splits[task.environment][task.split] += 1
        if not task.acceptable_action_paths and not task.no_change:
            report.findings.append(Finding(where=where, message="no acceptable_action_paths: nothing to act on"))
        if not task.expected_final_state and not task.no_change:
            report.findings.append(Finding(where=where, level="warning",
                                           message="expected_final_state is empty: what must change? (if "
                                                   "nothing must, say so: \"no_change\": true)"))
        for tag in task.failure_mode_tags:
            if sabotage_for(task.environment, tag) is None:  # one line per tag, in Report.lines
                envs, ids = report.unverified.setdefault(tag, (set(), []))
                envs.add(task.environment)
                ids.append(task.task_id)
            if uses[tag] == 1:  # worth knowing, not wrong: a small file may well tag a mode once
                report.findings.append(Finding(where=where, level="info",
                                               message=f"tag {tag} is used by this task only"))


def run_task(item: LoadedTask, pool: EnvironmentPool, report: Report, taskset: TaskSet) -> None:
    task, where = item.task, f"{item.where} {item.task.task_id}"
    env = pool.get(task.environment)
    reference = run_episode(env, task, Reference(), time_limit=None)
    taskset.references[item.where] = reference
    if reference.passed:
        report.reference_passed += 1
    else:
        report.findings.append(Finding(where=where, message=f"reference agent failed — {_failed(reference)}"))
    noop = run_episode(env, task, NoopAgent, time_limit=None)
    if task.no_change:
        _refusal(item, env, report, noop)
    elif noop.passed:
        report.findings.append(Finding(where=where, message="the do-nothing agent passed"))
    else:
        report.noop_failed += 1
    if reference.passed:  # variants and mutants of a failing reference would only repeat its failure
        _both_ways(item, env, report)
    for tag in task.failure_mode_tags:
        if sabotage_for(task.environment, tag) is None:
            continue
        report.detection[tag][0] += 1
        saboteur = Saboteur(tag).for_task(task)
        grade = run_episode(env, task, partial(_same, saboteur), time_limit=None)
        if saboteur.not_applicable:
            report.findings.append(Finding(where=where, message=(
                f"saboteur {tag} cannot apply: {saboteur.not_applicable} (drop the tag, or give the task "
                "the room to make that mistake)")))
        elif grade.passed:
            report.findings.append(Finding(where=where, message=f"saboteur {tag} passed — no check caught it"))
        elif tag not in grade.failure_modes:
            report.findings.append(Finding(
                where=where, message=f"saboteur {tag} failed, but no failed check triggered {tag} "
                                     f"(triggered: {', '.join(grade.failure_modes)})"))
        else:
            report.detection[tag][1] += 1


def _refusal(item: LoadedTask, env: Environment, report: Report, noop: Grade) -> None:
    """A task whose right answer is to change nothing: doing nothing must pass, and each write
    made anyway must fail it under ``unwarranted_change``."""
    task, where = item.task, f"{item.where} {item.task.task_id}"
    report.refusals += 1
    if noop.passed:
        report.refusals_noop_passed += 1
    else:
        report.findings.append(Finding(where=where, message=(
            f"the do-nothing agent failed, but the task expects no change — {_failed(noop)}")))
    for tries in Planner(env, task).writing_saboteurs():
        for script in tries:
            agent = ScriptedCalls(script)
            grade = run_episode(env, task, agent, time_limit=None)
            if agent.answers and agent.answers[-1].get("ok"):  # else refused: that mistake cannot be made
                _refusal_write(report, where, script, grade)
                break


def _refusal_write(report: Report, where: str, script: Script, grade: Grade) -> None:
    report.refusal_writes += 1
    if grade.passed:
        report.findings.append(Finding(where=where, message=f"saboteur {script.name} passed — no check caught it"))
    elif "unwarranted_change" not in grade.failure_modes:
        report.findings.append(Finding(where=where, message=(
            f"saboteur {script.name} failed, but not under unwarranted_change "
            f"(triggered: {', '.join(grade.failure_modes)})")))
    else:
        report.refusal_writes_caught += 1


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
        report.findings.append(Finding(where=where, level="warning", message=(
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
        if task.grade_by == "outcome" and script.kind in ("repeat", "swap") and grade.passed:
            # Graded by outcome, the path's order and an idempotent repeat do not matter.
            _variant(report, where, f"{script.name}, which grading by outcome allows", grade)
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



def _same(agent: object) -> object:
    """A factory that gives this agent (kept, to read what it recorded after the episode)."""
    return agent


def _path_passed(grade: Grade) -> bool:
    return any(c.name == "action_path" and c.passed for c in grade.checks)
