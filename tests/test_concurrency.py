"""--agenteval-concurrency: episodes in flight together, each item still its own test, in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.tasks import episode_grades, interruptible, result_lines, task_line

# Every agent waits at a barrier that only opens once BARRIER agents are in flight at once: a
# run that never has that many in flight fails by the barrier's (generous) timeout, not by timing.
AGENTS = '''
import asyncio, os, threading, time

BARRIER = int(os.environ.get("BARRIER", "4"))
_barrier = threading.Barrier(BARRIER, timeout=60)
_count = 0
_event = None


def _act(episode):
    if episode.task_id.endswith("raise"):
        raise ValueError("boom")
    if episode.task_id.endswith("hang"):
        threading.Event().wait(30)
    episode.call("close_ticket", {"ticket_id": "T-0001"})


class SyncAgent:
    def run(self, episode):
        if not episode.task_id.endswith(("raise", "hang")):
            _barrier.wait()
        _act(episode)


class AsyncAgent:
    async def run(self, episode):
        global _count, _event
        if _event is None:
            _event = asyncio.Event()
        if not episode.task_id.endswith(("raise", "hang")):
            _count += 1
            if _count % BARRIER == 0:
                _event.set()
            await asyncio.wait_for(_event.wait(), 60)
        if episode.task_id.endswith("hang"):
            await asyncio.sleep(30)
        _act(episode)


class Interrupting:
    def run(self, episode):
        if episode.task_id == "EX-5":  # Ctrl-C once two grades are written, however the window moved
            results = os.environ["RESULTS"]
            for _ in range(600):
                with open(results) as f:
                    if sum('"task_id"' in line for line in f) >= 2:
                        break
                time.sleep(0.1)
            os.kill(os.getpid(), __import__("signal").SIGINT)
        time.sleep(0.2)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


def write(pytester: pytest.Pytester, ids: list[str]) -> None:
    pytester.makepyfile(cc_agents=AGENTS)
    (pytester.path / "tasks").mkdir(exist_ok=True)
    path = [[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]
    lines = [task_line(task_id=i, acceptable_action_paths=path) for i in ids]
    (pytester.path / "tasks" / "cc.jsonl").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("agent", ["SyncAgent", "AsyncAgent"])
def test_c_episodes_in_flight_each_reported_in_order(pytester: pytest.Pytester, agent: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [f"EX-{i}" for i in range(8)]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "4")
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess(f"--agent=cc_agents:{agent}", "--agenteval-concurrency", "4", "-v",
                                           f"--agenteval-results={out}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["agenteval: *, episodes in flight per process=4"])
    order = [line for line in result.stdout.lines if "::test_task[" in line and line.split()[1:2] == ["PASSED"]]
    assert [line.split("[")[1].split("]")[0] for line in order] == ids
    grades = [g for g in result_lines(out) if "task_id" in g]
    assert [g["task_id"] for g in grades] == ids and all(g["passed"] for g in grades)


@pytest.mark.parametrize("agent", ["SyncAgent", "AsyncAgent"])
def test_time_limit_and_raising_agent_fail_only_their_own_episode(pytester: pytest.Pytester, agent: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    ids = ["EX-0", "EX-1-hang", "EX-2", "EX-3-raise", "EX-4", "EX-5"]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "2")
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess(f"--agent=cc_agents:{agent}", "--agenteval-concurrency", "4",
                                           "--agenteval-timeout", "1", f"--agenteval-results={out}",
                                           "-p", "no:cacheprovider")
    grades = {g["task_id"]: g for g in result_lines(out) if "task_id" in g}
    assert list(grades) == ids
    assert "agent_timeout" in grades["EX-1-hang"]["failure_modes"]
    assert "agent_error" in grades["EX-3-raise"]["failure_modes"]
    failed = {i for i, g in grades.items() if not g["passed"]}
    assert failed == {"EX-1-hang", "EX-3-raise"}
    result.stdout.fnmatch_lines(["*ValueError: boom*"])


def test_exitfirst_stops_and_the_rest_never_report(pytester: pytest.Pytester,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ids = ["EX-0-raise", *(f"EX-{i}" for i in range(1, 8))]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "3")
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=cc_agents:SyncAgent", "--agenteval-concurrency", "4", "-x",
                                           f"--agenteval-results={out}", "-p", "no:cacheprovider")
    assert result.ret == 1
    grades = [g for g in result_lines(out) if "task_id" in g]
    assert [g["task_id"] for g in grades] == ["EX-0-raise"]
    summary = result_lines(out)[-1]["summary"]
    assert (summary["episodes"], summary["errored"]) == (0, 1)  # the raising agent's episode is errored


def test_skipped_and_deselected_items_never_start(pytester: pytest.Pytester) -> None:
    ids = [f"EX-{i}" for i in range(6)]
    write(pytester, ids)
    # An agent that fails any episode of a task it should never see.
    pytester.makepyfile(seen_agent='''
class Agent:
    def run(self, episode):
        assert episode.task_id not in ("EX-1", "EX-3"), episode.task_id
        episode.call("close_ticket", {"ticket_id": "T-0001"})
''')
    pytester.makeconftest('''
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if "EX-1" in item.nodeid:
            item.add_marker(pytest.mark.skip(reason="not this one"))
''')
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=seen_agent:Agent", "--agenteval-concurrency", "6",
                                           "-k", "not EX-3", f"--agenteval-results={out}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, skipped=1, deselected=1)


def test_ctrl_c_leaves_a_valid_results_file(pytester: pytest.Pytester) -> None:
    write(pytester, [f"EX-{i}" for i in range(12)])
    out = pytester.path / "r.jsonl"
    proc = subprocess.run([sys.executable, "-m", "pytest", "--agent=cc_agents:Interrupting",
                           "--agenteval-concurrency", "4", f"--agenteval-results={out}", "-p", "no:cacheprovider"],
                          cwd=pytester.path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "RESULTS": str(out)}, preexec_fn=interruptible)
    assert "KeyboardInterrupt" in proc.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]  # every line is valid JSON
    grades = [r for r in records if "task_id" in r]
    assert 2 <= len(grades) < 12
    assert records[-1]["summary"]["episodes"] == len(grades)


def test_pytest_timeout_ends_only_its_own_episode(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-timeout's limit runs from the item's start; the hanging episode is graded as a
    timeout naming it, and the episodes in flight beside it are graded as usual."""
    ids = ["EX-0", "EX-1-hang", "EX-2", "EX-3"]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "1")
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=cc_agents:SyncAgent", "--agenteval-concurrency", "4",
                                           "--timeout=8", "--timeout-method=signal", f"--agenteval-results={out}",
                                           "-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)
    grades = {g["task_id"]: g for g in result_lines(out) if "task_id" in g}
    assert list(grades) == ids and result_lines(out)[-1]["summary"]["episodes"] == 4
    check = next(c for c in grades["EX-1-hang"]["checks"] if c["name"] == "agent_completed")
    assert (check["passed"], check["failure_mode"]) == (False, "agent_timeout") and "pytest-timeout" in check["detail"]
    assert [i for i, g in grades.items() if g["passed"]] == ["EX-0", "EX-2", "EX-3"]


