"""How far an isolated agent is contained: the levels, the probe, the sandbox's command line.

Two levels, the strongest first:

- ``bwrap``: the child runs under bubblewrap in new user, PID, IPC, UTS and network
  namespaces, with every capability dropped, in a session of its own, killed with the harness.
  It sees only what Python and the agent's module need, read-only (the system's ``/usr`` and
  libraries, the interpreter's prefixes, site-packages, this package, the agent's search path),
  a private ``/tmp``, a ``/proc`` of its own PID namespace (the harness is not in it) and a
  network namespace of its own: no network, or with ``--agenteval-isolate-network`` one that
  slirp4netns connects to the outside (``NetworkHelper``), so no two sandboxes share a loopback,
  a port or an abstract socket, and the machine's own ``127.0.0.1`` is out of reach; the run's
  task files, cache folder and reports are hidden even inside the search path, as are the
  project's version control folders, other task and results files and earlier runs' reports
  (``plugin.hiding``).
  A root harness runs it as ``nobody`` in a user namespace of its own (``as_user``), so the
  processes limit binds. A seccomp filter refuses the system calls no agent needs
  (``seccomp``: ptrace, keyrings, BPF, io_uring, mounts…) where the machine is x86_64 or aarch64.
- ``process``: a process of its own, in a session and process group of its own, killed with
  its group when its episode ends; it runs as your user and can read what you can.

The harness makes itself non-dumpable whenever it isolates (Linux), so a process of the same
user without ``CAP_SYS_PTRACE`` cannot read or write its memory through ``/proc/<pid>/mem``.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_agenteval.agents import seccomp
from pytest_agenteval.agents.limits import Limits
from pytest_agenteval.agents.network import NetworkHelper

LEVELS = ("bwrap", "process")
STRONGEST = "strongest"  # --agenteval-isolate with no value: the strongest level that works here
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What Python and an HTTP client read from /etc; nothing else of it is shown.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group", "nsswitch.conf",
             "hosts", "resolv.conf", "host.conf", "gai.conf", "ssl", "ca-certificates", "pki", "alternatives",
             "mime.types")
# The grader's own credentials, never the agent's: with the judge's key an agent with the network
# could ask the judge's model its rubric's question of every draft before sending one (red team 13).
# OPENAI_API_KEY, which a judge may fall back on, is the agent's too: it stays.
GRADERS_VARIABLES = frozenset({"AGENTEVAL_JUDGE_API_KEY"})
NAMESPACES = ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
              "--die-with-parent", "--new-session", "--cap-drop", "ALL")


def namespaces(user: tuple[int, int] | None) -> tuple[str, ...]:
    """bwrap's namespace options. As root (``user`` given) no user namespace of bwrap's own (it
    would map the agent to root outside it): bwrap keeps only CAP_SETUID and CAP_SETGID for
    ``as_user`` to drop to ``user``, which then makes the user namespace, unprivileged."""
    if user is None:
        return NAMESPACES
    return (*NAMESPACES[1:], "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID")


def as_user(user: tuple[int, int] | None) -> list[str]:
    """Before the child, as root: drop to ``user`` (setpriv: no groups, no capabilities), then a
    user namespace of its own mapping only that uid (unshare): every capability is gone at the
    child's exec, the processes limit counts this sandbox's processes, and its keyrings are its own."""
    if user is None:
        return []
    return ["/usr/bin/setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups", "--inh-caps=-all",
            "--", "/usr/bin/unshare", "--user", "--map-current-user", "--"]


class ContainmentError(Exception):
    """The level asked for cannot be had on this machine (one line: what, and the way out)."""


@dataclass(frozen=True, kw_only=True)
class Containment:
    """The containment in force for one run's isolated agents."""

    level: str  # one of LEVELS
    network: bool = False  # bwrap: the child may use the network (LLM agents)
    hidden: tuple[str, ...] = ()  # paths the child must not see (task files, cache, reports)
    readable: tuple[str, ...] = ()  # bwrap: what the child may read, besides its search path
    # bwrap: (folder, its copy) of the folders shown as a copy of their code (``plugin.view``)
    views: tuple[tuple[str, str], ...] = ()
    large: tuple[str, ...] = ()  # bwrap: files of those folders too large to copy, shown as they are
    bwrap: str | None = None
    limits: Limits = Limits()  # the child's OS resource limits (``limits``)
    spares: int = field(default=1, compare=False)  # sandboxes kept started ahead, per process (``pool``)
    # bwrap when the harness is root: the uid and gid bwrap and the agent run as (``sandbox_user``)
    user: tuple[int, int] | None = None
    slirp: str | None = None  # bwrap with the network: slirp4netns, which connects each sandbox's namespace

    def describe(self) -> str:
        """As the header and the run record say it: ``bwrap (no network)``, ``process``."""
        if self.level != "bwrap":
            return self.level
        user = f", as uid {self.user[0]}" if self.user is not None else ""
        filtered = ", seccomp" if seccomp.program() is not None else ""
        return f"bwrap ({'network of its own' if self.network else 'no network'}{filtered}{user})"

    def start(self, argv: list[str], search_path: str | None) -> Child:
        """Start ``argv`` (the child's command) in this level's containment, its pipes to us."""
        info_r, info_w = os.pipe() if self.level == "bwrap" else (-1, -1)
        found = seccomp.filter_fd() if self.level == "bwrap" else None
        rules = -1 if found is None else found
        net = NetworkHelper(self.slirp) if self.network and self.slirp is not None else None
        try:
            proc = subprocess.Popen(self.command(argv, search_path, info_w, net, rules), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                    env=self.environment(search_path),
                                    pass_fds=(*(fd for fd in (info_w, rules) if fd >= 0),
                                              *(net.child_fds() if net else ())))
        except BaseException:
            if info_r >= 0:
                os.close(info_r)
            if net is not None:
                net.close()
            raise
        finally:
            for fd in (info_w, rules):
                if fd >= 0:
                    os.close(fd)
            if net is not None:
                net.close_child_fds()
        child = Child(proc, info_r, net)
        if net is not None:
            try:  # before the sandbox runs anything: its network, then let it go on
                net.connect(child.init_pid(), self.user is None)
            except BaseException:
                child.stop()
                raise
        return child

    def command(self, argv: list[str], search_path: str | None, info_fd: int = -1,
                net: NetworkHelper | None = None, seccomp_fd: int = -1) -> list[str]:
        """``argv`` wrapped in this level's sandbox (``seccomp_fd``: its filter, ``agents.seccomp``)."""
        if self.level != "bwrap":
            return argv
        assert self.bwrap is not None
        return [self.bwrap, *namespaces(self.user), "--unshare-net",
                *(["--info-fd", str(info_fd)] if info_fd >= 0 else []),
                *(["--seccomp", str(seccomp_fd)] if seccomp_fd >= 0 else []),
                *_mounts(self.readable, search_path, self.hidden, self.user, net is not None, self.limits.memory,
                         self.views, self.large),
                *(net.bwrap_args() if net is not None else []), "--chdir", search_path or "/tmp", "--",
                *as_user(self.user), *argv]

    def environment(self, search_path: str | None) -> dict[str, str]:
        """The child's environment: the harness's own (API keys reach LLM agents), less pytest's
        variables (the current test's id, the run's extra options); the plugin has taken the
        signing key out of it before the first sandbox starts, and the judge's own key is left out
        (``GRADERS_VARIABLES``). The search path is not on
        ``PYTHONPATH``: the child adds it once its limits are set (then to ``PYTHONPATH`` too, for
        the processes it starts)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k not in GRADERS_VARIABLES}
        if self.level == "bwrap":
            env.update(HOME="/tmp", TMPDIR="/tmp")
        return env


def _await_exit(pid: int, limit: float = 5.0) -> None:
    """Wait until the sandbox's first process has exited: the kernel ends every other process of
    its PID namespace before that one exits, so then none is left. Bounded; a reused pid that is
    not a sandbox's ends the wait as soon as it is seen to live on (its stat names another start)."""
    deadline = time.monotonic() + limit
    try:
        started = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return  # gone already
    while time.monotonic() < deadline:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return
        if fields[0] in ("Z", "X") or fields[19] != started:
            return
        time.sleep(0.002)


