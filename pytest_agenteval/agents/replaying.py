"""``--agent=replay:FILE``: an agent that plays recorded calls, per task (a trajectory from
another harness, or the ``actions`` of a results file), through the episode like any agent.

FILE is either a JSON object ``{"TASK-1": [{"action": ..., "arguments": {...}}, ...], ...}`` or
JSON Lines with ``task_id`` and ``actions`` per line (a results file, gzip-compressed or not: the
first line of each task counts; run records are skipped). Tasks the file has no calls for are skipped. With a simulated
user, the recorded messages get the same replies (the scripted user is deterministic).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_agenteval.errors import AgentSpecError
from pytest_agenteval.readback import load_line, results_bytes

if TYPE_CHECKING:
    from pytest_agenteval.agents.episode import Episode
    from pytest_agenteval.tasks.model import Task

Calls = list[tuple[str, dict[str, Any]]]


class _Player:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls

    def run(self, episode: Episode) -> None:
        for action, arguments in self.calls:
            episode.call(action, arguments)


class Replay:
    """The task-aware factory of ``--agent=replay:FILE``."""

    def __init__(self, path: Path, calls: dict[str, Calls]) -> None:
        self.path, self.calls = path, calls

    @property
    def skip_reason(self) -> str:
        return f"no recorded calls in {self.path.name}"

    def applies_to(self, task: Task) -> bool:
        return task.task_id in self.calls

    def for_task(self, task: Task) -> _Player:
        return _Player(self.calls.get(task.task_id, []))


def load_replay(spec: str, search_path: Path | None = None) -> Replay:
    """``replay:FILE`` read and checked; one ``AgentSpecError`` line naming the problem otherwise."""
    name = spec.partition(":")[2]
    path = Path(name)
    if not path.is_absolute() and search_path is not None and not path.exists():
        path = search_path / path
    where = f"--agent={spec}"
    if not name or not path.is_file():
        raise AgentSpecError(f"{where}: no file {name or '(none given)'} (give a results file or a JSON object of "
                             "task id -> calls: replay:FILE)")
    try:
        text = results_bytes(path).decode("utf-8")
    except OSError as exc:
        raise AgentSpecError(f"{where}: cannot read {path}: {exc.strerror or exc} (give a results file or a JSON "
                             "object of task id -> calls)") from None
    except UnicodeDecodeError:
        raise AgentSpecError(f"{where}: {path.name} is not UTF-8 text (give a results file or a JSON object of "
                             "task id -> calls)") from None
    try:
        whole = load_line(text)
    except ValueError:
        whole = None
    found: dict[str, Calls] = {}
    if isinstance(whole, dict) and "task_id" not in whole:
        for task_id, calls in whole.items():
            found[str(task_id)] = _calls(calls, f"{where}: {path.name}: {task_id}")
        return Replay(path, found)
    for n, line in enumerate(text.split("\n"), 1):  # at "\n" only, as results files are written
        if not line.strip():
            continue
        try:
            record = load_line(line)
        except ValueError:
            raise AgentSpecError(f"{where}: {path.name}:{n}: not JSON (give JSON Lines of grades, or one JSON "
                                 "object of task id -> calls)") from None
        if isinstance(record, dict) and isinstance(record.get("task_id"), str) and "actions" in record:
            found.setdefault(record["task_id"], _calls(record["actions"], f"{where}: {path.name}:{n}: actions"))
    if not found:
        raise AgentSpecError(f"{where}: {path.name} holds no recorded calls (no line with task_id and actions)")
    return Replay(path, found)


def _calls(value: Any, where: str) -> Calls:
    if not isinstance(value, list):
        raise AgentSpecError(f"{where}: not a list of calls (write [{{\"action\": ..., \"arguments\": {{...}}}}, ...])")
    calls: Calls = []
    for i, step in enumerate(value):
        if not (isinstance(step, dict) and isinstance(step.get("action"), str)
                and isinstance(step.get("arguments", {}), dict)):
            raise AgentSpecError(f"{where}[{i}]: not a call (write {{\"action\": NAME, \"arguments\": {{...}}}})")
        calls.append((step["action"], dict(step.get("arguments") or {})))
    return calls
