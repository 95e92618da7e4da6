"""Fixtures every test module may use (helpers that are not fixtures: ``tests.helpers``)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from pytest_agenteval.domains.example import ExampleEnvironment


@pytest.fixture(autouse=True)
def _sandbox_can_read_the_project(request: pytest.FixtureRequest) -> None:
    """As root, a bwrap sandbox runs as nobody and reads the project folder as others do; pytest
    makes its temporary folders 0700 (a real project folder is usually 0755)."""
    if os.geteuid() == 0 and "pytester" in request.fixturenames:
        os.chmod(request.getfixturevalue("pytester").path, 0o755)


@pytest.fixture
def example_env() -> Iterator[ExampleEnvironment]:
    with ExampleEnvironment() as env:
        yield env


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port that refuses connections for the whole test: bound, never listening (a port only
    found free could be taken by another test's server under xdist)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])
