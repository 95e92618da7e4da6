"""The OS resource limits of an isolated agent's process: CPU time, memory, processes, file size,
open files.

Set with ``setrlimit`` by the sandbox's child on itself before anything of the agent's project
can run (``_child.apply_limits``), soft and hard alike, so the agent cannot raise them; every
process it starts inherits them. The kernel enforces them:

- ``cpu`` (seconds, RLIMIT_CPU): SIGXCPU ends the child, SIGKILL a second later;
- ``memory`` (bytes of address space, RLIMIT_AS): an allocation past it fails (MemoryError);
- ``processes`` (RLIMIT_NPROC, threads count): fork and thread starts fail. Under bwrap the
  count is per sandbox (its own user namespace; a root harness runs the sandbox as ``nobody``,
  as the kernel exempts root from it); at the process level it would count every process of
  your user, so there it is not set;
- ``file_size`` (bytes, RLIMIT_FSIZE): a write past it fails (EFBIG); the sandbox's ``/tmp`` is
  in memory, so this also bounds what one file there costs, and under bwrap ``/tmp`` as a whole
  is as large as ``memory`` (ENOSPC past it);
- ``open_files`` (RLIMIT_NOFILE): opening one more fails (EMFILE). The kernel's buffers of
  sockets and pipes are no address space: this bounds them per process (red team 37).

``--agenteval-limits cpu=60,memory=2G`` (or the ``agenteval_limits`` ini value) changes some and
keeps the others' defaults; ``none`` lifts one.
"""

from __future__ import annotations

import re
import resource
from dataclasses import asdict, dataclass, replace

UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
NAMES = ("cpu", "memory", "processes", "file_size", "open_files")


class LimitsError(ValueError):
    """A malformed ``--agenteval-limits`` value (one line: what, and the fix)."""


@dataclass(frozen=True, kw_only=True)
class Limits:
    """None: no limit of that kind."""

    cpu: int | None = 600
    memory: int | None = 4 * 2**30
    processes: int | None = 256
    file_size: int | None = 64 * 2**20
    open_files: int | None = 1024

    @classmethod
    def parse(cls, text: str, *, where: str = "--agenteval-limits") -> Limits:
        """``cpu=60,memory=2G,processes=64,file_size=16M`` (``file-size`` too); unnamed keep the default."""
        limits, given = cls(), set()
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, sep, value = part.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in NAMES:
                raise LimitsError(f"{where}={text}: {part!r} is not NAME=VALUE with NAME one of "
                                  f"{', '.join(NAMES)} (e.g. cpu=60,memory=2G)")
            if name in given:  # ("cpu=1,cpu=2": which was meant? red team 69)
                raise LimitsError(f"{where}={text}: {name} is given twice (give each limit once)")
            given.add(name)
            limits = replace(limits, **{name: _amount(value.strip(), name, where, text)})
        return limits

    def clamped(self) -> Limits:
        """Each limit no higher than this process's own hard limit, which the child inherits and
        cannot raise (``ulimit -t 100`` under the default 600 s failed every agent's start: red
        team 38). The header then shows the limits in force."""
        lowered = {}
        for name, which in _RESOURCES.items():
            value, hard = getattr(self, name), resource.getrlimit(which)[1]
            ceiling = hard - 1 if name == "cpu" else hard  # (the CPU limit's hard one is a second above)
            if hard != resource.RLIM_INFINITY and (value is None or value > ceiling):
                lowered[name] = max(ceiling, 1)
        return replace(self, **lowered) if lowered else self

    def for_child(self, level: str) -> dict[str, int]:
        """What the child sets on itself at this containment level (see the module's docstring)."""
        wanted = asdict(self)
        if level != "bwrap":
            wanted.pop("processes")
        return {k: v for k, v in wanted.items() if v is not None}

    def describe(self, level: str) -> str:
        """As the header says it: ``cpu 600 s, memory 4G, processes 256, file size 64M``."""
        shown = []
        for name in NAMES:
            value = getattr(self, name)
            if value is None:
                shown.append(f"{name.replace('_', ' ')} unlimited")
                continue
            text = f"{value} s" if name == "cpu" else str(value) if name in COUNTS else _size(value)
            if name == "processes" and level != "bwrap":
                text += " (not set at the process level)"
            shown.append(f"{name.replace('_', ' ')} {text}")
        return ", ".join(shown)


def _amount(value: str, name: str, where: str, text: str) -> int | None:
    if value.lower() in ("none", "unlimited"):
        return None
    found = re.fullmatch(r"(\d{1,15})([KMGT]?)", value.upper()) if name in ("memory", "file_size") else \
        re.fullmatch(r"(\d{1,15})()", value)
    if found is None or int(found.group(1)) == 0:
        unit = "bytes, with K, M, G or T" if name in ("memory", "file_size") else \
            "seconds" if name == "cpu" else name.replace("_", " ")
        raise LimitsError(f"{where}={text}: {name}={value}: must be a whole number above 0 ({unit}), "
                          "or none for no limit")
    amount = int(found.group(1)) * UNITS[found.group(2)]
    if amount > LARGEST:  # (bwrap's --size and setrlimit take at most a C long: red team 37)
        raise LimitsError(f"{where}={text}: {name}={value}: is more than the system can set ({_size(LARGEST)} "
                          "at most), or none for no limit")
    return amount


_RESOURCES = {"cpu": resource.RLIMIT_CPU, "memory": resource.RLIMIT_AS, "processes": resource.RLIMIT_NPROC,
              "file_size": resource.RLIMIT_FSIZE, "open_files": resource.RLIMIT_NOFILE}
COUNTS = ("processes", "open_files")
LARGEST = 2**62  # bytes, seconds or processes: under a C long, over any machine's memory


def _size(value: int) -> str:
    for unit in ("T", "G", "M", "K"):
        if value % UNITS[unit] == 0:
            return f"{value // UNITS[unit]}{unit}"
    return f"{value} bytes"
