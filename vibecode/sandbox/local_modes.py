"""The local sandbox's isolation modes: which one to use here (proven by running the interpreter
through it once), what a weaker one chosen explicitly leaves open, and what each one protects.

``auto`` accepts only an isolation that keeps the host read-only and the network off (bubblewrap
on Linux, sandbox-exec on macOS); it never falls back to a weaker one silently.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox import memwatch, seccomp
from vibecode.sandbox.base import PROTECTIONS, Limits, sandbox_env
from vibecode.sandbox.copytree import can_mount
from vibecode.sandbox.launcher import launcher_argv
from vibecode.sandbox.local_command import launcher_spec, sandbox_path, wrap_command
from vibecode.sandbox.process import run_process
from vibecode.sandbox.workspace import allocate_sandbox_user, remove_tree


@dataclass(frozen=True)
class Mode:
    kind: str  # "bwrap" | "unshare" | "plain" | "sandbox-exec"
    drop_uid: bool  # we are root: run the code as a fresh unprivileged uid
    note: str = ""  # why no stronger mode was chosen, when one was not


def mode_protections(mode: Mode) -> dict[str, bool]:
    root = os.geteuid() == 0
    unprivileged = mode.drop_uid or not root
    linux = sys.platform.startswith("linux")
    table = {
        "bwrap": dict(network_off=True, readonly_outside=True, private_tmp=True, kill_all=True),
        "unshare": dict(network_off=True, readonly_outside=False, private_tmp=False, kill_all=True),
        "plain": dict(network_off=False, readonly_outside=False, private_tmp=False, kill_all=False),
        "sandbox-exec": dict(
            network_off=True, readonly_outside=True, private_tmp=True, kill_all=False
        ),
    }[mode.kind]
    prot = dict.fromkeys(PROTECTIONS, True)
    prot.update(table)
    prot["unprivileged"] = unprivileged
    prot["nproc_limit"] = unprivileged
    prot["memory_limit"] = linux  # macOS does not enforce an address-space limit
    prot["workspace_quota"] = can_mount() or memwatch.available()  # tmpfs, or the disk watch
    prot["host_view"] = mode.kind == "bwrap"
    prot["memory_per_run"] = memwatch.available()
    prot["seccomp"] = mode.kind == "bwrap" and seccomp.program() is not None
    return prot


WEAK = ("unshare", "plain")  # isolations that leave the host writable: only by explicit choice
_REFUSAL_HINT = (
    "Install bubblewrap (scripts/system-deps, or `apt-get install bubblewrap`), or run with "
    "--sandbox docker. To run candidate code with a writable host anyway, opt in explicitly "
    "with --isolation unshare or --isolation plain (config key `isolation`, or VIBECODE_ISOLATION)."
)


def weak_note(kind: str) -> str:
    """What a weaker isolation chosen by the user leaves open; named in every result."""
    if kind == "unshare":
        return (
            "isolation unshare (chosen explicitly): no network, but the host's files are visible "
            "and writable by the candidate code"
        )
    if kind == "plain":
        return (
            "isolation plain (chosen explicitly): the candidate code can read and write the host's "
            "files and use the network"
        )
    return ""


@functools.lru_cache(maxsize=8)
def detect_mode(isolation: str, python: str) -> Mode:
    """The isolation to use, proven by running the interpreter through it once.

    ``auto`` accepts only an isolation that keeps the host read-only and the network off
    (bubblewrap on Linux, sandbox-exec on macOS); it never falls back to a weaker one silently.
    """
    if sys.platform == "darwin":
        if isolation in ("auto", "sandbox-exec") and shutil.which("sandbox-exec"):
            return Mode("sandbox-exec", False)
        if isolation == "plain":
            return Mode("plain", False, weak_note("plain"))
        raise SandboxError(
            f"The {isolation} isolation is not available on this Mac (sandbox-exec not found), "
            "and vibecode does not run candidate code unsandboxed without being told to.",
            "Run with --sandbox docker, or opt in with --isolation plain.",
        )
    root = os.geteuid() == 0
    tried: list[str] = []
    kind = "bwrap" if isolation == "auto" else isolation
    if kind == "sandbox-exec":
        raise SandboxError("sandbox-exec exists only on macOS.", "Use --isolation auto.")
    if kind != "plain" and shutil.which(kind) is None:
        tried.append(f"{kind} is not installed (not on PATH)")
    else:
        for drop in [True, False] if root and kind == "bwrap" else [False]:
            mode = Mode(kind, drop)
            problem = probe(mode, python)
            if problem is None:
                return Mode(kind, drop, weak_note(kind))
            tried.append(f"{kind}{' as an unprivileged user' if drop else ''}: {problem}")
    if kind == "bwrap":
        raise SandboxError(
            "The local sandbox needs bubblewrap and it does not work here "
            f"({'; '.join(tried)}); vibecode refuses to run candidate code with the host "
            "writable or the network on unless told to.",
            _REFUSAL_HINT,
        )
    raise SandboxError(
        f"The {kind} isolation does not work here: {'; '.join(tried)}.", _REFUSAL_HINT
    )


def probe(mode: Mode, python: str) -> str | None:
    """None when ``python`` runs through ``mode``; else what went wrong."""
    limits = Limits(wall_s=20)
    owner = allocate_sandbox_user() if mode.drop_uid else None
    ws = Path(tempfile.mkdtemp(prefix="vibecode-probe-")).resolve()
    try:
        if owner is not None:
            os.chown(ws, *owner)
        spec = launcher_spec(limits, mode, owner, 0)
        spec.pop("rlimits")
        probe_cmd = [python, "-I", "-S", "-c", "import os; os.getcwd()"]

        def argv_for(info_fd: int) -> list[str]:
            launch = launcher_argv(python, {**spec, "fd": info_fd}, probe_cmd)
            return wrap_command(mode, launch, ws, limits, ws)

        env = sandbox_env(home=str(ws), tmpdir=str(ws), path=sandbox_path(python))
        outcome = run_process(
            argv_for, env=env, cwd=ws, stdin=None, wall_s=limits.wall_s, output_bytes=4096
        )
    except (SandboxError, OSError) as exc:
        return str(exc)
    finally:
        remove_tree(ws)
    if outcome.exit_code == 0 and outcome.reported:
        return None
    text = outcome.stderr.decode("utf-8", "replace").strip().splitlines()
    return text[-1] if text else f"exit {outcome.exit_code}, signal {outcome.signal}"
