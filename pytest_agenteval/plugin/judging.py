"""``--agenteval-judge``: the optional model judge of free text (docs/judge.md), off by default.

Read from the command line, else the ini keys (``[tool.pytest.ini_options]`` or pytest.ini),
else ``[tool.agenteval] judge`` / ``judge_model`` in pyproject.toml (where the project's
environments are listed too).
Verdicts are cached in pytest's cache folder (``--cache-clear`` forgets them) or at
``--agenteval-judge-cache``; without either, every run asks again.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from pytest_agenteval.environments.discovery import tool_setting
from pytest_agenteval.errors import EnvironmentSpecError, JudgeSpecError
from pytest_agenteval.grading.judge import Judge, identity_of
from pytest_agenteval.grading.judge_spec import load_judge

INI_JUDGE = "agenteval_judge"
INI_MODEL = "agenteval_judge_model"
SKIPPED_HINT = "pass --agenteval-judge=URL|module:function to judge them; see docs/judge.md"


def add_options(parser: pytest.Parser, group: Any) -> None:
    group.addoption("--agenteval-judge", metavar="URL|MODULE:FUNCTION",
                    help="judge tasks' `judged` checks of free text with an OpenAI-compatible endpoint "
                         "(http://host:port/v1) or a Python function; off by default: without it those "
                         "checks are left out of the grade and counted as skipped")
    group.addoption("--agenteval-judge-model", metavar="NAME", help="the model an endpoint judge asks")
    group.addoption("--agenteval-judge-cache", metavar="PATH",
                    help="the verdict cache (JSON Lines; default: in pytest's cache folder)")
    parser.addini(INI_JUDGE, default="", help="default of --agenteval-judge")
    parser.addini(INI_MODEL, default="", help="default of --agenteval-judge-model")


def configure_judge(config: pytest.Config) -> tuple[Judge | None, str]:
    """The run's judge (None when off) and how the header names it; a bad one is a usage error."""
    spec = _setting(config, "agenteval_judge", INI_JUDGE, "judge")
    if not spec:
        return None, ""
    model = _setting(config, "agenteval_judge_model", INI_MODEL, "judge_model") or None
    path = config.getoption("agenteval_judge_cache")
    cache = getattr(config, "cache", None)
    where: Path | None = Path(path) if path else (
        cache.mkdir("agenteval-judge") / "verdicts.jsonl" if cache is not None else None)
    try:
        judge = load_judge(spec, model=model, cache=where, search_path=config.rootpath)
    except JudgeSpecError as exc:
        raise pytest.UsageError(str(exc)) from None
    cached = f"verdicts cached in {where}" if where is not None else "verdicts not cached"
    return judge, f"{identity_of(judge)} ({cached})"


def _setting(config: pytest.Config, option: str, ini: str, tool_key: str) -> str:
    """The command line's value, else the ini's, else pyproject.toml's ``[tool.agenteval]``."""
    value = config.getoption(option) or str(config.getini(ini) or "")
    if value:
        return value
    try:
        return tool_setting(config.rootpath, tool_key) or ""
    except EnvironmentSpecError as exc:
        raise pytest.UsageError(str(exc)) from None


def skipped_line(grades: Iterable[dict[str, Any]]) -> str | None:
    """The summary line for judged checks left out for want of a judge, if there were any."""
    counts = [len(g.get("not_judged") or ()) for g in grades]
    skipped, episodes = sum(counts), sum(1 for n in counts if n)
    if not skipped:
        return None
    return (f"{skipped} judged check(s) skipped in {episodes} episode(s): no judge configured, so grades "
            f"count the deterministic checks only ({SKIPPED_HINT})")
