"""--agenteval-isolate as a red team tries it: each attack of issue #25 as a hostile agent module.

The bwrap tests skip where bubblewrap cannot make its namespaces (some containers), but not in
CI (``CI`` set: .ci/run installs bubblewrap), where a missing sandbox fails; the others hold
at every level. Run as root and as an unprivileged user.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from tests.helpers.sandboxing import BWRAP, WHY_NOT, needs_bwrap
from tests.helpers.tasks import result_lines, task_line

MARKER = "agenteval-leftover-sleeper"


def test_ci_has_an_os_sandbox() -> None:
    """In CI the bwrap tests must run, not skip."""
    if os.environ.get("CI"):
        assert BWRAP is not None, f"no OS sandbox on the CI machine: {WHY_NOT} (install bubblewrap)"

HOSTILE = f'''
import os, socket, subprocess, sys

# At import, where the harness would once import it too: make every grade pass.
import pytest_agenteval.plugin.runner as _runner
_play = _runner.play
def _passing(*args, **kwargs):
    grade = _play(*args, **kwargs)
    return grade.model_copy(update={{"passed": True, "checks": [c for c in grade.checks if c.passed]}})
_runner.play = _passing


class DoesNothing:
    def run(self, episode):
        pass


def attempt(what):
    try:
        return what()
    except Exception as exc:
        return type(exc).__name__


class Reads:
    """Reaches for what it must not: memory, command line, task files, cache, results, network."""
    def run(self, episode):
        harness = os.environ["HARNESS_PID"]
        def mem():
            with open(f"/proc/{{harness}}/maps") as maps:
                start = int(maps.readline().split("-")[0], 16)
            with open(f"/proc/{{harness}}/mem", "rb") as mem:
                mem.seek(start)
                return f"read {{len(mem.read(16))}} bytes"
        def connect():
            socket.create_connection(("127.0.0.1", int(os.environ["LISTENING_PORT"])), timeout=30).close()
            return "connected"
        seen = {{
            "mem": attempt(mem),
            "cmdline": attempt(lambda: open(f"/proc/{{harness}}/cmdline", "rb").read()[:0].decode() or "read"),
            "task file": attempt(lambda: len(open("tasks/t.jsonl").read())),
            "cache": attempt(lambda: os.listdir(".pytest_cache")),
            "results": attempt(lambda: len(open("r.jsonl").read())),
            "network": attempt(connect),
        }}
        raise RuntimeError(repr(seen))


class LeavesASleeper:
    """Starts a process that leaves its session and would act after the episode."""
    def run(self, episode):
        if os.fork() == 0:
            os.setsid()
            os.execv(sys.executable, [sys.executable, "-c",
                     "import time, sys; time.sleep(600); print('{{\\"call\\": \\"close_ticket\\"}}')",
                     "{MARKER}"])
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})


class ReadsProject:
    """Looks through the project folder for tasks and grades by other names: git's objects,
    task files this run does not use, an earlier run's results."""
    def run(self, episode):
        import gzip, zlib
        found = []
        for folder, _, files in os.walk("."):
            for name in files:
                path = os.path.join(folder, name)
                try:
                    data = open(path, "rb").read()
                    data = zlib.decompress(data) if "objects" in path else data
                    data = gzip.decompress(data) if path.endswith(".gz") else data
                except (OSError, zlib.error, gzip.BadGzipFile):
                    continue
                if b"expected_" + b"final_state" in data:  # split: this file holds no match
                    found.append(path)
        raise RuntimeError(repr(sorted(found)))


class Who:
    def run(self, episode):
        uid_map = open("/proc/self/uid_map").read().split()
        caps = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff"))
        raise RuntimeError(f"{{uid_map[0]}} {{uid_map[1]}} {{caps}}")


