"""Latency-bound agents: many episodes in flight in one process, against xdist alone.

    python bench/concurrency.py [--wait 1.0] [--runs 8] [--xdist 16,32] [--before DIR] [--hosts]

The agent waits ``--wait`` seconds per episode (a model call; ``asyncio.sleep`` for the async
agent, ``time.sleep`` for the sync one), then follows the task's reference path. 80 shipped
tasks x ``--runs 8`` = 640 episodes. Every row is a whole pytest process, measured side by side
in this one run: wall time from start to exit, against the ideal (episodes x wait / slots in
flight). Memory per slot: the peak RSS of one process at C = 64 less that of the same run at
C = 1 with an agent that does not wait, over 63.

``--before DIR`` adds the C = 64 rows for another source tree (``git archive REV | tar -x -C
DIR``), each run next to the same row for this one. ``--hosts`` (root, iproute2) adds a run
across two network namespaces joined by a veth pair, an execnet socket server in each, the
controller in the first: ``--tx socket=ADDR:PORT`` twice, C = 32 each. Only loopback and the
namespaces' own addresses are used; the namespaces are deleted afterwards.
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
                await asyncio.sleep(WAIT)
                for step in inner.steps:
                    await episode.acall(step.action, dict(step.arguments))
        return Agent()


AGENTS = {"sync": SyncAgent(), "async": AsyncAgent()}
'''


def run(work: Path, args: list[str], *, wait: float, root: Path = ROOT,
        prefix: tuple[str, ...] = ()) -> tuple[float, int]:
    """(wall s, peak RSS in KiB of the pytest process itself) of one whole run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    kind = next(a for a in args if a.startswith("--agent=")).partition("=")[2]
    args = [a for a in args if not a.startswith("--agent=")]
    env.update(PYTHONPATH=str(root), AGENT_WAIT=str(wait), AGENT_KIND=kind)
    start = time.perf_counter()
    # Remote gateways take no path arguments outside an --rsyncdir (xdist refuses them): those
    # runs collect the task files from the rootdir as a bare `pytest` does.
    paths = [] if "--tx" in args else ["tasks/"]
    proc = subprocess.Popen([*prefix, sys.executable, "-m", "pytest", "-q", "-p", "no:hypothesispytest", *args,
                             *paths], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read() if proc.stdout is not None else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"pytest failed:\n{out.decode()[-3000:]}")
    return wall, usage.ru_maxrss


NETNS = ("agenteval-h1", "agenteval-h2")
ADDRS = ("10.231.0.1", "10.231.0.2")


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wait", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--xdist", default="16,32", help="-n values for xdist alone (the best is compared)")
    parser.add_argument("--before", type=Path, help="another source tree: its C=64 rows run next to this one's")
    parser.add_argument("--hosts", action="store_true", help="also run across two network namespaces (root)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tasks(work)
        (work / "lat_agent.py").write_text(AGENT)
        # Like the reference, the agent sees the task: given by a fixture (--agent takes a class or factory).
        (work / "conftest.py").write_text("import os, pytest, lat_agent\n\n@pytest.fixture\ndef agent():\n"
                                          "    return lat_agent.AGENTS[os.environ['AGENT_KIND']]\n")
        runs = ["--runs", str(args.runs)]
        # Warm up: bytecode, scenario images, remembered task lines.
        run(work, ["--agent=sync", *runs], wait=0)
        episodes = 80 * args.runs
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
