"""Guessability baselines: agents that read nothing, and the share of a file's tasks they pass.

A task a policy passes without reading the world measures nothing. Two kinds are run on
every task of a file:

- **constant policies** an environment declares (``Environment.baselines``): "always raise a
  query on the facility the instruction names", "always decline"… They may read the
  instruction and call writes, never a look-up;
- **one-write agents**, built here, one per write action the file's tasks allow: on each
  task, a single call of that action whose every argument needs no reading — an id or a
  number the instruction names, a free-text argument, or an enum/boolean (a constant to
  guess; the path's value is the best guess) — taken from the task's paths. A call an
  argument of which must be looked up (an account id, a sheet rate) is not guessable, so the
  agent makes no call there. A task passes if one such call passes it;
- **template policies** (``templates.py``): each task's reference path with the ids and
  numbers its instruction names swapped for those the other task's instruction names, played
  on the file's other tasks: a task passed by another task's copied answer has no contrast.

Each baseline's pass rate is printed per file (a template's over the file's other tasks of its
environment: it passes its own); above the threshold (``[tool.agenteval]
validate_baseline_threshold``, default 10%) it is a warning, which ``--strict`` fails, naming
the tasks it passes. Each task another task's template passes gets an info finding.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.environments.registry import environment_class
from pytest_agenteval.patterns import lazy
from pytest_agenteval.tasks.paths import located_steps
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import at
from pytest_agenteval.validate.templates import Template, file_templates

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.engine.actions import ActionSpec
    from pytest_agenteval.taskfiles.loader import LoadedTask
    from pytest_agenteval.tasks.model import Task
    from pytest_agenteval.validate.taskset import TaskSet

NUMBER = lazy(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


class OneCall:
    """Makes one call and stops."""

    def __init__(self, action: str, arguments: dict[str, Any]) -> None:
        self.action, self.arguments = action, arguments

    def run(self, episode: Episode) -> None:
        episode.call(self.action, dict(self.arguments))


def named_in(value: Any, instruction: str) -> bool:
    """Whether the instruction names this id or number (as a whole word or number)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        return len(value) > 1 and re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", instruction) is not None
    if isinstance(value, (int, float)):
        return any(float(n.replace(",", "")) == float(value) for n in NUMBER.findall(instruction))
    return False


def guessable(spec: ActionSpec, name: str, value: Any, instruction: str) -> bool:
    """Whether an agent that read only the instruction could give this argument."""
    schema = spec.parameters.get("properties", {}).get(name, {})
    constant = "enum" in schema or "const" in schema or schema.get("type") == "boolean"
    return name in spec.free_text or constant or named_in(value, instruction)


def one_write_calls(task: Task, spec: ActionSpec) -> list[dict[str, Any]]:
    """The single calls of ``spec`` the task's paths make whose arguments need no reading."""
    calls: list[dict[str, Any]] = []
    for path in task.acceptable_action_paths:
        for _, step in located_steps(path):
            args = step.call_arguments()
            if step.action == spec.name and args not in calls and all(
                    guessable(spec, k, v, task.instruction) for k, v in args.items()):
                calls.append(args)
    return calls


@dataclass(kw_only=True)
class Outcome:
    """One baseline on one file: the tasks it was run on and those it passed."""

    tasks: int = 0
    passed: list[str] = field(default_factory=list)

    def rate(self) -> float:
        return len(self.passed) / self.tasks if self.tasks else 0.0


def _passes(taskset: TaskSet, item: LoadedTask, factories: list[Callable[[], Any]]) -> bool:
    env = taskset.pool.get(item.task.environment)
    return any(run_episode(env, item.task, f, time_limit=None).passed for f in factories)


