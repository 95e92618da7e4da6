"""Names a task's markers may not take: markers that already mean something to pytest or a plugin.

A task's failure-mode tags, its environment's name and its split become pytest markers. A tag
named ``skip`` would skip the task, ``xfail`` would turn a failing agent into "xpassed",
``usefixtures`` would break collection and ``timeout`` would hand the task to pytest-timeout.
So a name is refused when it is a marker pytest itself defines, one a well-known plugin defines
(even when that plugin is not installed here: a task file must not be valid on one machine and
break on the next), or — under pytest — any marker registered in the running configuration.
No pytest import: ``agenteval validate`` applies the first two lists without pytest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

BUILTIN = "built into pytest"
CONFIGURED = "registered by a plugin, conftest.py or the ini file"

BUILTIN_MARKS = ("filterwarnings", "parametrize", "skip", "skipif", "tryfirst", "trylast", "usefixtures", "xfail")

# Markers of widely used plugins, and which plugin gives each its meaning.
PLUGIN_MARKS = {
    "anyio": "anyio",
    "asyncio": "pytest-asyncio",
    "benchmark": "pytest-benchmark",
    "dependency": "pytest-dependency",
    "django_db": "pytest-django",
    "flaky": "flaky and pytest-rerunfailures",
    "forked": "pytest-forked",
    "httpx_mock": "pytest_httpx",
    "no_cover": "pytest-cov",
    "order": "pytest-order",
    "repeat": "pytest-repeat",
    "run": "pytest-ordering",
    "timeout": "pytest-timeout",
    "trio": "pytest-trio",
    "vcr": "pytest-recording",
    "xdist_group": "pytest-xdist",
}


def reserved_marks(configured: Iterable[str] = ()) -> dict[str, str]:
    """Marker name -> what gives it a meaning: pytest, well-known plugins, then ``configured``."""
    found = dict.fromkeys(configured, CONFIGURED)
    found.update(PLUGIN_MARKS)
    found.update(dict.fromkeys(BUILTIN_MARKS, BUILTIN))
    return found


def marker_names(lines: Iterable[str]) -> list[str]:
    """The names in pytest ``markers`` ini lines (``name(args): description``), as pytest reads them."""
    return [line.split(":", 1)[0].split("(", 1)[0].strip() for line in lines]


def clash(name: str, reserved: Mapping[str, str]) -> str | None:
    """Why ``name`` cannot be one of our markers, or None when it can."""
    origin = reserved.get(name)
    if origin is None:
        return None
    return f"{name!r} is already a pytest marker ({'used by ' if origin in PLUGIN_MARKS.values() else ''}{origin})"
