"""Red team 44 (8 of 13 broke): the view's walk quadratic in folders x listed paths; a listed
folder outside the project overflowing the sandbox's command line (a mount per file); a hidden
task generator's compiled extension copied (full marks); copies left in the fallback temp folder;
a FIFO or a link to /dev/zero in the scenario cache hanging the run; an honest agent's
multiprocessing failing on a read-only /dev/shm; a wildcard outside the project going through a
linked folder to an old copy of the task file (full marks); a hint to show the run's own task
file; an output path that cannot be made named no option."""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path

import pytest

from pytest_agenteval.domains.example import ExampleEnvironment
from pytest_agenteval.engine.sealing import KEY_FILE_ENV, CacheWarning
from pytest_agenteval.plugin import view
from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.tasks import result_lines, task_line


def test_a_hidden_generators_compiled_extension_is_left_out(tmp_path: Path) -> None:
    for name in ("gen_tasks.py", "gen_tasks.cpython-311-x86_64-linux-gnu.so", "fast.cpython-311-x86_64-linux-gnu.so",
                 "agent.py"):
        (tmp_path / name).write_text("TASK = 'the task line'\n")
    assert view.in_view(tmp_path, [], [str(tmp_path / "gen_tasks.py")]) == [
        "agent.py", "fast.cpython-311-x86_64-linux-gnu.so"]  # (an extension with no hidden source is code)


def test_a_wildcard_does_not_go_through_a_linked_folder(tmp_path: Path) -> None:
    (tmp_path / "acme" / "prompts").mkdir(parents=True)
    (tmp_path / "acme" / "prompts" / "sys.md").write_text("Be careful.\n")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "escalation-backup.jsonl").write_text('{"task_id": "EX-1"}\n')
    (tmp_path / "acme" / "shared").symlink_to(tmp_path / "old")
    (tmp_path / "proj").mkdir()
    listed = view.expand(tmp_path / "proj", ["../acme/**", "../acme/shared/*"])
    assert str(tmp_path / "acme" / "prompts" / "sys.md") in listed
    assert not any("backup" in path for path in listed)
    named = view.expand(tmp_path / "proj", ["../acme/shared/escalation-backup.jsonl"])  # named: as written
    assert named == {str(tmp_path / "acme" / "shared" / "escalation-backup.jsonl")}


def test_many_files_listed_outside_one_by_one_is_one_clear_error(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view, "MAX_FILES_ELSEWHERE", 3)
    (tmp_path / "proj").mkdir()
    (tmp_path / "prompts").mkdir()
    for k in range(4):
        (tmp_path / "prompts" / f"p{k}.md").write_text("x\n")
    with pytest.raises(view.CopyError, match="lists 4 files outside the project one by one"):
        view.build([str(tmp_path / "proj")], tmp_path / "proj", ["../prompts/*.md"], [])
    views, large = view.build([str(tmp_path / "proj")], tmp_path / "proj", ["../prompts"], [])  # its folder: one mount
    assert sorted(os.listdir(dict(views)[str(tmp_path / "prompts")])) == [f"p{k}.md" for k in range(4)] and not large


def test_the_walk_reads_listed_folders_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for k in range(50):
        (tmp_path / "prompts" / f"p{k}").mkdir(parents=True)
        (tmp_path / "prompts" / f"p{k}" / "a.md").write_text("x\n")
    calls = []
    real = os.path.isdir
    monkeypatch.setattr(os.path, "isdir", lambda p: calls.append(p) or real(p))
    assert len(view.in_view(tmp_path, ["prompts/*/a.md"])) == 50
    assert len(calls) < 500  # (a stat per folder per listed path: 50 x 50 = 2,500 before)


def test_copies_left_in_the_fallback_temp_folder_are_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fallback = tmp_path / "var-tmp"
    left = fallback / "agenteval-view-999999999-x"
    left.mkdir(parents=True)
    monkeypatch.setattr(view, "_places", lambda: (str(tmp_path / "tmp"), str(fallback)))
    view._sweep()
    assert not left.exists()


@pytest.mark.parametrize("planted", ["fifo", "dev-zero"])
def test_a_fifo_or_a_device_in_the_scenario_cache_is_rebuilt_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      planted: str) -> None:
    monkeypatch.setenv(KEY_FILE_ENV, str(tmp_path / "cache.key"))
    with ExampleEnvironment(cache_dir=tmp_path) as first:
        first.reset(1)
    (image,) = tmp_path.glob("*.sqlite")
    image.unlink()
    if planted == "fifo":
        os.mkfifo(image)
    else:
        image.symlink_to("/dev/zero")
    done = threading.Event()

    def reset() -> None:
        with warnings.catch_warnings(record=True) as caught, ExampleEnvironment(cache_dir=tmp_path) as second:
            warnings.simplefilter("always")
            second.reset(1)
            assert any(isinstance(w.message, CacheWarning) and "not a regular file" in str(w.message) for w in caught)
        done.set()

    worker = threading.Thread(target=reset, daemon=True)
    worker.start()
    worker.join(60)
    assert done.is_set(), "the reset hung on what stood in the image's place"


USES_MULTIPROCESSING = '''
import multiprocessing


class Agent:
    def run(self, episode):
        queue = multiprocessing.Queue()
        queue.put("T-0001")
        episode.call("close_ticket", {"ticket_id": queue.get(timeout=10)})
'''


@needs_bwrap
def test_an_honest_agent_using_multiprocessing_runs_isolated(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(mp=USES_MULTIPROCESSING)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    pytester.runpytest("--agent=mp:Agent", "--agenteval-isolate", "--agenteval-limits=memory=512M",
                       "--agenteval-results=r.jsonl", "t.jsonl").assert_outcomes(passed=1)
    grade = next(g for g in result_lines(pytester.path / "r.jsonl") if "task_id" in g)
    assert grade["passed"], [c["detail"] for c in grade["checks"] if not c["passed"]]


OPENS_THE_TASK_FILE = '''
class Agent:
    def run(self, episode):
        open("t.jsonl").read()
'''


@needs_bwrap
def test_the_hint_never_says_to_show_the_runs_own_file(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(opens=OPENS_THE_TASK_FILE)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=opens:Agent", "--agenteval-isolate", "t.jsonl", "-rA")
    assert "agenteval_show = t.jsonl" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*a file of the run itself: never shown to isolated agents*"])


@needs_bwrap
def test_an_output_path_that_cannot_be_made_names_its_option(pytester: pytest.Pytester) -> None:
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=noop", "--agenteval-isolate", "--agenteval-results=/proc/self/x", "t.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --agenteval-results=/proc/self/x: cannot write it: *"])
