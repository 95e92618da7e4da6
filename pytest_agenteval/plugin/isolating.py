"""``--agenteval-isolate``: its level as given, the sandbox's limits, and the containment chosen
for the run (its hidden files, its warm pool, the agent's spec checked inside it)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from pathlib import Path

import pytest

from pytest_agenteval.agents.containment import (
    LEVELS,
    STRONGEST,
    SYSTEM_DIRS,
    ContainmentError,
    choose,
    make_undumpable,
)
from pytest_agenteval.agents.limits import Limits, LimitsError
from pytest_agenteval.agents.pool import open_pools
from pytest_agenteval.agents.sandbox import IsolatedAgent, check_spec
from pytest_agenteval.errors import AgentSpecError
from pytest_agenteval.plugin import view
from pytest_agenteval.plugin.hiding import hidden_paths, reserve_outputs
from pytest_agenteval.plugin.state import State

INI_LIMITS = "agenteval_limits"



def isolate_option(config: pytest.Config) -> str | None:
    """``--agenteval-isolate``'s level. argparse gives the bare flag the path after it
    (``--agenteval-isolate tasks/``): an existing path is given back to the paths to run."""
    asked: str | None = config.getoption("agenteval_isolate")
    if asked is None or asked in (STRONGEST, *LEVELS) or not Path(asked.split("::")[0]).exists():
        return asked  # an unknown level is refused by name when the containment is chosen
    if config.args_source is not pytest.Config.ArgsSource.ARGS:
        config.args[:] = []  # it was the only path: not the rootdir or testpaths
        config.args_source = pytest.Config.ArgsSource.ARGS
    config.args.append(asked)
    config.option.agenteval_isolate = STRONGEST
    return STRONGEST


def _searched(readable: tuple[str, ...]) -> list[str]:
    """The folders of the child's search path that are the user's, not the system's (PYTHONPATH,
    ``.pth`` files): shown as a copy of their code, as the project is. The system's folders, the
    interpreter's prefixes and this package are installed code, shown as they are."""
    package = str(Path(__file__).resolve().parent.parent)
    system = [os.path.realpath(p) for p in (*SYSTEM_DIRS, sys.prefix, sys.base_prefix, sys.exec_prefix, package)]
    return [p for p in readable if os.path.isdir(p) and not _installed(p) and not any(
        os.path.realpath(p) == s or os.path.realpath(p).startswith(s.rstrip("/") + "/") for s in system)]


def _installed(folder: str) -> bool:
    """A folder packages were installed into (``pip install --target``: their ``.dist-info``
    beside them), shown as site-packages is: their data files are theirs (red team 41: certifi's
    certificates)."""
    with contextlib.suppress(OSError):
        return any(name.endswith(".dist-info") for name in os.listdir(folder))
    return False


def _beside_the_harness(searched: list[str], root: Path) -> list[str]:
    """This package's own checkout, when it is on the search path (an editable install): only the
    package is the harness; its task generators, tests and task files beside it are not the
    agent's (red team 41 rebuilt the shipped suite from ``scripts/``)."""
    package = Path(__file__).resolve().parent.parent
    checkout = str(package.parent)
    if checkout == str(root) or not any(os.path.realpath(p) == checkout for p in searched):
        return []  # (the checkout as the project: its ini's agenteval_hide says what to leave out)
    return [str(entry) for entry in package.parent.iterdir() if entry != package]


def _tox_logs(root: Path) -> list[str]:
    """A virtualenv inside the project is shown as it is (the interpreter runs from it); tox keeps
    its runs' logs inside it (red team 41: an old tox log, full marks)."""
    found = []
    for prefix in {sys.prefix, sys.exec_prefix}:
        if Path(prefix).resolve().is_relative_to(root):
            found += [os.path.join(prefix, name) for name in ("log", "tmp", ".tox-info.json")]
    return found


def limits_given(config: pytest.Config) -> Limits:
    given = config.getoption("agenteval_limits")
    try:
        return Limits.parse(given) if given is not None else \
            Limits.parse(config.getini(INI_LIMITS), where=f"{INI_LIMITS} (ini)")
    except LimitsError as exc:
        raise pytest.UsageError(str(exc)) from None


def contain(config: pytest.Config, state: State, asked: str) -> None:
    """Choose the containment, hide the run's files from it, and check ``--agent`` inside it."""
    limits = limits_given(config)
    try:
        reserve_outputs(config)
        chosen = choose(asked, network=config.getoption("agenteval_isolate_network"),
                        hidden=hidden_paths(config, state))
        if chosen.level == "bwrap":  # the project, and every other folder of the child's search path: their code
            root = config.rootpath.resolve()
            searched = _searched(chosen.readable)
            views, large = view.build([str(root), *searched], root, config.getini(view.INI_SHOW),
                                      [*chosen.hidden, *_beside_the_harness(searched, root)], chosen.readable)
            # a folder reached through a link (a symlinked home) is viewed at the path the child uses too
            copies = dict(views)
            views += [(alias, copies[os.path.realpath(alias)]) for alias in (str(config.rootpath), *searched)
                      if os.path.abspath(alias) != os.path.realpath(alias) and os.path.realpath(alias) in copies
                      and not os.path.islink(alias)]  # (a link itself is made a link in the sandbox, to the view)
            chosen = dataclasses.replace(chosen, views=tuple(views), large=tuple(large),
                                         hidden=(*chosen.hidden, *_tox_logs(root)))
        make_undumpable()
    except (ContainmentError, OSError) as exc:
        raise pytest.UsageError(str(exc)) from None
    # One waiting sandbox per episode in flight: the pool keeps up with the concurrency window.
    open_pools()
    state.containment = dataclasses.replace(chosen, limits=limits.clamped(),
                                            spares=config.getoption("agenteval_concurrency"))
    if state.agent_spec and state.agent is None:
        state.agent = IsolatedAgent(spec=state.agent_spec, search_path=str(config.rootpath),
                                    containment=state.containment)
        if not hasattr(config, "workerinput"):  # the controller (or a serial run) has checked it
            try:
                check_spec(state.agent, state.time_limit)
            except AgentSpecError as exc:
                raise pytest.UsageError(str(exc)) from None
