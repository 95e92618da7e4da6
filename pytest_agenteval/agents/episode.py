"""The episode an agent receives, and the runner that drives one agent through one task."""

from __future__ import annotations

import copy
import hashlib
import inspect
import queue
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from pytest_agenteval.errors import EpisodeOver

if TYPE_CHECKING:
    from pytest_agenteval.engine.environment import Environment
    from pytest_agenteval.grading.grade import Grade
    from pytest_agenteval.tasks.model import Task

DEFAULT_TIME_LIMIT = 300.0


class Episode:
    """An agent's only view of the world: the instruction, the tools, and ``call``.

    It never exposes the expected state, the acceptable paths or the database. In-process
    agents are trusted code all the same: see the README's threat model.
    """

    def __init__(self, env: Environment, task: Task, *, run: int = 1) -> None:
        self.task_id = task.task_id
        self.instruction = task.instruction
        self.max_steps = task.max_steps
        self.seed = episode_seed(task.task_id, run)
        self._actions = [env.actions[a] for a in task.allowed_actions if a in env.actions]
        self.__env = env
        self.__lock = threading.Lock()
        self.__closed = False

    @property
    def tools(self) -> list[dict[str, Any]]:
        """Name, description, JSON Schema of the arguments and read-only flag of each action."""
        return copy.deepcopy([spec.tool() for spec in self._actions])

    @property
    def steps_used(self) -> int:
        return self.__env.episode.steps

    def tools_for(self, fmt: str) -> list[dict[str, Any]]:
        """The tools in a provider's format: openai, openai-responses, anthropic or mcp."""
        from pytest_agenteval.agents.tools import export

        return export((spec.tool() for spec in self._actions), fmt)

    def call(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one action and return its observation: ``{"ok": true, "result": …}`` or an error."""
        with self.__lock:
            if self.__closed:
                raise EpisodeOver(f"episode {self.task_id} has ended; no more actions are accepted")
            obs = self.__env.apply(action, arguments)
            if self.__env.episode.over_budget:
                self.__closed = True
                raise EpisodeOver(f"the step budget of {self.max_steps} is used up")
            return obs

    async def acall(self, action: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """``call`` for async agents."""
        return self.call(action, arguments)

    def close(self) -> None:
        with self.__lock:
            self.__closed = True


class TaskAwareFactory(Protocol):
    """Built-in graders' agents (reference, saboteurs) see the task; agents under test never do."""

    def for_task(self, task: Task) -> Any: ...


AgentFactory = Callable[[], Any]


def episode_seed(task_id: str, run: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{task_id}:{run}".encode()).digest()[:4], "big")


def run_episode(
    env: Environment, task: Task, factory: AgentFactory | TaskAwareFactory, *,
    run: int = 1, time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Grade:
    """Reset, let the agent act, grade. The agent failing fails its own episode only."""
    env.reset(task.scenario_seed, task=task)
    return play(env, task, Episode(env, task, run=run), factory, run=run, time_limit=time_limit)


def play(
    env: Environment, task: Task, episode: Episode, factory: Any, *,
    run: int, time_limit: float | None,
) -> Grade:
    """Drive the agent through an episode already reset, close it, and grade it."""
    failure = drive(factory, task, episode, time_limit)
    episode.close()
    env.episode.agent_failure = failure
    return env.grade(run=run)


def drive(factory: Any, task: Task, episode: Episode, time_limit: float | None) -> tuple[str, str] | None:
    """Run the agent in a thread so a time limit holds even if it never returns control."""
    from pytest_agenteval.agents.sandbox import IsolatedAgent, run_isolated

    if isinstance(factory, IsolatedAgent):
        return run_isolated(factory, episode, time_limit)
    box: dict[str, BaseException] = {}

    def target() -> None:
        try:
            agent = factory.for_task(task) if hasattr(factory, "for_task") else factory()
            run = getattr(agent, "run", None)
            if not callable(run):
                raise TypeError(f"the agent {type(agent).__name__} has no run(episode) method")
            result = run(episode)
            if inspect.isawaitable(result):
                import asyncio  # only async agents need it: ~25 ms per process otherwise

                asyncio.run(_await(result))
        except EpisodeOver:
            pass  # the engine has recorded why (step budget); graded as step_budget
        except BaseException as exc:  # noqa: BLE001 - any agent failure is the agent's alone
            box["error"] = exc

    if not time_limit:
        target()  # no limit to enforce: no thread needed
    elif not _WORKER.run(target, time_limit):
        return "agent_timeout", f"the agent ran past the time limit of {time_limit:g} s"
    if "error" in box:
        return "agent_error", describe(box["error"])
    return None


class _Worker:
    """One daemon thread reused across episodes (a thread start per episode costs more).

    An agent that overstays its time limit keeps its thread; that thread and its queue are
    abandoned and a fresh one serves the next episode. Daemon threads never block exit.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]] | None = None

    def run(self, job: Callable[[], None], time_limit: float) -> bool:
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(self._jobs,), name="agenteval-agent", daemon=True).start()
        done = threading.Event()
        self._jobs.put((job, done))
        if done.wait(time_limit):
            return True
        self._jobs = None
        return False

    @staticmethod
    def _serve(jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]]) -> None:
        while True:
            job, done = jobs.get()
            try:
                job()
            finally:
                done.set()


_WORKER = _Worker()


async def _await(awaitable: Any) -> Any:
    return await awaitable


def describe(exc: BaseException) -> str:
    """``ValueError: boom (at myagent.py:12)``: the exception and the agent's own line."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "pytest_agenteval" not in f.filename.replace("\\", "/")]
    where = f" (at {ours[-1].filename.rsplit('/', 1)[-1]}:{ours[-1].lineno})" if ours else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}{where}"[:500]