class Child:
    """A started child, and the way to end it with everything it started."""

    def __init__(self, proc: subprocess.Popen[bytes], info_fd: int, net: NetworkHelper | None = None) -> None:
        self.proc, self._info_fd, self._sandboxed = proc, info_fd, info_fd >= 0
        self._killed = False
        self._net = net
        self._init: int | None = None

    def init_pid(self) -> int | None:
        """The host pid of the sandbox's first process (read once from bwrap's ``--info-fd``)."""
        if self._info_fd >= 0:
            self._init = self._read_info(blocking=True)
        return self._init

    def stop(self) -> None:
        """Kill the child and all it started, and wait until they are gone."""
        self.kill()
        self.reap()

    def kill(self) -> None:
        """Kill the child and all it started (``reap`` waits until they are gone).

        Under bwrap, killing the PID namespace's first process makes the kernel kill every
        process in the namespace and wait for them before that one is reaped, and bwrap exits
        only once it has reaped it: so when ``reap`` returns, nothing of the sandbox is left,
        and once this returns, nothing of it runs again (SIGKILL is not caught).
        At the process level the child's process group is killed (a process that left the
        group with ``setsid`` is not: that needs the bwrap level)."""
        if self._killed:
            return
        self._killed = True
        if self._info_fd >= 0:  # bwrap writes it as it starts the sandbox, or exits: never a long wait
            self._init = self._read_info(blocking=self.proc.poll() is None)
        init = self._init
        try:
            if init is not None and self.proc.poll() is None:
                os.kill(init, signal.SIGKILL)  # bwrap is still there, so this pid is still its child's
            else:
                os.killpg(self.proc.pid, signal.SIGKILL)  # before wait: the group's id is still ours
        except (ProcessLookupError, PermissionError):
            pass
        if self._net is not None:
            self._net.close()  # slirp4netns sees its exit fd close and ends

    def reap(self) -> None:
        """Wait until the killed child and all it started are gone; close our ends of its pipes."""
        self.proc.wait()
        if self._init is not None:
            _await_exit(self._init)  # bwrap killed by its group may leave the namespace dying for a moment
        if self._net is not None:
            self._net.reap()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                # (closing flushes: a spec line left unwritten to a sandbox that died before its
                # episode raises BrokenPipeError here, which killed the reaper's thread; red team 39)
                with contextlib.suppress(OSError):
                    stream.close()

    def exit_code(self, code: int) -> int:
        """The agent's exit code as ``subprocess`` gives it: bwrap reports death by signal N as
        128 + N (so an agent's own ``os._exit(139)`` reads as a segfault there, too)."""
        return -(code - 128) if self._sandboxed and 128 < code < 160 else code

    def _read_info(self, *, blocking: bool) -> int | None:
        """The host pid of the sandbox's first process, from bwrap's ``--info-fd`` (blocking:
        until bwrap has written it, or exited)."""
        fd, self._info_fd = self._info_fd, -1
        try:
            os.set_blocking(fd, blocking)
            data = b""
            with contextlib.suppress(BlockingIOError):
                while chunk := os.read(fd, 4096):
                    data += chunk
                    if blocking and data.rstrip().endswith(b"}"):
                        break
        finally:
            os.close(fd)
        try:
            pid = json.loads(data or b"{}").get("child-pid")
        except ValueError:
            return None
        return pid if isinstance(pid, int) and pid > 1 else None


