"""Red team 43, against the copy of the code after red team 42's fixes (8 of 13 broke): a listed
"prompt" outside the project linked to the run's task file (full marks), the compiled form of a
task generator ``agenteval_hide`` left out (full marks), a listed folder outside the project
shown empty, no hint for a relative path, a ``noexec`` temp folder, a full one cutting files
short in silence, a walk stopping at 20,000 folders in silence."""

from __future__ import annotations

import errno
import os
import py_compile
import shutil
from pathlib import Path

import pytest

from pytest_agenteval.plugin import view


def test_a_listed_link_outside_the_project_is_not_mounted(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "t.jsonl").write_text('{"task_id": "EX-1"}\n')
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "system.md").write_text("Be careful.\n")
    (tmp_path / "prompts" / "examples.md").symlink_to(tmp_path / "proj" / "t.jsonl")
    _, large = view.build([str(tmp_path / "proj")], tmp_path / "proj", [str(tmp_path / "prompts" / "*.md")],
                          [str(tmp_path / "proj" / "t.jsonl")])
    assert large == [str(tmp_path / "prompts" / "system.md")]  # (a mount follows a link: never one)


def test_a_listed_folder_outside_the_project_is_shown_with_its_files(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "shared" / "prompts").mkdir(parents=True)
    (tmp_path / "shared" / "prompts" / "system.md").write_text("Be careful.\n")
    views, large = view.build([str(tmp_path / "proj")], tmp_path / "proj", [str(tmp_path / "shared" / "prompts")], [])
    shown = dict(views)[str(tmp_path / "shared" / "prompts")]  # (copied whole, one mount: red team 44)
    assert os.listdir(shown) == ["system.md"] and large == []


def test_a_compiled_module_is_copied_only_beside_its_source(tmp_path: Path) -> None:
    for name in ("agent.py", "gen_tasks.py", "gone.py"):
        (tmp_path / name).write_text(f"ANSWER = {name!r}\n")
        py_compile.compile(str(tmp_path / name), doraise=True)
    (tmp_path / "gone.py").unlink()  # its .pyc alone is left
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, [], [str(tmp_path / "gen_tasks.py")])
    cached = sorted(name.split(".")[0] for name in os.listdir(os.path.join(copy, "__pycache__")))
    assert cached == ["agent"]  # not the hidden generator's, nor one whose source is gone


def test_a_copy_that_cannot_be_written_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "agent.py").write_text("class Agent: ...\n")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    with pytest.raises(view.CopyError, match="could not be written in .*No space left on device.*set TMPDIR"):
        view.build([str(tmp_path)], tmp_path, [], [])


def test_a_walk_past_its_bound_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view, "MAX_FOLDERS", 2)
    for k in range(3):
        (tmp_path / f"data{k}").mkdir()
    with pytest.raises(view.CopyError, match="holds more than 2 folders"):
        view.build([str(tmp_path)], tmp_path, [], [])
