"""The public API is what docs/api.md lists; the shipped domains, the examples, the scaffold and
the docs' code import nothing else of the package."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_agenteval"
_ROW = re.compile(r"^\| `(pytest_agenteval[\w.]*)` \|[^|]*\| (.*) \|$", re.M)
_IMPORT = re.compile(r"^\s*from (pytest_agenteval(?:\.\w+)*) import (\([\w,\s]+\)|[\w, ]+)", re.M)


def public() -> dict[str, set[str]]:
    """docs/api.md's table: each public module and the names it lists."""
    rows = _ROW.findall((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    return {module: set(re.findall(r"`(\w+)`", names)) for module, names in rows}


def test_the_table_is_each_modules_all() -> None:
    table = public()
    assert len(table) >= 10
    differ = {m: sorted(names ^ set(importlib.import_module(m).__all__)) for m, names in table.items()}
    assert {m: d for m, d in differ.items() if d} == {}


def _own_package(path: Path) -> str:
    """A shipped domain may import its own modules: ``pytest_agenteval.domains.booking``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:3]) if parts[1:2] == ("domains",) and len(parts) > 3 else ".".join(parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":  # docs and templates: read as text
        return [(m, re.findall(r"\w+", re.sub(r"\s+as\s+\w+", "", names))) for m, names in _IMPORT.findall(text)]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pytest_agenteval"):
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.startswith("pytest_agenteval")]
    return found


def _users() -> list[Path]:
    return [*sorted((PACKAGE / "domains").rglob("*.py")), *sorted((PACKAGE / "examples").rglob("*.py")),
            *sorted((PACKAGE / "scaffold" / "templates").glob("*.tmpl")), ROOT / "README.md",
            *sorted((ROOT / "docs").glob("*.md"))]


def test_domains_examples_scaffold_and_docs_import_only_the_public_api() -> None:
    table = public()
    outside = []
    for path in _users():
        own = _own_package(path)
        for module, names in _imports(path):
            if module == own or module.startswith(own + "."):
                continue
            if module not in table:
                outside.append(f"{path.relative_to(ROOT)}: {module}")
            outside += [f"{path.relative_to(ROOT)}: {module}.{n}" for n in names if n not in table[module]]
    assert outside == []


def test_an_internal_import_is_caught(tmp_path: Path) -> None:
    """The check above can fail: an internal path and a name outside ``__all__`` are both seen."""
    sample = tmp_path / "x.md"
    sample.write_text("```python\nfrom pytest_agenteval.engine.world import World\n"
                      "from pytest_agenteval.text import GENERIC_THINGS\n```\n", encoding="utf-8")
    table = public()
    seen = [(m, n) for m, names in _imports(sample) for n in names if m not in table or n not in table[m]]
    assert seen == [("pytest_agenteval.engine.world", "World"), ("pytest_agenteval.text", "GENERIC_THINGS")]
