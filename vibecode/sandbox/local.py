"""LocalSandbox: untrusted code on this machine, in the strongest isolation the platform offers.

Isolation, strongest first. ``isolation="auto"`` (the default) uses bubblewrap (sandbox-exec on
macOS) and refuses to run when it does not work here; the weaker ``unshare`` and ``plain`` run
only when chosen explicitly (``--isolation``, the ``isolation`` setting), and every result names
them in ``RunResult.notes``:

- ``bwrap`` (Linux, bubblewrap): new network, PID, IPC and UTS namespaces; the host read-only;
  a private, size-limited /tmp and /dev/shm; the workspace the only writable place. As root, the
  code runs as a fresh unprivileged uid without capabilities (so process limits hold, and files
  shared with the user's tree cannot be written); folders only root may enter, such as /root,
  are replaced by empty ones with the interpreter's own folders mounted back read-only.
- ``unshare`` (Linux, util-linux): network and PID namespaces only; the host stays writable.
- ``plain``: its own session, rlimits and a scrubbed environment only; leftover processes are
  found by an environment marker and a child-subreaper launcher, best effort.
- ``sandbox-exec`` (macOS): a profile that denies the network and writes outside the workspace.

Every run also gets rlimits (CPU, address space, processes, open files, file size, no core
dumps), a scrubbed environment with HOME in the workspace, a lower CPU priority, and its own
session that is killed as a whole on timeout. What a mode lacks is named in
``RunResult.protections`` and by ``vibecode doctor``.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox import memwatch, seccomp
from vibecode.sandbox.base import PROTECTIONS, Limits, RunJob, check_run, run_parallel, sandbox_env
from vibecode.sandbox.copytree import can_mount
from vibecode.sandbox.hostview import bwrap_args
from vibecode.sandbox.launcher import launcher_argv
from vibecode.sandbox.process import ProcessOutcome, run_process, sweep_processes, to_result
from vibecode.sandbox.workspace import (
    Workspace,
    allocate_sandbox_user,
    prepare_workspace,
    remove_tree,
)
from vibecode.types import Patch, RunResult

ISOLATIONS = ("auto", "bwrap", "unshare", "plain", "sandbox-exec")
# bubblewrap sometimes fails to set up its mounts on a busy machine ("Can't bind mount ...
# Invalid argument") before the command starts; such a run is retried, never reported as the
# command's failure.
SETUP_RETRIES = 3
_NICE = 10


@dataclass(frozen=True)
class Mode:
    kind: str  # "bwrap" | "unshare" | "plain" | "sandbox-exec"
    drop_uid: bool  # we are root: run the code as a fresh unprivileged uid
    note: str = ""  # why no stronger mode was chosen, when one was not


class LocalSandbox:
    """Runs commands on this machine; see the module docstring for the isolation it uses."""

    def __init__(
        self,
        isolation: str = "auto",
        *,
        workdir: str | Path | None = None,
        python: str | None = None,
    ) -> None:
        if isolation not in ISOLATIONS:
            raise SandboxError(
                f"Unknown local isolation {isolation!r}.", f"Use one of: {', '.join(ISOLATIONS)}."
            )
        self._python = python or sys.executable
        self._parent = Path(workdir).expanduser() if workdir else None
        self.mode = detect_mode(isolation, self._python)

    @property
    def name(self) -> str:
        return "local"

    @property
    def python(self) -> str:
        return self._python

    @property
    def isolation(self) -> str:
        return self.mode.kind

    @property
    def notes(self) -> tuple[str, ...]:
        """What this isolation leaves open (a weaker one chosen explicitly); empty otherwise."""
        return (self.mode.note,) if self.mode.note else ()

    def protections(self) -> dict[str, bool]:
        prot = mode_protections(self.mode)
        prot["workspace_quota"] = self._parent is None and can_mount()
        return prot

    def prepare(self, source: Path, patch: Patch | None = None) -> Workspace:
        owner = allocate_sandbox_user() if self.mode.drop_uid else None
        return prepare_workspace(
            source, patch, owner=owner, hardlinks=owner is not None, parent=self._parent
        )

    def run(
        self,
        workspace: Workspace,
        cmd: Sequence[str],
        limits: Limits | None = None,
        *,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        limits = limits or Limits()
        cmd = check_run(workspace, cmd)
        if self.mode.drop_uid:
            workspace.ensure_owner()
        workspace.adopt()
        token = secrets.token_hex(8)
        private_tmp = self.mode.kind == "bwrap"
        tmpdir = (
            None
            if private_tmp
            else Path(tempfile.mkdtemp(prefix="vibecode-tmp-", dir=self._parent))
        )
        try:
            if tmpdir is not None and workspace.owner is not None:
                os.chown(tmpdir, *workspace.owner)
            run_env = sandbox_env(
                home=str(workspace.path),
                tmpdir="/tmp" if tmpdir is None else str(tmpdir),
                path=_sandbox_path(self._python),
                extra={**(env or {}), "VIBECODE_SANDBOX_RUN": token},
            )
            uid = workspace.owner[0] if workspace.owner and self.mode.drop_uid else os.getuid()
            baseline = _thread_count(uid) if uid != 0 else 0  # root ignores RLIMIT_NPROC
            spec = _launcher_spec(limits, self.mode, workspace.owner, baseline)
            sweep = self.mode.kind == "plain" and sys.platform.startswith("linux")

            def after_exit() -> None:
                sweep_processes(token)

            filter_fd: int | None = None

            def argv_for(info_fd: int) -> list[str]:
                launch = launcher_argv(self._python, {**spec, "fd": info_fd}, cmd)
                return wrap_command(self.mode, launch, workspace.path, limits, tmpdir, filter_fd)

            for attempt in range(SETUP_RETRIES + 1):
                filter_fd = seccomp.filter_fd() if self.mode.kind == "bwrap" else None
                try:
                    outcome = self._attempt(argv_for, run_env, workspace, stdin, limits, sweep,
                                            after_exit, filter_fd)
                finally:
                    if filter_fd is not None:
                        os.close(filter_fd)
                if attempt == SETUP_RETRIES or not _setup_failed(self.mode, outcome):
                    break
                time.sleep(0.05 * (attempt + 1))
        finally:
            if tmpdir is not None:
                remove_tree(tmpdir)
        prot = self.protections()
        prot["workspace_quota"] = workspace.quota_mb is not None
        return to_result(
            outcome, "local", prot, oom_killed=outcome.memory_exceeded, notes=self.notes
        )

    def _attempt(self, argv_for: Callable[[int], list[str]], run_env: dict[str, str],
                 workspace: Workspace, stdin: bytes | None, limits: Limits, sweep: bool,
                 after_exit: Callable[[], None], filter_fd: int | None) -> ProcessOutcome:
        return run_process(
            argv_for,
            env=run_env,
            cwd=workspace.path,
            stdin=stdin,
            wall_s=limits.wall_s,
            output_bytes=limits.output_bytes,
            after_exit=after_exit if sweep else None,
            run_memory_mb=limits.memory_mb,
            pass_fds=() if filter_fd is None else (filter_fd,),
        )

    def run_many(self, jobs: Sequence[RunJob], parallel: int | None = None) -> list[RunResult]:
        return run_parallel(self, jobs, parallel)


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
    prot["workspace_quota"] = can_mount()
    prot["host_view"] = mode.kind == "bwrap"
    prot["memory_per_run"] = memwatch.available()
    prot["seccomp"] = mode.kind == "bwrap" and seccomp.program() is not None
    return prot


# ----------------------------------------------------------------------------- commands


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
        return [_which("bwrap"), *bwrap_args(mode.drop_uid, ws, limits, launch[0]), *filt, "--", *launch]
    if mode.kind == "unshare":
        user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
        flags = ["--net", "--pid", "--ipc", "--uts", "--fork", "--kill-child", "--mount-proc"]
        return [_which("unshare"), *user, *flags, "--", *launch]
    if mode.kind == "sandbox-exec":
        return ["sandbox-exec", "-p", _macos_profile(ws, tmpdir), *launch]
    return launch


def _launcher_spec(
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


def _setup_failed(mode: Mode, outcome: ProcessOutcome) -> bool:
    """bubblewrap gave up before our launcher started the command."""
    return (
        mode.kind == "bwrap"
        and not outcome.reported
        and not outcome.timed_out
        and outcome.stderr.lstrip().startswith(b"bwrap:")
    )


def _macos_profile(ws: Path, tmpdir: Path | None) -> str:
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


def _sandbox_path(python: str) -> str:
    default = "/usr/local/bin:/usr/bin:/bin"
    return os.pathsep.join(
        [os.path.dirname(os.path.abspath(python)), os.environ.get("PATH", default)]
    )


def _thread_count(uid: int) -> int:
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


def _which(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise SandboxError(f"{tool} is no longer on PATH.", "Run `vibecode doctor`.")
    return found


# ----------------------------------------------------------------------------- detection


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
        spec = _launcher_spec(limits, mode, owner, 0)
        spec.pop("rlimits")
        probe_cmd = [python, "-I", "-S", "-c", "import os; os.getcwd()"]

        def argv_for(info_fd: int) -> list[str]:
            launch = launcher_argv(python, {**spec, "fd": info_fd}, probe_cmd)
            return wrap_command(mode, launch, ws, limits, ws)

        env = sandbox_env(home=str(ws), tmpdir=str(ws), path=_sandbox_path(python))
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
