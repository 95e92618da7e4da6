"""The network of a bwrap sandbox that may use one (``--agenteval-isolate-network``): a
network namespace of its own, connected to the outside by slirp4netns (``NetworkHelper``), so no
two sandboxes share a loopback, a port or an abstract socket."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from pathlib import Path


def _await_loopback(pid: int, limit: float = 5.0) -> None:
    """Wait until bwrap has set up the sandbox's loopback: slirp4netns configuring the namespace at
    the same time made bwrap fail now and then ("bwrap: loopback: Failed RTM_NEWADDR"). Bounded:
    past the limit slirp4netns goes ahead, and a failure shows as the sandbox's own."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if "127.0.0.1" in Path(f"/proc/{pid}/net/fib_trie").read_text():
                return
        except OSError:
            return  # gone, or not ours to read: nothing to wait for
        time.sleep(0.002)


class NetworkHelper:
    """slirp4netns for one sandbox: bwrap waits (``--block-fd``) until slirp4netns has given the
    sandbox's new network namespace an interface to the outside, so nothing of the agent runs
    without it; slirp4netns exits when the sandbox is killed (``--exit-fd``) or the harness dies.
    The machine's loopback is not reachable (``--disable-host-loopback``): its services (and any
    state kept in them) are not the agent's. DNS is slirp4netns's forwarder, 10.0.2.3."""

    RESOLV = b"nameserver 10.0.2.3\n"

    def __init__(self, slirp: str) -> None:
        self.slirp = slirp
        self.proc: subprocess.Popen[bytes] | None = None
        self._block_r, self._block_w = os.pipe()
        self._resolv_r, resolv_w = os.pipe()
        os.write(resolv_w, self.RESOLV)
        os.close(resolv_w)
        self._exit_r, self._exit_w = os.pipe()

    def child_fds(self) -> tuple[int, int]:
        return self._block_r, self._resolv_r

    def bwrap_args(self) -> list[str]:
        return ["--block-fd", str(self._block_r), "--perms", "0644", "--ro-bind-data", str(self._resolv_r),
                "/etc/resolv.conf"]

    def close_child_fds(self) -> None:
        for fd in (self._block_r, self._resolv_r):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._block_r = self._resolv_r = -1

    def connect(self, pid: int | None, own_user_namespace: bool) -> None:
        """Give the sandbox whose first process is ``pid`` its network, then let it start."""
        if pid is None:
            raise OSError("bwrap did not start the sandbox (no pid on its info fd)")
        _await_loopback(pid)
        ready_r, ready_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [self.slirp, "--configure", "--mtu=65520", "--disable-host-loopback",
                 "--ready-fd", str(ready_w), "--exit-fd", str(self._exit_r),
                 *(["--userns-path", f"/proc/{pid}/ns/user"] if own_user_namespace else []), str(pid), "tap0"],
                pass_fds=(ready_w, self._exit_r), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, start_new_session=True)
            os.close(ready_w)
            ready_w = -1
            if os.read(ready_r, 1) != b"1":
                self.proc.wait()
                why = (self.proc.stderr.read() if self.proc.stderr else b"").decode(errors="replace").strip()
                raise OSError(f"slirp4netns could not give the sandbox a network: {why.splitlines()[-1:] or '?'}")
        finally:
            os.close(ready_r)
            if ready_w >= 0:
                os.close(ready_w)
            os.close(self._exit_r)
            self._exit_r = -1
        os.write(self._block_w, b"1")
        os.close(self._block_w)
        self._block_w = -1

    def close(self) -> None:
        """End slirp4netns (closing the exit fd), and close what is left of our pipes."""
        self.close_child_fds()
        for fd in (self._block_w, self._exit_r, self._exit_w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._block_w = self._exit_r = self._exit_w = -1

    def reap(self) -> None:
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stderr is not None:
                self.proc.stderr.close()