def choose(asked: str, *, network: bool, hidden: Iterable[str] = ()) -> Containment:
    """The containment ``--agenteval-isolate[=asked]`` gets here, or ``ContainmentError``."""
    if asked not in (STRONGEST, *LEVELS):
        raise ContainmentError(f"--agenteval-isolate={asked}: not a containment level (use bwrap or process, "
                               "or no value for the strongest here)")
    if network and asked == "process":
        raise ContainmentError("--agenteval-isolate-network: the process level never cuts the network; "
                               "it applies to --agenteval-isolate=bwrap")
    if asked == "process":
        return Containment(level="process")
    user = sandbox_user()
    found, why = probe(user)
    if found is None:
        raise ContainmentError(f"--agenteval-isolate: no OS sandbox works here ({why}); install bubblewrap, "
                               "or pass --agenteval-isolate=process for process isolation only")
    slirp = None
    if network:
        slirp = os.environ.get("AGENTEVAL_SLIRP4NETNS", shutil.which("slirp4netns") or "")  # the variable: tests'
        if not slirp or not os.access(slirp, os.X_OK):
            raise ContainmentError("--agenteval-isolate-network: slirp4netns not found; it gives each sandbox a "
                                   "network of its own (sharing this machine's would let one episode reach the next "
                                   "one's sandbox); install slirp4netns, or pass --agenteval-isolate=process "
                                   "(no OS sandbox)")
    return Containment(level="bwrap", network=network, hidden=tuple(hidden), bwrap=found,
                       readable=tuple(readable_paths()), user=user, slirp=slirp)