def _file_outcomes(taskset: TaskSet, items: list[LoadedTask]) -> dict[str, Outcome]:
    out: dict[str, Outcome] = defaultdict(Outcome)
    writes = sorted({a for i in items for a in i.task.allowed_actions
                     if (spec := environment_class(i.task.environment).actions.get(a)) and spec.writes})
    for item in items:
        env_cls = environment_class(item.task.environment)
        runs: dict[str, list[Callable[[], Any]]] = {f"constant {name}": [factory]
                                                    for name, factory in env_cls.baselines.items()}
        for action in writes:
            spec = env_cls.actions.get(action)
            calls = one_write_calls(item.task, spec) if spec and action in item.task.allowed_actions else []
            runs[f"one write: {action}"] = [partial(OneCall, action, c) for c in calls]
        for name, factories in runs.items():
            outcome = out[name]
            outcome.tasks += 1
            passed = bool(factories) and _passes(taskset, item, factories)
            taskset.baseline_passes.setdefault(name, {})[item.where] = passed
            if passed:
                outcome.passed.append(item.task.task_id)
    return out


def pct(share: float) -> str:
    """A share as a percentage, with a decimal where rounding would hide which side of 10% it is."""
    return f"{share:.0%}" if round(share * 100, 6).is_integer() else f"{share:.1%}"


def _shown(ids: list[str]) -> str:
    return ", ".join(ids[:8]) + (f", … {len(ids) - 8} more" if len(ids) > 8 else "")


def baselines(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    threshold = taskset.config.baseline_threshold
    section = Section(name="baselines", lines=[
        f"guessability baselines: pass rate per file of agents that read nothing (--strict fails above "
        f"{pct(threshold)}: validate_baseline_threshold)"])
    findings: list[Finding] = []
    files: dict[str, list[LoadedTask]] = defaultdict(list)
    for item in taskset.loaded:
        files[item.where.rsplit(":", 1)[0]].append(item)
    for path, items in files.items():
        outcomes = _file_outcomes(taskset, items)
        section.data[path] = {name: {"tasks": o.tasks, "passed": o.passed} for name, o in outcomes.items()}
        width = max(len(n) for n in outcomes) if outcomes else 0
        section.lines.append(f"{path}:")
        for name, o in sorted(outcomes.items()):
            ids = o.passed
            section.lines.append(f"  {name.ljust(width)}  {len(ids):3d}/{o.tasks:<3d} {pct(o.rate()):>5}"
                                 + (f"  {_shown(ids)}" if ids else ""))
            if o.rate() > threshold:
                findings.append(Finding(where=path, level="warning", message=(
                    f"baseline {name} passes {len(ids)}/{o.tasks} tasks ({pct(o.rate())}), above {pct(threshold)}: "
                    f"{_shown(ids)} (give them contrast twins whose world makes that answer wrong, or make them "
                    "need reading)")))
            elif ids:
                findings.append(Finding(where=path, level="info", message=(
                    f"baseline {name} passes {len(ids)}/{o.tasks} tasks ({pct(o.rate())}): {_shown(ids)}")))
        templates = file_templates(taskset, items)
        section.data[path].update({t.name: {"tasks": t.tasks, "passed": t.passed, "sources": t.sources}
                                   for t in templates})
        findings += _template_findings(path, items, templates, threshold, section.lines)
    return section, findings


def _template_findings(path: str, items: list[LoadedTask], templates: list[Template], threshold: float,
                       lines: list[str]) -> list[Finding]:
    findings: list[Finding] = []
    copied = [t for t in templates if t.passed]
    lines.append(f"  templates (each task's answer with the ids and numbers its instruction names swapped, played on "
                 f"the other tasks): {len(templates)} distinct, {len(copied)} pass another task")
    by_task: dict[str, list[str]] = defaultdict(list)
    for t in copied:
        rate = len(t.passed) / t.tasks
        lines.append(f"    {t.name}  {len(t.passed):3d}/{t.tasks:<3d} {pct(rate):>5}  {_shown(t.passed)}")
        for task_id in t.passed:
            by_task[task_id].append(t.sources[0])
        if rate > threshold:
            findings.append(Finding(where=path, level="warning", message=(
                f"baseline {t.name} (its answer, the ids and numbers the instruction names swapped) passes "
                f"{len(t.passed)}/{t.tasks} other tasks ({pct(rate)}), above {pct(threshold)}: {_shown(t.passed)} "
                "(give them contrast twins whose world makes that answer wrong)")))
    for item in items:
        if sources := by_task.get(item.task.task_id):
            findings.append(Finding(where=at(item), level="info", message=(
                f"passed by copying another task's answer: the template of {_shown(sources)}")))
    return findings
