"""The sandbox contract: run limits, the :class:`Sandbox` protocol, parallel runs, the run environment.

A sandbox runs untrusted code (every candidate is model output) so that, whatever the code does,
the user's files never change, the host stays responsive, and every run ends within its limits
with an honest :class:`~vibecode.types.RunResult`. Two backends implement it:
:class:`~vibecode.sandbox.local.LocalSandbox` (namespaces and rlimits) and
:class:`~vibecode.sandbox.docker.DockerSandbox`.

Protection names used in ``RunResult.protections`` (name -> active for that run):

- ``network_off``: the run has no network (own network namespace, or Docker ``--network none``).
- ``readonly_outside``: everything outside the workspace is read-only (and /tmp is private).
- ``private_tmp``: /tmp is private to the run and discarded after it.
- ``kill_all``: every process the run started is gone when it ends (PID namespace, container).
- ``unprivileged``: the code runs as a user without privileges (never as root).
- ``nproc_limit``: the number of processes is limited (rlimit for a non-root user, Docker pids).
- ``memory_limit``: memory is limited (address-space rlimit per process, or the container's cgroup).
- ``cpu_limit``: CPU time is limited (rlimit, plus a CPU quota in Docker).
- ``rlimits``: the open-files, file-size and core-dump limits are set.
- ``env_scrubbed``: the environment holds no variable of the caller (no tokens or keys).
- ``workspace_quota``: what a run may write into its workspace is bounded: the workspace is a
  size-limited tmpfs of its own (root), or a disk watch stops the run once its files pass the
  quota (:mod:`~vibecode.sandbox.diskwatch`); /tmp is a size-limited tmpfs either way.
- ``host_view``: the run sees an allow-list of the host (system programs and libraries, /etc
  without secrets, the interpreter), not the user's home, /run, sockets or other projects.
- ``memory_per_run``: the memory of all the run's processes together is bounded (the container's
  cgroup, or the local sandbox's watcher summing the run's resident memory).
- ``seccomp``: a system-call filter refuses new namespaces, ptrace, keyctl, bpf,
  perf_event_open and mount (bubblewrap's --seccomp; Docker's default profile).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from vibecode.errors import SandboxError
from vibecode.types import Patch, RunResult

if TYPE_CHECKING:
    from vibecode.sandbox.workspace import Workspace

PROTECTIONS = (
    "network_off",
    "readonly_outside",
    "private_tmp",
    "kill_all",
    "unprivileged",
    "nproc_limit",
    "memory_limit",
    "cpu_limit",
    "rlimits",
    "env_scrubbed",
    "workspace_quota",
    "host_view",
    "memory_per_run",
    "seccomp",
)


@dataclass(frozen=True)
class Limits:
    """Per-run limits. Every run gets its own; parallel runs do not share them."""

    wall_s: float = 60.0  # wall-clock time; the whole run is killed after it
    cpu_s: float | None = None  # CPU seconds per process; None: the wall time
    memory_mb: int = 2048  # memory of the whole run (and address space per process, local)
    nprocs: int = 64  # processes and threads the run may add
    nofile: int = 1024  # open files per process
    output_bytes: int = 256 * 1024  # tail kept of stdout and of stderr (the totals are counted)
    file_size_mb: int = 1024  # largest file the run may write
    tmp_mb: int = 256  # size of the private /tmp where the backend makes one
    cpus: float = 1.0  # CPU share of a container (docker only)
    # Absolute host paths made visible read-only inside the run, in addition to the backend's
    # allow-list (for example a project's .venv and its base interpreter's prefix).
    ro_paths: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        numbers = {
            "wall_s": self.wall_s,
            "memory_mb": self.memory_mb,
            "nprocs": self.nprocs,
            "nofile": self.nofile,
            "output_bytes": self.output_bytes,
            "file_size_mb": self.file_size_mb,
            "tmp_mb": self.tmp_mb,
            "cpus": self.cpus,
        }
        if self.cpu_s is not None:
            numbers["cpu_s"] = self.cpu_s
        bad = [name for name, value in numbers.items() if not value > 0]
        if bad:
            raise ValueError(f"sandbox limits must be positive: {', '.join(bad)}")

    @property
    def cpu_seconds(self) -> int:
        """The CPU-time rlimit in whole seconds (at least 1)."""
        return max(1, math.ceil(self.cpu_s if self.cpu_s is not None else self.wall_s))


@dataclass(frozen=True)
class RunJob:
    """One run of :meth:`Sandbox.run_many`."""

    workspace: Workspace
    cmd: tuple[str, ...]
    limits: Limits | None = None
    stdin: bytes | None = None
    env: Mapping[str, str] | None = None


@runtime_checkable
class Sandbox(Protocol):
    """Where untrusted code runs. Implementations: ``LocalSandbox``, ``DockerSandbox``."""

    @property
    def name(self) -> str:
        """``"local"`` or ``"docker"``; also ``RunResult.backend``."""
        ...

    @property
    def python(self) -> str:
        """The Python interpreter to name in commands run by this sandbox (has pytest)."""
        ...

    def protections(self) -> dict[str, bool]:
        """What this backend enforces on this machine (names in :data:`PROTECTIONS`)."""
        ...

    def prepare(self, source: Path, patch: Patch | None = None) -> Workspace:
        """A fresh copy of ``source`` with ``patch`` applied; a context manager that deletes it."""
        ...

    def run(
        self,
        workspace: Workspace,
        cmd: Sequence[str],
        limits: Limits | None = None,
        *,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        """Run ``cmd`` in ``workspace`` (as its working directory) within ``limits``."""
        ...

    def run_many(self, jobs: Sequence[RunJob], parallel: int | None = None) -> list[RunResult]:
        """Run ``jobs``, ``parallel`` at a time (default: the CPU count); results in job order."""
        ...


def run_parallel(
    sandbox: Sandbox, jobs: Sequence[RunJob], parallel: int | None = None
) -> list[RunResult]:
    """The shared implementation of ``run_many``: a thread per running job.

    Each run is its own process tree (or container) with its own limits, so threads only wait.
    The first exception a job raises is re-raised once every job has finished.
    """
    if not jobs:
        return []
    workers = max(1, min(parallel or os.cpu_count() or 1, len(jobs)))
    if workers == 1:
        return [sandbox.run(j.workspace, j.cmd, j.limits, stdin=j.stdin, env=j.env) for j in jobs]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sandbox") as pool:
        futures = [
            pool.submit(sandbox.run, j.workspace, j.cmd, j.limits, stdin=j.stdin, env=j.env)
            for j in jobs
        ]
        return [f.result() for f in futures]


def check_run(workspace: Workspace, cmd: Sequence[str]) -> list[str]:
    """What every backend's ``run`` checks first: a real argv, and a workspace still there."""
    if isinstance(cmd, (str, bytes)) or not cmd or not all(isinstance(c, str) for c in cmd):
        raise SandboxError("The sandbox needs a command as a non-empty list of strings.")
    if workspace.closed:
        raise SandboxError(f"The workspace {workspace.path} was already deleted.")
    return list(cmd)


# Variables every sandboxed command gets; nothing of the caller's environment is passed on.
def sandbox_env(
    *, home: str, tmpdir: str, path: str, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    env = {
        "PATH": path,
        "HOME": home,
        "TMPDIR": tmpdir,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "USER": "sandbox",
        "LOGNAME": "sandbox",
        "TERM": "dumb",
        # Numeric libraries start a thread per core by default; parallel runs would oversubscribe.
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    if extra:
        env.update({str(k): str(v) for k, v in extra.items()})
    return env
