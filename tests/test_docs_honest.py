"""The docs keep up with the code: every option and subcommand is documented, every import path
the docs name imports, and the package docstring's example runs."""

from __future__ import annotations

import argparse
import doctest
import importlib
import re
from pathlib import Path

import pytest

import pytest_agenteval
from pytest_agenteval import cli

ROOT = Path(__file__).resolve().parent.parent


def _docs_text() -> str:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in pages)


def _plugin_options() -> set[str]:
    """Every option the plugin registers, read from its ``addoption`` calls."""
    found: set[str] = set()
    for source in (ROOT / "pytest_agenteval" / "plugin").rglob("*.py"):
        for call in re.findall(r"addoption\(\s*((?:\"--[\w-]+\"\s*,?\s*)+)", source.read_text(encoding="utf-8")):
            found.update(re.findall(r"--[\w-]+", call))
    return found


def _subcommands() -> dict[str, set[str]]:
    """``agenteval``'s subcommands and each one's options, from the parser ``main`` builds."""
    built: dict[str, argparse.ArgumentParser] = {}

    class Stop(Exception):
        pass

    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> object:
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                built.update(action.choices)
        raise Stop

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(argparse.ArgumentParser, "parse_args", capture)
        with pytest.raises(Stop):
            cli.main(["validate"])
    return {name: {o for a in p._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
            for name, p in built.items()}


def test_every_plugin_option_is_documented() -> None:
    options = _plugin_options()
    assert {"--agent", "--runs", "--agenteval-results"} <= options  # the reader finds them
    text = _docs_text()
    assert not sorted(o for o in options if o not in text), "options no page of the docs names"


def test_every_subcommand_and_its_options_are_in_the_command_reference() -> None:
    """docs/cli.md's table: a row per subcommand, naming each of its options."""
    commands = _subcommands()
    assert {"validate", "replay", "report", "compare"} <= commands.keys()
    rows = {m[0]: m[1] for m in re.findall(r"^\| `agenteval ([\w-]+)[^`]*` \|(.*)$",
                                           (ROOT / "docs" / "cli.md").read_text(encoding="utf-8"), re.M)}
    missing = [f"agenteval {c}" for c in commands if c not in rows]
    missing += [f"agenteval {c} {o}" for c, opts in commands.items() for o in sorted(opts)
                if c in rows and f"`{o}" not in rows[c]]
    assert not missing, "subcommands or options docs/cli.md's table lacks"


_IMPORT = re.compile(r"from (pytest_agenteval(?:\.\w+)*) import (\([\w,\s]+\)|[\w, ]+)")


def test_every_import_the_docs_show_imports() -> None:
    broken = []
    for module, names in set(_IMPORT.findall(_docs_text())):
        try:
            loaded = importlib.import_module(module)
        except ImportError as exc:
            broken.append(f"{module}: {exc}")
            continue
        names = re.sub(r"\s+as\s+\w+", "", names)  # "import X as Y" names X
        broken += [f"{module}.{n}" for n in re.findall(r"\w+", names) if not hasattr(loaded, n)]
    assert not broken


def test_the_package_docstring_example_runs() -> None:
    result = doctest.testmod(pytest_agenteval, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


# A path that stands for the reader's own file, not one of ours.
_PLACEHOLDERS = ("mod/", "pkg/", "refunds_env/", "tasks/conftest.py", "tests/test_refunds_env.py")
_PATH = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w-]+\.(?:py|md))")


def test_every_file_the_code_and_docs_name_exists() -> None:
    """``environments/discovery.py``, ``docs/judge.md``: a path named in a docstring, a comment or a
    page exists (from the root, the package, docs/ or the naming file's folder)."""
    package = ROOT / "pytest_agenteval"
    missing = []
    for source in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(package.rglob("*.py"))]:
        for path in set(_PATH.findall(source.read_text(encoding="utf-8"))):
            bases = (ROOT, package, ROOT / "docs", source.parent, ROOT / "tests")
            if not path.startswith(_PLACEHOLDERS) and not any((base / path).exists() for base in bases):
                missing.append(f"{source.relative_to(ROOT)}: {path}")
    assert not missing


def test_every_name_the_glossary_gives_resolves() -> None:
    """The glossary's ``module.Name`` references (``agents.saboteurs.Call``) name real objects."""
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    names = [n.removeprefix("pytest_agenteval.") for n in re.findall(r"`((?:[a-z_]+\.)+[A-Za-z_]\w*)`", text)]
    tops = {p.stem for p in (ROOT / "pytest_agenteval").iterdir() if p.suffix == ".py" or p.is_dir()}
    names = [n for n in names if n.split(".")[0] in tops]  # not a variable's method (episode.call)
    assert len(names) >= 5
    broken = []
    for name in names:
        module, _, attribute = f"pytest_agenteval.{name}".rpartition(".")
        try:
            if not hasattr(importlib.import_module(module), attribute):
                broken.append(name)
        except ImportError:
            broken.append(name)
    assert not broken


def test_every_page_is_in_the_site_nav() -> None:
    nav = set(re.findall(r":\s*([\w-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M))
    assert sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name not in nav) == []
