"""Instruction ↔ expectation: what the instruction states must agree with what is graded.

- An amount, rate or date the instruction states must be somewhere in what the task grades or
  reads: the expected state, a path's arguments, the rule checks, or a record the reference path
  reads (a limit the instruction repeats). One found nowhere contradicts the expectation: error.
  Whole numbers below 100 without a ``%`` are read as counts and durations ("2 notes",
  "within 30 days"), not amounts.
- A record (an id) the instruction names that the task never touches — in no path, not in the
  expected state, the overrides or the rule checks, nor the agent's own actor id — is a warning: the agent is sent after
  something the grade ignores. The environment declares deliberate distractors
  (``World.distractors``).
"""

from __future__ import annotations

from pytest_agenteval.taskfiles.loader import LoadedTask
from pytest_agenteval.validate.facts import Known, dates_in, ids_in, numbers_in, replayed
from pytest_agenteval.validate.report import Finding, Section
from pytest_agenteval.validate.taskset import TaskSet, at


def _task_findings(taskset: TaskSet, item: LoadedTask) -> list[Finding]:
    task = item.task
    env = taskset.pool.get(task.environment)
    dumped = task.model_dump(mode="json")
    graded = Known.of(dumped["expected_final_state"], dumped["acceptable_action_paths"], dumped["checks"],
                      dumped["overrides"], task.domain_fields)
    read = graded | Known.of(*(s.observation for s in replayed(taskset, item).seen if not s.writes))
    expected = sorted(Known.of(dumped["expected_final_state"]).numbers)
    findings = []
    for written, value in numbers_in(task.instruction):
        rate = f"{written}%" in task.instruction or f"{written} %" in task.instruction
        if (value < 100 and "." not in written and not rate) or value in read.numbers:
            continue
        shown = ", ".join(f"{n:g}" for n in expected[:5]) or "none"
        findings.append(Finding(where=at(item), message=(
            f"the instruction states {written}, but neither the expected state nor a path nor a record "
            f"the reference path reads has it (the expected state's numbers: {shown}); make them agree")))
    for date in dates_in(task.instruction):
        if not read.has(date) and date not in read.text:
            findings.append(Finding(where=at(item), message=(
                f"the instruction states the date {date}, but neither the expected state nor a path nor a "
                "record the reference path reads has it; make them agree")))
    # The agent's own staff id ("You are handler STF-001") is on every audit row it writes.
    distractors = {d.upper() for d in env.distractors(task)} | {env.agent_actor_id(task).upper()}
    for named in ids_in(task.instruction):
        if not graded.has(named) and named.upper() not in distractors:
            findings.append(Finding(where=at(item), level="warning", message=(
                f"the instruction names {named}, which the task never touches (in no path, not in the "
                "expected state); drop it, or declare it a deliberate distractor (Environment.distractors)")))
    return findings


def check_agreement(taskset: TaskSet) -> tuple[Section, list[Finding]]:
    findings = [f for item in taskset.loaded for f in _task_findings(taskset, item)]
    lines = [f"instruction ↔ expectation: {sum(f.error for f in findings)} contradiction(s), "
             f"{sum(not f.error for f in findings)} record(s) named but never touched"]
    return Section(name="agreement", lines=lines, data={"findings": [f.as_dict() for f in findings]}), findings
