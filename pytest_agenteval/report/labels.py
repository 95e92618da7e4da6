"""What names a run beyond its ``--agent``: labels (``--agenteval-label model=gpt-x``), the git
commit of the project, and the model endpoint's base URL.

The run record carries them as ``labels``, ``git`` (``{"commit", "dirty"}``, or null outside a
git repository) and ``endpoint`` (null when unknown). A run's *identity* is its agent, labels
and endpoint: ``agenteval report`` refuses to merge runs whose identities differ, a resumed file
must have this run's identity, and ``--lf`` keeps one list of failures per identity. The git
commit is recorded and shown but is not part of the identity (a fix of the agent's code is the
same agent, evaluated again).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pytest_agenteval.errors import AgentEvalError
from pytest_agenteval.patterns import lazy

_LABEL = lazy(r"^([A-Za-z_][A-Za-z0-9_.-]*)=(\S(?:.*\S)?)$")
# Where an OpenAI- or Anthropic-SDK agent's endpoint is set when the agent does not say it.
ENDPOINT_ENV = ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")


class LabelError(AgentEvalError):
    """A ``--agenteval-label`` that is not ``key=value``: one line, with the fix."""


def parse_labels(values: Iterable[str], option: str = "--agenteval-label") -> dict[str, str]:
    labels: dict[str, str] = {}
    for value in values:
        match = _LABEL.match(value)
        if match is None:
            raise LabelError(f"{option} {value!r}: not key=value (write e.g. {option} model=gpt-4o-mini; a key is "
                             "letters, digits, _ . -, not starting with a digit; the value is not empty)")
        key, text = match.groups()
        if key in labels and labels[key] != text:
            raise LabelError(f"{option} {key}: given twice ({labels[key]!r} and {text!r}); give each key once")
        labels[key] = text
    return dict(sorted(labels.items()))


def git_state(root: Path) -> dict[str, Any] | None:
    """The commit checked out at ``root`` and whether tracked files differ from it (None: not a git repo)."""
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10,
                                  check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if not commit:
        return None
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status)}


def endpoint_of(agent: Any) -> str | None:
    """The model endpoint's base URL: the agent's (class or factory's) ``base_url`` attribute when it
    is a string, else ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL`` from the environment."""
    url = getattr(agent, "base_url", None)
    if isinstance(url, str) and url:
        return url
    return next((os.environ[name] for name in ENDPOINT_ENV if os.environ.get(name)), None)


def identity(run: Mapping[str, Any]) -> dict[str, Any]:
    """What must agree between runs that are one run: the agent, the labels and the endpoint."""
    return {"agent": run.get("agent"), "labels": dict(run.get("labels") or {}), "endpoint": run.get("endpoint")}


def describe(run: Mapping[str, Any]) -> str:
    """``labels model=a, prompt=v2; git 1a2b3c4d5e6f (dirty); endpoint http://…`` ("" when none)."""
    parts = []
    labels = run.get("labels") or {}
    if labels:
        parts.append("labels " + ", ".join(f"{k}={v}" for k, v in labels.items()))
    git = run.get("git")
    if isinstance(git, Mapping) and git.get("commit"):
        parts.append(f"git {str(git['commit'])[:12]}" + (" (dirty)" if git.get("dirty") else ""))
    if run.get("endpoint"):
        parts.append(f"endpoint {run['endpoint']}")
    return "; ".join(parts)


def about_run(run: Mapping[str, Any] | None) -> str:
    """``agent X; labels …; git …`` for a report's reader ("" without a run record)."""
    if not run:
        return ""
    named = describe(run)
    return f"agent {run.get('agent')}" + (f"; {named}" if named else "")


def differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The identity fields on which two run records differ, each as ``field (a vs b)``."""
    ia, ib = identity(a), identity(b)
    return [f"{key} ({_shown(ia[key])} vs {_shown(ib[key])})" for key in ia if ia[key] != ib[key]]


def _shown(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "none"
    return "none" if value is None else str(value)
