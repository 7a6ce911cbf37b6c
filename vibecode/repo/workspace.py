"""Apply a Patch to the user's files, and undo it, without ever losing their work.

- :func:`apply_patch` writes only when asked (``dry_run=False``). Every touched file must be
  exactly as the patch expects (``FileChange.old``; absent for a created file). A file that
  differs is a conflict: nothing at all is written and :class:`WorktreeConflict` says which files
  and why (unstaged changes the patch does not expect, a file deleted or created meanwhile...).
- Before writing, the journal (:mod:`vibecode.repo.journal`) records each file's exact bytes and
  mode. Files are replaced atomically (temporary file + rename) keeping their mode; new files
  get ``0o644``.
- Optionally the applied files are committed (with the user's hooks; never ``--no-verify``).
- :func:`undo` restores the last (or every) apply exactly, after checking that the files are
  still as the apply left them; a file changed since is a conflict unless ``force=True``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vibecode.errors import ApplyError, GitError
from vibecode.patch.text import encode
from vibecode.repo.git import GitRepo, find_repo
from vibecode.repo.journal import FileState, Journal, JournalEntry, now, sha256
from vibecode.types import FileChange, Patch


class WorktreeConflict(ApplyError):
    """The working tree is not what the patch (or the undo) expects; nothing was written."""


@dataclass(frozen=True)
class ApplyReport:
    root: Path
    files: tuple[str, ...]  # paths written (or that would be, in a dry run)
    created: tuple[str, ...]
    deleted: tuple[str, ...]
    dry_run: bool
    journal_id: str | None = None
    commit: str | None = None


@dataclass(frozen=True)
class UndoReport:
    root: Path
    entries: tuple[str, ...]  # journal ids undone, newest first
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()


def state_dir(root: Path) -> tuple[Path, GitRepo | None]:
    repo = find_repo(root)
    if repo is not None:
        return repo.git_dir / "vibecode", repo
    return root.resolve() / ".vibecode", None


def journal_for(root: Path) -> Journal:
    return Journal(state_dir(root)[0] / "journal")


def _safe_target(root: Path, rel: str) -> Path:
    parts = PurePosixPath(rel).parts
    if not parts or rel.startswith("/") or ".." in parts or parts[0] == ".vibecode":
        raise ApplyError(f"Refusing to write {rel!r}: it is not a plain path inside the repository.")
    if any(part.lower() == ".git" for part in parts):
        raise ApplyError(
            f"Refusing to write {rel!r}: it is inside a .git folder (a repository's own settings and "
            "hooks, which could run code); vibecode never edits those.",
            "Nothing was written. Edit that file yourself if you really mean to.",
        )
    target = root / rel
    current = root
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink():
            raise ApplyError(f"Refusing to write {rel!r}: {current.relative_to(root)} is a symbolic link.")
    try:
        target.parent.resolve().relative_to(root.resolve())
    except ValueError:
        raise ApplyError(
            f"Refusing to write {rel!r}: its folder resolves outside the repository.",
            "Nothing was written.",
        ) from None
    if target.is_symlink():
        raise ApplyError(f"Refusing to write {rel!r}: it is a symbolic link.")
    if target.exists() and not target.is_file():
        raise ApplyError(f"Refusing to write {rel!r}: it is not a regular file.")
    return target


def apply_patch(
    root: Path,
    patch: Patch,
    *,
    dry_run: bool = False,
    commit_message: str | None = None,
    description: str = "",
) -> ApplyReport:
    """Apply ``patch`` to the working tree at ``root`` (see the module docstring)."""
    root = root.resolve()
    base, repo = state_dir(root)
    changes = [c for c in patch.changes if c.old != c.new]
    if not changes:
        raise ApplyError("The patch changes nothing.")
    if repo is not None and repo.root != root:
        root = repo.root
    targets = {c.path: _safe_target(root, c.path) for c in changes}
    conflicts = [msg for c in changes if (msg := _conflict(c, targets[c.path], repo)) is not None]
    if conflicts:
        raise WorktreeConflict(
            "Refusing to apply: " + " ".join(conflicts),
            "Nothing was written. Commit or stash your changes, or regenerate the patch from the current files.",
        )
    created = tuple(c.path for c in changes if c.old is None)
    deleted = tuple(c.path for c in changes if c.new is None)
    paths = tuple(c.path for c in changes)
    if commit_message is not None and repo is None:
        raise GitError("Cannot commit: the folder is not a git repository.")
    if dry_run:
        return ApplyReport(root, paths, created, deleted, True)
    new_dirs = _missing_dirs(root, [targets[p] for p in created])
    records = []
    for change in changes:
        target = targets[change.path]
        before = FileState.of(target)
        data = target.read_bytes() if before.exists else None
        if change.new is None:
            after = FileState(False)
        else:
            new_bytes = encode(change.new)
            mode = before.mode if before.mode is not None else _default_mode()
            after = FileState(True, mode, sha256(new_bytes))
        records.append((change.path, before, data, after))
    journal = Journal(base / "journal")
    entry = journal.begin(description or _describe(changes), records, [d.relative_to(root).as_posix() for d in new_dirs])
    for change in changes:
        _write(targets[change.path], change, entry)
    entry = journal.mark(entry, status="applied")
    commit = None
    if commit_message is not None and repo is not None:
        commit = repo.commit(list(paths), commit_message)
        journal.mark(entry, commit=commit)
    return ApplyReport(root, paths, created, deleted, False, entry.id, commit)


def _conflict(change: FileChange, target: Path, repo: GitRepo | None) -> str | None:
    exists = target.exists()
    if change.old is None:
        if exists:
            return f"{change.path} already exists, but the patch creates it."
        return None
    if not exists:
        return f"{change.path} no longer exists, but the patch expects it."
    if target.read_bytes() == encode(change.old):
        return None
    if repo is not None:
        status = repo.file_status(target.relative_to(repo.root).as_posix())
        if status is not None and status.unstaged:
            return f"{change.path} has unstaged changes that the patch does not expect (your edits are kept)."
    return f"{change.path} is not the version the patch was made from (it changed since)."


def _default_mode() -> int:
    return 0o644


def _describe(changes: list[FileChange]) -> str:
    names = ", ".join(c.path for c in changes[:4])
    more = f" and {len(changes) - 4} more" if len(changes) > 4 else ""
    return f"apply to {names}{more}"


def _missing_dirs(root: Path, targets: list[Path]) -> list[Path]:
    missing: list[Path] = []
    for target in targets:
        parent = target.parent
        chain: list[Path] = []
        while parent != root and not parent.exists():
            chain.append(parent)
            parent = parent.parent
        for folder in reversed(chain):
            if folder not in missing:
                missing.append(folder)
    return missing


def _write(target: Path, change: FileChange, entry: JournalEntry) -> None:
    if change.new is None:
        target.unlink()
        return
    index = next(i for i, f in enumerate(entry.files) if f.path == change.path)
    mode = entry.files[index].after.mode or 0o644
    target.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(target, encode(change.new), mode)


def _atomic_write(target: Path, data: bytes, mode: int) -> None:
    """Write ``data`` to a new temporary file beside ``target`` and rename it over ``target``.

    The temporary name is random and opened with ``O_CREAT | O_EXCL | O_NOFOLLOW``, so a file or
    link planted in the folder (for example a symlink the repository ships) is never followed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(16):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.vibecode-tmp")
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise ApplyError(f"Cannot create a temporary file beside {target}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), stat.S_IMODE(mode))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---- undo -----------------------------------------------------------------------------


def undo(root: Path, *, all_entries: bool = False, force: bool = False) -> UndoReport:
    """Restore the files of the last apply (or of every apply, newest first) exactly."""
    root = root.resolve()
    base, repo = state_dir(root)
    if repo is not None:
        root = repo.root
    journal = Journal(base / "journal")
    active = journal.active()
    if not active:
        raise ApplyError("There is nothing to undo: no vibecode apply is recorded for this folder.")
    chosen = list(reversed(active)) if all_entries else [active[-1]]
    _check_undo(root, chosen, force)
    files: list[str] = []
    notes: list[str] = []
    for entry in chosen:
        for index, record in enumerate(entry.files):
            target = root / record.path
            data = entry.before_bytes(index)
            if data is None:
                if os.path.lexists(target):
                    target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write(target, data, record.before.mode or 0o644)
            files.append(record.path)
        for folder in sorted(entry.created_dirs, key=len, reverse=True):
            path = root / folder
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        if entry.commit:
            notes.append(
                f"Apply {entry.id} was committed as {entry.commit[:12]}; the commit stays in the history and "
                "its reversal is left as uncommitted changes."
            )
        journal.mark(entry, status="undone", undone_at=now())
    return UndoReport(root, tuple(e.id for e in chosen), tuple(dict.fromkeys(files)), tuple(notes))


def _check_undo(root: Path, chosen: list[JournalEntry], force: bool) -> None:
    """Simulate the undo chain: each file must be as the apply left it (or, for an apply that
    was interrupted, as it was before)."""
    if force:
        return
    state: dict[str, FileState] = {}
    problems: list[str] = []
    for entry in chosen:
        for record in entry.files:
            current = state.get(record.path) or FileState.of(root / record.path)
            expected = [record.after] + ([record.before] if entry.status == "pending" else [])
            if not any(_same(current, e) for e in expected):
                problems.append(f"{record.path} changed after apply {entry.id}")
            state[record.path] = record.before
    if problems:
        raise WorktreeConflict(
            "Refusing to undo: " + "; ".join(dict.fromkeys(problems)) + ", and undoing would lose those changes.",
            "Nothing was changed. Save your edits elsewhere and use --force to restore anyway.",
        )


def _same(a: FileState, b: FileState) -> bool:
    return a.exists == b.exists and (not a.exists or a.sha256 == b.sha256)
