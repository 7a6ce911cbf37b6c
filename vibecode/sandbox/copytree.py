"""Filling a workspace: scan the source, copy (reflink where possible), hard-link what is immutable,
and the per-workspace tmpfs that makes copies cheap and bounds what a run may write.

Hard links are used for one kind of file only: git's object store (``.git/objects/??/*`` and
``.git/objects/pack/*``), which git never writes in place, and only when the sandboxed code runs
as a separate, unprivileged uid that can neither write nor chmod the linked file (the file must
be world-readable, not group- or world-writable, not set-id, and not owned by that uid). Every
other file is a real copy owned by the sandbox user, so code in the workspace may rewrite files
in place, exactly as in a checkout, without any way to reach the user's inode.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from vibecode.sandbox.process import pid_alive

_FICLONE = 0x40049409  # Linux ioctl: clone a file's extents (reflink)
_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2
_GIT_OBJECT = re.compile(r"^\.git/objects/(?:[0-9a-f]{2}|pack)/[^/]+$")
_STALE = re.compile(r"^vibecode-ws-(\d+)-")
_mounts_work: bool | None = None  # None: not tried yet
_stale_swept = False


@dataclass(frozen=True)
class Entry:
    src: str
    rel: str  # POSIX, relative to the source
    st: os.stat_result


def scan(source: Path, skip: Iterable[str]) -> tuple[list[Entry], int]:
    """Everything to copy (parents before children) and the total size of the regular files."""
    skip = set(skip)
    entries: list[Entry] = []
    total = 0
    stack = [(str(source), "")]
    while stack:
        sdir, rdir = stack.pop()
        with os.scandir(sdir) as it:
            found = sorted(it, key=lambda e: e.name)
        subdirs = []
        for entry in found:
            if entry.name in skip:
                continue
            st = entry.stat(follow_symlinks=False)
            rel = f"{rdir}/{entry.name}" if rdir else entry.name
            if stat.S_ISDIR(st.st_mode):
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                    continue  # a virtual environment, not the project's sources
                entries.append(Entry(entry.path, rel, st))
                subdirs.append((entry.path, rel))
            elif stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
                entries.append(Entry(entry.path, rel, st))
                if stat.S_ISREG(st.st_mode):
                    total += st.st_size
            # Sockets, FIFOs and devices are not copied.
        stack.extend(reversed(subdirs))
    return entries, total


class Copier:
    def __init__(self, owner: tuple[int, int] | None, hardlinks: bool) -> None:
        self.owner = owner
        self.hardlinks = hardlinks and owner is not None
        self.reflink = sys.platform.startswith("linux")
        self.linked = 0
        self.copied = 0

    def copy(self, entries: list[Entry], dst_root: Path) -> None:
        root = str(dst_root)
        for e in entries:
            target = os.path.join(root, e.rel)
            mode = e.st.st_mode
            if stat.S_ISDIR(mode):
                os.mkdir(target, stat.S_IMODE(mode) | 0o700)
                if self.owner is not None:
                    os.chown(target, *self.owner)
            elif stat.S_ISLNK(mode):
                os.symlink(os.readlink(e.src), target)
                if self.owner is not None:
                    os.lchown(target, *self.owner)
            else:
                self._file(e, target)

    def _file(self, e: Entry, dst: str) -> None:
        if (
            self.hardlinks
            and self.owner is not None
            and _GIT_OBJECT.match(e.rel)
            and link_safe(e.st, self.owner)
        ):
            try:
                os.link(e.src, dst, follow_symlinks=False)
                self.linked += 1
                return
            except OSError:
                pass  # another file system, or links refused: copy
        mode = stat.S_IMODE(e.st.st_mode) & 0o777
        self._copy(e.src, dst, mode)
        if self.owner is not None:
            os.chown(dst, *self.owner)
        self.copied += 1

    def _copy(self, src: str, dst: str, mode: int) -> None:
        fin = os.open(src, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            fout = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            try:
                if self.reflink and _reflink(fin, fout):
                    return
                self.reflink = False
                _copy_data(fin, fout)
            finally:
                os.close(fout)
        finally:
            os.close(fin)
        os.chmod(dst, mode)


def link_safe(st: os.stat_result, owner: tuple[int, int]) -> bool:
    """Whether code running as ``owner`` (without capabilities) cannot change this file."""
    mode = st.st_mode
    if mode & (stat.S_ISUID | stat.S_ISGID) or not mode & stat.S_IROTH or mode & stat.S_IWOTH:
        return False
    if st.st_gid == owner[1] and mode & stat.S_IWGRP:
        return False
    return st.st_uid != owner[0]


def _reflink(fin: int, fout: int) -> bool:
    try:
        import fcntl

        fcntl.ioctl(fout, _FICLONE, fin)
        return True
    except (OSError, ImportError):
        return False


def _copy_data(fin: int, fout: int) -> None:
    if hasattr(os, "copy_file_range"):
        try:
            while os.copy_file_range(fin, fout, 1 << 24) > 0:
                pass
            return
        except OSError:
            os.lseek(fin, 0, os.SEEK_SET)
            os.lseek(fout, 0, os.SEEK_SET)
            os.ftruncate(fout, 0)
    while chunk := os.read(fin, 1 << 20):
        os.write(fout, chunk)


# ----------------------------------------------------------------------------- tmpfs


def can_mount() -> bool:
    """Whether per-workspace tmpfs mounts may work here (root on Linux, not known to fail)."""
    return sys.platform.startswith("linux") and os.geteuid() == 0 and _mounts_work is not False


def mount_tmpfs(path: Path, size_bytes: int) -> bool:
    """Mount a tmpfs of ``size_bytes`` on ``path``; False (and not tried again) where refused."""
    global _mounts_work
    if not can_mount():
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    opts = f"size={max(size_bytes, 1 << 20)},mode=0700".encode()
    ok = libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", _MS_NOSUID | _MS_NODEV, opts) == 0
    _mounts_work = ok
    return ok


def unmount(path: Path) -> bool:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    return libc.umount2(os.fsencode(path), _MNT_DETACH) == 0


def sweep_stale(tmp_root: Path) -> None:
    """Remove the workspaces that vibecode processes which died left behind (once per process):
    their tmpfs mounts anywhere, and their folders in ``tmp_root``."""
    global _stale_swept
    if _stale_swept:
        return
    _stale_swept = True
    if sys.platform.startswith("linux") and os.geteuid() == 0:
        _sweep_stale_mounts()
    try:
        names = os.listdir(tmp_root)
    except OSError:
        return
    for name in names:
        found = _STALE.match(name)
        path = os.path.join(tmp_root, name)
        if found and not pid_alive(int(found.group(1))) and not os.path.ismount(path):
            shutil.rmtree(path, ignore_errors=True)


def _sweep_stale_mounts() -> None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return
    for line in lines:
        fields = line.split(" - ")
        parts = fields[0].split()
        if len(fields) < 2 or len(parts) < 5 or not fields[1].startswith("tmpfs "):
            continue
        mountpoint = parts[4].replace("\\040", " ")
        found = _STALE.match(os.path.basename(mountpoint))
        if found and not pid_alive(int(found.group(1))) and unmount(Path(mountpoint)):
            with contextlib.suppress(OSError):
                os.rmdir(mountpoint)

