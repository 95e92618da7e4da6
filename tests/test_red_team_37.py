"""Red team 37: special files in the project folder and on the command line. A FIFO anywhere in
the project hung every isolated run at start-up (the hiding walk opened it to see what it holds);
a device as the signing key read on until the memory was gone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_agenteval.plugin.hiding import _is_report


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_project_is_hidden_without_being_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "notes.txt")  # no writer: opening it for reading would wait for ever
    assert _is_report(str(tmp_path), "notes.txt")


def test_a_regular_file_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("my own notes\n")
    assert not _is_report(str(tmp_path), "notes.txt")


@pytest.mark.parametrize("spec", ["memory=9000000T", "file_size=17000000T"])
def test_a_limit_past_what_the_system_can_set_is_refused(spec: str) -> None:
    from pytest_agenteval.agents.limits import Limits, LimitsError
    with pytest.raises(LimitsError, match="more than the system can set"):
        Limits.parse(spec)


def test_a_device_as_the_signing_key_is_refused_in_one_line() -> None:
    from pytest_agenteval.report.signing import SigningKeyError, load_key
    with pytest.raises(SigningKeyError, match="not a regular file"):
        load_key("/dev/zero", option="--agenteval-signing-key")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_the_signing_key_is_refused(tmp_path: Path) -> None:
    from pytest_agenteval.report.signing import SigningKeyError, load_key
    os.mkfifo(tmp_path / "key")
    with pytest.raises(SigningKeyError, match="not a regular file"):
        load_key(tmp_path / "key", option="--agenteval-signing-key")