def test_last_failed_runs_only_the_failures_as_a_serial_run_does(pytester: pytest.Pytester,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ids = ["EX-0", "EX-1-raise", "EX-2", "EX-3-raise", "EX-4"]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "1")
    outcomes = {}
    for label, extra in {"serial": [], "in flight": ["--agenteval-concurrency", "4"]}.items():
        first = pytester.runpytest_subprocess("--agent=cc_agents:SyncAgent", *extra)
        first.assert_outcomes(passed=3, errors=2)  # raising is errored (docs/errors.md); --lf reruns it
        out = pytester.path / f"{label}.jsonl"
        again = pytester.runpytest_subprocess("--agent=cc_agents:SyncAgent", "--lf", *extra,
                                              f"--agenteval-results={out}")
        again.assert_outcomes(errors=2)
        outcomes[label] = episode_grades(out)
    assert [g["task_id"] for g in outcomes["serial"]] == ["EX-1-raise", "EX-3-raise"]
    assert outcomes["in flight"] == outcomes["serial"]


def test_concurrency_must_be_positive(pytester: pytest.Pytester) -> None:
    write(pytester, ["EX-0"])
    result = pytester.runpytest("--agent=reference", "--agenteval-concurrency", "0")
    result.stderr.fnmatch_lines(["*--agenteval-concurrency=0: must be 1 or more*"])


def _socket_server(cwd: Path) -> tuple[subprocess.Popen[str], int]:
    """execnet's own socket server (what a remote host runs), on a free loopback port."""
    import execnet

    script = Path(execnet.__file__).parent / "script" / "socketserver.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    proc = subprocess.Popen([sys.executable, "-u", str(script), "127.0.0.1:0"], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=interruptible)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "... Entering Accept loop ('127.0.0.1', PORT)"
    return proc, int(line.rstrip().rstrip(")").rsplit(",", 1)[1])


