"""``--agenteval-judge``: an endpoint URL or ``module:function``, made into a (cached) judge.

Kept apart from the plugin so a harness without pytest builds the same judge:

    judge = load_judge("http://127.0.0.1:8000/v1", model="qwen2.5-7b", cache="verdicts.jsonl")
    grade = env.grade(judge=judge)
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import JudgeSpecError
from pytest_agenteval.grading.judge import Judge
from pytest_agenteval.grading.verdict_cache import CachedJudge
from pytest_agenteval.patterns import lazy

# The key is read from the first of these that is set; a local server usually needs none.
KEY_VARIABLES = ("AGENTEVAL_JUDGE_API_KEY", "OPENAI_API_KEY")
_FUNCTION_RE = lazy(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
USAGE = "use an OpenAI-compatible endpoint (http://host:port/v1, with --agenteval-judge-model) or module:function"


def load_judge(spec: str, *, model: str | None = None, cache: str | Path | None = None,
               search_path: Path | None = None) -> Judge:
    """The judge ``spec`` names, behind the verdict file ``cache`` if given.
    Raises ``JudgeSpecError`` (one line: what and how to fix) when it cannot be used."""
    judge: Judge
    if spec.startswith(("http://", "https://")):
        if not model:
            raise JudgeSpecError(f"--agenteval-judge={spec}: an endpoint needs a model: pass --agenteval-judge-model"
                                 "=NAME (or set agenteval_judge_model in the ini)")
        from pytest_agenteval.grading.model_judge import OpenAIJudge  # the openai SDK only when asked for

        key = next((os.environ[v] for v in KEY_VARIABLES if os.environ.get(v)), None)
        judge = OpenAIJudge(spec, model, api_key=key)
    elif _FUNCTION_RE.match(spec):
        if model:
            raise JudgeSpecError(f"--agenteval-judge-model={model}: only an endpoint judge takes a model; "
                                 f"{spec} is a function (drop the model, or pass an endpoint URL)")
        judge = _function(spec, search_path)
    else:
        raise JudgeSpecError(f"--agenteval-judge={spec}: not a judge ({USAGE})")
    return CachedJudge(judge, cache) if cache is not None else judge


def _function(spec: str, search_path: Path | None) -> Any:
    module_name, _, attr_path = spec.partition(":")
    if search_path is not None and str(search_path) not in sys.path:
        sys.path.insert(0, str(search_path))
    try:
        target: object = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise JudgeSpecError(f"--agenteval-judge={spec}: no module named {module_name!r} (it must be importable "
                                 "from the rootdir or an installed package; check the spelling)") from None
        raise JudgeSpecError(f"--agenteval-judge={spec}: importing {module_name!r} failed: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the user's module's own error, in one line
        raise JudgeSpecError(f"--agenteval-judge={spec}: importing {module_name!r} failed: "
                             f"{type(exc).__name__}: {exc}") from None
    for part in attr_path.split("."):
        if not hasattr(target, part):
            raise JudgeSpecError(f"--agenteval-judge={spec}: {module_name!r} has no attribute {part!r} "
                                 "(name a function taking a JudgeRequest and returning a Verdict)")
        target = getattr(target, part)
    if not callable(target):
        raise JudgeSpecError(f"--agenteval-judge={spec}: {attr_path} is a {type(target).__name__}, not a function "
                             "(name a function taking a JudgeRequest and returning a Verdict)")
    return target
