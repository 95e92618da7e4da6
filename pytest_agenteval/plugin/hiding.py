"""What an isolated agent must not see, though it lies in what the sandbox shows it.

Of the project (and of every other folder on the agent's search path) the sandbox shows a copy
of the code alone (``view``); these paths are left out of that copy even when they are code, and
hidden where the sandbox shows a folder as it is (the system's, an installed package's): the
run's own files (task files, the cache folder, results, reports, the signing key), the task
files installed environments ship, and what the project lists in the ``agenteval_hide`` ini value.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from pytest_agenteval.engine.sealing import key_file
from pytest_agenteval.environments.suites import shipped_suites
from pytest_agenteval.plugin.state import State

INI_HIDE = "agenteval_hide"


def add_hide_option(parser: pytest.Parser) -> None:
    parser.addini(INI_HIDE, type="linelist", default=[],
                  help="paths or glob patterns, relative to rootdir, hidden from isolated agents besides the "
                       "run's own files (e.g. scripts that generate task files); a glob's folder without "
                       "Python is hidden whole")


def hidden_paths(config: pytest.Config, state: State) -> list[str]:
    """What an isolated agent must not see: the task files (their folders, unless a folder holds
    the rootdir, where the agent's module is), the cache folder and the judge's verdict file
    (``--agenteval-judge-cache``: its reasons can name the expected answer) and the cache key, the
    results file and every report this run writes, the project's secrets, and what
    ``agenteval_hide`` lists."""
    root = config.rootpath.resolve()
    hidden = []
    if getattr(config, "cache", None) is not None:  # not with -p no:cacheprovider
        hidden.append(str(root / config.getini("cache_dir")))
    for name in state.task_files:
        path = (root / name).resolve()
        hidden.append(str(path))
        if path.parent != root and path.parent not in root.parents:
            hidden.append(str(path.parent))
    for option in ("agenteval_signing_key", *OUTPUTS, *OUTPUT_FOLDERS):
        if getattr(config.option, option, None):  # JUnit XML, pytest-json-report, allure: every check's detail
            hidden.append(str(Path(getattr(config.option, option)).resolve()))
    for pattern in config.getini(INI_HIDE):
        hidden += listed(root, pattern)
    hidden += [str(p.resolve()) for p in state.explicit]
    # Every installed environment's packaged suite: an installed package is shown to the agent
    # (it may import it), and its suites are the task files a run of the project's own copies grades.
    hidden += [str(f.resolve()) for files in shipped_suites().values() for f in files]
    with contextlib.suppress(RuntimeError, KeyError):  # no home folder: no key file
        hidden.append(str(key_file().resolve()))  # the cache's key, if AGENTEVAL_CACHE_KEY_FILE put it in view
    return hidden


# Files this run writes as it goes, by the option naming each: ours, JUnit XML, pytest-json-report,
# pytest-html (with ``generate_report_on_test`` it rewrites the report after every test).
OUTPUTS = ("agenteval_results", "agenteval_html", "agenteval_judge_cache", "xmlpath", "json_report_file", "htmlpath",
           "debug")  # pytest --debug's log: every fixture's arguments, the task's expected state among them
OUTPUT_FOLDERS = ("allure_report_dir",)  # allure-pytest writes a result per test as it ends
FLAGS = {"xmlpath": "--junitxml", "htmlpath": "--html", "allure_report_dir": "--alluredir"}  # the rest: --name-of-it


def reserve_outputs(config: pytest.Config) -> None:
    """Make each file (and folder) the run will write, empty, before any sandbox starts: a path
    that does not exist yet has nothing to hide, and a file made later in a folder the agent sees
    would be in view (a judge's verdict file, a report rewritten after each test). Each is then
    written in place, so what covers it stays over it."""
    for option in (*OUTPUTS, *OUTPUT_FOLDERS):
        given = getattr(config.option, option, None)
        if option == "json_report_file" and not getattr(config.option, "json_report", False):
            continue  # its default name is set whether or not --json-report asks for the report
        path = Path(given) if given else None
        if path is None or path.exists() or path.is_symlink():
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if option in OUTPUT_FOLDERS:
                path.mkdir(exist_ok=True)
            else:
                path.touch(exist_ok=True)
        except OSError as exc:  # (a bare "[Errno 2] … '/proc/self/x'" named no option: red team 44)
            flag = FLAGS.get(option, "--" + option.replace("_", "-"))
            raise pytest.UsageError(f"{flag}={given}: cannot write it: {exc.strerror or exc} (name a file in a "
                                    "folder you can write)") from None


def listed(root: Path, pattern: str) -> list[str]:
    """What one ``agenteval_hide`` entry hides: the path it names; for a glob, the folder before
    its first wildcard whole when that folder holds no Python (so a report written there during
    the run is hidden too: "reports/*.json"), else what the glob matches when the run starts."""
    parts = Path(pattern).parts
    wild = next((k for k, part in enumerate(parts) if any(c in part for c in "*?[")), None)
    if wild is None:
        return [str((root / pattern).resolve())]
    folder = (root / Path(*parts[:wild])).resolve() if wild else root.resolve()
    if folder != root.resolve() and folder.is_dir() and not any(folder.glob("*.py")):
        return [str(folder)]
    return [str(p.resolve()) for p in root.glob(pattern)]
