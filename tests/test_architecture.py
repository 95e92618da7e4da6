"""Dependencies point one way: the package's import graph is a DAG, layer by layer.

Every import counts — at module level, inside functions, and under ``if TYPE_CHECKING:`` —
because an upward import hidden in a function is still an upward dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGE = "pytest_agenteval"
ROOT = Path(__file__).parent.parent / PACKAGE

# Bottom to top. A module may import from its own layer (without a cycle) and from layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "pyproject", "readback", "printable", "patterns"),  # printable: agent text made safe to print; readback: results files read within bounds; patterns: regexes compiled on first use (stdlib only)
    ("text",),           # what free text asserts: pure reading, no world
    ("tasks",),          # the task format: a line's model, its paths, its marker names
    ("engine",),         # the world: seeded SQLite, audited actions, diffs
    ("grading",),        # the judge: a grade as a function of the world, rubric and agent failure
    ("environments",),   # Environment = world + rubric; the registry; project discovery
    ("taskfiles",),      # task files read and checked against their environments
    ("agents",),         # episodes, built-in agents, isolation, tool export
    ("adapters", "domains", "report", "replay", "validate", "scaffold", "examples"),
    ("plugin", "cli"),   # pytest's side, and the command line
    ("",),               # the package itself: the public API
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str, modules: Iterable[str] | None = None) -> set[str]:
    """Every module of the package that ``path`` imports, anywhere in the file.

    ``from pkg import mod`` imports ``pkg.mod`` (and ``pkg`` only as every import runs its
    parents first); ``from pkg import Name`` imports ``pkg``. ``modules``: the package's
    modules, to tell the two apart (without it, both are listed).
    """
    known = set(modules) if modules is not None else None
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = {f"{base}.{a.name}" for a in node.names}
            if known is not None:
                submodules &= known
            found.update(submodules)
            if known is None or len(submodules) < len(node.names):
                found.add(base)
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


def package_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    return {name: {m for m in imports_of(path, name, modules) if m in modules and m != name}
            for name, path in modules.items()}


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def layer_of(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    raise AssertionError(f"{module} is in no layer: add {top!r} to LAYERS in {__file__}")


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    return sorted(f"{a} imports {b}" for a, bs in graph.items() for b in bs if layer_of(b) > layer_of(a))


def test_the_import_graph_has_no_cycle() -> None:
    cycle = find_cycle(package_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert upward_imports(package_graph()) == []


def test_every_module_is_in_a_layer() -> None:
    for module in package_graph():
        layer_of(module)


def test_the_engine_knows_nothing_of_grading() -> None:
    graph = package_graph()
    engine = [m for m in graph if m.startswith(f"{PACKAGE}.engine")]
    assert engine and all(not b.startswith((f"{PACKAGE}.grading", f"{PACKAGE}.environments"))
                          for m in engine for b in graph[m])


# The checks above can fail: they are tried on graphs and sources that break the rules.

def test_a_cycle_is_found_and_shown() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_an_upward_import_is_named() -> None:
    graph = {f"{PACKAGE}.engine.world": {f"{PACKAGE}.grading.grader"}, f"{PACKAGE}.grading.grader": set()}
    assert upward_imports(graph) == [f"{PACKAGE}.engine.world imports {PACKAGE}.grading.grader"]


def test_imports_inside_functions_and_type_checking_count(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pytest_agenteval.grading.grade import Grade\n"
        "def late():\n    from pytest_agenteval.grading import grader\n    import pytest_agenteval.agents.episode\n"
        "from . import audit\n",
    )
    found = imports_of(source, f"{PACKAGE}.engine.mod")
    assert {f"{PACKAGE}.grading.grade", f"{PACKAGE}.grading.grader", f"{PACKAGE}.agents.episode",
            f"{PACKAGE}.engine.audit"} <= found


def test_an_action_keeps_its_signature_for_type_checkers(tmp_path: Path) -> None:
    """``@action`` and ``@action(writes=False)`` return the method itself, typed as it was."""
    from mypy import api

    source = tmp_path / "typed_env.py"
    source.write_text(
        "from typing import assert_type\n"
        "from pytest_agenteval import Environment, action\n"
        "class Env(Environment):\n"
        "    @action\n"
        "    def close_ticket(self, ticket_id: str) -> dict[str, str]:\n        return {}\n"
        "    @action(writes=False)\n"
        "    def count(self, limit: int = 3) -> int:\n        return limit\n"
        "def use(env: Env) -> None:\n"
        "    assert_type(env.close_ticket('T-1'), dict[str, str])\n"
        "    assert_type(env.count(limit=2), int)\n"
        "    env.count('three')  # the one error expected\n",
    )
    out, _, status = api.run(["--strict", "--no-incremental", "--follow-imports=silent",
                              "--python-version", "3.11", str(source)])
    assert status == 1 and out.count("error:") == 1 and 'incompatible type "str"' in out, out