class Carries:
    """Tries to carry state to the next episode: every sandbox listens on an abstract socket from
    its import (so the one waiting for the next episode does too); an episode told to "send"
    finds the others' sockets in /proc/net/unix and writes to them, one told to "report" says
    what reached it while it waited."""
    def run(self, episode):
        import time
        if "send" in episode.instruction:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not _others():
                time.sleep(0.1)
            for name in _others():
                with socket.socket(socket.AF_UNIX) as out:
                    out.connect("\\0" + name)
                    out.sendall(_TOKEN.encode())
            raise RuntimeError(f"sent to {{len(_others())}}")
        time.sleep(0.5)
        raise RuntimeError(f"received {{sorted(_RECEIVED)}}")


import secrets, threading
_TOKEN = secrets.token_hex(8)
_RECEIVED = []
_listener = socket.socket(socket.AF_UNIX)
_listener.bind("\\0agenteval-carry-" + _TOKEN)
_listener.listen()
threading.Thread(target=lambda: [_RECEIVED.append(_listener.accept()[0].recv(64).decode()) for _ in iter(int, 1)],
                 daemon=True).start()


def _others():
    names = [line.split()[-1] for line in open("/proc/net/unix").read().splitlines()[1:] if "agenteval-carry-" in line]
    return sorted({{n.lstrip("@") for n in names}} - {{"agenteval-carry-" + _TOKEN}})


class Good:
    def run(self, episode):
        episode.call("close_ticket", {{"ticket_id": "T-0001"}})


class Syscalls:
    """Makes the system calls that reach other processes' memory or the kernel's riskier parts."""
    def run(self, episode):
        import ctypes, platform
        libc = ctypes.CDLL(None, use_errno=True)
        numbers = {{"x86_64": {{"ptrace": 101, "process_vm_readv": 310, "keyctl": 250, "bpf": 321, "userfaultfd": 323,
                              "io_uring_setup": 425, "getppid": 110}},
                   "aarch64": {{"ptrace": 117, "process_vm_readv": 270, "keyctl": 219, "bpf": 280, "userfaultfd": 282,
                               "io_uring_setup": 425, "getppid": 173}}}}[platform.machine()]
        seen = {{}}
        for name, nr in numbers.items():
            ctypes.set_errno(0)
            got = libc.syscall(nr, 0, 0, 0, 0, 0, 0)
            seen[name] = os.strerror(ctypes.get_errno()) if got < 0 else "ok"
        raise RuntimeError(repr(seen))
