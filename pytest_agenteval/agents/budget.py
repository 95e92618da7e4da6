"""Usage budgets: limits on one episode's tokens and cost, and the price table cost comes from.

An episode given a ``Budget`` prices each model call the agent reports without a cost (USD per
million input and output tokens, from ``PRICES`` and the project's ``[tool.agenteval.prices]``),
and once its tokens or cost go past a limit it ends: the call is refused (``EpisodeOver``) and
the episode is graded ``over_budget`` (docs/budgets.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

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


@dataclass(frozen=True, kw_only=True)
class Budget:
    """Per-episode limits (None: no limit) and the prices that turn tokens into cost."""

    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(PRICES))

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
        return None


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
