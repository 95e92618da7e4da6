"""The seccomp filter of a bwrap sandbox: system calls no agent needs, refused with EPERM.

Namespaces keep the agent away from the harness's files, processes and network; the kernel
they share stays reachable through every system call. This filter takes away the calls that
reach other processes' memory (``ptrace``, ``process_vm_readv``/``writev``), the kernel's
keyrings, BPF, perf events, ``userfaultfd`` and ``io_uring`` (the usual ways into kernel bugs),
mounting, modules, clocks, swap and reboot. A denied call fails with EPERM, as a
capability-less process would see it; the agent goes on.

The program is classic BPF (``struct sock_filter``), built here for x86_64 and aarch64, and
given to bwrap on a file descriptor (``--seccomp FD``), which loads it just before it runs the
child: bwrap's own set-up is not filtered, everything after is, and the filter is inherited by
every process the agent starts and cannot be lifted. A call made for another architecture
(32-bit calls on x86_64, x32) kills the process, so no other numbering gets round the list.
Elsewhere there is no filter, and the header says so (``Containment.describe``).

Not denied: ``unshare``/``clone`` of a user namespace (a root harness's sandbox makes its own
inside, ``containment.as_user``); see docs/threat-model.md.
"""

from __future__ import annotations

import errno
import functools
import os
import platform
import struct

# name: (x86_64, aarch64); None where the architecture has no such call.
DENIED: dict[str, tuple[int | None, int | None]] = {
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "bpf": (321, 280), "perf_event_open": (298, 241),
    "userfaultfd": (323, 282), "keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218),
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "open_tree": (428, 428),
    "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431), "fsmount": (432, 432),
    "fspick": (433, 433), "mount_setattr": (442, 442), "swapon": (167, 224), "swapoff": (168, 225),
    "reboot": (169, 142), "acct": (163, 89), "quotactl": (179, 60), "syslog": (103, 116),
    "open_by_handle_at": (304, 265), "name_to_handle_at": (303, 264), "lookup_dcookie": (212, 18),
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427),
    "settimeofday": (164, 170), "clock_settime": (227, 112), "clock_adjtime": (305, 266), "adjtimex": (159, 171),
    "vhangup": (153, 58), "iopl": (172, None), "ioperm": (173, None), "modify_ldt": (154, None),
}
ARCHES = {"x86_64": (0xC000003E, 0), "aarch64": (0xC00000B7, 1)}  # AUDIT_ARCH_*, column of DENIED
X32_BIT = 0x40000000

# Classic BPF, as <linux/filter.h> and <linux/seccomp.h> define it.
LOAD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ, JGE = 0x15, 0x35  # BPF_JMP | BPF_JEQ/BPF_JGE | BPF_K
RET = 0x06  # BPF_RET | BPF_K
ALLOW, ERRNO, KILL = 0x7FFF0000, 0x00050000, 0x80000000  # SECCOMP_RET_*
NR, ARCH = 0, 4  # offsets in struct seccomp_data


@functools.cache
def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (this one's by default), or None where there is none."""
    found = ARCHES.get(machine or platform.machine())
    if found is None:
        return None
    audit_arch, column = found
    numbers = sorted({n for pair in DENIED.values() if (n := pair[column]) is not None})
    # (code, target if true, k): targets are labels, made relative offsets below.
    code: list[tuple[int, str | None, int]] = [(LOAD, None, ARCH), (JEQ, "nr", audit_arch), (RET, None, KILL),
                                               (LOAD, None, NR)]
    labels = {"nr": 3}
    if column == 0:
        code.append((JGE, "kill", X32_BIT))  # an x32 call
    code += [(JEQ, "deny", n) for n in numbers]
    code.append((RET, None, ALLOW))
    labels["deny"] = len(code)
    code.append((RET, None, ERRNO | errno.EPERM))
    labels["kill"] = len(code)
    code.append((RET, None, KILL))
    return b"".join(struct.pack("=HBBI", op, labels[target] - i - 1 if target else 0, 0, k)
                    for i, (op, target, k) in enumerate(code))


def filter_fd() -> int | None:
    """A file descriptor holding the filter, at its start (for ``bwrap --seccomp``), or None."""
    compiled = program()
    if compiled is None:
        return None
    fd = os.memfd_create("agenteval-seccomp", 0)
    os.write(fd, compiled)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
