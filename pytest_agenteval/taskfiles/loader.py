"""Load ``.jsonl`` task files line by line; every problem names file, line, field and fix.

A bad line never stops the other lines: ``TaskLoader.load_file`` returns the good
tasks and the problems side by side, and the caller decides what to do with each.
"""

from __future__ import annotations

import codecs
import difflib
import gc
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from pytest_agenteval.environments.base import Environment
from pytest_agenteval.environments.discovery import load_project_environments, project_root
from pytest_agenteval.environments.registry import EnvironmentPool, environment_class, known_names
from pytest_agenteval.errors import EnvironmentSpecError, TaskFileError, TaskProblem
from pytest_agenteval.taskfiles.bounds import line_bounds
from pytest_agenteval.taskfiles.consistency import validate_task
from pytest_agenteval.taskfiles.duplicates import key_given_twice
from pytest_agenteval.taskfiles.files import read_task_file, resolved
from pytest_agenteval.taskfiles.verdicts import Summary, Verdicts, line_key
from pytest_agenteval.tasks.marks import clash, reserved_marks
from pytest_agenteval.tasks.model import PATTERN_PROBLEMS, RULE_KINDS, Task
from pytest_agenteval.tasks.paths import UNION_TAGS

SPLITS = ("train", "eval")
TASK_FIELDS = sorted([*Task.model_fields, "expected_end_state"])
MAX_LINE_BYTES = 1 << 20
_BOUNDS = {"greater_than_equal": ("of at least", "ge"), "greater_than": ("above", "gt"),
           "less_than_equal": ("of at most", "le"), "less_than": ("below", "lt")}
_TYPE_WORDS = {
    "string_type": "a string", "int_type": "an integer", "float_type": "a number",
    "bool_type": "true or false", "list_type": "a list", "dict_type": "an object",
    "model_type": "an object", "int_from_float": "a whole number",
}


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadedTask:
    """A valid task, where it came from, and the fields collection needs.

    The parsed ``Task`` is not kept: ten thousand of them are half a million live objects,
    which every full garbage collection (pytest runs two at the end of a session) walks.
    ``task`` parses the validated line again when asked, from a small cache.
    """

    text: str
    path: str
    line: int
    task_id: str
    environment: str
    failure_mode_tags: tuple[str, ...]
    split: str

    @property
    def task(self) -> Task:
        return _parse(self.text)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@lru_cache(maxsize=256)
def _parse(text: str) -> Task:
    # The same text was validated at load time; Task is frozen, so sharing a parse is safe.
    return Task.model_validate_json(text)


