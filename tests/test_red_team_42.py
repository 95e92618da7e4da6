"""Red team 42, against the copy of the code after red team 41's fixes (11 of 14 broke): a listed
link whose target, an old run log, was copied; 256 sparse files just under the size limit
copied; an absolute show entry ignored; read-only folders refusing the copy; ``libz.so.1`` not
code; the copy's top folder opened to the sandbox's user; ``.pyc`` files made stale; a project
reached through a linked folder shown whole (fixed before it reported: test_red_team_41)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pytest_agenteval.plugin import view


def test_a_listed_link_is_copied_as_a_link_not_as_what_it_leads_to(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "old_run.log").write_text("===== test session starts =====\n")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "examples.md").symlink_to("../logs/old_run.log")
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, ["prompts/*.md"], [])
    assert os.path.islink(os.path.join(copy, "prompts", "examples.md"))
    assert not os.path.exists(os.path.join(copy, "logs"))  # it leads nowhere in the sandbox


def test_past_the_copy_budget_files_are_mounted_as_they_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view, "COPIED", 10)
    for k in range(3):
        (tmp_path / f"ext{k}.so").write_bytes(b"x" * 6)
    _, large = view.build([str(tmp_path)], tmp_path, [], [])
    assert len(large) == 2  # the first fits the budget; the rest are not copied


def test_an_absolute_show_entry_outside_the_project_is_mounted_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "prompt.md").write_text("Be careful.\n")
    _, large = view.build([str(tmp_path / "proj")], tmp_path / "proj", [str(tmp_path / "shared" / "prompt.md")], [])
    assert large == [str(tmp_path / "shared" / "prompt.md")]


def test_folders_keep_their_modes_the_top_one_too_and_read_only_ones_take_their_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "agent.py").write_text("")
    os.chmod(tmp_path / "pkg", 0o555)
    os.chmod(tmp_path, 0o700)
    try:
        ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, [], [])
        assert os.path.isfile(os.path.join(copy, "pkg", "agent.py"))
        assert stat.S_IMODE(os.stat(os.path.join(copy, "pkg")).st_mode) & 0o555 == 0o555
        assert stat.S_IMODE(os.stat(copy).st_mode) & 0o077 == 0  # (red team 42: the top was made 0755)
    finally:
        os.chmod(tmp_path / "pkg", 0o755)
        os.chmod(tmp_path, 0o755)


def test_a_versioned_shared_library_is_code_and_times_are_kept(tmp_path: Path) -> None:
    (tmp_path / "libz.so.1").write_bytes(b"\x7fELF")
    (tmp_path / "mod.py").write_text("")
    os.utime(tmp_path / "mod.py", ns=(1_000_000_000, 1_000_000_000))
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, [], [])
    assert sorted(os.listdir(copy)) == ["libz.so.1", "mod.py"]
    assert os.stat(os.path.join(copy, "mod.py")).st_mtime_ns == 1_000_000_000  # (its .pyc stays fresh)


def test_a_copy_left_by_a_killed_run_is_taken_away_by_the_next(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(view.tempfile, "tempdir", str(tmp_path))
    left = tmp_path / "agenteval-view-999999999-abc"  # (no such process)
    left.mkdir()
    mine = tmp_path / f"agenteval-view-{os.getpid()}-def"
    mine.mkdir()
    (tmp_path / "proj").mkdir()
    view.build([str(tmp_path / "proj")], tmp_path, [], [])
    assert not left.exists() and mine.exists()
