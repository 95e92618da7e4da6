"""Usage budgets' options: per episode (enforced in the episode) and per run (``progress``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pytest_agenteval.agents.budget import PRICES, Budget, RunTally, parse_prices
from pytest_agenteval.pyproject import PyprojectError, agenteval_section


def add_options(group: pytest.OptionGroup) -> None:
    group.addoption("--agenteval-max-tokens", metavar="N", type=int, default=None,
                    help="end an episode whose model calls go past N tokens (input + output): graded over_budget")
    group.addoption("--agenteval-max-cost", metavar="USD", type=float, default=None,
                    help="end an episode whose model calls cost more than USD (reported, or priced from the "
                         "table: docs/budgets.md): graded over_budget")
    group.addoption("--agenteval-run-max-tokens", metavar="N", type=int, default=None,
                    help="stop the run once its episodes have used more than N tokens")
    group.addoption("--agenteval-run-max-cost", metavar="USD", type=float, default=None,
                    help="stop the run once its episodes' model calls cost more than USD")


def configure_budget(config: pytest.Config) -> Budget:
    """The episodes' budget (limits and the price table), every limit checked; UsageError if not."""
    for name in ("max_tokens", "run_max_tokens"):
        value = config.getoption(f"agenteval_{name}")
        if value is not None and value < 1:
            raise pytest.UsageError(f"--agenteval-{name.replace('_', '-')}={value}: must be 1 or more")
    for name in ("max_cost", "run_max_cost"):
        value = config.getoption(f"agenteval_{name}")
        if value is not None and not 0 < value < math.inf:
            raise pytest.UsageError(f"--agenteval-{name.replace('_', '-')}={value:g}: must be a number of USD above 0")
    try:
        prices = {**PRICES, **project_prices(config.rootpath)}
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    run_tokens, run_cost = config.getoption("agenteval_run_max_tokens"), config.getoption("agenteval_run_max_cost")
    return Budget(max_tokens=config.getoption("agenteval_max_tokens"),
                  max_cost=config.getoption("agenteval_max_cost"), prices=prices,
                  run=RunTally(run_tokens, run_cost) if run_tokens is not None or run_cost is not None else None)


def project_prices(root: Path) -> dict[str, tuple[float, float]]:
    """``[tool.agenteval.prices]`` of the project's pyproject.toml: ``"model" = [input, output]``."""
    pyproject = root / "pyproject.toml"
    try:
        table = agenteval_section(root).get("prices")
    except PyprojectError as exc:
        raise ValueError(str(exc)) from None
    return {} if table is None else parse_prices(table, f"{pyproject} [tool.agenteval.prices]")
