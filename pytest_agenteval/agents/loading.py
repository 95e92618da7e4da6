"""Resolve an ``--agent`` value to a factory, with errors that give the real cause."""

from __future__ import annotations

import difflib
import importlib
import re
import sys
import traceback
from pathlib import Path
from typing import Any

from pytest_agenteval.agents.builtin import NoopAgent, Reference
from pytest_agenteval.agents.probe import probe_import
from pytest_agenteval.errors import AgentSpecError, describe_exception
from pytest_agenteval.patterns import lazy

BUILTIN_AGENTS = ("reference", "noop", "saboteur:<failure_mode>", "replay:<file>")
_SPEC_RE = lazy(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$")
USAGE = "use MODULE:ATTR (e.g. mymod:Agent) or one of: " + ", ".join(BUILTIN_AGENTS)


def load_agent(spec: str, *, search_path: Path | None = None, probe: bool = True) -> Any:
    """A zero-argument factory (or task-aware factory) for the agent ``spec`` names.

    ``probe``: first import the module in a child that must report the import finished
    (``agents/probe.py``); off in a sandbox's child, which is itself the probe."""
    if spec == "reference":
        return Reference()
    if spec == "noop":
        return NoopAgent
    if spec.startswith("saboteur:"):
        return _saboteur(spec)
    if spec.startswith("replay:"):
        from pytest_agenteval.agents.replaying import load_replay

        return load_replay(spec, search_path)
    if not _SPEC_RE.match(spec):
        raise AgentSpecError(f"--agent={spec}: not a valid agent name ({_spec_hint(spec) or USAGE})")
    module_name, _, attr_path = spec.partition(":")
    if search_path is not None and str(search_path) not in sys.path:
        sys.path.insert(0, str(search_path))
    module = _import(module_name, spec, probe=probe, search_path=search_path)
    target: Any = module
    for part in attr_path.split("."):
        if not hasattr(target, part):
            names = [n for n in dir(target) if not n.startswith("_")]
            close = difflib.get_close_matches(part, names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise AgentSpecError(f"--agent={spec}: module {module_name!r} has no attribute {part!r}{hint}")
        target = getattr(target, part)
    if not callable(target):
        raise AgentSpecError(
            f"--agent={spec}: {attr_path} is a {type(target).__name__}, not a class or factory "
            "(name a class with run(episode), or a function returning such an object)"
        )
    return target


def _spec_hint(spec: str) -> str | None:
    """``did you mean mod:Class`` for the shapes people type: ``mod.Class``, ``mod/file.py:Class``."""
    module, colon, attr = spec.partition(":")
    if not colon and "." not in spec and "/" not in spec:  # one word: a builtin misspelt, or a module alone
        close = difflib.get_close_matches(spec, ("reference", "noop"), n=1, cutoff=0.75)
        if close:
            return f"did you mean {close[0]}?"
        if re.fullmatch(r"[A-Za-z_]\w*", spec):
            return USAGE.replace("mymod:Agent", f"{spec}:Agent")  # a module alone: its class after the colon
        return None
    if not colon:  # mod.Class: the last dotted part is the class
        module, _, attr = spec.rpartition(".")
    module = ".".join(p for p in module.removesuffix(".py").replace("\\", "/").split("/") if p not in ("", "."))
    guess = f"{module}:{attr}"
    if guess != spec and _SPEC_RE.match(guess):
        return f"did you mean {guess}?"
    return None


def check_buildable(spec: str, factory: Any) -> None:
    """Build one agent from ``factory`` and check it has ``run``; ``AgentSpecError`` otherwise.

    Run once at start-up: an agent that cannot be built (a constructor that needs arguments,
    a client that refuses a missing key) would otherwise fail every episode, one at a time.
    Our own agents are known to build."""
    if is_ours(factory):
        return
    try:
        agent = factory()
    except TypeError as exc:
        if "argument" in str(exc):
            raise AgentSpecError(f"--agent={spec}: cannot build the agent with no arguments: {describe_exception(exc)} "
                                 "(give its parameters defaults, or name a zero-argument factory; a conftest "
                                 "`agent` fixture can pass them)") from None
        raise AgentSpecError(f"--agent={spec}: building the agent failed: {describe_exception(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - the agent's own constructor, whatever it raised
        raise AgentSpecError(f"--agent={spec}: building the agent failed: {describe_exception(exc)} "
                             "(fix its constructor, or its settings: an API key, a base URL)") from None
    if not callable(getattr(agent, "run", None)):
        raise AgentSpecError(f"--agent={spec}: the agent {type(agent).__name__} has no run(episode) method "
                             "(define `def run(self, episode)` or `async def run(self, episode)`)")


def is_builtin_spec(spec: str) -> bool:
    """``--agent`` names one of our own agents (which is imported, never isolated)."""
    return spec in ("reference", "noop") or spec.startswith(("saboteur:", "replay:"))


def is_ours(factory: Any) -> bool:
    """One of our own agents, by its exact type: what ``--agenteval-isolate`` leaves in process.
    A user's class that names a ``for_task`` (as ours do) is not: it is isolated like any other."""
    from pytest_agenteval.agents.replaying import Replay
    from pytest_agenteval.agents.saboteurs import Saboteur
    from pytest_agenteval.agents.scripts import ScriptedCalls

    return factory is NoopAgent or type(factory) in (Reference, Saboteur, ScriptedCalls, Replay)


def _saboteur(spec: str) -> Any:
    from pytest_agenteval.agents.saboteurs import Saboteur, known_modes

    mode = spec.partition(":")[2]
    if mode not in known_modes():
        raise AgentSpecError(f"--agent={spec}: no saboteur for {mode!r} (use one of: {', '.join(known_modes())})")
    return Saboteur(mode)


def _import(module_name: str, spec: str, *, probe: bool, search_path: Path | None = None) -> Any:
    ended = probe_import(module_name) if probe else None
    if ended is not None:
        raise AgentSpecError(f"--agent={spec}: importing {module_name!r} {ended} (an agent module must import "
                             "without ending its process; move that code into the agent's run)")
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise AgentSpecError(
                f"--agent={spec}: no module named {module_name!r} (it must be importable from "
                f"the rootdir{f' {search_path}' if search_path else ''} or an installed package: the rootdir "
                "is where pytest.ini or pyproject.toml is, or else the task paths' common folder; "
                "check the spelling)"
            ) from None
        raise AgentSpecError(f"--agent={spec}: importing {module_name!r} failed: {_cause(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - report the agent module's own error, whatever it is
        raise AgentSpecError(f"--agent={spec}: importing {module_name!r} failed: {_cause(exc)}") from None
    except BaseException as exc:  # SystemExit, KeyboardInterrupt...: the run would end without a word
        sys.modules.pop(module_name, None)
        raise AgentSpecError(f"--agent={spec}: importing {module_name!r} raised {_cause(exc)} (an agent module "
                             "must not exit or stop at import; move that code into the agent's run)") from None


def _cause(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "importlib" not in f.filename and "pytest_agenteval" not in f.filename]
    where = f" (at {Path(ours[-1].filename).name}:{ours[-1].lineno})" if ours else ""
    return f"{type(exc).__name__}{f': {exc}' if str(exc) else ''}{where}"
