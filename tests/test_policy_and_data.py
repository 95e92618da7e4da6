"""A policy and system prompt for the agent; a fixed data set and its files; warnings once per file."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval import Task
from pytest_agenteval.adapters.anthropic import Agent as AnthropicAgent
from pytest_agenteval.agents.episode import Episode
from pytest_agenteval.agents.play import run_episode
from pytest_agenteval.agents.tools import prompt_messages, system_text
from pytest_agenteval.engine.conformance import check_environment
from pytest_agenteval.engine.scenarios import fingerprint
from pytest_agenteval.validate.report import Finding, once_per_file
from tests.helpers.anthropic_fake import ScriptedAnthropic
from tests.helpers.shop_env import Shop, opened
from tests.test_grading_modes import shop_task


def test_the_episode_carries_the_environments_policy_and_a_task_may_replace_it() -> None:
    with opened() as env:
        task = Task.model_validate(shop_task())
        env.reset(0, task=task)
        episode = Episode(env, task)
        assert episode.policy == Shop.policy and episode.system_prompt == "You are the shop's support agent."
        assert episode.system_text("generic") == f"You are the shop's support agent.\n\n# Policy\n{Shop.policy}"
        own = Task.model_validate(shop_task(policy="Refunds need a receipt.", system_prompt=""))
        env.reset(0, task=own)
        # An empty task system prompt is "none": the agent's own default is used.
        assert Episode(env, own).system_text("generic") == "generic\n\n# Policy\nRefunds need a receipt."


def test_without_a_policy_the_agents_own_prompt_is_unchanged() -> None:
    assert system_text("generic") == "generic"
    assert prompt_messages(system_text("", "", "Be kind."), "Do X.") == [
        {"role": "system", "content": "# Policy\nBe kind."}, {"role": "user", "content": "Do X."}]
    assert prompt_messages("", "Do X.") == [{"role": "user", "content": "Do X."}]


def test_an_adapter_sends_the_policy_as_its_system_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from anthropic import Anthropic

    task = Task.model_validate(shop_task())
    script = {task.instruction: [[("set_address", {"order_id": "O-1", "address": "9 New Street"})]]}
    with ScriptedAnthropic(script) as model, opened() as env:  # type: ignore[arg-type]
        client = Anthropic(base_url=model.url, api_key="test-key")
        grade = run_episode(env, task, lambda: AnthropicAgent("claude-scripted", client=client), time_limit=None)
    assert model.requests and all(r["system"] == f"You are the shop's support agent.\n\n# Policy\n{Shop.policy}"
                                  for r in model.requests)
    assert grade.transcript is not None and grade.transcript[0]["content"].endswith(Shop.policy)


def test_a_fixed_scenario_is_not_asked_to_vary_with_the_seed() -> None:
    with opened() as env:
        assert check_environment(env) == []

    class Varies(Shop):
        fixed_scenario = False
        data_files = ("helpers/data/shop_orders.json",)  # relative to this module, not the shop's

    with opened(Varies) as env:
        assert "scenarios 0 and 1 are identical (seed data ignores the seed; for one fixed data set, set " \
               "fixed_scenario = True)" in check_environment(env)


def test_a_missing_data_file_is_one_line() -> None:
    class Moved(Shop):
        data_files = ("data/nowhere.json",)

    with opened(Moved) as env:
        [problem] = check_environment(env)
    assert problem.startswith("data_files: ") and problem.endswith(
        "tests/data/nowhere.json not found (data_files are relative to the environment's module; fix the path or "
        "ship the file)")


def test_a_data_file_enters_the_cache_fingerprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").mkdir()
    shutil.copy(Path(__file__).parent / "helpers" / "shop_env.py", tmp_path / "copied_shop.py")
    data = tmp_path / "data" / "shop_orders.json"
    shutil.copy(Path(__file__).parent / "helpers" / "data" / "shop_orders.json", data)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("copied_shop")
    try:
        before = fingerprint(module.Shop)
        rows = json.loads(data.read_text())
        rows[0]["address"] = "Elsewhere"
        data.write_text(json.dumps(rows))
        assert fingerprint(module.Shop) != before
        # A built scenario from the old file is not reused: the new address is seen.
        with module.Shop(cache_dir=tmp_path / "cache") as env:
            env.reset(0)
            assert env.row("orders", "O-1")["address"] == "Elsewhere"
    finally:
        sys.modules.pop("copied_shop", None)


def finding(task_id: str, line: int, message: str, level: Any = "warning", path: str = "t.jsonl") -> Finding:
    return Finding(where=f"{path}:{line} {task_id}", message=message, level=level)


def test_a_warning_repeated_in_one_file_is_printed_once_with_a_count() -> None:
    same = "look-up find_orders was not tried on unrelated records"
    lines = once_per_file([finding("A", 1, same), finding("B", 2, "other"), finding("C", 3, same),
                           finding("D", 4, same, path="u.jsonl"), finding("E", 5, "broken", level="error"),
                           finding("F", 6, "broken", level="error")])
    assert lines == [f"t.jsonl: warning: {same} (2 tasks: A, C)", "t.jsonl:2 B: warning: other",
                     f"u.jsonl:4 D: warning: {same}", "t.jsonl:5 E: broken", "t.jsonl:6 F: broken"]
