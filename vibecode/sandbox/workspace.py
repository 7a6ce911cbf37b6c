"""Workspaces: a fresh, disposable copy of a source folder with a patch applied.

The copy is never the user's tree, and it is a real copy: code in it may rewrite any file in
place, as in a checkout, without reaching the user's files. Making it cheap:

- As root on Linux, a workspace of up to :data:`IN_MEMORY_MAX_BYTES` is its own tmpfs mount,
  sized to the tree plus ``quota_mb``: copying 1,000 files takes milliseconds, deleting it is one
  unmount, and a run cannot write more than the quota (``workspace_quota`` protection).
- Otherwise it is a folder in the temp dir (or ``Settings.sandbox_dir``); files are reflinked
  where the file system can (btrfs, XFS), else copied, and git's immutable object files are
  hard-linked when that is safe (see :mod:`vibecode.sandbox.copytree`).

Callers change existing files with :meth:`Workspace.write` (a new inode) and may create new
files directly under ``Workspace.path``; what they create is given to the sandbox user before
each run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from types import TracebackType

from vibecode.errors import ApplyError, SandboxError
from vibecode.sandbox.copytree import (
    Copier,
    can_mount,
    mount_tmpfs,
    scan,
    sweep_stale,
    unmount,
)
from vibecode.types import Patch

# Regenerable caches and virtual environments (folders with a pyvenv.cfg) are not copied.
DEFAULT_EXCLUDE: frozenset[str] = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox"}
)
IN_MEMORY_MAX_BYTES = 256 << 20  # larger trees go to disk
WORKSPACE_QUOTA_MB = 1024  # what runs may add to an in-memory workspace
# Sandbox users are allocated here when vibecode runs as root: far above any real account.
_UID_BASE = 1_500_000_000
_UID_SPAN = 100_000_000


def allocate_sandbox_user() -> tuple[int, int]:
    """A fresh uid/gid pair for one workspace's runs (so process limits are per workspace)."""
    uid = _UID_BASE + secrets.randbelow(_UID_SPAN)
    return uid, uid


class Workspace:
    """A disposable copy of a source tree; ``with`` deletes it on exit."""

    def __init__(
        self,
        path: Path,
        source: Path,
        owner: tuple[int, int] | None = None,
        linked: int = 0,
        copied: int = 0,
        quota_mb: int | None = None,
    ) -> None:
        self.path = path
        self.source = source
        # The uid/gid the sandboxed code runs as, when that is not us (we run as root).
        self.owner = owner
        self.linked = linked  # files shared with the source by hard links
        self.copied = copied
        # Set when the workspace is its own size-limited tmpfs: what runs may add to it.
        self.quota_mb = quota_mb
        # Bytes the workspace held when its first watched run started (the disk watch's base).
        self.disk_base: int | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"Workspace({str(self.path)!r}, source={str(self.source)!r})"

    def __enter__(self) -> Workspace:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.cleanup()

    @property
    def closed(self) -> bool:
        return self._closed

    def resolve(self, relpath: str) -> Path:
        """The path of ``relpath`` inside the workspace; refuses anything that leads outside.

        Its folders are checked to be plain folders; the last part may be a symbolic link.
        """
        return _safe_target(self.path, relpath, create_dirs=False, owner=None, leaf_link=True)

    def write(self, relpath: str, data: str | bytes, mode: int = 0o644) -> Path:
        """Create or replace a file as a new inode (never writing through a hard link)."""
        self._check_open()
        target = _safe_target(self.path, relpath, create_dirs=True, owner=self.owner)
        _replace_file(target, data.encode("utf-8") if isinstance(data, str) else data, mode)
        if self.owner is not None:
            os.chown(target, *self.owner)
        return target

    def delete(self, relpath: str) -> None:
        self._check_open()
        target = _safe_target(self.path, relpath, create_dirs=False, owner=None, leaf_link=True)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink()

    def adopt(self) -> None:
        """Give what the caller created inside the workspace to the sandbox user.

        Only entries that we own and that are not hard links (``st_nlink == 1``) change owner,
        so the user's files, shared by hard links, are never touched.
        """
        if self.owner is None or self._closed:
            return
        me = os.geteuid()
        if os.stat(self.path).st_uid == me:
            os.chown(self.path, *self.owner)
        for dirpath, dirnames, filenames in os.walk(self.path):
            for name in (*dirnames, *filenames):
                full = os.path.join(dirpath, name)
                try:
                    st = os.lstat(full)
                except OSError:
                    continue
                if st.st_uid == me and (stat.S_ISDIR(st.st_mode) or st.st_nlink == 1):
                    os.lchown(full, *self.owner)

    def ensure_owner(self) -> tuple[int, int]:
        """The sandbox user of this workspace; allotted (and given the copy) when it has none.

        Only for a workspace without hard links (one prepared without an owner), whose files
        are all copies.
        """
        if self.owner is None:
            self.owner = allocate_sandbox_user()
            self.adopt()
        return self.owner

    def cleanup(self) -> None:
        if self._closed:
            return
        self._closed = True
        _dispose(self.path, mounted=self.quota_mb is not None)

    def _check_open(self) -> None:
        if self._closed:
            raise SandboxError(f"The workspace {self.path} was already deleted.")


