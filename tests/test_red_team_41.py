"""Red team 41, against the copy of the project's code the sandbox shows (9 of 14 broke): a glob
in ``agenteval_show`` crossing folders (an old log shown), a src layout losing its listed prompt,
a 0700 folder opened to the sandbox's user, an 8 GiB sparse file copied, the harness's own
checkout on PYTHONPATH showing its task generators, tox's logs inside the project's virtualenv,
a dependency folder's data files unshowable, a symlinked folder on PYTHONPATH refusing the run."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from pytest_agenteval.plugin import isolating, view
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import task_line


def test_a_star_in_the_show_list_stays_within_its_folder(tmp_path: Path) -> None:
    (tmp_path / "system_prompt.txt").write_text("You are a claims handler.\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "nightly.txt").write_text("===== test session starts =====\n")
    assert view.in_view(tmp_path, shown=["*.txt"]) == ["system_prompt.txt"]
    assert view.in_view(tmp_path, shown=["**/*.txt"]) == ["logs/nightly.txt", "system_prompt.txt"]


def test_what_the_ini_lists_is_in_every_folders_copy(tmp_path: Path) -> None:
    (tmp_path / "src" / "agent" / "prompts").mkdir(parents=True)
    (tmp_path / "src" / "agent" / "__init__.py").write_text("")
    (tmp_path / "src" / "agent" / "prompts" / "system.md").write_text("Be careful.\n")
    views, _ = view.build([str(tmp_path), str(tmp_path / "src")], tmp_path, ["src/agent/prompts/*.md"], [])
    src_copy = dict(views)[os.path.realpath(tmp_path / "src")]
    assert os.path.isfile(os.path.join(src_copy, "agent", "prompts", "system.md"))  # (mounted over the root's copy)


def test_a_closed_folder_stays_closed_in_the_copy(tmp_path: Path) -> None:
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "golden.py").write_text("ANSWERS = {}\n")
    os.chmod(tmp_path / "private", 0o700)
    ((_, copy),), _ = view.build([str(tmp_path)], tmp_path, [], [])
    assert os.stat(os.path.join(copy, "private")).st_mode & 0o777 == 0o700


def test_a_file_too_large_to_copy_is_mounted_as_it_is(tmp_path: Path) -> None:
    with open(tmp_path / "native.so", "wb") as out:
        out.truncate(view.LARGE + 1)  # sparse: nothing is written, and nothing is copied
    ((_, copy),), large = view.build([str(tmp_path)], tmp_path, [], [])
    assert large == [os.path.realpath(tmp_path / "native.so")]
    assert os.path.getsize(os.path.join(copy, "native.so")) == 0  # its mount point


def test_a_symlinked_folder_is_viewed_where_it_leads(tmp_path: Path) -> None:
    (tmp_path / "deps").mkdir()
    (tmp_path / "deps" / "helper.py").write_text("")
    (tmp_path / "deps_link").symlink_to(tmp_path / "deps")
    views, _ = view.build([str(tmp_path / "deps_link")], tmp_path, [], [])
    assert [folder for folder, _ in views] == [os.path.realpath(tmp_path / "deps")]


def test_the_harness_checkout_on_the_search_path_shows_only_the_package(tmp_path: Path) -> None:
    package = Path(isolating.__file__).resolve().parent.parent
    left_out = isolating._beside_the_harness([str(package.parent)], tmp_path)
    assert str(package) not in left_out and str(package.parent / "scripts") in left_out
    assert isolating._beside_the_harness([str(package.parent)], package.parent) == []  # the project itself


def test_a_folder_packages_were_installed_into_is_shown_as_site_packages_is(tmp_path: Path) -> None:
    (tmp_path / "certifi").mkdir()
    (tmp_path / "certifi-2024.2.2.dist-info").mkdir()
    assert isolating._installed(str(tmp_path))
    assert not isolating._installed(str(tmp_path / "certifi"))


def test_tox_logs_in_a_virtualenv_inside_the_project_are_hidden(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = tmp_path / ".tox" / "py311"
    prefix.mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(prefix))
    assert str(prefix / "log") in isolating._tox_logs(tmp_path)


PEEKS = '''
import os

class Agent:
    def run(self, episode):
        seen = sorted(os.listdir(os.path.dirname(os.path.abspath(__file__))))
        raise RuntimeError(f"seen: {seen}")
'''


@needs_bwrap
def test_a_project_reached_through_a_linked_folder_is_still_only_its_code(pytester: pytest.Pytester) -> None:
    real = pytester.path / "real"
    (real / "proj").mkdir(parents=True)
    (real / "proj" / "peeks.py").write_text(PEEKS)
    (real / "proj" / "run.log").write_text("===== test session starts =====\n")
    (real / "proj" / "t.jsonl").write_text(task_line() + "\n")
    (pytester.path / "alias").symlink_to(real)  # a symlinked home or workspace: rootdir given through it
    project = pytester.path / "alias" / "proj"
    result = pytester.runpytest("--agent=peeks:Agent", "--agenteval-isolate", f"--rootdir={project}",
                                "-p", "no:cacheprovider", str(project / "t.jsonl"))
    result.stdout.fnmatch_lines(["*seen: [[]'peeks.py'[]]*"])
