"""Workspaces: a fresh, disposable copy of a source folder with a patch applied.

The copy is never the user's tree. To keep a 1,000-file repository cheap, files are shared with
the source where that is safe:

- **Hard links** only when the sandboxed code runs as a user that can neither write nor chmod the
  linked file: a separate, unprivileged uid that is not the file's owner, on a file that is
  world-readable and not group- or world-writable (``Workspace.owner`` is that uid; the backends
  set it when vibecode runs as root, and run the code without capabilities). Writing in place
  through such a link fails with EACCES instead of changing the user's file; deleting or
  replacing the file (what editors, git and Python's own caches do) works, because every
  directory of the workspace belongs to the sandbox user. Everything else is copied.
- **Reflinks** (copy-on-write clones: btrfs, XFS) for every copied file where the file system
  supports them; otherwise a plain copy.

Callers that change an existing file of a workspace must use :meth:`Workspace.write`, which
replaces the file by a new one; opening a hard-linked file for writing as root would write
through to the user's file. New files may be created directly under ``Workspace.path``.
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
from vibecode.types import Patch

# Regenerable caches and virtual environments are not copied into workspaces.
DEFAULT_EXCLUDE: frozenset[str] = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox"}
)
# Sandbox users are allocated here when vibecode runs as root: far above any real account.
_UID_BASE = 1_500_000_000
_UID_SPAN = 100_000_000
_FICLONE = 0x40049409  # Linux ioctl: clone a file's extents (reflink)


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
    ) -> None:
        self.path = path
        self.source = source
        # The uid/gid the sandboxed code runs as, when that is not us (we run as root).
        self.owner = owner
        self.linked = linked
        self.copied = copied
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
        remove_tree(self.path)

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
) -> Workspace:
    """Copy ``source`` into a new temporary folder (under ``parent``) and apply ``patch``.

    ``owner`` is the uid/gid the sandboxed code will run as when it is not us; every directory
    and copied file is given to it. ``hardlinks`` allows hard links for files that ``owner``
    cannot modify (see the module docstring); it is ignored without an ``owner``.
    """
    source = Path(source).expanduser()
    if not source.is_dir():
        raise SandboxError(
            f"Cannot prepare a workspace from {source}: it is not a folder.",
            "Give the folder of the project (or an exported commit).",
        )
    source = source.resolve()
    base = Path(parent).expanduser() if parent else Path(tempfile.gettempdir())
    try:
        base.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix="vibecode-ws-", dir=base)).resolve()
    except OSError as exc:
        raise SandboxError(
            f"Cannot create a workspace under {base}: {exc.strerror or exc}.",
            "Set sandbox_dir (VIBECODE_SANDBOX_DIR) to a writable folder.",
        ) from exc
    if _is_within(root, source):
        remove_tree(root)
        raise SandboxError(
            f"The workspace folder {root} would lie inside the source {source}.",
            "Set sandbox_dir (VIBECODE_SANDBOX_DIR) to a folder outside the project.",
        )
    copier = _Copier(owner=owner, hardlinks=hardlinks and owner is not None, skip=set(exclude))
    try:
        if owner is not None:
            os.chown(root, *owner)
        copier.copy_tree(source, root)
        ws = Workspace(root, source, owner, linked=copier.linked, copied=copier.copied)
        if patch is not None:
            apply_patch(ws, patch)
    except BaseException:
        remove_tree(root)
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


class _Copier:
    def __init__(self, owner: tuple[int, int] | None, hardlinks: bool, skip: set[str]) -> None:
        self.owner = owner
        self.hardlinks = hardlinks
        self.skip = skip
        self.reflink = sys.platform.startswith("linux")
        self.linked = 0
        self.copied = 0

    def copy_tree(self, src: Path, dst: Path) -> None:
        stack = [(str(src), str(dst))]
        while stack:
            sdir, ddir = stack.pop()
            with os.scandir(sdir) as it:
                entries = list(it)
            for entry in entries:
                if entry.name in self.skip:
                    continue
                target = os.path.join(ddir, entry.name)
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                        continue  # a virtual environment: not part of the project's sources
                    os.mkdir(target, stat.S_IMODE(st.st_mode) | 0o700)
                    if self.owner is not None:
                        os.chown(target, *self.owner)
                    stack.append((entry.path, target))
                elif stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(entry.path), target)
                    if self.owner is not None:
                        os.lchown(target, *self.owner)
                elif stat.S_ISREG(st.st_mode):
                    self._file(entry.path, target, st)
                # Sockets, FIFOs and devices are not copied.

    def _file(self, src: str, dst: str, st: os.stat_result) -> None:
        if self.hardlinks and self.owner is not None and _link_safe(st, self.owner):
            try:
                os.link(src, dst, follow_symlinks=False)
                self.linked += 1
                return
            except OSError:
                pass  # another file system, or links refused: copy
        self._copy(src, dst, stat.S_IMODE(st.st_mode) & 0o777)
        if self.owner is not None:
            os.chown(dst, *self.owner)
        self.copied += 1

    def _copy(self, src: str, dst: str, mode: int) -> None:
        fin = os.open(src, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            fout = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            try:
                if self.reflink and _try_reflink(fin, fout):
                    return
                self.reflink = False
                while True:
                    if hasattr(os, "copy_file_range"):
                        try:
                            n = os.copy_file_range(fin, fout, 1 << 24)
                        except OSError:
                            n = -1
                        if n == 0:
                            break
                        if n > 0:
                            continue
                    chunk = os.read(fin, 1 << 20)
                    if not chunk:
                        break
                    os.write(fout, chunk)
            finally:
                os.close(fout)
        finally:
            os.close(fin)
        os.chmod(dst, mode)


def _link_safe(st: os.stat_result, owner: tuple[int, int]) -> bool:
    """Whether a sandbox running as ``owner`` (without capabilities) cannot change this file."""
    mode = st.st_mode
    if mode & (stat.S_ISUID | stat.S_ISGID) or not mode & stat.S_IROTH or mode & stat.S_IWOTH:
        return False
    if st.st_gid == owner[1] and mode & stat.S_IWGRP:
        return False
    return st.st_uid != owner[0]


def _try_reflink(fin: int, fout: int) -> bool:
    try:
        import fcntl

        fcntl.ioctl(fout, _FICLONE, fin)
        return True
    except (OSError, ImportError):
        return False


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
        raise ApplyError(f"Refusing the path {relpath!r}: it must be relative and stay inside the project.")
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
            raise ApplyError(f"Refusing the path {relpath!r}: {current.name} is not a plain folder.")
    target = root.joinpath(*parts)
    if target.is_symlink() and not leaf_link:
        raise ApplyError(f"Refusing the path {relpath!r}: it is a symbolic link.")
    return target


def _replace_file(target: Path, data: bytes, mode: int) -> None:
    tmp = target.with_name(f".{target.name}.vibecode-{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode & 0o777)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
            raise SandboxError(f"Cannot delete the workspace {path}: {exc.strerror or exc}.") from exc


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False