def test_across_hosts_with_xdist_socket_gateways(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two execnet socket servers stand for two hosts (``--tx ssh=host//python=python3`` or
    ``--tx socket=host:port`` in real use): the results file and the table are on the
    controller, and are those of a local serial run."""
    ids = [f"EX-{i}" for i in range(8)]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "1")  # which items each gateway gets is up to xdist
    common = ["--agent=cc_agents:SyncAgent", "-p", "no:cacheprovider"]
    local = pytester.path / "local.jsonl"
    serial = pytester.runpytest_subprocess(*common, f"--agenteval-results={local}")
    servers = [_socket_server(pytester.path) for _ in range(2)]
    try:
        out = pytester.path / "r.jsonl"
        # chdir: else xdist runs a remote worker in a pyexecnetcache folder, away from the project.
        tx = [arg for _, port in servers for arg in ("--tx", f"socket=127.0.0.1:{port}//chdir={pytester.path}")]
        result = pytester.runpytest_subprocess(*common, "-d", *tx, "--max-worker-restart=0",
                                               "--agenteval-concurrency", "2", f"--agenteval-results={out}",
                                               timeout=120)
    finally:
        for proc, _ in servers:
            proc.kill()
            proc.communicate()
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["*2 workers [[]8 items[]]*"])
    assert episode_grades(out) == episode_grades(local)
    assert [g["task_id"] for g in episode_grades(out)] == ids and all(g["passed"] for g in episode_grades(out))
    assert result_lines(out)[-1]["summary"] == result_lines(local)[-1]["summary"]
    assert _table(result.stdout.lines) == _table(serial.stdout.lines) != []


def _table(lines: list[str]) -> list[str]:
    """The agenteval summary section of a run's output."""
    at = next((i for i, line in enumerate(lines) if line.startswith("=") and " agenteval: " in line), None)
    if at is None:
        return []
    end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith("=")), len(lines))
    return lines[at:end]