def prepare_workspace(
    source: Path,
    patch: Patch | None = None,
    *,
    owner: tuple[int, int] | None = None,
    hardlinks: bool = False,
    parent: Path | None = None,
    exclude: Iterable[str] = DEFAULT_EXCLUDE,
    in_memory: bool | None = None,
    quota_mb: int = WORKSPACE_QUOTA_MB,
) -> Workspace:
    """Copy ``source`` into a new workspace and apply ``patch``.

    ``owner``: the uid/gid the sandboxed code will run as when it is not us; the copy is given to
    it. ``hardlinks``: share git's object files by hard links where safe (needs ``owner``).
    ``parent``: where to make the workspace (default: the temp dir). ``in_memory``: a tmpfs
    mount of its own (None: when possible and the tree is small; True: or fail).
    """
    source = Path(source).expanduser()
    if not source.is_dir():
        raise SandboxError(
            f"Cannot prepare a workspace from {source}: it is not a folder.",
            "Give the folder of the project (or an exported commit).",
        )
    source = source.resolve()
    try:
        entries, total = scan(source, exclude)
    except OSError as exc:
        raise SandboxError(f"Cannot read {source}: {exc.strerror or exc}.") from exc
    base = Path(parent).expanduser() if parent else Path(tempfile.gettempdir())
    sweep_stale(base)
    try:
        base.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix=f"vibecode-ws-{os.getpid()}-", dir=base)).resolve()
    except OSError as exc:
        raise SandboxError(
            f"Cannot create a workspace under {base}: {exc.strerror or exc}.",
            "Set sandbox_dir (VIBECODE_SANDBOX_DIR) to a writable folder.",
        ) from exc
    mounted = False
    try:
        if _is_within(root, source):
            raise SandboxError(
                f"The workspace folder {root} would lie inside the source {source}.",
                "Set sandbox_dir (VIBECODE_SANDBOX_DIR) to a folder outside the project.",
            )
        want_memory = (
            in_memory
            if in_memory is not None
            else (parent is None and total <= IN_MEMORY_MAX_BYTES and can_mount())
        )
        if want_memory:
            mounted = mount_tmpfs(root, total + (quota_mb << 20) + (len(entries) << 12))
            if not mounted and in_memory:
                raise SandboxError("Cannot mount a tmpfs for the workspace (needs root on Linux).")
        if owner is not None:
            os.chown(root, *owner)
        copier = Copier(owner=owner, hardlinks=hardlinks and not mounted)
        copier.copy(entries, root)
        ws = Workspace(
            root,
            source,
            owner,
            linked=copier.linked,
            copied=copier.copied,
            quota_mb=quota_mb if mounted else None,
        )
        if patch is not None:
            apply_patch(ws, patch)
    except BaseException:
        _dispose(root, mounted)
        raise
    return ws


