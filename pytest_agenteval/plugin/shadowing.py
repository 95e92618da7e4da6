"""Files in the agent's folder that pytest's own processes would import in place of a module.

Under ``--agenteval-isolate`` the agent's code runs only in its sandbox; its folder is rootdir
(or the working folder), which is first on ``sys.path`` in the harness: the plugin puts rootdir
there (project environments), and xdist's workers start as ``python -c`` with the working
folder first. A ``json.py`` or ``getpass.py`` beside the agent's module was imported by the
workers (34 standard modules were) and the controller, as the harness's user, outside every
sandbox, where it could rewrite the grader. So such a run is refused before any worker starts.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import re
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

# What Python imports as a module: .py, .pyc (sourceless), extension modules (.so, .cpython-311-….so)
_SUFFIXES = (*importlib.machinery.all_suffixes(), ".pyd")


def shadowing(folders: Iterable[Path]) -> list[str]:
    """Top-level modules in ``folders`` named like a standard module, or like installed code this
    process imported from elsewhere (pytest, its plugins): each as ``path (shadows NAME)``."""
    taken = set(sys.stdlib_module_names) - set(sys.builtin_module_names)
    found: list[str] = []
    for folder in dict.fromkeys(f.resolve() for f in folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = _module_name(entry)
            if name is None or name == "conftest":  # pytest imports conftests as such: the project's own
                continue
            loaded = sys.modules.get(name)
            if loaded is not None and _same(loaded, entry.path):
                continue  # this very file (the project's environment, say): not a stand-in
            if (name in taken or name in TRIED_IF_PRESENT or (loaded is not None and _installed(loaded))
                    or _plugin_module(name, folder)):
                found.append(f"{entry.path} (shadows {name})")
    return sorted(found)


# Extras of this package whose code the harness itself imports (the model judge and user, MCP);
# the adapters' extras run in the agent's process only.
_HARNESS_EXTRAS = {"pytest-agenteval": ("llm", "mcp")}
# Imported by pytest's processes only if installed, so found nowhere when absent: xdist's workers
# and controller try setproctitle, the workers org (a Jython probe). Seen by tracing failed imports
# of `pytest -n 2 -v` with the shipped plugins; a plugin may try others (docs/threat-model.md).
TRIED_IF_PRESENT = frozenset({"setproctitle", "org"})


def _plugin_module(name: str, folder: Path) -> bool:
    """Whether ``name`` is installed elsewhere as part of pytest, a plugin, or what they require."""
    elsewhere = [p for p in sys.path if p and os.path.realpath(p) != str(folder)]
    try:
        spec = importlib.machinery.PathFinder.find_spec(name, elsewhere)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False  # installed nowhere: not a module pytest's processes import (the common case)
    owners = metadata.packages_distributions().get(name, [])
    return any(_normal(owner) in _plugin_distributions() for owner in owners)


@functools.cache
def _plugin_distributions() -> frozenset[str]:
    """pytest, every installed pytest plugin (``pytest11``) and what they require, installed or not."""
    todo = ["pytest", *(ep.dist.name for ep in metadata.entry_points(group="pytest11") if ep.dist is not None)]
    seen: set[str] = set()
    while todo:
        dist = _normal(todo.pop())
        if dist in seen:
            continue
        seen.add(dist)
        try:
            requires = metadata.requires(dist) or []
        except metadata.PackageNotFoundError:
            continue
        extras = _HARNESS_EXTRAS.get(dist, ())
        for requirement in requires:
            marker = requirement.partition(";")[2]
            extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)", marker)
            if extra is None or extra.group(1) in extras:
                todo.append(re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0])
    return frozenset(seen)


def _normal(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


def shadowing_problem(folders: Iterable[Path]) -> str | None:
    """One line naming what ``shadowing`` found, with the fix (None: nothing)."""
    found = shadowing(folders)
    if not found:
        return None
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f"--agenteval-isolate: {found[0]}{more}: a module in the agent's folder named like one pytest's "
            "processes import would run there, outside the sandbox (rename it, or put the agent's modules in a "
            "package)")


def _module_name(entry: os.DirEntry[str]) -> str | None:
    if entry.is_dir():  # a package by any __init__ Python imports (__init__.pyc alone is one)
        inits = (os.path.join(entry.path, "__init__" + suffix) for suffix in _SUFFIXES)
        return entry.name if any(os.path.isfile(init) for init in inits) else None
    for suffix in _SUFFIXES:
        if entry.name.endswith(suffix):
            return entry.name.split(".")[0] or None
    return None


def _installed(module: object) -> bool:
    """Whether ``module`` is installed code (pytest, a plugin, a dependency, this package), not
    a module of some project this process imported before (pytester's runs)."""
    file = getattr(module, "__file__", None)
    if not file:
        return True  # built in or frozen
    real = os.path.realpath(str(file))
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    prefixes.add(os.path.realpath(Path(__file__).resolve().parent.parent))
    return any(real.startswith(p.rstrip("/") + "/") for p in prefixes)


def _same(module: object, path: str) -> bool:
    file = getattr(module, "__file__", None)
    if not file:
        return False
    real = os.path.realpath(path)
    return os.path.realpath(str(file)) == real or os.path.realpath(os.path.dirname(str(file))) == real