def test_in_flight_without_pytest() -> None:
    """A harness of its own: three episodes in flight at once (a barrier of three), each in its
    own environment instance, graded as a serial run grades them."""
    import threading

    from pytest_agenteval.agents.inflight import InFlight
    from pytest_agenteval.agents.play import run_episode
    from pytest_agenteval.domains.example import ExampleEnvironment
    from tests.helpers.tasks import make_task

    barrier = threading.Barrier(3, timeout=60)
    path = [[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]
    tasks = [make_task(task_id=f"EX-{i}", acceptable_action_paths=path) for i in range(3)]

    class Agent:
        def run(self, episode: object) -> None:
            barrier.wait()
            episode.call("close_ticket", {"ticket_id": "T-0001"})  # type: ignore[attr-defined]

    made: list[ExampleEnvironment] = []

    def make_env(name: str) -> ExampleEnvironment:
        made.append(ExampleEnvironment())
        return made[-1]

    runner = InFlight(make_env)
    try:
        flights = [runner.start(t, 1, Agent, time_limit=60) for t in tasks]
        grades = [f.result() for f in flights if f.done.wait(60)]
    finally:
        runner.close()
    assert len(made) == 3 and [g.passed for g in grades] == [True] * 3
    with ExampleEnvironment() as env:
        barrier = threading.Barrier(1)
        assert [run_episode(env, t, Agent).model_dump() for t in tasks] == [g.model_dump() for g in grades]


def test_start_spacing_follows_the_episodes_not_a_fixed_rate() -> None:
    """A refill's episodes start ``spacing`` apart: RAMP before any episode ended, then an
    episode's mean time over C, never more than RAMP (fast episodes are not held to 200 a second)."""
    from pytest_agenteval.domains.example import ExampleEnvironment
    from pytest_agenteval.plugin.concurrency import RAMP, Ahead
    from tests.helpers.tasks import make_task

    ahead = Ahead(8, lambda name: ExampleEnvironment(), time_limit=60)
    try:
        assert ahead.spacing == RAMP
        task = make_task(task_id="EX-1", acceptable_action_paths=[[]])
        flight = ahead.runner.start(task, 1, lambda: type("Idle", (), {"run": lambda self, episode: None})(),
                                    time_limit=60)
        assert flight.done.wait(60)
        mean = ahead.runner.mean_episode
        assert mean is not None and ahead.spacing == min(RAMP, mean / 8)
        ahead.runner.mean_episode = 8.0  # slow episodes: the ramp never widens past RAMP
        assert ahead.spacing == RAMP
        ahead.runner.mean_episode = 0.0008
        assert ahead.spacing == 0.0001
    finally:
        ahead.close()


def test_a_slot_freed_is_refilled_on_the_loop_thread_up_to_c() -> None:
    """While the main thread waits (or reports), an episode that ends starts the next item made
    ready, from the event loop's thread; never more than C in flight."""
    import threading

    from pytest_agenteval.domains.example import ExampleEnvironment
    from pytest_agenteval.plugin.concurrency import Ahead
    from tests.helpers.tasks import make_task

    release = threading.Event()

    class Hold:
        def run(self, episode: object) -> None:
            release.wait(60)

    class Quick:
        def run(self, episode: object) -> None:
            pass

    def until(condition: object) -> bool:
        for _ in range(6000):  # a generous bound, not a timing assertion
            if condition():  # type: ignore[operator]
                return True
            threading.Event().wait(0.01)
        return False

    tasks = [make_task(task_id=f"EX-{i}", acceptable_action_paths=[[]]) for i in range(4)]
    ahead = Ahead(2, lambda name: ExampleEnvironment(), time_limit=60)
    try:
        with ahead._lock:
            ahead._playing = ahead.runner.start(tasks[0], 1, Hold, time_limit=60)
            ahead._ready = {"b": (tasks[2], 1, Hold), "c": (tasks[3], 1, Hold)}
            ahead._flights["a"] = quick = ahead.runner.start(tasks[1], 1, Quick, time_limit=60)
        assert quick.done.wait(60)
        assert until(lambda: "b" in ahead._flights)  # started as "a" ended, no main-thread call
        with ahead._lock:
            assert "c" in ahead._ready and "c" not in ahead._flights  # two in flight: C
        release.set()
        assert until(lambda: "c" in ahead._flights)
        assert all(f.done.wait(60) for f in list(ahead._flights.values()))
    finally:
        release.set()
        ahead.close()


def test_nothing_made_ready_starts_once_the_window_is_closed() -> None:
    """Closing the window (the session's end, an interruption) stops what flies; the episode
    that ends then starts none of the items made ready."""
    import threading

    from pytest_agenteval.domains.example import ExampleEnvironment
    from pytest_agenteval.plugin.concurrency import Ahead
    from tests.helpers.tasks import make_task

    release, running = threading.Event(), threading.Event()

    class Hold:
        def run(self, episode: object) -> None:
            running.set()
            release.wait(60)

    tasks = [make_task(task_id=f"EX-{i}", acceptable_action_paths=[[]]) for i in range(3)]
    ahead = Ahead(1, lambda name: ExampleEnvironment(), time_limit=60)
    runner, started = ahead.runner, []
    start = runner.start
    runner.start = lambda task, *a, **k: started.append(task.task_id) or start(task, *a, **k)  # type: ignore[method-assign]
    try:
        with ahead._lock:
            playing = ahead._playing = runner.start(tasks[0], 1, Hold, time_limit=60)
            ahead._ready = {"b": (tasks[1], 1, Hold), "c": (tasks[2], 1, Hold)}
        assert running.wait(60)
        ahead.close()  # stops the held episode: it ends (graded "interrupted") with the window closed
        assert playing.done.is_set() and playing.grade is not None
        assert started == ["EX-0"] and not ahead._ready and not ahead._flights
    finally:
        release.set()


SECOND_CTRL_C = '''
import pytest

class SecondCtrlC:
    """The first Ctrl-C after two graded episodes; the second while the workers are torn down,
    as xdist's own session finish (a plugin registered after ours) waits for them."""
    graded = 0

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report):
        if report.when == "teardown":
            SecondCtrlC.graded += 1
            if SecondCtrlC.graded == 2:
                raise KeyboardInterrupt

    def pytest_sessionfinish(self):
        raise KeyboardInterrupt


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller: where xdist waits and the file is written
        config.pluginmanager.register(SecondCtrlC(), "second-ctrl-c")
'''


def test_ctrl_c_twice_under_xdist_keeps_the_summary_line(pytester: pytest.Pytester) -> None:
    write(pytester, [f"EX-{i}" for i in range(8)])
    pytester.makeconftest(SECOND_CTRL_C)
    out = pytester.path / "r.jsonl"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--agent=reference", f"--agenteval-results={out}",
                           "-p", "no:cacheprovider"], cwd=pytester.path, capture_output=True, text=True, timeout=120)
    assert "KeyboardInterrupt" in proc.stdout + proc.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    grades = [r for r in records if "task_id" in r]
    assert 2 <= len(grades) < 8
    assert records[-1]["summary"]["episodes"] == len(grades)  # before: the file ended without its summary


