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

Split by stage: :mod:`~vibecode.sandbox.local_modes` chooses and proves the isolation,
:mod:`~vibecode.sandbox.local_command` builds the command line, this module runs it.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vibecode.errors import SandboxError
from vibecode.sandbox import cleanup, diskwatch, memwatch, seccomp
from vibecode.sandbox.base import Limits, RunJob, check_run, run_parallel, sandbox_env
from vibecode.sandbox.copytree import can_mount
from vibecode.sandbox.launcher import launcher_argv
from vibecode.sandbox.local_command import (
    launcher_spec,
    sandbox_path,
    setup_failed,
    thread_count,
    wrap_command,
)
from vibecode.sandbox.local_modes import WEAK, Mode, detect_mode, mode_protections, probe, weak_note
from vibecode.sandbox.process import ProcessOutcome, run_process, sweep_processes, to_result
from vibecode.sandbox.quota import check_disk_mb, disk_notes
from vibecode.sandbox.workspace import (
    WORKSPACE_QUOTA_MB,
    Workspace,
    allocate_sandbox_user,
    prepare_workspace,
    remove_tree,
)
from vibecode.types import Patch, RunResult

__all__ = [
    "ISOLATIONS", "WEAK", "LocalSandbox", "Mode", "detect_mode", "mode_protections", "probe",
    "weak_note", "wrap_command",
]

ISOLATIONS = ("auto", "bwrap", "unshare", "plain", "sandbox-exec")
# bubblewrap sometimes fails to set up its mounts on a busy machine ("Can't bind mount ...
# Invalid argument") before the command starts; such a run is retried, never reported as the
# command's failure.
SETUP_RETRIES = 3
_setup_failed = setup_failed  # the name tests/sandbox/test_setup_retry.py checks


class LocalSandbox:
    """Runs commands on this machine; see the module docstring for the isolation it uses."""

    def __init__(
        self,
        isolation: str = "auto",
        *,
        workdir: str | Path | None = None,
        python: str | None = None,
        disk_mb: int = WORKSPACE_QUOTA_MB,
    ) -> None:
        if isolation not in ISOLATIONS:
            raise SandboxError(
                f"Unknown local isolation {isolation!r}.", f"Use one of: {', '.join(ISOLATIONS)}."
            )
        self._python = python or sys.executable
        self._parent = Path(workdir).expanduser() if workdir else None
        self.disk_mb = check_disk_mb(disk_mb)
        self.mode = detect_mode(isolation, self._python)
        cleanup.install()

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
        # A capped tmpfs as root; else the disk watch (which needs /proc to kill the run).
        prot["workspace_quota"] = (self._parent is None and can_mount()) or memwatch.available()
        return prot

    def prepare(self, source: Path, patch: Patch | None = None) -> Workspace:
        owner = allocate_sandbox_user() if self.mode.drop_uid else None
        return prepare_workspace(
            source, patch, owner=owner, hardlinks=owner is not None, parent=self._parent,
            quota_mb=self.disk_mb,
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
        # One file may not be larger than the disk quota (so one write cannot jump past it).
        limits = dataclasses.replace(limits, file_size_mb=min(limits.file_size_mb, self.disk_mb))
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
                path=sandbox_path(self._python),
                extra={**(env or {}), "VIBECODE_SANDBOX_RUN": token},
            )
            uid = workspace.owner[0] if workspace.owner and self.mode.drop_uid else os.getuid()
            baseline = thread_count(uid) if uid != 0 else 0  # root ignores RLIMIT_NPROC
            spec = launcher_spec(limits, self.mode, workspace.owner, baseline)
            sweep = self.mode.kind == "plain" and sys.platform.startswith("linux")

            def after_exit() -> None:
                sweep_processes(token)

            filter_fd: int | None = None

            def argv_for(info_fd: int) -> list[str]:
                launch = launcher_argv(self._python, {**spec, "fd": info_fd}, cmd)
                return wrap_command(self.mode, launch, workspace.path, limits, tmpdir, filter_fd)

            watch_mb = None if workspace.quota_mb is not None else self.disk_mb
            if workspace.disk_base is None:
                workspace.disk_base = diskwatch.usage(workspace.path)
            disk_limits = diskwatch.workspace_limits(
                workspace.path, watch_mb, workspace.disk_base, tmpdir, limits.tmp_mb
            ) if memwatch.available() else ()

            for attempt in range(SETUP_RETRIES + 1):
                filter_fd = seccomp.filter_fd() if self.mode.kind == "bwrap" else None
                try:
                    outcome = self._attempt(argv_for, run_env, workspace, stdin, limits, sweep,
                                            after_exit, filter_fd, disk_limits)
                finally:
                    if filter_fd is not None:
                        os.close(filter_fd)
                if attempt == SETUP_RETRIES or not setup_failed(self.mode, outcome):
                    break
                time.sleep(0.05 * (attempt + 1))
        finally:
            if tmpdir is not None:
                remove_tree(tmpdir)
        prot = self.protections()
        prot["workspace_quota"] = workspace.quota_mb is not None or bool(disk_limits)
        notes = self.notes + disk_notes(outcome.disk_exceeded, workspace, self.disk_mb)
        return to_result(outcome, "local", prot, oom_killed=outcome.memory_exceeded, notes=notes)

    def _attempt(self, argv_for: Callable[[int], list[str]], run_env: dict[str, str],
                 workspace: Workspace, stdin: bytes | None, limits: Limits, sweep: bool,
                 after_exit: Callable[[], None], filter_fd: int | None,
                 disk_limits: tuple[tuple[Path, int], ...] = ()) -> ProcessOutcome:
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
            disk_limits=disk_limits,
        )

    def run_many(self, jobs: Sequence[RunJob], parallel: int | None = None) -> list[RunResult]:
        return run_parallel(self, jobs, parallel)
