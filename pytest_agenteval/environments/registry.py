"""Environment names: registered ones, entry points, and ``module:Class`` specs.

The core names no domain. An environment becomes known by name in one of three ways:

- an entry point in the ``pytest_agenteval.environments`` group (how the shipped domains
  and any installed package register: ``name = "package.module:Class"``);
- ``register_environment(name, cls)``, called by a module the project lists under
  ``[tool.agenteval] environments`` (or the ini key ``agenteval_environments``; see
  ``environments/discovery.py``), or from a ``conftest.py`` (seen by pytest only);
- a task naming ``"environment": "module:Class"`` directly.
"""

from __future__ import annotations

import importlib
import sqlite3
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path

from pydantic import BaseModel

from pytest_agenteval.engine.model_user import UserModel
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.errors import EnvironmentSpecError
from pytest_agenteval.grading.judge import Judge

GROUP = "pytest_agenteval.environments"
_registered: dict[str, type[Environment]] = {}


def register_environment(name: str, cls: type[Environment]) -> None:
    """Make ``cls`` available to task files as ``"environment": name``."""
    _registered[name] = cls


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, str]:
    # Read once per process: scanning installed distributions costs milliseconds.
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def known_names() -> list[str]:
    return sorted({*_registered, *_entry_points()})


def environment_class(spec: str) -> type[Environment]:
    if spec in _registered:
        return _upgraded(spec, _registered[spec])
    target = _entry_points().get(spec)
    if target is None and ":" not in spec:
        names = known_names()
        # No name at all: the installed metadata predates the entry points (an old editable install).
        choices = f"use one of {', '.join(names)}, or module:Class" if names else (
            "no environment is registered: reinstall pytest-agenteval (pip install -e .) so its entry points "
            "are installed, or use module:Class")
        raise EnvironmentSpecError(
            f"unknown environment {spec!r} ({choices}; list a module of your own under "
            "[tool.agenteval] environments in pyproject.toml)"
        )
    module_name, _, attr = (target or spec).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None)
        if missing and module_name.split(".")[0] == missing.split(".")[0]:
            raise EnvironmentSpecError(
                f"cannot import {module_name!r}: {exc} (put {missing.split('.')[0]}.py in the project root, "
                "next to pyproject.toml, and run from there; or install it)"
            ) from None
        raise EnvironmentSpecError(
            f"cannot import {module_name!r}: {exc} (it was found, but an import inside it failed)"
        ) from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Environment)):
        raise EnvironmentSpecError(
            f"{spec!r} is not an Environment subclass (name a class deriving from "
            "pytest_agenteval.Environment)"
        )
    return _upgraded(spec, cls)


def _upgraded(spec: str, cls: type[Environment]) -> type[Environment]:
    """The class, or one line saying what an environment written for an earlier release must change."""
    fields = cls.__dict__.get("task_fields", cls.task_fields)
    if fields is not None and not (isinstance(fields, type) and issubclass(fields, BaseModel)):
        names = sorted(str(f) for f in fields) if isinstance(fields, (set, frozenset, list, tuple)) else []
        lines = "; ".join(f"{n}: <type> = <default>" for n in names) or "<field>: <type> = <default>"
        raise EnvironmentSpecError(
            f"environment {spec}: task_fields is a {type(fields).__name__}, the earlier form; it is now a pydantic "
            f"model that types and checks the fields (write class {cls.__name__}Fields(BaseModel) with {lines}, "
            f"set task_fields = {cls.__name__}Fields, and read the values in its code with "
            "env.task_fields_of(task) as before)")
    return cls


class EnvironmentPool:
    """One instance per environment per process, so scenarios are built once.

    ``judge``: given to every environment made here, for tasks' ``judged`` checks."""

    def __init__(self, *, population: int | None = None, cache_dir: Path | None = None,
                 judge: Judge | None = None, user_model: UserModel | None = None) -> None:
        self._population = population
        self._cache_dir = cache_dir
        self.judge = judge
        self.user_model = user_model  # a model-driven simulated user (docs/conversations.md); None: scripted
        self._envs: dict[str, Environment] = {}
        self._images: dict[str, dict[int, bytes]] = {}

    def get(self, spec: str) -> Environment:
        env = self._envs.get(spec)
        if env is None:
            cls = environment_class(spec)
            env = self._envs[spec] = cls(population=self._population, cache_dir=self._cache_dir)
            env.judge, env.user_model = self.judge, self.user_model
        return env

    def fresh(self, spec: str) -> Environment:
        """Another instance of ``spec``, not kept here (the caller closes it): one per episode
        in flight. Its scenarios come from the disk cache when there is one."""
        env = environment_class(spec)(population=self._population, cache_dir=self._cache_dir)
        env.judge, env.user_model = self.judge, self.user_model
        if hasattr(sqlite3.Connection, "serialize"):  # siblings thaw each other's built scenarios
            env._scenarios.shared = self._images.setdefault(spec, {})
            env._scenarios._max_open = 2  # a thaw from a shared image is ~0.1 ms; an open one costs memory
        return env

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
        self._envs.clear()

    def __enter__(self) -> EnvironmentPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
