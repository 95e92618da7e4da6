"""``agenteval validate``'s settings, from the project's ``pyproject.toml``:

    [tool.agenteval]
    validate_baseline_threshold = 0.1   # --strict fails a file a baseline passes more of

A bad value is one line naming the file, the key, what was wrong and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.pyproject import PyprojectError, agenteval_section

THRESHOLD_KEY = "validate_baseline_threshold"


class ConfigError(AgentEvalError):
    """A bad ``[tool.agenteval]`` value for validate: one line, no traceback."""


@dataclass(frozen=True, kw_only=True)
class ValidateConfig:
    # The largest share of a file's tasks a guessability baseline may pass (0.1: 10%).
    baseline_threshold: float = 0.1


def read_config(root: Path) -> ValidateConfig:
    """The settings in ``root/pyproject.toml`` (the defaults if it has none)."""
    pyproject = root / "pyproject.toml"
    try:
        section = agenteval_section(root)
    except PyprojectError as exc:
        raise ConfigError(str(exc)) from None
    if THRESHOLD_KEY not in section:
        return ValidateConfig()
    value = section[THRESHOLD_KEY]
    # bool is an int in Python: `= true` must not read as 1.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(f"{pyproject}: [tool.agenteval] {THRESHOLD_KEY} = {value!r} is not a share of tasks "
                          f"(use a number from 0 to 1, e.g. {THRESHOLD_KEY} = 0.1 for 10%)")
    return ValidateConfig(baseline_threshold=float(value))
