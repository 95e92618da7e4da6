"""Packaged suites: the task files an installed environment ships, run by name from any folder.

    pytest --agent=mymod:Agent --agenteval-suite=booking     # or escalation, or all

An environment ships a suite by setting ``suite`` (a folder next to the file defining its
class) and including that folder's ``*.jsonl`` as package data; it is found through the same
names as the environment itself (entry point, ``register_environment``). The shipped domains'
suite folders hold links to the repository's ``tasks/`` files, so one copy is the source of
truth and the wheel carries the files themselves (docs/suites.md).
"""

from __future__ import annotations

import inspect
from pathlib import Path

from pytest_agenteval.environments.registry import environment_class, known_names
from pytest_agenteval.errors import EnvironmentSpecError

ALL = "all"


def suite_files(name: str) -> list[Path]:
    """The task files of environment ``name``'s suite, sorted; [] when it ships none."""
    cls = environment_class(name)
    if not cls.suite:
        return []
    folder = Path(inspect.getfile(cls)).parent / cls.suite
    return sorted(p for p in folder.glob("*.jsonl") if p.is_file())


def shipped_suites() -> dict[str, list[Path]]:
    """Every known environment that ships a suite, with its files."""
    found = {}
    for name in known_names():
        try:
            files = suite_files(name)
        except EnvironmentSpecError:
            continue  # an entry point that cannot be imported is reported when a task names it
        if files:
            found[name] = files
    return found


def resolve_suites(names: list[str]) -> list[Path]:
    """The files of the named suites (``all``: every shipped one), once each, in order.

    Raises ``EnvironmentSpecError`` naming the suite and the ones there are."""
    shipped = shipped_suites()
    files: list[Path] = []
    for name in names:
        if name == ALL:
            files += [f for fs in shipped.values() for f in fs]
            continue
        if name not in shipped:
            there = ", ".join([*shipped, ALL]) if shipped else "none is installed"
            what = "ships no suite" if name in known_names() else "is not a known environment"
            raise EnvironmentSpecError(f"--agenteval-suite={name}: {name!r} {what} (use one of {there})")
        files += shipped[name]
    return list(dict.fromkeys(files))
