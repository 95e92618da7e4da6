"""Usage budgets: limits on one episode's tokens and cost, and the price table cost comes from.

An episode given a ``Budget`` prices each model call the agent reports without a cost (USD per
million input and output tokens, from ``PRICES`` and the project's ``[tool.agenteval.prices]``),
and once its tokens or cost go past a limit it ends: the call is refused (``EpisodeOver``) and
the episode is graded ``over_budget`` (docs/budgets.md).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# USD per 1M (input, output) tokens: list prices as published by the providers, December 2026.
# Extend or override them under [tool.agenteval.prices] in pyproject.toml.
PRICES: Mapping[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o4-mini": (1.10, 4.40),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-opus-4-1": (15.00, 75.00),
}


class RunTally:
    """The run's usage budget as this process sees it: the limits, and what the episodes graded
    here used. An episode ends as soon as it would take that past a limit, not only the run after
    it (under xdist each worker counts its own episodes; the controller counts them all)."""

    def __init__(self, max_tokens: int | None = None, max_cost: float | None = None) -> None:
        self.max_tokens, self.max_cost = max_tokens, max_cost
        self.tokens, self.cost = 0, 0.0
        self._lock = threading.Lock()

    def add(self, usage: Mapping[str, Any] | None) -> None:
        """An episode graded in this process used ``usage`` (a grade's; every attempt costs)."""
        if usage:
            with self._lock:
                self.tokens += usage.get("input_tokens", 0) + usage.get("output_tokens", 0)
                self.cost += usage.get("cost_usd") or 0.0

    def exceeded(self, tokens: int, cost: float | None) -> str | None:
        """Why an episode that used this much takes the run past its budget, or None."""
        if self.max_tokens is not None and self.tokens + tokens > self.max_tokens:
            return (f"the agent used {tokens} tokens, taking the run to {self.tokens + tokens}, over its budget of "
                    f"{self.max_tokens}")
        if self.max_cost is not None and cost is not None and self.cost + cost > self.max_cost:
            return (f"the agent's model calls cost ${cost:.6g}, taking the run to ${self.cost + cost:.6g}, over its "
                    f"budget of ${self.max_cost:g}")
        return None


@dataclass(frozen=True, kw_only=True)
class Budget:
    """Per-episode limits (None: no limit), the run's (``run``), and the prices that turn tokens
    into cost."""

    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(PRICES))
    run: RunTally | None = None

    def price(self, model: str | None, input_tokens: int, output_tokens: int) -> float | None:
        """USD for one call of ``model``, or None when the table has no price for it."""
        per = self.prices.get(model or "")
        if per is None:
            return None
        return (input_tokens * per[0] + output_tokens * per[1]) / 1_000_000

    def exceeded(self, tokens: int, cost: float | None) -> str | None:
        """Why an episode that used this much is over its budget, or None."""
        if self.max_tokens is not None and tokens > self.max_tokens:
            return f"the agent used {tokens} tokens, over the episode budget of {self.max_tokens}"
        if self.max_cost is not None and cost is not None and cost > self.max_cost:
            return f"the agent's model calls cost ${cost:.6g}, over the episode budget of ${self.max_cost:g}"
        return self.run.exceeded(tokens, cost) if self.run is not None else None


def parse_prices(value: object, where: str) -> dict[str, tuple[float, float]]:
    """``{"model": [input, output]}`` (USD per 1M tokens) from a config table; ValueError names the fix."""
    if not isinstance(value, Mapping):
        raise ValueError(f'{where}: expected a table of models, e.g. "my-model" = [0.5, 1.5] (USD per 1M input '
                         "and output tokens)")
    prices = {}
    for model, pair in value.items():
        ok = (isinstance(pair, list) and len(pair) == 2
              and all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 for x in pair))
        if not ok:
            raise ValueError(f'{where} "{model}": expected [input, output], two numbers >= 0 (USD per 1M tokens), '
                             f"got {pair!r}")
        prices[str(model)] = (float(pair[0]), float(pair[1]))
    return prices
