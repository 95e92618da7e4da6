"""The project's ``pyproject.toml``: read in one place, so a broken file is one line everywhere."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import AgentEvalError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - pytest depends on tomli below 3.11
    import tomli as tomllib


class PyprojectError(AgentEvalError):
    """``pyproject.toml`` is not valid TOML: one line naming it, and the fix."""


def read_pyproject(root: Path) -> dict[str, Any]:
    """``root/pyproject.toml`` parsed, or ``{}`` when there is none."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return {}
    try:
        data: dict[str, Any] = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PyprojectError(f"{pyproject}: not valid TOML: {exc} (fix the file)") from None
    return data


def agenteval_section(root: Path) -> dict[str, Any]:
    """Its ``[tool.agenteval]`` table, or ``{}``."""
    section = read_pyproject(root).get("tool", {}).get("agenteval", {})
    return section if isinstance(section, dict) else {}