# Each worker's episodes wait until WINDOW of them are in flight in that worker (an event set
# once WINDOW have started, never cleared): a worker that never holds WINDOW items at once
# fails by the wait's timeout, not by timing.
WINDOW_AGENT = '''
import asyncio, os

WINDOW = int(os.environ["WINDOW"])
_started = 0
_full = None


class Waits:
    async def run(self, episode):
        global _started, _full
        if _full is None:
            _full = asyncio.Event()
        _started += 1
        if _started >= WINDOW:
            _full.set()
        await asyncio.wait_for(_full.wait(), float(os.environ.get("WINDOW_WAIT", "30")))
        if "fail" not in episode.task_id:
            episode.call("close_ticket", {"ticket_id": "T-0001"})
'''


@pytest.mark.parametrize("schedule", ["window", "xdist"])
def test_under_xdist_every_worker_holds_a_full_window(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                      schedule: str) -> None:
    """-n 2 x C = 6, 24 items: with our scheduler each worker gets 6 episodes in flight at once.
    xdist's load scheduler first hands each worker 3 items (a quarter of its half) and more only
    as items complete, which none does until 6 are in flight: its episodes time out."""
    write(pytester, [f"EX-{i}" for i in range(24)])
    pytester.makepyfile(win_agents=WINDOW_AGENT)
    monkeypatch.setenv("WINDOW", "6")
    monkeypatch.setenv("WINDOW_WAIT", "30" if schedule == "window" else "3")
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=win_agents:Waits", "-n", "2", "--agenteval-concurrency", "6",
                                           f"--agenteval-schedule={schedule}", "-v", f"--agenteval-results={out}",
                                           "-p", "no:cacheprovider", timeout=120)
    if schedule == "window":
        result.stdout.fnmatch_lines(["scheduling tests via WindowScheduling"])
        result.assert_outcomes(passed=24)
    else:
        result.stdout.fnmatch_lines(["scheduling tests via LoadScheduling"])
        assert result.ret == 1 and result.parseoutcomes().get("passed", 0) < 24


def test_window_scheduling_composes_with_k_lf_reruns_and_timeout(pytester: pytest.Pytester,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """-k, --lf, pytest-rerunfailures and pytest-timeout under -n 2 with our scheduler give the
    grades, counts and summary of the same serial runs."""
    ids = ["EX-0", "EX-1-raise", "EX-2", "EX-3-raise", "EX-4", "EX-5", "EX-6-raise", "EX-7", "SKIP-8"]
    write(pytester, ids)
    monkeypatch.setenv("BARRIER", "1")
    common = ["--agent=cc_agents:SyncAgent", "-k", "not SKIP", "--reruns", "1", "--timeout=60",
              "-p", "no:randomly"]
    grades = {}
    for label, extra in {"serial": [], "window": ["-n", "2", "--agenteval-concurrency", "3", "-v"]}.items():
        first = pytester.runpytest_subprocess(*common, *extra, timeout=120)
        assert _counts(first, "passed", "errors", "rerun") == (5, 3, 3) and "SKIP-8" not in first.stdout.str()
        out = pytester.path / f"{label}.jsonl"
        again = pytester.runpytest_subprocess(*common, *extra, "--lf", f"--agenteval-results={out}", timeout=120)
        assert _counts(again, "passed", "errors", "rerun") == (0, 3, 3)
        if label == "window":
            again.stdout.fnmatch_lines(["scheduling tests via WindowScheduling"])
        grades[label] = (episode_grades(out), result_lines(out)[-1]["summary"])
    # Each failure played twice (the rerun plays an episode of its own).
    assert [g["task_id"] for g in grades["serial"][0]] == [t for t in ids if "raise" in t for _ in range(2)]
    assert grades["window"] == grades["serial"]


def _counts(result: pytest.RunResult, *names: str) -> tuple[int, ...]:
    found = result.parseoutcomes()
    return tuple(found.get(name, 0) for name in names)


CONTROLLER_FROZEN = '''
import gc
import pytest

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):
        with open("controller_frozen.txt", "w") as f:
            f.write(str(gc.get_freeze_count()))
'''


def test_the_xdist_controller_freezes_what_it_imported(pytester: pytest.Pytester,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An xdist controller collects nothing, so collection's gc.freeze never came there: every full
    collection (ten at pytest's unconfigure, the interpreter's at exit) walked all it imported."""
    write(pytester, ["EX-0", "EX-1"])
    pytester.makeconftest(CONTROLLER_FROZEN)
    monkeypatch.setenv("BARRIER", "1")
    result = pytester.runpytest_subprocess("--agent=cc_agents:SyncAgent", "-n", "2", "-p", "no:cacheprovider",
                                           timeout=120)
    result.assert_outcomes(passed=2)
    assert int((pytester.path / "controller_frozen.txt").read_text()) > 10_000