class TaskLoader:
    """Loads task files, remembering task ids across files to catch duplicates.

    With ``cache_dir``, lines that passed validation before are remembered there (see
    ``verdicts``) and are not validated again while their text and environment are unchanged.

    ``reserved`` maps marker names a task may not use (as a tag, environment or split) to what
    gives them a meaning (``tasks.marks``); the plugin adds the markers of the running pytest.
    It is checked on every load, remembered line or not, since it depends on the installation.
    """

    def __init__(self, pool: EnvironmentPool | None = None, *, cache_dir: Path | None = None,
                 reserved: Mapping[str, str] | None = None) -> None:
        self.pool = pool or EnvironmentPool()
        self.reserved = reserved_marks() if reserved is None else reserved
        self._env_names: frozenset[str] = frozenset()
        self._cache_dir = cache_dir
        self._seen: dict[str, str] = {}
        self._verdicts: Verdicts | None = None
        self._env_failures: dict[str, list[Any]] = {}

    def load_file(self, path: str | PathLike[str], *, display: str | None = None, data: bytes | None = None
                  ) -> tuple[list[LoadedTask], list[TaskProblem]]:
        """The file's tasks and problems; ``data``, when given, is the file's bytes already read
        (so what is graded is what was hashed)."""
        shown = display or str(path)
        if data is None:
            read = read_task_file(path, shown=shown)
            if isinstance(read, TaskProblem):
                return [], [read]
            data = read
        self._env_names = frozenset(known_names())  # once per file: it reads entry points
        tasks: list[LoadedTask] = []
        problems: list[TaskProblem] = []
        self._env_failures = {}
        if self._cache_dir is not None:
            self._verdicts = Verdicts(self._cache_dir, str(resolved(path)))
        # Validation makes many objects and no reference cycles: the cyclic collector would
        # only re-scan the growing heap (half the load time for 10,000 lines), so it waits.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for number, chunk in enumerate(data.split(b"\n"), start=1):
                result = self.load_line(chunk, path=shown, line=number)
                if isinstance(result, LoadedTask):
                    tasks.append(result)
                elif result:
                    problems += result
            if self._verdicts is not None:
                self._verdicts.save()
            for first, more in self._env_failures.values():
                if more:
                    lines = "line names" if more == 1 else "lines name"
                    problems[problems.index(first)] = replace(
                        first, message=f"{first.message}; {more} more {lines} it, not repeated here")
        finally:
            self._verdicts = None
            if collecting:
                gc.enable()
        if not tasks and not problems:
            problems.append(TaskProblem(path=shown, line=1, field="<file>", message="the file holds no tasks",
                                        fix="add one JSON object per line, or remove the file"))
        return tasks, problems

    def load_line(self, chunk: bytes, *, path: str, line: int) -> LoadedTask | list[TaskProblem] | None:
        """A task, its problems, or None for a blank or ``#`` comment line."""
        text = _line_text(chunk, path=path, line=line)
        if text is None or isinstance(text, list):
            return text
        bound = line_bounds(text)
        if bound is not None:
            return _fail(path, line, *bound)
        verdicts = self._verdicts
        key = line_key(text) if verdicts is not None else ""
        summary = verdicts.recall(key, self._env_key) if verdicts is not None else None
        if summary is None:
            checked = self._validate(text, path=path, line=line)
            if isinstance(checked, list):
                return checked
            summary = checked
            if verdicts is not None:
                verdicts.remember(key, summary, self._env_key(summary[1]))
        task_id, environment, tags, split = summary
        taken = self._marker_problems(tags, environment, split, path=path, line=line)
        if taken:
            return taken
        where = f"{path}:{line}"
        first = self._seen.setdefault(task_id, where)
        if first != where:
            return _fail(path, line, "task_id", f"{task_id!r} is already used at {first}",
                         "give each task a unique task_id")
        return LoadedTask(text=text, path=path, line=line, task_id=task_id, environment=environment,
                          failure_mode_tags=tags, split=split)

    def _validate(self, text: str, *, path: str, line: int) -> Summary | list[TaskProblem]:
        try:
            # Parsing and validating in one step (pydantic's JSON parser) costs half as much
            # as json.loads followed by model_validate.
            task = Task.model_validate_json(text)
        except ValidationError as exc:
            invalid = [TaskProblem(path=path, line=line, field=f, message=m, fix=x)
                       for f, m, x in map(_explain, exc.errors(include_url=False))]
            return invalid + self._unknown_keys_of_invalid(text, path=path, line=line)
        try:
            env = self.pool.get(task.environment)
        except EnvironmentSpecError as exc:
            # One message per environment and file, not one per line naming it.
            failed = self._env_failures.get(task.environment)
            if failed is not None:
                failed[1] += 1
                return []
            message, _, fix = str(exc).rpartition(" (")
            failing = _fail(path, line, "environment", message, fix.rstrip(")"))
            self._env_failures[task.environment] = [failing[0], 0]
            return failing
        twice = key_given_twice(text)
        if twice is not None:
            return _fail(path, line, twice, "given twice in one object (the last is used; a reader sees the first)",
                         "give each key once")
        domain = self._domain_fields(env, task.domain_fields, path=path, line=line)
        if domain:
            return domain
        found = validate_task(env, task)
        if found:
            return [TaskProblem(path=path, line=line, field=f, message=m, fix=x) for f, m, x in found]
        return task.task_id, task.environment, tuple(task.failure_mode_tags), task.split

    def _domain_fields(self, env: Environment, extra: Mapping[str, Any], *, path: str, line: int
                       ) -> list[TaskProblem]:
        """The keys beyond the common fields, checked against the environment's ``task_fields``."""
        if not extra:
            return []
        model = env.task_fields
        declared = list(model.model_fields) if model is not None else []
        found = []
        for name in extra:
            if name in declared:
                continue
            owner = self._field_owner(name)
            if owner is not None:
                found.append(TaskProblem(path=path, line=line, field=name,
                                         message=f"the {env.name} environment does not use {name}",
                                         fix="remove it, or use an environment that does"))
            else:
                found.append(TaskProblem(path=path, line=line, field=name, message="is not a known field",
                                         fix=_did_you_mean(name, [*TASK_FIELDS, *declared])))
        if found or model is None:
            return found
        try:
            model.model_validate(dict(extra))
        except ValidationError as exc:
            return [TaskProblem(path=path, line=line, field=f, message=m, fix=x)
                    for f, m, x in map(_explain, exc.errors(include_url=False))]
        return []

    def _field_owner(self, name: str) -> str | None:
        """A known environment that declares task field ``name`` (for a clearer message)."""
        for env_name in known_names():
            try:
                model = environment_class(env_name).task_fields
            except Exception:  # noqa: BLE001 - a broken plug-in only loses the clearer message
                continue
            if model is not None and name in model.model_fields:
                return env_name
        return None

    def _unknown_keys_of_invalid(self, text: str, *, path: str, line: int) -> list[TaskProblem]:
        """For a line the common model refused: its unknown keys too, as the old model said."""
        try:
            data = json.loads(text)
        except ValueError:
            return []
        if not isinstance(data, dict):
            return []
        extra = {k: v for k, v in data.items() if k not in TASK_FIELDS}
        declared: list[str] = []
        if isinstance(data.get("environment"), str):
            try:
                model = self.pool.get(data["environment"]).task_fields
                declared = list(model.model_fields) if model is not None else []
            except EnvironmentSpecError:
                pass
        return [TaskProblem(path=path, line=line, field=name, message="is not a known field",
                            fix=_did_you_mean(name, [*TASK_FIELDS, *declared]))
                for name in extra if name not in declared]

    def _marker_problems(self, tags: tuple[str, ...], environment: str, split: str, *, path: str, line: int
                         ) -> list[TaskProblem]:
        found = []
        effect = "it would change how the task runs"
        for i, tag in enumerate(tags):
            why = clash(tag, self.reserved)
            ours = "a task split" if tag in SPLITS else "an environment" if tag in self._env_names else None
            if why:
                found.append(TaskProblem(path=path, line=line, field=f"failure_mode_tags[{i}]",
                                         message=f"{why}; as a tag {effect}",
                                         fix="rename the tag; `pytest --markers` lists the markers in use"))
            elif ours:
                found.append(TaskProblem(path=path, line=line, field=f"failure_mode_tags[{i}]",
                                         message=f"{tag!r} is also the marker of {ours}; `-m {tag}` could not "
                                                 "tell them apart", fix="rename the tag"))
        why = clash(self.pool.get(environment).name, self.reserved)
        if why:
            found.append(TaskProblem(path=path, line=line, field="environment", message=f"its marker {why}; {effect}",
                                     fix="register the environment under another name"))
        why = clash(split, self.reserved)
        if why:
            found.append(TaskProblem(path=path, line=line, field="split", message=f"its marker {why}; {effect}",
                                     fix="stop registering that marker, or disable the plugin that does "
                                         "with -p no:NAME"))
        return found

    def _env_key(self, spec: str) -> str | None:
        try:
            return self.pool.get(spec).cache_key
        except EnvironmentSpecError:
            return None


