"""A disk quota for a workspace that is not a size-capped file system of its own.

As root, a workspace is its own tmpfs sized to the tree plus the quota, so the kernel refuses
the write that passes it (ENOSPC). A regular user cannot mount one; there the run's folders on
the host (the workspace, and the local weaker isolations' /tmp) are summed a few times a second
(allocated blocks, not followed links), and the run is killed once what it added passes the
quota. Each file is also capped at the quota (RLIMIT_FSIZE), so one write cannot jump far past
it. A run can overshoot by what it writes between two samples; the report names the fill.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

INTERVAL_S = 0.05  # between two sums; longer where one sum takes long (large trees)


def usage(path: Path | str) -> int:
    """Bytes allocated under ``path`` (files, folders, links; links are not followed)."""
    total = 0
    stack = [str(path)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    total += st.st_blocks * 512 if hasattr(st, "st_blocks") else st.st_size
                    if stat.S_ISDIR(st.st_mode):
                        stack.append(entry.path)
        except OSError:
            continue
    return total


def quota_note(quota_mb: int) -> str:
    return (
        f"disk quota exceeded: the run wrote more than {quota_mb} MB into its workspace or /tmp; "
        "it is killed once the watch sees it (setting sandbox_disk_mb)"
    )


class DiskWatch:
    """Calls ``kill`` once any folder's usage passes its limit; ``exceeded`` says it did."""

    def __init__(self, folders: Sequence[tuple[Path, int]], kill: Callable[[], None]) -> None:
        self.folders = list(folders)
        self.kill = kill
        self.exceeded = False
        self.killed = False  # the watch stopped the run (not only found it over at the end)
        self.peak = 0
        self._stop = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._watch, name="diskwatch", daemon=True)
        self._thread.start()

    def check(self, kill: bool = True) -> bool:
        """One sum of every folder; kills the run (once) when one passed its limit."""
        for path, limit in self.folders:
            used = usage(path)
            self.peak = max(self.peak, used)
            if used > limit and not self.exceeded:
                self.exceeded = True
                if kill:
                    self.killed = True
                    self.kill()
        return self.exceeded

    def _watch(self) -> None:
        wait = INTERVAL_S
        while not self._stop.wait(wait):
            start = time.monotonic()
            if self.check():
                return
            wait = max(INTERVAL_S, 4 * (time.monotonic() - start))

    def stop(self) -> bool:
        """Stop watching, after a last sum (a fill in the run's last moments counts too)."""
        if self._stopped:
            return self.exceeded
        self._stopped = True
        self._stop.set()
        self._thread.join(timeout=5)
        if not self.exceeded:
            self.check(kill=False)  # the run is over: nothing to kill (its pid may be reused)
        return self.exceeded


def workspace_limits(
    ws_path: Path, watch_mb: int | None, base: int, tmpdir: Path | None, tmp_mb: int
) -> tuple[tuple[Path, int], ...]:
    """The folders a run's disk watch sums: the workspace unless it is its own capped tmpfs
    (``watch_mb`` is None then: the kernel bounds it), and a /tmp on the host (``tmpdir``)."""
    found: list[tuple[Path, int]] = []
    if watch_mb is not None:
        found.append((ws_path, base + (watch_mb << 20)))
    if tmpdir is not None:
        found.append((tmpdir, tmp_mb << 20))
    return tuple(found)
