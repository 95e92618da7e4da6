"""The one test function that every task line becomes (see plugin_collect.TaskFile)."""

from __future__ import annotations

from typing import Any


def test_task(agenteval_case: Any, env: Any, episode: Any, agent: Any, subtests: Any, request: Any) -> None:
    from pytest_agenteval.plugin.fixtures import play_and_report

    play_and_report(request, agenteval_case, env, episode, agent, subtests)
