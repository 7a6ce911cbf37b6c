"""LocalSandbox: untrusted code on this machine, in the strongest isolation the platform offers.

Isolation, strongest first (``isolation="auto"`` picks the first that works here, by running it):

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox.base import PROTECTIONS, Limits, RunJob, check_run, run_parallel, sandbox_env
from vibecode.sandbox.copytree import can_mount
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

            def argv_for(info_fd: int) -> list[str]:
                launch = launcher_argv(self._python, {**spec, "fd": info_fd}, cmd)
                return wrap_command(self.mode, launch, workspace.path, limits, tmpdir)

            for attempt in range(SETUP_RETRIES + 1):
                outcome = run_process(
                    argv_for,
                    env=run_env,
                    cwd=workspace.path,
                    stdin=stdin,
                    wall_s=limits.wall_s,
                    output_bytes=limits.output_bytes,
                    after_exit=after_exit if sweep else None,
                )
                if attempt == SETUP_RETRIES or not _setup_failed(self.mode, outcome):
                    break
                time.sleep(0.05 * (attempt + 1))
        finally:
            if tmpdir is not None:
                remove_tree(tmpdir)
        prot = self.protections()
        prot["workspace_quota"] = workspace.quota_mb is not None
        return to_result(outcome, "local", prot)

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
    return prot


# ----------------------------------------------------------------------------- commands


def wrap_command(
    mode: Mode, launch: list[str], ws: Path, limits: Limits, tmpdir: Path | None
) -> list[str]:
    if mode.kind == "bwrap":
        return [_which("bwrap"), *_bwrap_args(mode, ws, limits, launch[0]), "--", *launch]
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


def _bwrap_args(mode: Mode, ws: Path, limits: Limits, python: str) -> list[str]:
    size = str(limits.tmp_mb << 20)
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    args += ["--size", size, "--tmpfs", "/tmp", "--size", size, "--tmpfs", "/dev/shm"]
    needed = tuple(sorted({*_needed_paths(python), *(os.path.realpath(p) for p in limits.ro_paths if os.path.exists(p))}))
    hidden = ["/tmp", "/dev"]  # replaced by fresh mounts above
    if mode.drop_uid:
        for blocker in sorted(_blockers([*needed, str(ws)]), key=len):
            if not any(_inside(blocker, h) or blocker == h for h in hidden):
                hidden.append(blocker)
                args += ["--tmpfs", blocker]
    rebinds: list[str] = []
    for path in sorted(needed, key=len):
        if any(_inside(path, h) for h in hidden) and not any(
            path == r or _inside(path, r) for r in rebinds
        ):
            rebinds.append(path)
    made: set[str] = set()
    for dest in [*rebinds, str(ws)]:
        root = next((h for h in hidden if _inside(dest, h)), None)
        if root is None:
            continue
        parent = os.path.dirname(dest)
        chain = []
        while parent != root and _inside(parent, root):
            chain.append(parent)
            parent = os.path.dirname(parent)
        for d in reversed(chain):
            if d not in made:
                made.add(d)
                args += ["--perms", "0755", "--dir", d]
    for path in rebinds:
        args += ["--ro-bind", path, path]
    args += ["--bind", str(ws), str(ws), "--chdir", str(ws)]
    args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    args += ["--unshare-cgroup-try", "--hostname", "sandbox", "--die-with-parent", "--new-session"]
    if os.geteuid() == 0:
        args += ["--cap-drop", "ALL"]
        if mode.drop_uid:
            # Only the launcher uses these, to become the sandbox user (which clears them all);
            # DAC_OVERRIDE lets it enter the workspace, which belongs to that user, before.
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
            args += ["--cap-add", "CAP_DAC_OVERRIDE"]
    else:
        args += ["--unshare-user"]
    return args


@functools.lru_cache(maxsize=8)
def _needed_paths(python: str) -> tuple[str, ...]:
    """Folders the interpreter and the commands on PATH need, as real paths."""
    candidates = {os.path.dirname(os.path.abspath(python))}
    real = os.path.realpath(python)
    candidates.add(os.path.dirname(os.path.dirname(real)))
    if os.path.realpath(sys.executable) == real or python == sys.executable:
        candidates |= {sys.prefix, sys.base_prefix, sys.exec_prefix}
        candidates |= {p for p in sys.path if os.path.isabs(p)}
    candidates |= {p for p in os.environ.get("PATH", "").split(os.pathsep) if os.path.isabs(p)}
    out = set()
    for path in candidates:
        if os.path.exists(path):
            out.add(os.path.realpath(path))
    return tuple(sorted(out))


def _blockers(paths: Sequence[str]) -> set[str]:
    """Folders on the way to ``paths`` that other users may not enter (such as /root)."""
    found = set()
    for path in paths:
        current = "/"
        for part in Path(path).parts[1:-1]:
            current = os.path.join(current, part)
            try:
                mode = os.stat(current).st_mode
            except OSError:
                break
            if not mode & 0o001:
                found.add(current)
                break
    return found


def _inside(path: str, folder: str) -> bool:
    return path != folder and (path + "/").startswith(folder.rstrip("/") + "/")


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


@functools.lru_cache(maxsize=8)
def detect_mode(isolation: str, python: str) -> Mode:
    """The isolation to use, proven by running the interpreter through it once."""
    if sys.platform == "darwin":
        if isolation in ("auto", "sandbox-exec") and shutil.which("sandbox-exec"):
            return Mode("sandbox-exec", False)
        if isolation in ("auto", "plain"):
            return Mode("plain", False, "sandbox-exec not found")
        raise SandboxError(f"The {isolation} isolation is not available on macOS.")
    root = os.geteuid() == 0
    tried: list[str] = []
    kinds = ["bwrap", "unshare", "plain"] if isolation == "auto" else [isolation]
    for kind in kinds:
        if kind == "sandbox-exec":
            raise SandboxError("sandbox-exec exists only on macOS.")
        if kind != "plain" and shutil.which(kind) is None:
            tried.append(f"{kind} not installed")
            continue
        for drop in [True, False] if root and kind == "bwrap" else [False]:
            mode = Mode(kind, drop)
            problem = probe(mode, python)
            if problem is None:
                return Mode(kind, drop, "; ".join(tried))
            tried.append(f"{kind}{' as an unprivileged user' if drop else ''}: {problem}")
    raise SandboxError(
        f"The {isolation} isolation does not work here: {'; '.join(tried)}.",
        "Install bubblewrap (scripts/system-deps) or choose another isolation.",
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
