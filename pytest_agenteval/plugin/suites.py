"""``--agenteval-suite``: packaged task files added to the paths pytest collects."""

from __future__ import annotations

import pytest

from pytest_agenteval.environments.suites import ALL, resolve_suites
from pytest_agenteval.errors import EnvironmentSpecError


def add_option(group: pytest.OptionGroup) -> None:
    group.addoption("--agenteval-suite", action="append", default=[], metavar="NAME",
                    help=f"run the task files an installed environment ships (booking, escalation; {ALL}: every "
                         "one), from any folder; repeatable, and combines with paths given")


def add_suite_paths(config: pytest.Config) -> None:
    """Put the named suites' files among the paths to collect: with no path given, instead of
    the rootdir or testpaths (as if the files had been typed on the command line)."""
    names = [n for value in config.getoption("agenteval_suite") for n in value.split(",") if n]
    if not names:
        return
    try:
        files = resolve_suites(names)
    except EnvironmentSpecError as exc:
        raise pytest.UsageError(str(exc)) from None
    if config.args_source is not pytest.Config.ArgsSource.ARGS:
        config.args[:] = []
        config.args_source = pytest.Config.ArgsSource.ARGS
    given = {a.split("::")[0] for a in config.args}
    config.args += [str(f) for f in files if str(f) not in given]
