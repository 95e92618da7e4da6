"""Finding a project's own environments, the same way under pytest and the ``agenteval`` command.

The project root (the nearest folder, from the current one up, holding ``pyproject.toml``,
``pytest.ini``, ``.pytest.ini``, ``tox.ini`` or ``setup.cfg`` — pytest's rootdir under pytest)
goes on ``sys.path``, and the modules it lists are imported, so their
``register_environment`` calls run:

    [tool.agenteval]                      # pyproject.toml
    environments = ["refunds_env"]

or the pytest ini key ``agenteval_environments`` (one module per line, or a list in
``[tool.pytest.ini_options]``). A module may also name a class directly in a task
(``"environment": "refunds_env:Refunds"``): it is found from the project root too.
Installed packages register by entry point and need none of this (see ``registry``).
"""

from __future__ import annotations

import configparser
import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import EnvironmentSpecError
from pytest_agenteval.pyproject import PyprojectError, read_pyproject

ROOT_FILES = ("pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg")
INI_KEY = "agenteval_environments"



def project_root(start: Path) -> Path:
    """The nearest folder from ``start`` up that holds a project file; else ``start``."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if any((folder / name).is_file() for name in ROOT_FILES):
            return folder
    return start


def configured_modules(root: Path) -> list[str]:
    """The environment modules the project's configuration lists, in order, once each."""
    found: list[str] = []
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        tool = _pyproject(root).get("tool", {})
        found += _names(tool.get("agenteval", {}).get("environments", []), f"{pyproject} [tool.agenteval]")
        found += _names(tool.get("pytest", {}).get("ini_options", {}).get(INI_KEY, []),
                        f"{pyproject} [tool.pytest.ini_options]")
    for name, section in (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("tox.ini", "pytest"),
                          ("setup.cfg", "tool:pytest")):
        path = root / name
        if path.is_file():
            parser = configparser.ConfigParser(interpolation=None)
            try:
                parser.read(path, encoding="utf-8")
            except configparser.Error:
                continue  # pytest reports a broken ini file itself
            if parser.has_option(section, INI_KEY):
                found += parser.get(section, INI_KEY).split()
    return list(dict.fromkeys(found))


def tool_setting(root: Path, key: str) -> str | None:
    """``[tool.agenteval] <key>`` of the project's pyproject.toml, if set (e.g. ``judge``)."""
    pyproject = root / "pyproject.toml"
    value = _pyproject(root).get("tool", {}).get("agenteval", {}).get(key)
    if value is not None and not isinstance(value, str):
        raise EnvironmentSpecError(f"{pyproject} [tool.agenteval] {key}: expected a string, got {value!r} "
                                   f'(write {key} = "...")')
    return value


def _pyproject(root: Path) -> dict[str, Any]:
    try:
        return read_pyproject(root)
    except PyprojectError as exc:
        raise EnvironmentSpecError(str(exc)) from None


def _names(value: object, where: str) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise EnvironmentSpecError(f"{where} environments: expected a list of module names, got {value!r} "
                               '(write environments = ["my_env"])')


def load_project_environments(root: Path, extra: Iterable[str] = ()) -> list[str]:
    """Put ``root`` on ``sys.path`` and import the environment modules the project lists
    (and ``extra``). Returns the modules imported; raises ``EnvironmentSpecError`` naming the
    module that could not be imported and the fix."""
    root = root.resolve()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    modules = list(dict.fromkeys([*configured_modules(root), *extra]))
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            missing = getattr(exc, "name", None) or name
            if missing.split(".")[0] == name.split(".")[0]:
                raise EnvironmentSpecError(
                    f"environment module {name!r} (listed in the project's configuration) cannot be imported: {exc} "
                    f"(put {name.split('.')[0]}.py or its package folder in {root}, or install it)") from None
            raise EnvironmentSpecError(
                f"environment module {name!r} cannot be imported: {exc} (an import inside it failed)") from None
    return modules
