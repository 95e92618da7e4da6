"""Files in the agent's folder that pytest's own processes would import in place of a module.

Under ``--agenteval-isolate`` the agent's code runs only in its sandbox; its folder is rootdir
(or the working folder), which is first on ``sys.path`` in the harness: the plugin puts rootdir
there (project environments), and xdist's workers start as ``python -c`` with the working
folder first. A ``json.py`` or ``getpass.py`` beside the agent's module was imported by the
workers (34 standard modules were) and the controller, as the harness's user, outside every
sandbox, where it could rewrite the grader. So such a run is refused before any worker starts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

_SUFFIXES = (".py", ".pyc", ".so", ".pyd")


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
            if name in taken or (loaded is not None and _installed(loaded)):
                found.append(f"{entry.path} (shadows {name})")
    return sorted(found)


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
    if entry.is_dir():
        return entry.name if os.path.exists(os.path.join(entry.path, "__init__.py")) else None
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
