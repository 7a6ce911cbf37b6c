"""The local sandbox's command lines: the wrapper per isolation (bubblewrap, unshare,
sandbox-exec) around the launcher, the launcher's rlimits, and bubblewrap's own setup failures."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from vibecode.errors import SandboxError
from vibecode.sandbox.base import Limits
from vibecode.sandbox.hostview import bwrap_args
from vibecode.sandbox.process import ProcessOutcome

if TYPE_CHECKING:
    from vibecode.sandbox.local_modes import Mode

_NICE = 10


def wrap_command(
    mode: Mode,
    launch: list[str],
    ws: Path,
    limits: Limits,
    tmpdir: Path | None,
    seccomp_fd: int | None = None,
) -> list[str]:
    if mode.kind == "bwrap":
        filt = [] if seccomp_fd is None else ["--seccomp", str(seccomp_fd)]
        return [which("bwrap"), *bwrap_args(mode.drop_uid, ws, limits, launch[0]), *filt, "--", *launch]
    if mode.kind == "unshare":
        user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
        flags = ["--net", "--pid", "--ipc", "--uts", "--fork", "--kill-child", "--mount-proc"]
        return [which("unshare"), *user, *flags, "--", *launch]
    if mode.kind == "sandbox-exec":
        return ["sandbox-exec", "-p", macos_profile(ws, tmpdir), *launch]
    return launch


def launcher_spec(
    limits: Limits, mode: Mode, owner: tuple[int, int] | None, baseline: int
) -> dict[str, object]:
    mb = 1 << 20
    rlimits: list[list[object]] = [
        ["RLIMIT_CPU", limits.cpu_seconds, limits.cpu_seconds + 1],
        ["RLIMIT_NOFILE", limits.nofile, limits.nofile],
        ["RLIMIT_FSIZE", limits.file_size_mb * mb, limits.file_size_mb * mb],
        ["RLIMIT_CORE", 0, 0],
    ]
    if sys.platform.startswith("linux"):
        rlimits.append(["RLIMIT_AS", limits.memory_mb * mb, limits.memory_mb * mb])
    if mode.drop_uid or os.geteuid() != 0:
        # RLIMIT_NPROC counts every process of the user, so it is set above what already runs.
        rlimits.append(["RLIMIT_NPROC", baseline + limits.nprocs, baseline + limits.nprocs])
    spec: dict[str, object] = {"rlimits": rlimits, "nice": _NICE, "subreaper": mode.kind == "plain"}
    if mode.drop_uid and owner is not None:
        spec["uid"], spec["gid"] = owner
    return spec


def setup_failed(mode: Mode, outcome: ProcessOutcome) -> bool:
    """bubblewrap gave up before our launcher started the command."""
    return (
        mode.kind == "bwrap"
        and not outcome.reported
        and not outcome.timed_out
        and outcome.stderr.lstrip().startswith(b"bwrap:")
    )


def macos_profile(ws: Path, tmpdir: Path | None) -> str:
    def quote(p: Path) -> str:
        return '"' + str(p.resolve()).replace("\\", "\\\\").replace('"', '\\"') + '"'

    writable = [f"(subpath {quote(ws)})"]
    if tmpdir is not None:
        writable.append(f"(subpath {quote(tmpdir)})")
    devices = (
        '(literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/")'
    )
    return (
        "(version 1)\n(allow default)\n(deny network*)\n(deny file-write*)\n"
        f"(allow file-write* {' '.join(writable)} {devices})\n"
    )


def sandbox_path(python: str) -> str:
    default = "/usr/local/bin:/usr/bin:/bin"
    return os.pathsep.join(
        [os.path.dirname(os.path.abspath(python)), os.environ.get("PATH", default)]
    )


def thread_count(uid: int) -> int:
    """Threads the user runs now (RLIMIT_NPROC counts threads); 0 where /proc is missing."""
    if not os.path.isdir("/proc"):
        return 256 if sys.platform == "darwin" else 0
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid == uid:
                count += len(os.listdir(f"/proc/{name}/task"))
        except OSError:
            continue
    return count


def which(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise SandboxError(f"{tool} is no longer on PATH.", "Run `vibecode doctor`.")
    return found
