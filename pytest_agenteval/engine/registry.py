"""Environment names: the built-in domains, registered ones, and ``module:Class`` specs."""

from __future__ import annotations

import importlib
import sqlite3
from importlib.metadata import entry_points
from pathlib import Path

from pytest_agenteval.engine.environment import Environment
from pytest_agenteval.errors import EnvironmentSpecError

BUILTIN = {
    "example": "pytest_agenteval.domains.example:ExampleEnvironment",
    "escalation": "pytest_agenteval.domains.escalation:EscalationEnvironment",
    "booking": "pytest_agenteval.domains.booking:BookingEnvironment",
}
_registered: dict[str, type[Environment]] = {}


def register_environment(name: str, cls: type[Environment]) -> None:
    """Make ``cls`` available to task files as ``"environment": name``."""
    _registered[name] = cls


def known_names() -> list[str]:
    plugins = [ep.name for ep in entry_points(group="pytest_agenteval.environments")]
    return sorted({*BUILTIN, *_registered, *plugins})


def environment_class(spec: str) -> type[Environment]:
    if spec in _registered:
        return _registered[spec]
    target = BUILTIN.get(spec)
    if target is None:
        for ep in entry_points(group="pytest_agenteval.environments"):
            if ep.name == spec:
                target = ep.value
    if target is None and ":" not in spec:
        raise EnvironmentSpecError(
            f"unknown environment {spec!r} (use one of {', '.join(known_names())}, or module:Class)"
        )
    module_name, _, attr = (target or spec).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EnvironmentSpecError(f"cannot import {module_name!r}: {exc} (check the module path)") from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Environment)):
        raise EnvironmentSpecError(
            f"{spec!r} is not an Environment subclass (name a class deriving from "
            "pytest_agenteval.Environment)"
        )
    return cls


class EnvironmentPool:
    """One instance per environment per process, so scenarios are built once."""

    def __init__(self, *, population: int | None = None, cache_dir: Path | None = None) -> None:
        self._population = population
        self._cache_dir = cache_dir
        self._envs: dict[str, Environment] = {}
        self._images: dict[str, dict[int, bytes]] = {}

    def get(self, spec: str) -> Environment:
        env = self._envs.get(spec)
        if env is None:
            cls = environment_class(spec)
            env = self._envs[spec] = cls(population=self._population, cache_dir=self._cache_dir)
        return env

    def fresh(self, spec: str) -> Environment:
        """Another instance of ``spec``, not kept here (the caller closes it): one per episode
        in flight. Its scenarios come from the disk cache when there is one."""
        env = environment_class(spec)(population=self._population, cache_dir=self._cache_dir)
        if hasattr(sqlite3.Connection, "serialize"):  # siblings thaw each other's built scenarios
            env._scenarios.shared = self._images.setdefault(spec, {})
            env._scenarios._max_open = 2  # a thaw from a shared image is ~0.1 ms; an open one costs memory
        return env

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
        self._envs.clear()
