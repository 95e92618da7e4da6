"""What an isolated agent must not see, though it lies in what the sandbox shows it.

The sandbox shows the agent the project folder (its search path: the agent's module and what
it imports live there), read-only. Hidden inside it: the run's own files (task files, the cache
folder, results, reports, the signing key), whatever else in the project holds tasks or grades
(version control folders, other task and results files, earlier runs' reports), the task files
installed environments ship, and what the project lists in the ``agenteval_hide`` ini value.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_agenteval.engine.sealing import key_file
from pytest_agenteval.environments.suites import shipped_suites
from pytest_agenteval.plugin.sniffing import is_report
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
    return hidden + project_secrets(root)


# Files this run writes as it goes, by the option naming each: ours, JUnit XML, pytest-json-report,
# pytest-html (with ``generate_report_on_test`` it rewrites the report after every test).
OUTPUTS = ("agenteval_results", "agenteval_html", "agenteval_judge_cache", "xmlpath", "json_report_file", "htmlpath",
           "debug")  # pytest --debug's log: every fixture's arguments, the task's expected state among them
OUTPUT_FOLDERS = ("allure_report_dir",)  # allure-pytest writes a result per test as it ends


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
        path.parent.mkdir(parents=True, exist_ok=True)
        if option in OUTPUT_FOLDERS:
            path.mkdir(exist_ok=True)
        else:
            path.touch(exist_ok=True)


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


VCS_FOLDERS = (".git", ".hg", ".svn", ".jj", ".bzr")  # their objects hold every committed task file
SKIPPED = ("node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache", ".ruff_cache")
RESULTS_LIKE = (".jsonl", ".jsonl.gz", ".html")  # task files, results files (gzip too), earlier runs' HTML reports
MAX_FOLDERS = 20_000  # a walk of a huge project stops here (the rest is said in isolation.md)


def project_secrets(root: Path) -> list[str]:
    """What else in the project folder (the agent's search path, shown to it read-only) holds
    tasks or grades: version control folders (committed task files are in their objects), and
    every ``.jsonl``, ``.jsonl.gz`` and ``.html`` file (other task files, earlier runs' results and
    reports), and any other file but code and settings that begins as a results file, JUnit XML,
    pytest-json-report, an HTML page or a run's log does, or is compressed (each failed check's
    detail is in them, whatever they are named). A folder holding them and no Python is hidden
    whole; otherwise each such file is."""
    hidden: list[str] = []
    walked = 0
    for folder, dirs, files in os.walk(root):
        walked += 1
        if walked > MAX_FOLDERS:
            break
        for name in [d for d in dirs if d in VCS_FOLDERS]:
            hidden.append(os.path.join(folder, name))
        dirs[:] = [d for d in dirs if d not in VCS_FOLDERS and d not in SKIPPED
                   and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg"))]
        hidden += [os.path.join(folder, name) for name in files if name in VCS_FOLDERS]  # a worktree's .git file
        lines = [name for name in files if name.lower().endswith(RESULTS_LIKE) or _is_report(folder, name)]
        if not lines:
            continue
        if Path(folder) != root and len(lines) == len(files) and not dirs:
            hidden.append(folder)  # a folder of results alone: whole, so what is written there later is too
        else:
            hidden += [os.path.join(folder, name) for name in lines]
    return hidden




def on_the_search_path(shown: Iterable[str], system: Iterable[str]) -> list[str]:
    """What to hide in the other folders the sandbox shows, those on the child's ``sys.path``
    (PYTHONPATH, ``.pth`` files): walked like rootdir (``project_secrets``). A project whose
    evals have a ``pytest.ini`` of their own has rootdir there, and its agent found through
    PYTHONPATH showed the project's ``.git``, which holds every committed task file. The system's
    folders, the interpreter's prefixes and this package are not walked (installed code)."""
    package = str(Path(__file__).resolve().parent.parent)
    skipped = [os.path.realpath(p) for p in (*system, sys.prefix, sys.base_prefix, sys.exec_prefix, package)]
    hidden: list[str] = []
    for path in shown:
        real = os.path.realpath(path)
        if os.path.isdir(real) and not any(real == s or real.startswith(s.rstrip("/") + "/") for s in skipped):
            hidden += project_secrets(Path(path))
    return hidden


def _is_report(folder: str, name: str) -> bool:
    return is_report(os.path.join(folder, name))