def sandbox_user() -> tuple[int, int] | None:
    """The uid and gid a sandbox runs as when the harness is root: ``nobody``'s (65534). As root,
    bwrap's user namespace would map the agent to root outside it, which the kernel exempts
    from the processes limit; as ``nobody`` in a namespace of its own, the limit binds, per
    sandbox. None when the harness is not root (the sandbox runs as your user, unprivileged)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def readable_by(path: str, user: tuple[int, int] | None) -> bool:
    """Whether the sandbox's user can list ``path`` and read in it (its parents do not matter:
    bwrap is handed the folder open)."""
    if user is None:
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    bits = 0o500 if st.st_uid == user[0] else 0o050 if st.st_gid == user[1] else 0o005
    return st.st_mode & bits == bits


def probe(user: tuple[int, int] | None = None) -> tuple[str | None, str]:
    """bubblewrap's path if it can make its namespaces here (it cannot in some containers), as
    ``user`` when given, else why."""
    found = os.environ.get("AGENTEVAL_BWRAP", shutil.which("bwrap") or "")  # the variable: tests' way to hide it
    if not found or not os.access(found, os.X_OK):
        return None, "bwrap not found"
    true = shutil.which("true") or "/bin/true"
    try:
        done = subprocess.run([found, *namespaces(user), "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc",
                               "--dev", "/dev", "--", *as_user(user), true], capture_output=True, timeout=30,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bwrap failed: {exc}"
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines() or [f"exit code {done.returncode}"]
        return None, f"bwrap cannot create its namespaces: {lines[-1][:200]}"
    return found, ""


def make_undumpable() -> None:
    """Keep other processes of this user (an agent) out of this one's memory (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    pr_set_dumpable = 4
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(pr_set_dumpable, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


def is_dumpable() -> bool:
    pr_get_dumpable = 3
    return bool(ctypes.CDLL(None).prctl(pr_get_dumpable, 0, 0, 0, 0))


def readable_paths() -> list[str]:
    """What a child reads: the system, the interpreter, this package, and the child's own
    ``sys.path`` (asked of a fresh interpreter: ``.pth`` files and PYTHONPATH add to it)."""
    package = Path(__file__).resolve().parent.parent  # this package, wherever it is installed
    asked = subprocess.run([sys.executable, "-S", "-c", "import site, sys; site.main(); print(repr(sys.path))"],
                           capture_output=True, text=True, check=False, cwd="/", env=Containment(
                               level="bwrap").environment(None), timeout=60)
    child_path = ast.literal_eval(asked.stdout.strip() or "[]")
    wanted = [*SYSTEM_DIRS, sys.prefix, sys.base_prefix, sys.exec_prefix, str(package), *child_path,
              str(Path(sys.executable).resolve().parent)]
    return _outermost(p for p in wanted if p and p != "/" and os.path.exists(p))


def _outermost(paths: Iterable[str]) -> list[str]:
    """Each path once, without those inside another, parents first."""
    kept: list[str] = []
    for path in sorted({os.path.abspath(p) for p in paths}, key=lambda p: (p.count("/"), p)):
        if not _under(path, kept):
            kept.append(path)
    return kept


SHM_SIZE = 64 << 20  # the sandbox's /dev/shm at most: enough for multiprocessing's semaphores and queues


def _mounts(readable: tuple[str, ...], search_path: str | None, hidden: tuple[str, ...],
            user: tuple[int, int] | None = None, own_resolv: bool = False, tmp_size: int | None = None,
            views: tuple[tuple[str, str], ...] = (), large: tuple[str, ...] = ()) -> list[str]:
    # /tmp is memory: its size is the memory limit, else files there would hold memory past it.
    # So is bwrap's /dev (half the machine's memory, /dev/shm in it), which an unprivileged
    # harness's agent owns: read-only (its devices still read and write).
    # Its /dev/shm is a small tmpfs of its own, a quarter of that memory at most, taken off /tmp's:
    # multiprocessing's locks and queues need one (red team 44: an honest agent's Queue failed).
    shm = min(SHM_SIZE, tmp_size // 4) if tmp_size else None
    args = [*(["--perms", "1777"] if user else []),
            *(["--size", str(tmp_size - (shm or 0))] if tmp_size else []),
            "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
            "--perms", "1777", *(["--size", str(shm)] if shm else []), "--tmpfs", "/dev/shm"]
    if user:  # else bwrap makes /etc 0700 for its files: as nobody, no passwd, certificates or resolv.conf
        args += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC_FILES:
        if own_resolv and name == "resolv.conf":
            continue  # slirp4netns's forwarder (NetworkHelper)
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    mounted = _outermost([*readable, *([search_path] if search_path else [])])
    if user:  # bwrap makes a mount's missing parents with the host's modes (/root: 0700): open them
        made: set[str] = {"/", "/tmp"}
        for path in (*mounted, *(f for f in large if not _under(f, mounted))):  # (a listed file elsewhere too)
            for parent in reversed(Path(path).parents):
                if str(parent) not in made and not _under(str(parent), mounted):
                    made.add(str(parent))
                    args += ["--perms", "0755", "--dir", str(parent)]
    for path in mounted:
        if os.path.islink(path):  # /lib -> usr/lib on merged-/usr systems
            args += ["--symlink", os.readlink(path), path]
        else:
            args += ["--ro-bind", path, path]
    viewed = [folder for folder, _ in views]
    for folder, copy in sorted(views, key=lambda v: v[0].count("/")):  # the copy of its code over a folder
        args += ["--ro-bind", copy, folder]
    rebound = [p for p in readable if _under(p, viewed) and p not in viewed]
    for path in (*rebound, *large):  # and inside it, what is the system's (a virtualenv in the project) as it is
        args += ["--ro-bind", path, path]
    folders: list[str] = []
    for path in sorted({os.path.abspath(p) for p in hidden}):
        if not os.path.exists(path) or not _under(path, mounted) or _under(path, folders) or (
                _under(path, viewed) and not _under(path, rebound)):
            continue  # not in the sandbox at all, in a folder hidden already, or not in a view's copy
        if os.path.isdir(path):
            folders.append(path)
            args += ["--tmpfs", path]
        else:  # a file in a folder the agent needs: /dev/null on it (nodev there: opening it fails)
            args += ["--ro-bind", "/dev/null", path]
    return args



def _under(path: str, folders: list[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)
