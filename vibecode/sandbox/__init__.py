"""Running untrusted code: workspaces, the local and Docker sandboxes, pytest reports.

``make_sandbox(kind, settings)`` is the one way other layers get a sandbox; the Docker backend
(and the ``docker`` package) is only imported when asked for.
"""

from __future__ import annotations

from vibecode.config import Settings
from vibecode.errors import SandboxError
from vibecode.sandbox.base import PROTECTIONS, Limits, RunJob, Sandbox, run_parallel
from vibecode.sandbox.pytest_run import run_pytest
from vibecode.sandbox.workspace import Workspace, prepare_workspace

BACKENDS = ("local", "docker")

__all__ = [
    "BACKENDS",
    "PROTECTIONS",
    "Limits",
    "RunJob",
    "Sandbox",
    "SandboxError",
    "Workspace",
    "make_sandbox",
    "prepare_workspace",
    "run_parallel",
    "run_pytest",
]


def make_sandbox(kind: str, settings: Settings) -> Sandbox:
    """The sandbox backend ``kind`` ("local" or "docker") configured from ``settings``.

    Raises SandboxError for an unknown kind, a Docker daemon that does not answer, or a missing
    image, with a hint that says what to run.
    """
    if kind == "local":
        from vibecode.sandbox.local import LocalSandbox

        return LocalSandbox(
            settings.isolation, workdir=settings.sandbox_dir, disk_mb=settings.sandbox_disk_mb
        )
    if kind == "docker":
        from vibecode.sandbox.docker import DockerSandbox

        return DockerSandbox(
            settings.docker_image, workdir=settings.sandbox_dir, disk_mb=settings.sandbox_disk_mb
        )
    raise SandboxError(f"Unknown sandbox backend {kind!r}.", f"Use one of: {', '.join(BACKENDS)}.")