def apply_patch(ws: Workspace, patch: Patch) -> None:
    """Write a whole-file patch into ``ws``; each change must match the file it replaces."""
    for change in patch.changes:
        target = ws.resolve(change.path)
        exists = target.is_file() and not target.is_symlink()
        if change.old is None and target.exists():
            raise ApplyError(f"The patch creates {change.path}, which already exists.")
        if change.old is not None:
            if not exists:
                raise ApplyError(f"The patch changes {change.path}, which does not exist.")
            current = target.read_bytes().decode("utf-8", errors="surrogateescape")
            if current != change.old:
                raise ApplyError(
                    f"The patch does not apply: {change.path} differs from the text it replaces.",
                    "Make the patch against the current version of the file.",
                )
        if change.new is None:
            if exists:
                ws.delete(change.path)
        else:
            mode = stat.S_IMODE(target.stat().st_mode) if exists else 0o644
            ws.write(change.path, change.new.encode("utf-8", errors="surrogateescape"), mode)


def _safe_target(
    root: Path,
    relpath: str,
    *,
    create_dirs: bool,
    owner: tuple[int, int] | None,
    leaf_link: bool = False,
) -> Path:
    pure = PurePosixPath(relpath.replace("\\", "/"))
    parts = pure.parts
    if (
        not parts
        or pure.is_absolute()
        or any(p in ("..", "") for p in parts)
        or "\x00" in relpath
        or (len(parts[0]) == 2 and parts[0][1] == ":")
    ):
        raise ApplyError(
            f"Refusing the path {relpath!r}: it must be relative and stay inside the project."
        )
    parts = tuple(p for p in parts if p != ".")
    if not parts:
        raise ApplyError(f"Refusing the path {relpath!r}: it names no file.")
    current = root
    for part in parts[:-1]:
        current = current / part
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            if not create_dirs:
                return root.joinpath(*parts)
            os.mkdir(current, 0o755)
            if owner is not None:
                os.chown(current, *owner)
            continue
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise ApplyError(
                f"Refusing the path {relpath!r}: {current.name} is not a plain folder."
            )
    target = root.joinpath(*parts)
    if target.is_symlink() and not leaf_link:
        raise ApplyError(f"Refusing the path {relpath!r}: it is a symbolic link.")
    return target


def _replace_file(target: Path, data: bytes, mode: int) -> None:
    tmp = target.with_name(f".{target.name}.vibecode-{secrets.token_hex(4)}")
    fd = os.open(
        tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode & 0o777
    )
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode & 0o777)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _dispose(path: Path, mounted: bool) -> None:
    if mounted and unmount(path):
        try:
            os.rmdir(path)
            return
        except OSError:
            pass
    remove_tree(path)


def remove_tree(path: Path) -> None:
    """Delete a workspace even if the code in it removed permissions from its folders."""

    def fix(func: object, failed: str, exc_info: object) -> None:
        parent = os.path.dirname(failed)
        with contextlib.suppress(OSError):
            os.chmod(parent, 0o700)
        with contextlib.suppress(OSError):
            if os.path.isdir(failed) and not os.path.islink(failed):
                os.chmod(failed, 0o700)
                shutil.rmtree(failed, ignore_errors=True)
            else:
                os.unlink(failed)

    if not os.path.lexists(path):
        return
    try:
        if sys.version_info >= (3, 12):
            shutil.rmtree(path, onexc=fix)
        else:
            shutil.rmtree(path, onerror=fix)
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            raise SandboxError(
                f"Cannot delete the workspace {path}: {exc.strerror or exc}."
            ) from exc


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False
