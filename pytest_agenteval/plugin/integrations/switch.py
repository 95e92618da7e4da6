"""One switch for every integration: its self-test, or ``AGENTEVAL_INTEGRATIONS`` forcing the fallbacks.

``AGENTEVAL_INTEGRATIONS=off`` turns every integration to its fallback; a comma-separated list
of names (``AGENTEVAL_INTEGRATIONS=off:allure,sugar``) only those. Each module's self-test runs
once per process; a self-test that raises counts as failed (the fallback is used, silently, as
``compat`` does for pytest's own internals).
"""

from __future__ import annotations

import os
from collections.abc import Callable

ENV_VAR = "AGENTEVAL_INTEGRATIONS"

_verdicts: dict[str, bool] = {}


def forced_off(name: str) -> bool:
    """Whether the environment forces ``name``'s fallback."""
    value = os.environ.get(ENV_VAR, "").strip().lower()
    if value in ("off", "0", "no", "false"):
        return True
    if value.startswith("off:"):
        return name in {n.strip() for n in value[4:].split(",")}
    return False


def enabled(name: str, self_test: Callable[[], bool]) -> bool:
    """Whether integration ``name`` uses the foreign plugin's interfaces (else its fallback)."""
    if forced_off(name):
        return False
    if name not in _verdicts:
        try:
            _verdicts[name] = bool(self_test())
        except Exception:  # noqa: BLE001 - any surprise means: use the fallback
            _verdicts[name] = False
    return _verdicts[name]