def _fail(path: str, line: int, field: str, message: str, fix: str) -> list[TaskProblem]:
    return [TaskProblem(path=path, line=line, field=field, message=message, fix=fix)]


def _line_text(chunk: bytes, *, path: str, line: int) -> str | list[TaskProblem] | None:
    """The line as text, its problem, or None for a blank or ``#`` comment line."""
    if len(chunk) > MAX_LINE_BYTES:
        return _fail(path, line, "<line>", f"the line is {len(chunk):,} bytes; the limit is 1 MiB",
                     "shorten the instruction or split the task")
    if chunk.endswith(b"\r"):
        chunk = chunk[:-1]
    if chunk.startswith(codecs.BOM_UTF8):
        if line != 1:  # usually two files concatenated
            return _fail(path, line, "<line>", "starts with a byte-order mark",
                         "remove it; only a file's first line may have one")
        chunk = chunk[len(codecs.BOM_UTF8):]
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _fail(path, line, "<line>", f"not valid UTF-8 (byte {exc.start + 1})", "save the file as UTF-8")
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    return stripped


def load_tasks(*paths: str | PathLike[str], pool: EnvironmentPool | None = None) -> list[Task]:
    """The tasks of these files, in order, for use outside pytest; raises ``TaskFileError``
    listing every problem (file, line, field and fix).

    The environments a project lists (``[tool.agenteval] environments`` in the pyproject.toml
    of the task files' project) are imported first, their folder put on ``sys.path``, as the
    ``pytest`` and ``agenteval`` commands do."""
    for root in dict.fromkeys(project_root(resolved(p).parent) for p in paths):
        load_project_environments(root)
    loader = TaskLoader(pool)
    tasks: list[LoadedTask] = []
    problems: list[TaskProblem] = []
    for path in paths:
        got, bad = loader.load_file(path)
        tasks += got
        problems += bad
    if problems:
        raise TaskFileError(problems)
    return [t.task for t in tasks]


