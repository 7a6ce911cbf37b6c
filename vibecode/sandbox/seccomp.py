"""The local sandbox's seccomp filter: a classic BPF program for bubblewrap's ``--seccomp FD``.

It refuses (EPERM) the system calls an escape or a host attack starts from and that test code
never needs: new namespaces (``unshare``, ``setns``, ``clone`` with any CLONE_NEW* flag; ``clone3``
answers ENOSYS so that the C library falls back to ``clone``, whose flags can be checked),
``ptrace``, the kernel keyring (``keyctl``, ``add_key``, ``request_key``), ``bpf``,
``perf_event_open``, ``userfaultfd``, mounting (``mount``, ``umount2``, ``pivot_root`` and the new
mount API), kernel modules and ``kexec``. x32 system calls are refused too. Written by hand from
the kernel's ABI (struct seccomp_data); only x86-64 has the table, elsewhere :func:`program`
returns None and the protection is reported missing.
"""

from __future__ import annotations

import errno
import platform
import struct

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_BIT = 0x40000000
_LD_W_ABS, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
# CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
_CLONE, _CLONE3 = 56, 435
BLOCKED_X86_64 = {
    "ptrace": 101, "mount": 165, "umount2": 166, "pivot_root": 155, "unshare": 272,
    "setns": 308, "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321,
    "perf_event_open": 298, "userfaultfd": 323, "init_module": 175, "finit_module": 313,
    "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442, "acct": 163, "swapon": 167, "swapoff": 168, "reboot": 169,
}


def _ins(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program() -> bytes | None:
    """The compiled filter for this machine; None where it has no table (not x86-64 Linux)."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None
    blocked = sorted(BLOCKED_X86_64.values())
    deny = _ins(_RET, _ERRNO | errno.EPERM)
    body: list[bytes] = []
    # Layout: checks..., ALLOW, DENY, ENOSYS, clone-flags check (LD, JSET -> DENY, ALLOW).
    n_checks = 1 + 1 + len(blocked) + 2  # ld nr, jset x32, one jeq each, clone, clone3
    allow_at = 2 + n_checks  # after ld arch + jeq arch
    deny_at, enosys_at, clone_at = allow_at + 1, allow_at + 2, allow_at + 3
    body.append(_ins(_LD_W_ABS, 4))  # arch
    body.append(_ins(_JEQ, _AUDIT_ARCH_X86_64, 0, allow_at - 2))
    body.append(_ins(_LD_W_ABS, 0))  # nr
    pos = len(body)
    body.append(_ins(_JSET, _X32_BIT, deny_at - pos - 1, 0))
    for nr in blocked:
        pos = len(body)
        body.append(_ins(_JEQ, nr, deny_at - pos - 1, 0))
    pos = len(body)
    body.append(_ins(_JEQ, _CLONE, clone_at - pos - 1, 0))
    pos = len(body)
    body.append(_ins(_JEQ, _CLONE3, enosys_at - pos - 1, 0))
    assert len(body) == allow_at
    body.append(_ins(_RET, _ALLOW))
    body.append(deny)
    body.append(_ins(_RET, _ERRNO | errno.ENOSYS))
    body.append(_ins(_LD_W_ABS, 16))  # args[0], low 32 bits (little-endian): clone's flags
    body.append(_ins(_JSET, _CLONE_NEW, 1, 0))
    body.append(_ins(_RET, _ALLOW))
    body.append(deny)
    return b"".join(body)


def filter_fd() -> int | None:
    """A pipe's read end holding :func:`program` (bubblewrap reads it to EOF); None without one."""
    import os

    prog = program()
    if prog is None:
        return None
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, prog)  # far below a pipe's buffer
    finally:
        os.close(write_end)
    return read_end
