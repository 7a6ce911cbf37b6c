"""The local sandbox's seccomp filter refuses namespaces, ptrace, keyctl, bpf, perf_event_open
and mount inside a real bubblewrap run, while ordinary code (fork, threads, subprocess) works."""

from __future__ import annotations

from pathlib import Path

from tests.sandbox.helpers import get_backend

PROBE = r"""
import ctypes, errno, os, subprocess, threading
libc = ctypes.CDLL(None, use_errno=True)
def call(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    return "ok" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
CLONE_NEWUSER = 0x10000000
print("unshare_user", call(272, CLONE_NEWUSER))
print("unshare_net", call(272, 0x40000000))
print("clone_newuser", call(56, CLONE_NEWUSER | 17, 0, 0, 0, 0))
print("ptrace", call(101, 0, 0, 0, 0))  # PTRACE_TRACEME: allowed without a filter
print("keyctl", call(250, 0, -3, 0))
print("bpf", call(321, 0, 0, 0))
print("perf_event_open", call(298, 0, 0, -1, -1, 0))
print("mount", call(165, 0, 0, 0, 0, 0))
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("subprocess", subprocess.run(["true"]).returncode)
"""
BLOCKED = ("unshare_user", "unshare_net", "clone_newuser", "ptrace", "keyctl", "bpf",
           "perf_event_open", "mount")


def test_seccomp_refuses_escape_syscalls(source: Path) -> None:
    sb = get_backend("local")
    with sb.prepare(source) as ws:
        r = sb.run(ws, [sb.python, "-c", PROBE])
    assert r.exit_code == 0, r.stderr
    seen = dict(line.split() for line in r.stdout.splitlines())
    for name in BLOCKED:
        assert seen[name] == "EPERM", (name, r.stdout)
    assert seen["subprocess"] == "0"
    assert r.protections["seccomp"]
