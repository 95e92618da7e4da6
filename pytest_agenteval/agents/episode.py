"""The episode an agent receives: the instruction, the policy, the tools, and ``call`` — nothing else."""

from __future__ import annotations

import copy
import hashlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pytest_agenteval.agents.budget import Budget
from pytest_agenteval.agents.usage import UsageLedger
from pytest_agenteval.errors import EpisodeOver

if TYPE_CHECKING:
    from pytest_agenteval.engine.episode_state import EpisodeState
    from pytest_agenteval.environments.base import Environment
    from pytest_agenteval.tasks.model import Task

DEFAULT_TIME_LIMIT = 300.0


def over_time(time_limit: float | None, detail: str | None = None) -> str:
    """The detail of ``agent_timeout``, wherever the agent runs (pytest-timeout's own if given)."""
    return detail or f"the agent ran past the time limit of {time_limit or 0:g} s"


def agent_run(factory: Any, task: Task | None) -> Callable[[Any], Any]:
    """A new agent's ``run``, made as every placement makes it (``for_task`` for ours)."""
    agent = factory.for_task(task) if hasattr(factory, "for_task") else factory()
    run = getattr(agent, "run", None)
    if not callable(run):
        raise TypeError(f"the agent {type(agent).__name__} has no run(episode) method")
    return run  # type: ignore[no-any-return]


_F = TypeVar("_F")  # what the agent's own end was: kept unless the budget ended the episode

class Episode:
    """An agent's only view of the world: the instruction, the tools, and ``call``.

    It never exposes the expected state, the acceptable paths or the database. In-process
    agents are trusted code all the same: see the README's threat model.

    It is bound to the environment's episode running when it is made: once that episode is
    over (closed, or the environment reset for another), ``call`` raises ``EpisodeOver``, and
    the engine itself refuses the call. ``call`` is safe to use from several threads at once.
    """

    def __init__(self, env: Environment, task: Task, *, run: int = 1, budget: Budget | None = None) -> None:
        self.task_id = task.task_id
        self.instruction = task.instruction
        # What the agent must follow besides its instruction ("" when none is given).
        self.policy = env.policy_for(task)
        self.system_prompt = env.system_prompt_for(task)
        self.max_steps = task.max_steps
        self.seed = episode_seed(task.task_id, run)
        self._actions = [env.actions[a] for a in task.allowed_actions if a in env.actions]
        self.__env = env
        self.__state: EpisodeState = env.episode
        self.__lock = threading.Lock()
        self._ledger = UsageLedger()
        self._budget = budget
        self.over_budget: str | None = None  # why the usage budget ended the episode

    @property
    def tools(self) -> list[dict[str, Any]]:
        """Name, description, JSON Schema of the arguments and read-only flag of each action."""
        return copy.deepcopy([spec.tool() for spec in self._actions])

    @property
    def steps_used(self) -> int:
        return self.__state.steps

    def tools_for(self, fmt: str) -> list[dict[str, Any]]:
        """The tools in a provider's format: openai, openai-responses, anthropic or mcp."""
        from pytest_agenteval.agents.tools import export

        return export((spec.tool() for spec in self._actions), fmt)

    def system_text(self, default: str = "") -> str:
        """The system prompt (else ``default``, the agent's own) followed by the policy."""
        from pytest_agenteval.agents.tools import system_text

        return system_text(default, self.system_prompt, self.policy)

    def call(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one action and return its observation: ``{"ok": true, "result": …}`` or an error."""
        with self.__lock:  # the budget check belongs with its call
            obs = self.__env.apply(action, arguments, episode=self.__state)
            if self.__state.over_budget:
                self.__env.end_episode(self.__state)
                raise EpisodeOver(f"the step budget of {self.max_steps} is used up")
            return obs

    async def acall(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """``call`` for async agents."""
        return self.call(action, arguments)

    def say(self, message: str) -> str:
        """Say ``message`` to the task's simulated user and return the reply: the ``say_to_user``
        action (a step, audited), so tool-calling agents can use the tool instead. Raises
        ``ValueError`` when the message is refused (no user in the task, an empty message)."""
        return said(self.call("say_to_user", {"message": message}))

    def record_usage(self, *, model: str | None = None, input_tokens: int = 0, output_tokens: int = 0,
                     cost: float | None = None, latency: float | None = None, calls: int = 1) -> None:
        """Report model calls (``calls`` of them, 1 by default): tokens, cost in USD and latency
        in seconds, if known. Totals and per-model figures reach the grade's ``usage``.

        With a usage budget, a cost not given is priced from its table; going past the budget
        ends the episode (``EpisodeOver``), graded ``over_budget``."""
        budget = self._budget
        if cost is None and budget is not None:
            cost = budget.price(model, input_tokens, output_tokens)
        self._ledger.record(model=model, input_tokens=input_tokens, output_tokens=output_tokens,
                            cost=cost, latency=latency, calls=calls)
        if budget is None or self.over_budget is not None:
            return
        usage = self._ledger.usage() or {}
        why = budget.exceeded(usage.get("input_tokens", 0) + usage.get("output_tokens", 0), usage.get("cost_usd"))
        if why is not None:
            self.over_budget = why
            self.__env.end_episode(self.__state)  # every later call is refused
            raise EpisodeOver(why)

    def failure(self, failure: _F) -> _F | tuple[str, str]:
        """The agent failure to grade: ``over_budget`` when the usage budget ended the episode
        (whatever the agent did with the ``EpisodeOver``), else ``failure`` as it was."""
        return ("over_budget", self.over_budget) if self.over_budget is not None else failure

    def attach_transcript(self, messages: Any) -> None:
        """Keep the conversation (a list of messages in any framework's shape) in the grade's
        ``transcript``, made JSON-able and size-capped. A later call replaces an earlier one."""
        self._ledger.attach(messages)

    def close(self) -> None:
        """End the episode: a call in flight finishes first; every later call is refused.

        (Through the engine's lock only: an agent thread stuck in ``call`` never holds it for
        longer than one action takes.)"""
        self.__env.end_episode(self.__state)


def said(obs: dict[str, Any]) -> str:
    """The user's reply in a ``say_to_user`` observation; a refused message raises."""
    if not obs.get("ok"):
        raise ValueError(f"say_to_user refused: {obs.get('error')}: {obs.get('detail')}")
    return str(obs["result"]["reply"])


class TaskAwareFactory(Protocol):
    """Built-in graders' agents (reference, saboteurs) see the task; agents under test never do."""

    def for_task(self, task: Task) -> Any: ...


AgentFactory = Callable[[], Any]


def episode_seed(task_id: str, run: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{task_id}:{run}".encode()).digest()[:4], "big")
