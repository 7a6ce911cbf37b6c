"""The disk quota of a sandbox's workspaces: the setting's check, and what a run's result says.

A run that passed the quota is named in ``RunResult.notes``: killed by the disk watch (a regular
user's workspace on the host's disk), or left with a full capped tmpfs (root), where the writes
past the quota failed with ENOSPC inside the run.
"""

from __future__ import annotations

import os

from vibecode.errors import SandboxError
from vibecode.sandbox.diskwatch import quota_note
from vibecode.sandbox.workspace import Workspace

_FULL_SLACK = 1 << 20  # a tmpfs with less than this free counts as filled by the run


def check_disk_mb(disk_mb: int) -> int:
    if isinstance(disk_mb, bool) or not isinstance(disk_mb, int) or disk_mb < 1:
        raise SandboxError(
            f"The sandbox disk quota must be a whole number of MB, at least 1; got {disk_mb!r}.",
            "Set sandbox_disk_mb (VIBECODE_SANDBOX_DISK_MB) to, for example, 1024.",
        )
    return disk_mb


def disk_notes(killed: bool, workspace: Workspace, disk_mb: int) -> tuple[str, ...]:
    """What the result says about the run's fill (nothing when it stayed within the quota)."""
    if killed:
        return (quota_note(disk_mb),)
    if workspace.quota_mb is not None and not workspace.closed:
        try:
            st = os.statvfs(workspace.path)
        except OSError:
            return ()
        if st.f_bavail * st.f_frsize < _FULL_SLACK:
            return (
                f"disk quota reached: the workspace's file system ({workspace.quota_mb} MB "
                "beyond the project) is full; writes past it failed (setting sandbox_disk_mb)",
            )
    return ()
