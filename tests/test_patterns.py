"""Patterns compiled on first use (pytest_agenteval/patterns.py): the same answers as re.compile's,
and no module of the package compiles a pattern at import."""

from __future__ import annotations

import ast
import copy
import pickle
import re
from pathlib import Path

import pytest

from pytest_agenteval.patterns import lazy

PACKAGE = Path(__file__).parent.parent / "pytest_agenteval"


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source, flags = r"(?P<word>\b[a-z]+)\s+(\d+)", re.IGNORECASE
    eager, later = re.compile(source, flags), lazy(source, flags)
    text = "Claim 42 and Facility 7, not 8x"
    assert later.pattern == source
    assert [m.span() for m in later.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert later.search(text, 10).group("word") == eager.search(text, 10).group("word")  # type: ignore[union-attr]
    assert later.match(text) is not None and later.fullmatch("a 1") is not None
    assert later.findall(text) == eager.findall(text)
    assert later.sub(r"\2", text) == eager.sub(r"\2", text)
    assert later.subn("x", text) == eager.subn("x", text)
    assert later.split(text) == eager.split(text)
    assert (later.flags, later.groups, later.groupindex) == (eager.flags, eager.groups, eager.groupindex)


def test_it_compiles_once_on_first_use_then_calls_the_compiled_methods() -> None:
    later = lazy(r"ab+c")
    assert "search" not in vars(later)  # nothing compiled yet
    assert later.search("xabbc") is not None
    bound = vars(later)["search"]
    assert getattr(bound, "__self__", None).__class__ is re.Pattern  # the compiled pattern's own method
    assert later.search is bound  # no second compile, no Python frame in between


def test_it_copies_pickles_and_refuses_what_a_pattern_has_not() -> None:
    later = lazy(r"a(b)", re.IGNORECASE)
    assert copy.copy(later) is later and copy.deepcopy({"p": later})["p"] is later
    back = pickle.loads(pickle.dumps(later))
    assert isinstance(back, re.Pattern) and back.pattern == "a(b)" and back.flags & re.IGNORECASE
    assert repr(later) == "re.compile('a(b)', re.IGNORECASE)"
    with pytest.raises(AttributeError):
        _ = later.no_such_thing  # type: ignore[attr-defined]


def test_a_bad_pattern_fails_when_first_used() -> None:
    later = lazy(r"(unclosed")
    with pytest.raises(re.error):
        later.search("x")


def test_no_module_compiles_a_text_pattern_at_import() -> None:
    """A module-level ``re.compile`` of a str pattern costs every process's start-up (each xdist
    worker's before its first episode): the package's use ``lazy`` instead."""
    eager = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "patterns.py":
            continue
        tree = ast.parse(path.read_text())
        in_function: set[ast.AST] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                in_function.update(ast.walk(node))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and node not in in_function and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "compile" and getattr(node.func.value, "id", "") == "re"
                    and not (node.args and isinstance(node.args[0], ast.Constant)
                             and isinstance(node.args[0].value, bytes))):
                eager.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert eager == []


def test_no_module_tells_a_match_by_its_pattern_object() -> None:
    """A match's ``.re`` is the compiled pattern, never the stand-in a module holds: ``m.re is
    PATTERN`` would be false for every match (a checklist's "not yet" was read as done that way)."""
    later = lazy(r"x")
    assert later.search("x").re is not later  # type: ignore[union-attr]
    found = [f"{path.relative_to(PACKAGE.parent)}:{n}" for path in sorted(PACKAGE.rglob("*.py")) if path.name != "patterns.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\.re\s+(?:is|==|!=)\s", line)]
    assert found == []