'''


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(hostile=HOSTILE)
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text(
        "\n".join(task_line(task_id=f"EX-{i}", acceptable_action_paths=[[
            {"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]) for i in range(1, 5)) + "\n")
    monkeypatch.setenv("HARNESS_PID", str(os.getpid()))  # pytester runs the harness in this process
    return pytester


def run(project: pytest.Pytester, agent: str, *extra: str) -> tuple[pytest.RunResult, list[dict]]:
    result = project.runpytest(f"--agent=hostile:{agent}", "--agenteval-results=r.jsonl", "--agenteval-timeout=120",
                               *extra)
    path = project.path / "r.jsonl"
    return result, [g for g in result_lines(path) if "task_id" in g] if path.exists() else []


def agent_detail(grade: dict) -> str:
    return next(c["detail"] for c in grade["checks"] if c["name"] == "agent_completed")


@pytest.mark.parametrize("level", [pytest.param("", marks=needs_bwrap), "=process"])
def test_the_agent_module_is_imported_only_inside_the_sandbox(project: pytest.Pytester, level: str) -> None:
    # Imported in the harness, it made all 4 do-nothing episodes pass.
    result, grades = run(project, "DoesNothing", f"--agenteval-isolate{level}")
    result.assert_outcomes(failed=4)
    assert [g["passed"] for g in grades] == [False] * 4


@pytest.mark.parametrize(("module", "expected"), [
    ("raise RuntimeError('boom')",
     "ERROR: --agent=bad:Agent: importing 'bad' failed: RuntimeError: boom (at bad.py:1)"),
    ("import os; os._exit(0)", "ERROR: --agent=bad:Agent: the agent process ended while importing it (exit code 0)"),
    ("raise SystemExit(0)", "ERROR: --agent=bad:Agent: importing 'bad' raised SystemExit: 0 (at bad.py:1) (an agent "
     "module must not exit or stop at import; move that code into the agent's run)"),
    ("class Agnet: pass", "ERROR: --agent=bad:Agent: module 'bad' has no attribute 'Agent' (did you mean 'Agnet'?)"),
])
def test_a_bad_agent_module_is_a_usage_error_found_in_the_sandbox(pytester: pytest.Pytester, module: str,
                                                                   expected: str) -> None:
    pytester.makepyfile(bad=module)
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    result = pytester.runpytest("--agent=bad:Agent", "--agenteval-isolate=process", "t.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == expected, result.stderr.lines


@needs_bwrap
@pytest.mark.parametrize("network", [False, True], ids=["no-network", "network-allowed"])
def test_the_sandbox_shows_no_memory_command_line_task_file_cache_or_results(
        project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, network: bool) -> None:
    project.mkdir(".pytest_cache")
    with socket.create_server(("127.0.0.1", 0)) as server:
        monkeypatch.setenv("LISTENING_PORT", str(server.getsockname()[1]))
        _, grades = run(project, "Reads", "--agenteval-isolate", "-k", "EX-1",
                        *(["--agenteval-isolate-network"] if network else []))
    # Process isolation read all of it: the harness's memory, its command line, every file.
    seen = agent_detail(grades[0]).removeprefix("RuntimeError: ").rsplit(" (at ", 1)[0]
    assert json.loads(seen.replace("'", '"')) == {
        "mem": "FileNotFoundError", "cmdline": "FileNotFoundError", "task file": "FileNotFoundError",
        "cache": "FileNotFoundError", "results": "FileNotFoundError", "network": "ConnectionRefusedError"}  # its own loopback: nobody there


@needs_bwrap
def test_the_project_folder_shows_no_task_or_grade_by_another_name(project: pytest.Pytester) -> None:
    import gzip
    import zlib

    task = (project.path / "tasks" / "t.jsonl").read_bytes()
    blob = zlib.compress(b"blob %d\0" % len(task) + task)  # as git stores a committed task file
    (project.path / ".git" / "objects" / "3f").mkdir(parents=True)
    (project.path / ".git" / "objects" / "3f" / "9a1c").write_bytes(blob)
    (project.path / "other").mkdir()
    (project.path / "other" / "more.jsonl").write_bytes(task)  # task files this run does not use
    (project.path / "old.jsonl").write_bytes(task)  # an earlier run's results (their checks say what was expected)
    (project.path / "lib").mkdir()
    (project.path / "lib" / "helper.py").write_text("X = 1\n")
    (project.path / "lib" / "notes.jsonl").write_bytes(task)
    # Earlier runs' results written compressed (--agenteval-results=r.jsonl.gz): a folder of
    # them, and one beside Python. Red team 3 read both.
    (project.path / "runs").mkdir()
    (project.path / "runs" / "old.jsonl.gz").write_bytes(gzip.compress(task))
    (project.path / "lib" / "old.jsonl.gz").write_bytes(gzip.compress(task))
    (project.path / "report.html").write_bytes(task)  # an earlier run's HTML report holds its checks too
    (project.path / "lib" / "report.html").write_bytes(task)
    _, grades = run(project, "ReadsProject", "--agenteval-isolate", "-k", "EX-1")
    # Before: ['./.git/objects/3f/9a1c', './lib/notes.jsonl', './old.jsonl', './other/more.jsonl'].
    assert agent_detail(grades[0]).startswith("RuntimeError: []")


def test_installed_suites_are_hidden_from_the_sandbox(pytester: pytest.Pytester) -> None:
    """Red team 3: installed as a wheel (not in the project folder), the package the sandbox shows
    holds the task files its environments ship; a run of the project's own copy of a suite was
    graded by lines the agent could read there."""
    from pytest_agenteval.environments.suites import shipped_suites
    from pytest_agenteval.plugin.hiding import hidden_paths
    from pytest_agenteval.plugin.state import STATE

    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    config = pytester.parseconfigure("--agent=noop", "--agenteval-isolate=process", "t.jsonl")
    hidden = hidden_paths(config, config.stash[STATE])
    suites = [str(f.resolve()) for files in shipped_suites().values() for f in files]
    assert len(suites) >= 3 and set(suites) <= set(hidden)


@needs_bwrap
def test_nothing_the_agent_started_outlives_its_episode(project: pytest.Pytester) -> None:
    try:
        _, grades = run(project, "LeavesASleeper", "--agenteval-isolate", "-k", "EX-1")
        assert grades[0]["passed"]
        # bwrap returns only once every process of the sandbox's PID namespace is gone.
        assert _processes_named(MARKER) == []
    finally:
        for pid in _processes_named(MARKER):
            os.kill(pid, 9)


def test_the_harness_is_not_dumpable_when_it_isolates(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("from pytest_agenteval.agents.containment import is_dumpable\n"
                          "def pytest_sessionstart(session):\n"
                          "    print('dumpable:', is_dumpable())\n")
    pytester.makepyfile(good="class Good:\n    def run(self, episode): pass\n")
    (pytester.path / "t.jsonl").write_text(task_line() + "\n")
    for isolate, expected in ((), "dumpable: True"), (("--agenteval-isolate=process",), "dumpable: False"):
        result = pytester.runpytest_subprocess("--agent=good:Good", *isolate, "-s", "t.jsonl")
        result.stdout.fnmatch_lines([expected])


@needs_bwrap
def test_isolation_and_concurrency_compose(project: pytest.Pytester) -> None:
    result, grades = run(project, "Good", "--agenteval-isolate", "--agenteval-concurrency", "8")
    result.assert_outcomes(passed=4)
    assert sorted(g["task_id"] for g in grades if g["passed"]) == ["EX-1", "EX-2", "EX-3", "EX-4"]


@needs_bwrap
def test_the_level_in_force_is_in_the_header_and_the_run_record(project: pytest.Pytester) -> None:
    result, _ = run(project, "Good", "--agenteval-isolate", "-k", "EX-1")
    said = "bwrap (no network, seccomp, as uid 65534)" if os.geteuid() == 0 else "bwrap (no network, seccomp)"
    result.stdout.fnmatch_lines([f"agenteval isolation: {said}"])
    record = json.loads((project.path / "r.jsonl").read_text().splitlines()[0])["run_record"]
    assert record["options"]["isolate"] == said


@needs_bwrap
@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="the filter is built for these")
def test_the_sandbox_refuses_the_system_calls_no_agent_needs(project: pytest.Pytester) -> None:
    """ptrace, process_vm_readv, keyctl, bpf, userfaultfd, io_uring: EPERM (a seccomp filter);
    an ordinary call still works."""
    _, grades = run(project, "Syscalls", "--agenteval-isolate", "-k", "EX-1")
    seen = json.loads(agent_detail(grades[0]).removeprefix("RuntimeError: ").rsplit(" (at ", 1)[0].replace("'", '"'))
    assert seen.pop("getppid") == "ok"
    assert seen == dict.fromkeys(seen, "Operation not permitted")


@needs_bwrap
def test_the_agent_is_never_root_outside_its_sandbox(project: pytest.Pytester) -> None:
    """As root, bwrap's own user namespace mapped the agent to root outside (uid_map ``0 0 1``):
    the kernel exempted it from the processes limit. Now it runs as nobody, without capabilities."""
    _, grades = run(project, "Who", "--agenteval-isolate", "-k", "EX-1")
    inside, outside, caps = agent_detail(grades[0]).removeprefix("RuntimeError: ").split(" (at ")[0].split()
    assert caps == "0000000000000000"
    if os.geteuid() == 0:  # (unprivileged, bwrap nests a namespace: the map's outside is in that one)
        assert (inside, outside) == ("65534", "65534")


def test_without_an_os_sandbox_isolate_refuses_unless_a_weaker_level_is_named(
        project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTEVAL_BWRAP", "")  # as on a machine without bubblewrap
    result, _ = run(project, "Good", "--agenteval-isolate")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == ("ERROR: --agenteval-isolate: no OS sandbox works here (bwrap not found); "
                                      "install bubblewrap, or pass --agenteval-isolate=process for process "
                                      "isolation only")
    result, grades = run(project, "Good", "--agenteval-isolate=process", "-k", "EX-1")
    result.stdout.fnmatch_lines(["agenteval isolation: process"])
    assert grades[0]["passed"]
    record = json.loads((project.path / "r.jsonl").read_text().splitlines()[0])["run_record"]
    assert record["options"]["isolate"] == "process"


def test_an_unknown_level_is_refused_and_a_path_after_the_bare_flag_is_a_path(project: pytest.Pytester) -> None:
    result = project.runpytest("--agent=hostile:Good", "--agenteval-isolate=sandbox")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == ("ERROR: --agenteval-isolate=sandbox: not a containment level (use bwrap or "
                                      "process, or no value for the strongest here)")
    project.path.joinpath("tasks", "t.jsonl").rename(project.path / "elsewhere.jsonl")
    result = project.runpytest("--agent=hostile:Good", "--agenteval-isolate", "elsewhere.jsonl", "-k", "EX-1",
                               *(() if BWRAP else ("--agenteval-isolate=process",)))
    result.assert_outcomes(passed=1)


def _processes_named(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (a zombie runs nothing: it is gone)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if marker.encode() in (entry / "cmdline").read_bytes() and state != "Z":
                    found.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


@pytest.mark.skipif(os.geteuid() == 0, reason="root may read any process's memory (CAP_SYS_PTRACE)")
def test_at_the_process_level_the_harness_memory_is_closed_to_the_agent(
        project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LISTENING_PORT", "9")
    _, grades = run(project, "Reads", "--agenteval-isolate=process", "-k", "EX-1")
    assert "'mem': 'PermissionError'" in agent_detail(grades[0])  # non-dumpable; without it: read 16 bytes


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="as root only: the sandbox then runs as nobody")
def test_as_root_a_project_nobody_can_read_is_one_line(project: pytest.Pytester) -> None:
    os.chmod(project.path, 0o700)
    result, _ = run(project, "Good", "--agenteval-isolate")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == (
        f"ERROR: --agent=hostile:Good: the sandbox runs as uid 65534 (pytest runs as root) and cannot read the "
        f"agent's folder {project.path}: make it readable by others (chmod o+rX {project.path}), or run pytest as "
        "another user")


@needs_bwrap
def test_with_the_network_no_episode_reaches_the_sandbox_of_the_next(project: pytest.Pytester) -> None:
    """Before, the sandboxes shared this machine's network namespace: the episode told to send
    found the waiting sandbox's abstract socket, and the next episode reported its token."""
    (project.path / "tasks" / "t.jsonl").write_text("".join(
        task_line(task_id=f"EX-{i}", instruction=f"{word}: close ticket T-0001") + "\n"
        for i, word in enumerate(["send", "report"], 1)))
    _, grades = run(project, "Carries", "--agenteval-isolate", "--agenteval-isolate-network", "-p", "no:randomly")
    assert [agent_detail(g).split(" (at ")[0] for g in grades] == ["RuntimeError: sent to 0",
                                                                  "RuntimeError: received []"]


@needs_bwrap
def test_with_the_network_and_no_slirp4netns_isolate_refuses(project: pytest.Pytester,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTEVAL_SLIRP4NETNS", "")
    result, _ = run(project, "Good", "--agenteval-isolate", "--agenteval-isolate-network")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines[0] == (
        "ERROR: --agenteval-isolate-network: slirp4netns not found; it gives each sandbox a network of its own "
        "(sharing this machine's would let one episode reach the next one's sandbox); install slirp4netns, or "
        "pass --agenteval-isolate=process (no OS sandbox)")
