"""Provider errors are told apart from the agent's behaviour (docs/errors.md): a rate limit or a
server error is retried with exponential backoff, then errors the episode, as an unreachable
endpoint or a refused key does at once. The real anthropic and openai SDKs, over real HTTP, on
a scripted server on 127.0.0.1; the backoff's sleep is injected, so nothing waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.adapters._common import Retry
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.errors import ProviderError
from tests.helpers.anthropic_fake import ScriptedAnthropic
from tests.helpers.tasks import make_task, result_lines

anthropic = pytest.importorskip("anthropic")
ROOT = Path(__file__).parent.parent
CLOSE: dict[str, Any] = {"Close ticket T-0001.": [[("close_ticket", {"ticket_id": "T-0001"})]]}


def play(url: str, retry: Retry) -> Any:
    from pytest_agenteval.adapters.anthropic import Agent

    client = anthropic.Anthropic(base_url=url, api_key="test-key", max_retries=0)
    env: Any
    with ExampleEnvironment() as env:
        return run_episode(env, make_task(acceptable_action_paths=None), lambda: Agent(model="m", client=client,
                                                                                         retry=retry), time_limit=60)


def test_rate_limits_and_server_errors_are_retried_with_backoff() -> None:
    slept: list[float] = []
    with ScriptedAnthropic(CLOSE, statuses=[429, 503]) as server:
        grade = play(server.url, Retry(retries=3, base=0.5, sleep=slept.append))
    assert grade.passed and grade.error is None
    assert slept == [0.5, 1.0] and len(server.requests) == 4  # two refused, then two turns


def test_a_rate_limit_that_outlasts_the_retries_errors_the_episode() -> None:
    slept: list[float] = []
    with ScriptedAnthropic(CLOSE, statuses=[429] * 5) as server:
        grade = play(server.url, Retry(retries=2, base=1.0, cap=1.5, sleep=slept.append))
    assert slept == [1.0, 1.5] and len(server.requests) == 3  # bounded: the cap, then no more tries
    assert grade.error is not None and grade.error["kind"] == "provider"
    assert grade.error["message"].startswith("rate_limit: ProviderError: the model provider failed after 3 attempts: "
                                             "RateLimitError: ")
    assert "RateLimitError" in grade.error["traceback"]  # the SDK's own error, as the cause


@pytest.mark.parametrize(("status", "reason"), [(401, "auth"), (403, "auth")])
def test_a_refused_key_is_not_retried(status: int, reason: str) -> None:
    slept: list[float] = []
    with ScriptedAnthropic(CLOSE, statuses=[status]) as server:
        grade = play(server.url, Retry(sleep=slept.append))
    assert slept == [] and len(server.requests) == 1
    assert grade.error is not None and grade.error["message"].startswith(f"{reason}: ProviderError: ")


def test_an_unreachable_endpoint_errors_the_episode(closed_port: int) -> None:
    slept: list[float] = []
    grade = play(f"http://127.0.0.1:{closed_port}", Retry(sleep=slept.append))
    assert slept == []
    assert grade.error is not None and grade.error["kind"] == "provider"
    assert grade.error["message"].startswith("connection: ProviderError: the model provider failed: APIConnectionError")


def test_the_agents_own_error_is_not_a_provider_error() -> None:
    with pytest.raises(KeyError):
        Retry(sleep=lambda s: pytest.fail("slept")).call(lambda: dict[str, int]()["x"])


def test_retries_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTEVAL_RETRIES", "0")
    assert Retry.from_environment().retries == 0
    monkeypatch.setenv("AGENTEVAL_RETRIES", "many")
    with pytest.raises(ValueError, match=r"^AGENTEVAL_RETRIES='many': give a whole number of retries, 0 or more"):
        Retry.from_environment()


def test_an_errored_provider_episode_through_pytest(pytester: pytest.Pytester) -> None:
    """The table counts it apart, by kind; pytest calls it an error."""
    pytester.makefile(".jsonl", **{"tasks/t": make_task(acceptable_action_paths=None).model_dump_json()})
    with ScriptedAnthropic(CLOSE, statuses=[500] * 3) as server:
        pytester.makeconftest(f'''
import anthropic, pytest
from pytest_agenteval.adapters._common import Retry
from pytest_agenteval.adapters.anthropic import Agent

@pytest.fixture
def agent():
    client = anthropic.Anthropic(base_url="{server.url}", api_key="k", max_retries=0)
    return lambda: Agent(model="m", client=client, retry=Retry(retries=2, sleep=lambda s: None))
''')
        result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*agenteval: 0 episodes, K=1, 1 errored*",
                                 "1 errored (not in any pass rate): provider 1; EX-1 run 1",
                                 "ERROR tasks/t.jsonl::test_task[[]EX-1[]] - *ProviderError*"])


def test_provider_error_reason_is_kept() -> None:
    assert ProviderError("auth", "no").reason == "auth"


def openai_example(pytester: pytest.Pytester) -> None:
    pytest.importorskip("openai")
    pytester.makefile(".jsonl", **{"tasks/t": make_task(acceptable_action_paths=None).model_dump_json()})
    pytester.makepyfile(openai_agent=(ROOT / "examples" / "openai_agent.py").read_text())


def test_the_openai_example_with_a_dead_endpoint_is_errored_not_failed(pytester: pytest.Pytester,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      closed_port: int) -> None:
    """The issue's outage: a dead endpoint scored pass@1 0.00 with domain failure modes."""
    openai_example(pytester)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{closed_port}/v1")
    result = pytester.runpytest("--agent=openai_agent:Agent", "-p", "no:randomly", "--agenteval-results=r.jsonl")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["1 errored (not in any pass rate): provider 1; EX-1 run 1",
                                 "ERROR tasks/t.jsonl::test_task[[]EX-1[]] - *Connect*"])  # the SDK's or its transport's
    result.stdout.no_fnmatch_line("all *")  # no pass rate at all: nothing was played
    grade = [g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g][0]
    assert grade["error"]["kind"] == "provider" and grade["error"]["message"].startswith("connection: ")


def test_the_openai_example_without_a_key_is_a_usage_error(pytester: pytest.Pytester,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    openai_example(pytester)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = pytester.runpytest("--agent=openai_agent:Agent")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agent=openai_agent:Agent: building the agent failed: OpenAIError: "
                                 "Missing credentials. *"])
