"""Whether this machine has an OS sandbox, once for every test module that needs one."""

from __future__ import annotations

import pytest

from pytest_agenteval.agents.containment import probe

BWRAP, WHY_NOT = probe()
needs_bwrap = pytest.mark.skipif(BWRAP is None, reason=f"no OS sandbox here: {WHY_NOT}")
