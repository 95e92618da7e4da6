"""Saboteur agents: each follows the task's reference path but commits one failure mode.

They prove a task's tags are real: a saboteur for ``duplicate_account`` must fail every
task tagged ``duplicate_account``, with a failed check that names that mode. Domains supply
their saboteurs as ``Environment.saboteurs``; ``forbidden_action`` works everywhere, and so do
``unconfirmed_write`` and ``not_communicated`` on tasks with a simulated user.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_agenteval.environments.registry import environment_class
from pytest_agenteval.tasks.model import SAY_TO_USER
from pytest_agenteval.tasks.paths import first_order
from pytest_agenteval.text.requirements import says_of, unmet

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.tasks.model import Task

# One call: (action, arguments). Called ``Step`` before; the old name stays importable.
Call = tuple[str, dict[str, Any]]
Step = Call



@dataclass(kw_only=True)
class Plan:
    """What a sabotage function gets: the task, its reference steps, and a way to act."""

    task: Task
    steps: list[Call]
    call: Callable[[str, dict[str, Any]], dict[str, Any]]

    def run(self, steps: list[Call]) -> list[dict[str, Any]]:
        return [self.call(action, dict(args)) for action, args in steps]

    def first(self, action: str) -> dict[str, Any] | None:
        return next((dict(a) for s, a in self.steps if s == action), None)

    def index(self, action: str) -> int | None:
        return next((i for i, (s, _) in enumerate(self.steps) if s == action), None)


Sabotage = Callable[[Plan], None]


class NotApplicable(Exception):  # noqa: N818 - read as "saboteur not applicable: <reason>"
    """Raised by a sabotage function whose failure the task leaves no room for; the message
    says why (one line). ``agenteval validate`` reports it against the task, not as a crash."""


def forbidden_action(plan: Plan) -> None:
    """Call one action the task does not allow, then do the right thing."""
    env_cls = environment_class(plan.task.environment)
    extra = next((a for a, spec in env_cls.actions.items() if a not in plan.task.allowed_actions and spec.writes),
                 None)
    if extra is None:
        raise NotApplicable("allowed_actions lists every write action, so none is forbidden")
    plan.call(extra, {})
    plan.run(plan.steps)


def unconfirmed_write(plan: Plan) -> None:
    """Conversations: make each write that follows a message to the user before that message,
    so the write comes before the user's confirmation (docs/conversations.md)."""
    steps = list(plan.steps)
    writes = environment_class(plan.task.environment).actions
    moved = 0
    for i in range(1, len(steps)):
        action = steps[i][0]
        if action in writes and writes[action].writes and steps[i - 1][0] == SAY_TO_USER:
            steps[i - 1], steps[i] = steps[i], steps[i - 1]
            moved += 1
    if not moved:
        raise NotApplicable("no write of the reference path comes right after a message to the user")
    plan.run(steps)


def not_communicated(plan: Plan) -> None:
    """Conversations: the reference path without the messages that tell the user what the
    task's ``must_tell`` requires."""
    scenario = plan.task.user
    reader = environment_class(plan.task.environment).reader()
    wanted = [says_of(r) or [] for r in scenario.must_tell.values()] if scenario is not None else []

    def tells(step: Call) -> bool:
        message = step[1].get("message")
        return isinstance(message, str) and any(not unmet(reader.read(message), w) for w in wanted)

    kept = [s for s in plan.steps if not (s[0] == SAY_TO_USER and tells(s))]
    if len(kept) == len(plan.steps):
        raise NotApplicable("no message of the reference path tells the user what must_tell requires")
    plan.run(kept)


GENERIC: dict[str, Sabotage] = {"forbidden_action": forbidden_action, "unconfirmed_write": unconfirmed_write,
                                "not_communicated": not_communicated}


def known_modes() -> list[str]:
    """Every failure mode some registered environment (or the generic set) has a saboteur for."""
    from pytest_agenteval.environments.registry import known_names

    modes = set(GENERIC)
    for name in known_names():
        try:
            modes.update(environment_class(name).saboteurs)
        except Exception:  # noqa: BLE001 - an unimportable plugin environment has no saboteurs to offer
            continue
    return sorted(modes)


def sabotage_for(environment: str, mode: str) -> Sabotage | None:
    env_cls = environment_class(environment)
    return env_cls.saboteurs.get(mode) or GENERIC.get(mode)


class _Agent:
    def __init__(self, sabotage: Sabotage, task: Task) -> None:
        self.sabotage, self.task = sabotage, task
        self.not_applicable: str | None = None  # why, when the sabotage could not be committed

    def run(self, episode: Episode) -> None:
        path = first_order(self.task.acceptable_action_paths[0]) if self.task.acceptable_action_paths else []
        try:
            self.sabotage(Plan(task=self.task, steps=[(s.action, s.call_arguments()) for s in path],
                               call=episode.call))
        except NotApplicable as exc:
            self.not_applicable = str(exc)
            raise  # the episode is errored (agent_code), with this reason: in no pass rate


class Saboteur:
    """``--agent=saboteur:<mode>``: a task-aware factory; tasks without the tag are skipped."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    @property
    def skip_reason(self) -> str:
        return f"not tagged {self.mode}"

    def applies_to(self, task: Task) -> bool:
        return self.mode in task.failure_mode_tags

    def for_task(self, task: Task) -> _Agent:
        sabotage = sabotage_for(task.environment, self.mode)
        if sabotage is None:
            raise LookupError(f"no saboteur for {self.mode!r} in the {task.environment} environment")
        return _Agent(sabotage, task)