def _did_you_mean(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1)
    return f"did you mean {close[0]!r}?" if close else "remove it; the task format is in the README"


def _json_kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _field(loc: tuple[int | str, ...]) -> str:
    parts = list(loc)
    if len(parts) > 2 and parts[0] == "checks" and parts[2] in RULE_KINDS:  # read live: register_rule_kind adds
        del parts[2]  # the discriminated union's tag adds nothing for the reader
    if parts and parts[0] == "acceptable_action_paths":  # nor do the path unions' tags
        parts = [p for i, p in enumerate(parts) if not (p in UNION_TAGS and isinstance(parts[i - 1], int))]
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<line>"


def _explain(err: ErrorDetails) -> tuple[str, str, str]:
    field, kind, ctx, value = _field(err["loc"]), err["type"], err.get("ctx") or {}, err.get("input")
    if kind == "json_invalid":
        reason = err["msg"].removeprefix("Invalid JSON: ").replace(" at line 1 column ", " at column ")
        reason = reason.replace("EOF while parsing", "the line ends in the middle of")
        return "<json>", f"not valid JSON: {reason}", "write one complete JSON object per line"
    if kind == "model_type" and not err["loc"]:
        return ("<json>", f"a task line must be a JSON object, not {_json_kind(value)}",
                "write the task's fields inside {...}")
    if kind == "string_pattern_mismatch" and err["loc"] and err["loc"][0] in PATTERN_PROBLEMS:
        message, fix = PATTERN_PROBLEMS[str(err["loc"][0])]
        return str(err["loc"][0]), message.format(value=value), fix
    if kind == "agenteval":
        return field, err["msg"], str(ctx["fix"])
    if kind == "missing":
        return field, "is required", f'add "{field.rsplit(".", 1)[-1]}"'
    if kind == "extra_forbidden":
        name = str(err["loc"][-1])
        return field, "is not a known field", _did_you_mean(name, TASK_FIELDS if len(err["loc"]) == 1 else [])
    if kind == "literal_error":
        return field, f"{_short(value)} is not allowed", f"use {ctx.get('expected')}"
    if kind in _TYPE_WORDS:
        return (field, f"expected {_TYPE_WORDS[kind]}, got {_json_kind(value)} {_short(value)}",
                f"write {_TYPE_WORDS[kind]}")
    if kind in _BOUNDS:
        word, key = _BOUNDS[kind]
        return field, f"{_short(value)} is out of range", f"use a value {word} {ctx.get(key)}"
    if kind == "too_short":
        return field, "must not be empty", "give at least one"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return field, "unknown or missing check kind", f'set "kind" to {_kinds()}'
    return field, err["msg"], "see the task format in the README"


def _kinds() -> str:
    *most, last = RULE_KINDS
    return f"{', '.join(most)} or {last}" if most else last
