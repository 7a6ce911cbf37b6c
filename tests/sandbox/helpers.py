"""Helpers for the sandbox tests: the real backends, tree hashes, process checks."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

import pytest

from vibecode.errors import SandboxError
from vibecode.sandbox.base import Sandbox

BACKENDS = ("local", "docker")
_CACHE: dict[str, Sandbox | str] = {}


def get_backend(kind: str) -> Sandbox:
    """One shared instance per backend; a clear failure when it cannot work here."""
    if kind not in _CACHE:
        try:
            if kind == "local":
                from vibecode.sandbox.local import LocalSandbox

                _CACHE[kind] = LocalSandbox()
            else:
                from vibecode.sandbox.docker import DockerSandbox

                _CACHE[kind] = DockerSandbox()
        except SandboxError as exc:
            _CACHE[kind] = str(exc)
    found = _CACHE[kind]
    if isinstance(found, str):
        fix = "run scripts/docker-up" if kind == "docker" else "run scripts/system-deps"
        pytest.fail(f"The {kind} sandbox is not available here: {found} ({fix}).")
    return found


def tree_hash(root: Path) -> str:
    """Content, modes and shape of a tree (including .git): any change to it changes the hash."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            rel = os.path.relpath(full, root)
            digest.update(f"{rel}\0{stat.filemode(st.st_mode)}\0{st.st_uid}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                digest.update(os.readlink(full).encode())
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as fh:
                    digest.update(hashlib.sha256(fh.read()).digest())
    return digest.hexdigest()


def processes_with(marker: str) -> list[str]:
    """Processes on this host whose command line contains ``marker``."""
    found = []
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(f"{name}: {cmdline[:200].decode(errors='replace')}")
    return found


def wait_no_processes(marker: str, grace_s: float = 0.5) -> list[str]:
    deadline = time.monotonic() + grace_s
    while True:
        left = processes_with(marker)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.02)
