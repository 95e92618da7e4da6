"""The one test function every task line becomes: play the episode, record the grade, report
each check as a subtest.

``collect.TaskFile`` uses this module as the module object of every ``.jsonl`` file, so it
holds this test and nothing pytest would collect or rank as a fixture: the fixtures live with
the hooks, where a conftest can override them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.loading import is_ours
from pytest_agenteval.agents.play import play
from pytest_agenteval.agents.sandbox import IsolatedAgent
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.errors import EnvironmentBug
from pytest_agenteval.grading.grade import Grade
from pytest_agenteval.plugin.errored import ERRORED_PROPERTY, mark_errored
from pytest_agenteval.plugin.reruns import rerun_message, will_rerun
from pytest_agenteval.plugin.state import AgentsSeen, State, TaskCase
from pytest_agenteval.plugin.subtests import GRADE_PROPERTY, PASSED_PROPERTY, report_checks
from pytest_agenteval.plugin.timeouts import episode_time_limit


def test_task(agenteval_case: TaskCase, env: Environment, episode: Episode, agent: Any, subtests: pytest.Subtests,
              request: pytest.FixtureRequest, agenteval_state: State) -> None:
    """Run the agent, record the grade, then report each check as a subtest."""
    state, case = agenteval_state, agenteval_case
    # A rerun plugin runs the item again with the same properties: an attempt that ends before
    # it is graded (an environment's bug, an interruption) must not carry the last one's grade.
    node = request.node
    node.user_properties[:] = [p for p in node.user_properties
                               if p[0] not in (GRADE_PROPERTY, PASSED_PROPERTY, ERRORED_PROPERTY)]
    if state.isolate and not isinstance(agent, type) and callable(getattr(agent, "run", None)):
        pytest.fail(f"--agenteval-isolate cannot run a {type(agent).__name__} instance in a separate process "
                    "(make the `agent` fixture return its class or a module-level factory)", pytrace=False)
    instance = not isinstance(agent, type) and callable(getattr(agent, "run", None))
    agent = as_factory(agent, state.agents_seen)
    if state.isolate and not is_ours(agent) and not isinstance(agent, IsolatedAgent):
        try:  # an agent from a conftest fixture: isolate it by its importable name
            assert state.containment is not None
            agent = IsolatedAgent.of(agent, request.config.rootpath, state.containment)
        except ValueError as exc:
            pytest.fail(str(exc), pytrace=False)
    limit, timeout_detail = episode_time_limit(request.node, state.time_limit)

    def record(grade: Grade) -> None:
        # Before any subtest runs, so every reporter (and outcomes' failure message) has it.
        node.user_properties[:] = [p for p in node.user_properties if p[0] != GRADE_PROPERTY]
        # ASCII JSON: it is JUnit XML's property too, where the agent's raw text must not land.
        node.user_properties.append((GRADE_PROPERTY, json.dumps(grade.model_dump(mode="json"), separators=(",", ":"))))

    try:
        if state.ahead is not None and not instance:
            # Played in an environment instance of its own, alongside the next items' episodes.
            episode.close()
            grade = state.ahead.play(request.node, case, agent, on_interrupt=record)
        else:
            grade = play(env, case.task, episode, agent, run=case.run, time_limit=limit,
                         timeout_detail=timeout_detail, on_interrupt=record)
    except EnvironmentBug as exc:  # not graded, so in no results line and no pass rate
        bug: str | None = f"{case.task.task_id}: {exc}"
    else:
        bug = None
    if bug is not None:
        pytest.fail(bug, pytrace=False)  # outside the except: no chained traceback
    if state.budget is not None and state.budget.run is not None:
        state.budget.run.add(grade.usage)  # the next episodes here stop where the run's budget ends
    record(grade)
    if grade.error is not None:  # errored, not failed: no check is reported (docs/errors.md)
        mark_errored(node, grade.error, grade._exception)
        # (brackets defanged: "--only-rerun '\[agent_timeout\]'" matched an agent's own "[agent_timeout]"; red team 72)
        said = str(grade.error["message"]).replace("[", "(").replace("]", ")")
        pytest.fail(f"{case.task.task_id} errored ({grade.error['kind']}): {said}", pytrace=False)
    if not grade.passed:
        message = rerun_message(case.task.task_id, grade.checks)
        if will_rerun(request.node):
            pytest.fail(message, pytrace=False)
    report_checks(request, subtests, grade.checks)


def as_factory(agent: Any, seen: AgentsSeen) -> Any:
    """What the ``agent`` fixture returned, as the runner's factory.

    A class or a zero-argument factory makes a new agent per episode. An instance (an object
    with ``run``) is this episode's agent, used once: given to a second episode (a wider-scoped
    fixture, a module-level object) it would carry that episode the state the first one left,
    so that fails the test. To share one stateless instance on purpose, return ``lambda: it``.
    """
    if isinstance(agent, type) or hasattr(agent, "for_task") or isinstance(agent, IsolatedAgent):
        return agent
    if callable(getattr(agent, "run", None)):
        if not seen.add(agent):
            pytest.fail(f"the `agent` fixture gave the same {type(agent).__name__} instance to a second episode, "
                        "which would see the state the first one left (return a new instance each time from a "
                        "function-scoped fixture, or return the class or a factory)", pytrace=False)
        return lambda: agent
    if callable(agent):
        return agent
    article = "an" if type(agent).__name__[:1] in "aeiou" else "a"
    pytest.fail(f"the `agent` fixture returned {agent!r:.60} ({article} {type(agent).__name__}): return an agent "
                "class, a zero-argument factory, or an agent instance with a run(episode) method", pytrace=False)
