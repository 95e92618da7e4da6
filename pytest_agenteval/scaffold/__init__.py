"""``agenteval new-environment NAME``: a small, complete, green environment package.

It writes the documented file set (docs/environments.md) into the current folder: a package
``NAME_env`` (schema, rules, environment, rubric, saboteurs, registration), a task file, a
test, and a ``pyproject.toml`` naming the package under ``[tool.agenteval] environments`` so
pytest and the ``agenteval`` command find it from that folder with no path set.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from string import Template

from pytest_agenteval.patterns import lazy

NAME_RE = lazy(r"^[a-z][a-z0-9_]{0,39}$")
# Template file -> where it goes ($pkg is the package folder, $name the environment name).
LAYOUT = {
    "init.py.tmpl": "$pkg/__init__.py",
    "schema.py.tmpl": "$pkg/schema.py",
    "rules.py.tmpl": "$pkg/rules.py",
    "environment.py.tmpl": "$pkg/environment.py",
    "rubric.py.tmpl": "$pkg/rubric.py",
    "saboteurs.py.tmpl": "$pkg/saboteurs.py",
    "tasks.jsonl.tmpl": "tasks/$name.jsonl",
    "test_env.py.tmpl": "tests/test_$pkg.py",
    "pyproject.toml.tmpl": "pyproject.toml",
}
# With ``--conversational``: tasks where a scripted customer names the order only when asked and
# must agree to the amount (docs/conversations.md).
CONVERSATIONAL = {"tasks_chat.jsonl.tmpl": "tasks/${name}_chat.jsonl"}


class ScaffoldError(ValueError):
    """The name or the target folder cannot take a new environment (one line, with the fix)."""


def new_environment(name: str, target: Path, *, conversational: bool = False) -> list[Path]:
    """Write the files for environment ``name`` under ``target`` (and, with ``conversational``,
    a task file of conversations with a scripted customer); return them. Nothing is overwritten:
    an existing file stops it before anything is written."""
    if not NAME_RE.match(name):
        raise ScaffoldError(f"{name!r} is not a usable environment name (use lowercase letters, digits and "
                            "underscores, starting with a letter)")
    values = {"name": name, "pkg": f"{name}_env", "cls": "".join(p.title() for p in name.split("_")) + "Environment",
              "prefix": name[:3].upper()}
    layout = {**LAYOUT, **(CONVERSATIONAL if conversational else {})}
    plan = {Template(dest).substitute(values): src for src, dest in layout.items()}
    pyproject = target / "pyproject.toml"
    if pyproject.exists():
        del plan["pyproject.toml"]
    taken = [dest for dest in plan if (target / dest).exists()]
    if taken:
        raise ScaffoldError(f"{target / taken[0]} already exists (run it in an empty folder, or pick another name)")
    templates = files(__package__) / "templates"
    written = []
    for dest, src in plan.items():
        path = target / dest
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(templates.joinpath(src).read_text(encoding="utf-8")).substitute(values),
                        encoding="utf-8")
        written.append(path)
    return written
