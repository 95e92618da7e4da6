"""Latency-bound agents: many episodes in flight in one process, against xdist alone.

    python bench/concurrency.py [--wait 1.0] [--runs 8] [--xdist 16,32] [--before DIR] [--hosts]
    python bench/concurrency.py --schedules [--wait 1.0] [--tasks 80] [--before DIR]

The agent waits ``--wait`` seconds per episode (a model call; ``asyncio.sleep`` for the async
agent, ``time.sleep`` for the sync one), then follows the task's reference path. 84 shipped
tasks x ``--runs 8`` = 672 episodes. Every row is a whole pytest process, measured side by side
in this one run: wall time from start to exit, against the ideal (episodes x wait / slots in
flight). Memory per slot: the peak RSS of one process at C = 64 less that of the same run at
C = 1 with an agent that does not wait, over 63.

``--before DIR`` adds the C = 64 rows for another source tree (``git archive REV | tar -x -C
DIR``), each run next to the same row for this one. ``--hosts`` (root, iproute2) adds a run
across two network namespaces joined by a veth pair, an execnet socket server in each, the
controller in the first: ``--tx socket=ADDR:PORT`` twice, C = 32 each. Only loopback and the
namespaces' own addresses are used; the namespaces are deleted afterwards.

``--schedules`` runs only the multi-process rows, side by side: with xdist's own ``load``
scheduler (``--agenteval-schedule xdist``, the plain-xdist baseline), with ours (``window``, the
default), and with ours in the ``--before`` tree if given: ``-n 2`` x C = 32 for an async agent
that passes and one that fails every task (it waits, then does nothing), and two execnet socket
gateways on 127.0.0.1 (two "hosts" on this machine); then one process at C = 64 for the
failing agent, the figure the others are held to. Besides the wall time, each row says when
the first episode started (from the process's start: the controller's and the workers'
start-up), how long the episodes ran (first start to last end), what came after the last
one (tearing down, the summary, exit), and each worker's mean window. ``--tasks N`` runs the
first N shipped tasks (80 x ``--runs 8`` = 640 episodes, the issue's figure: 64 slots, 10 each).

Every run gets a private ``PYTEST_DEBUG_TEMPROOT``: under ``-n``, xdist asks pytest for a
base temp folder, and pytest then deletes all but the three newest numbered folders in the
shared one at session end, other sessions' runs included (seconds on a busy machine).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from _common import ROOT, copy_tasks, table

AGENT = '''
import asyncio, os, time
from pytest_agenteval.agents.builtin import Reference

WAIT = float(os.environ.get("AGENT_WAIT", "1.0"))
LOG = os.environ.get("AGENT_LOG")


def log(start):  # one short append per episode: atomic across worker processes
    if LOG:
        with open(LOG, "a") as f:
            f.write(f"{os.getpid()} {start} {time.time()}\\n")


class SyncAgent:
    def for_task(self, task):
        inner = Reference().for_task(task)
        class Agent:
            def run(self, episode):
                time.sleep(WAIT)
                for step in inner.steps:
                    episode.call(step.action, dict(step.arguments))
        return Agent()


class AsyncAgent:
    def for_task(self, task):
        inner = Reference().for_task(task)
        class Agent:
            async def run(self, episode):
                start = time.time()
                await asyncio.sleep(WAIT)
                for step in inner.steps:
                    await episode.acall(step.action, dict(step.arguments))
                log(start)
        return Agent()


class FailingAgent:
    """Waits like the others, then does nothing: every task fails (~5 failed checks each)."""
    def for_task(self, task):
        class Agent:
            async def run(self, episode):
                start = time.time()
                await asyncio.sleep(WAIT)
                log(start)
        return Agent()


AGENTS = {"sync": SyncAgent(), "async": AsyncAgent(), "failing": FailingAgent()}
'''


def run(work: Path, args: list[str], *, wait: float, root: Path = ROOT,
        prefix: tuple[str, ...] = ()) -> tuple[float, int]:
    """(wall s, peak RSS in KiB of the pytest process itself) of one whole run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    kind = next(a for a in args if a.startswith("--agent=")).partition("=")[2]
    args = [a for a in args if not a.startswith("--agent=")]
    env.update(PYTHONPATH=str(root), AGENT_WAIT=str(wait), AGENT_KIND=kind)
    temproot = work / ".temproot"  # ours alone: see the module's docstring
    temproot.mkdir(exist_ok=True)
    env["PYTEST_DEBUG_TEMPROOT"] = str(temproot)
    global STARTED
    STARTED = time.time()
    start = time.perf_counter()
    # Remote gateways take no path arguments outside an --rsyncdir (xdist refuses them): those
    # runs collect the task files from the rootdir as a bare `pytest` does.
    paths = [] if "--tx" in args else ["tasks/"]
    proc = subprocess.Popen([*prefix, sys.executable, "-m", "pytest", "-q", "-p", "no:hypothesispytest", *args,
                             *paths], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read() if proc.stdout is not None else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    global CPU
    CPU = usage.ru_utime + usage.ru_stime
    if os.waitstatus_to_exitcode(status) not in ((0, 1) if kind == "failing" else (0,)):
        raise SystemExit(f"pytest failed:\n{out.decode()[-3000:]}")
    return wall, usage.ru_maxrss


STARTED = 0.0  # wall-clock start of the last run (the agents log wall-clock times)
CPU = 0.0  # CPU seconds of the last run's pytest process (its threads; not xdist's workers)
NETNS = ("agenteval-h1", "agenteval-h2")
ADDRS = ("10.231.0.1", "10.231.0.2")


@contextlib.contextmanager
def loopback_hosts(work: Path, *, wait: float, kind: str, root: Path = ROOT) -> Iterator[list[str]]:
    """Two execnet socket servers on 127.0.0.1 (free ports), with this run's environment: yields
    the --tx arguments."""
    import socket

    import execnet

    script = Path(execnet.__file__).parent / "script" / "socketserver.py"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(root), AGENT_WAIT=str(wait), AGENT_KIND=kind)
    servers, ports = [], []
    try:
        for _ in range(2):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            servers.append(subprocess.Popen([sys.executable, "-u", str(script), f"127.0.0.1:{port}"], cwd=work,
                                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            ports.append(port)
        for port in ports:  # the servers bind
            for _ in range(100):
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)
        yield [a for port in ports for a in ("--tx", f"socket=127.0.0.1:{port}//chdir={work}")]
    finally:
        for proc in servers:
            proc.kill()
            proc.wait()


def schedules(work: Path, *, wait: float, runs: int, before: Path | None = None) -> None:
    """The multi-process rows, with xdist's load scheduler, ours, and ours before, side by side."""
    episodes = tasks_in(work) * runs
    ideal = episodes * wait / 64
    rows, share = [], {}
    agent_log = work / "episodes.log"
    os.environ["AGENT_LOG"] = str(agent_log)  # read by the agents, here and in the gateways' servers
    trees = [("xdist", "xdist", ROOT), ("window", "window", ROOT)]
    if before is not None:
        trees.insert(1, ("window (before)", "window", before))

    def row(label: str, key: str, tree: str, schedule: str, root: Path, args: list[str]) -> None:
        agent_log.unlink(missing_ok=True)
        wall, _ = run(work, [*args, f"--agenteval-schedule={schedule}"], wait=wait, root=root)
        share[key, tree] = ideal / wall
        first, span, after = time_line(agent_log, wall)
        rows.append([label, tree, f"{wall:.1f}", f"{ideal:.1f}", f"{ideal / wall:.0%}", f"{first:.2f}",
                     f"{span:.2f}", f"{after:.2f}", f"{in_flight(agent_log):.1f}"])

    for kind in ("async", "failing"):
        for tree, schedule, root in trees:
            row(f"{kind} agent, -n 2 x C=32", kind, tree, schedule, root,
                [f"--agent={kind}", "--runs", str(runs), "-n", "2", "--agenteval-concurrency", "32"])
    for tree, schedule, root in trees:
        with loopback_hosts(work, wait=wait, kind="async", root=root) as tx:
            row("async agent, 2 socket gateways on 127.0.0.1 x C=32", "hosts", tree, schedule, root,
                ["--agent=async", "--runs", str(runs), "-d", *tx, "--max-worker-restart=0", "-p", "no:rerunfailures",
                 "--agenteval-concurrency", "32"])
    for tree, root in [(t, r) for t, _, r in trees if t != "xdist"]:
        row("failing agent, one process, C=64", "one", tree, "window", root,
            ["--agent=failing", "--runs", str(runs), "--agenteval-concurrency", "64"])
    del os.environ["AGENT_LOG"]
    print(table(["run", "--agenteval-schedule (tree)", "wall s", "ideal s", "of ideal", "first episode at s",
                 "episodes s", "after the last s", "mean in flight per worker"], rows))
    for key, what in (("async", "-n 2, passing"), ("failing", "-n 2, failing"), ("hosts", "2 socket gateways")):
        print(f"{what}: " + ", ".join(f"{share[key, tree]:.0%} {tree}" for tree, _, _ in trees))
    print("one process, failing, C=64: " + ", ".join(f"{share['one', tree]:.0%} {tree}"
                                                    for tree, _, _ in trees if tree != "xdist"))


def tasks_in(work: Path) -> int:
    return sum(line.startswith("{") for path in (work / "tasks").iterdir() for line in path.read_text().splitlines())


def time_line(path: Path, wall: float) -> tuple[float, float, float]:
    """(first episode's start after the process's, first start to last end, last end to exit)."""
    spans = [tuple(map(float, line.split()[1:])) for line in path.read_text().splitlines()]
    first, last = min(s for s, _ in spans) - STARTED, max(e for _, e in spans) - STARTED
    return first, last - first, wall - last


def in_flight(path: Path) -> float:
    """Episodes in flight in a worker, on average over the time it ran any (each episode logs its
    pid, start and end): the window the scheduler let it keep, whatever the machine's load."""
    spans: dict[str, list[tuple[float, float]]] = {}
    for line in path.read_text().splitlines():
        pid, start, end = line.split()
        spans.setdefault(pid, []).append((float(start), float(end)))
    means = [sum(e - s for s, e in got) / (max(e for _, e in got) - min(s for s, _ in got)) for got in spans.values()]
    return sum(means) / len(means)


@contextlib.contextmanager
def two_hosts(work: Path, *, wait: float, kind: str) -> Iterator[list[str]]:
    """Two network namespaces joined by a veth pair, an execnet socket server in each (with
    this run's environment, as a host would have it): yields the --tx arguments."""
    import execnet

    def ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True)

    servers: list[subprocess.Popen[bytes]] = []
    try:
        for ns in NETNS:
            ip("netns", "add", ns)
        ip("link", "add", "ae-veth1", "netns", NETNS[0], "type", "veth", "peer", "name", "ae-veth2", "netns", NETNS[1])
        for ns, dev, addr in zip(NETNS, ("ae-veth1", "ae-veth2"), ADDRS, strict=True):
            ip("-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        script = Path(execnet.__file__).parent / "script" / "socketserver.py"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(ROOT), AGENT_WAIT=str(wait), AGENT_KIND=kind)
        for ns, addr in zip(NETNS, ADDRS, strict=True):
            servers.append(subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-u", str(script),
                                             f"{addr}:8888"], cwd=work, env=env, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
        time.sleep(1)  # the servers bind
        yield [a for addr in ADDRS for a in ("--tx", f"socket={addr}:8888//chdir={work}")]
    finally:
        for proc in servers:
            proc.kill()
            proc.wait()
        for ns in NETNS:  # deleting a namespace deletes its end of the veth pair, and so the pair
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


def make_project(work: Path, tasks: int | None = None) -> None:
    """The shipped tasks (the first ``tasks`` of them, half from each file) and the agents above
    in ``work``; ``AGENT_KIND`` names the agent."""
    copy_tasks(work)
    if tasks is not None:
        files = sorted((work / "tasks").iterdir())
        for n, path in enumerate(files):
            keep = tasks // len(files) + (n < tasks % len(files))
            lines = [line for line in path.read_text().splitlines() if line.startswith("{")]
            path.write_text("\n".join(lines[:keep]) + "\n")
    (work / "lat_agent.py").write_text(AGENT)
    # Like the reference, the agent sees the task: given by a fixture (--agent takes a class or factory).
    (work / "conftest.py").write_text("import os, pytest, lat_agent\n\n@pytest.fixture\ndef agent():\n"
                                      "    return lat_agent.AGENTS[os.environ['AGENT_KIND']]\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wait", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--xdist", default="16,32", help="-n values for xdist alone (the best is compared)")
    parser.add_argument("--before", type=Path, help="another source tree: its C=64 rows run next to this one's")
    parser.add_argument("--hosts", action="store_true", help="also run across two network namespaces (root)")
    parser.add_argument("--schedules", action="store_true",
                        help="only the multi-process rows, with xdist's load scheduler and with ours")
    parser.add_argument("--tasks", type=int, help="the first N shipped tasks only (80: 640 episodes at --runs 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        make_project(work, args.tasks)
        runs = ["--runs", str(args.runs)]
        # Warm up: bytecode, scenario images, remembered task lines.
        run(work, ["--agent=sync", *runs], wait=0)
        if args.schedules:
            if args.before is not None:
                run(work, ["--agent=sync", *runs], wait=0, root=args.before)  # its own warm-up
            schedules(work, wait=args.wait, runs=args.runs, before=args.before)
            return
        episodes = tasks_in(work) * args.runs
        rows = []

        def row(label: str, slots: int, extra: list[str], wait: float = args.wait, root: Path = ROOT,
                prefix: tuple[str, ...] = ()) -> tuple[float, int]:
            wall, rss = run(work, extra, wait=wait, root=root, prefix=prefix)
            ideal = episodes * wait / slots
            rows.append([label, slots, f"{wall:.1f}", f"{ideal:.1f}", f"{ideal / wall:.0%}" if wait else "-",
                         f"{rss / 1024:.0f}"])
            return wall, rss

        _, base_rss = row("sync, C=1, agent not waiting", 1, ["--agent=sync", *runs], wait=0)
        results = {}
        for kind in ("AsyncAgent", "SyncAgent"):
            agent = f"--agent={kind.replace('Agent', '').lower()}"
            if args.before is not None:
                run(work, ["--agent=sync", *runs], wait=0, root=args.before)  # its own warm-up
                row(f"{kind}: one process, C=64 (before)", 64, [agent, *runs, "--agenteval-concurrency", "64"],
                    root=args.before)
            results[kind, 64] = row(f"{kind}: one process, C=64", 64,
                                    [agent, *runs, "--agenteval-concurrency", "64"])
            results[kind, 2] = row(f"{kind}: -n 2, C=32 each", 64,
                                   [agent, *runs, "-n", "2", "--agenteval-concurrency", "32"])
        if args.hosts:
            for kind in ("AsyncAgent", "SyncAgent"):
                agent = f"--agent={kind.replace('Agent', '').lower()}"
                with two_hosts(work, wait=args.wait, kind=kind.replace("Agent", "").lower()) as tx:
                    row(f"{kind}: 2 namespaces, --tx socket x2, C=32 each", 64,
                        # pytest-rerunfailures' xdist support has every worker connect to the
                        # controller at 127.0.0.1, which is another host's loopback here.
                        [agent, *runs, "-d", *tx, "--max-worker-restart=0", "-p", "no:rerunfailures",
                         "--agenteval-concurrency", "32"], prefix=("ip", "netns", "exec", NETNS[0]))
        best = None
        for n in (int(x) for x in args.xdist.split(",") if x):
            wall, _ = row(f"SyncAgent: xdist alone, -n {n}", n, ["--agent=sync", *runs, "-n", str(n)])
            best = min(best or (wall, n), (wall, n))
    print(table(["run", "slots in flight", "wall s", "ideal s", "of ideal", "peak RSS MiB (main process)"], rows))
    ideal = episodes * args.wait / 64
    for kind in ("AsyncAgent", "SyncAgent"):
        wall, rss = results[kind, 64]
        share = ideal / wall
        print(f"{kind}, one process, C=64: {wall:.1f} s for {episodes} x {args.wait:g} s episodes, {share:.0%} of the "
              f"ideal {ideal:.1f} s (target >= 80%: {'met' if share >= 0.8 else 'NOT met'}); "
              f"memory per slot {(rss - base_rss) / 63:.0f} KiB")
    if best is not None:
        wall, n = best
        print(f"xdist alone at its best here (-n {n}): {wall:.1f} s; one process at C=64 (async) is "
              f"{wall / results['AsyncAgent', 64][0]:.1f}x faster, (sync) {wall / results['SyncAgent', 64][0]:.1f}x")


if __name__ == "__main__":
    main()
