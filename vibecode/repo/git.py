"""Git access: the only module that imports gitpython (lazily).

Reading never changes the working tree or the index: status runs with optional locks off (git
does not even refresh the index's stat cache), exports read blobs straight from the object
database (``ls-tree``/``ls-files -s`` + ``cat-file``), so what lands in the export folder is the
exact committed/staged bytes (no smudge filters, no end-of-line conversion).

Writing happens in two places only: :meth:`GitRepo.commit` (on request, with the user's hooks:
vibecode never passes ``--no-verify``) and nothing else; applying edits to the working tree is
:mod:`vibecode.repo.workspace`, which uses this module only to ask questions.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.errors import GitError

INDEX = "INDEX"  # export source: the staged index
WORKTREE = "WORKTREE"  # export source: tracked + untracked, not ignored, files of the working tree
_NO_LOCKS = {"GIT_OPTIONAL_LOCKS": "0"}
_ZERO_SHA = "0" * 40


@dataclass(frozen=True)
class FileStatus:
    path: str
    index: str  # porcelain X: " ", "M", "A", "D", "R", "C", "U", "?", "!"
    worktree: str  # porcelain Y
    orig_path: str | None = None  # for renames and copies

    @property
    def staged(self) -> bool:
        return self.index not in (" ", "?", "!")

    @property
    def unstaged(self) -> bool:
        return self.worktree not in (" ", "?", "!")

    @property
    def untracked(self) -> bool:
        return self.index == "?"


@dataclass(frozen=True)
class RepoStatus:
    root: Path
    branch: str | None  # None when HEAD is detached
    head: str | None  # None before the first commit
    files: tuple[FileStatus, ...]

    @property
    def staged(self) -> list[str]:
        return [f.path for f in self.files if f.staged]

    @property
    def unstaged(self) -> list[str]:
        return [f.path for f in self.files if f.unstaged]

    @property
    def untracked(self) -> list[str]:
        return [f.path for f in self.files if f.untracked]

    @property
    def clean(self) -> bool:
        return not self.files


@dataclass(frozen=True)
class TreeEntry:
    mode: str  # "100644", "100755", "120000", "160000"
    sha: str
    path: str


def find_repo(path: Path) -> GitRepo | None:
    """The repository containing ``path``, or None (also when git itself is missing)."""
    try:
        import git
    except ImportError:  # pragma: no cover - gitpython is a hard dependency
        return None
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    except git.GitCommandNotFound:
        return None
    if repo.bare:
        return None
    return GitRepo(repo)


def open_repo(path: Path) -> GitRepo:
    repo = find_repo(path)
    if repo is None:
        raise GitError(f"{path} is not inside a git repository.", "Run vibecode inside a git working tree, or `git init` first.")
    return repo


def vibecode_dir(root: Path) -> Path:
    """Where vibecode keeps its state for ``root``: ``.git/vibecode/`` in a git working tree
    (the per-worktree git dir), else ``ROOT/.vibecode/``."""
    repo = find_repo(root)
    if repo is not None:
        return repo.git_dir / "vibecode"
    return root / ".vibecode"


class GitRepo:
    def __init__(self, repo: Any) -> None:
        self._repo = repo
        self.root = Path(repo.working_tree_dir).resolve()
        self.git_dir = Path(repo.git_dir).resolve()

    # ---- low level ------------------------------------------------------------------

    def _git(self, *args: str, strip: bool = True, env: dict[str, str] | None = None) -> str:
        import git

        try:
            out: str = self._repo.git.execute(
                ["git", *args],
                env={**_NO_LOCKS, **(env or {})},
                strip_newline_in_stdout=strip,
            )
        except git.GitCommandError as exc:
            detail = (exc.stderr or exc.stdout or "").strip().replace("\n", " ")
            raise GitError(f"git {args[0]} failed: {detail[:600] or exc}") from None
        return out

    def _blob(self, sha: str) -> bytes:
        data: bytes = self._repo.odb.stream(bytes.fromhex(sha)).read()
        return data

    # ---- reading ------------------------------------------------------------------

    def head(self) -> str | None:
        try:
            return self._git("rev-parse", "-q", "--verify", "HEAD^{commit}") or None
        except GitError:
            return None

    def branch(self) -> str | None:
        try:
            return self._git("symbolic-ref", "-q", "--short", "HEAD") or None
        except GitError:
            return None

    def status(self) -> RepoStatus:
        raw = self._git("status", "--porcelain=v1", "-z", "--untracked-files=all", strip=False)
        files: list[FileStatus] = []
        parts = raw.split("\0")
        i = 0
        while i < len(parts):
            item = parts[i]
            i += 1
            if len(item) < 4:
                continue
            x, y, path = item[0], item[1], item[3:]
            orig = None
            if x in "RC":
                orig = parts[i]
                i += 1
            files.append(FileStatus(path, x, y, orig))
        return RepoStatus(self.root, self.branch(), self.head(), tuple(files))

    def file_status(self, path: str) -> FileStatus | None:
        raw = self._git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", path, strip=False)
        item = raw.split("\0")[0]
        return FileStatus(item[3:], item[0], item[1]) if len(item) >= 4 else None

    def list_files(self) -> list[str]:
        """Tracked and untracked-but-not-ignored files that exist in the working tree."""
        raw = self._git("ls-files", "-z", "--cached", "--others", "--exclude-standard", strip=False)
        seen: set[str] = set()
        out: list[str] = []
        for path in raw.split("\0"):
            if path and path not in seen and os.path.lexists(self.root / path):
                seen.add(path)
                out.append(path)
        return out

    def tree_entries(self, rev: str) -> list[TreeEntry]:
        try:
            commit = self._git("rev-parse", "-q", "--verify", f"{rev}^{{commit}}")
        except GitError:
            raise GitError(f"{rev!r} does not name a commit of {self.root}.") from None
        raw = self._git("ls-tree", "-r", "-z", "--full-tree", commit, strip=False)
        out: list[TreeEntry] = []
        for item in raw.split("\0"):
            if not item:
                continue
            meta, _, path = item.partition("\t")
            mode, _kind, sha = meta.split()
            out.append(TreeEntry(mode, sha, path))
        return out

    def index_entries(self) -> list[TreeEntry]:
        raw = self._git("ls-files", "-s", "-z", strip=False)
        out: list[TreeEntry] = []
        conflicted: list[str] = []
        for item in raw.split("\0"):
            if not item:
                continue
            meta, _, path = item.partition("\t")
            mode, sha, stage = meta.split()
            if stage != "0":
                conflicted.append(path)
                continue
            out.append(TreeEntry(mode, sha, path))
        if conflicted:
            raise GitError(
                f"The index has unresolved merge conflicts ({', '.join(sorted(set(conflicted))[:5])}).",
                "Resolve them and stage the result first.",
            )
        return out

    def index_blob(self, path: str) -> bytes | None:
        """The staged content of ``path`` (None when it is not in the index)."""
        raw = self._git("ls-files", "-s", "-z", "--", path, strip=False)
        for item in raw.split("\0"):
            meta, _, name = item.partition("\t")
            if name == path:
                return self._blob(meta.split()[1])
        return None

    # ---- exports ------------------------------------------------------------------

    def export(self, source: str, dest: Path) -> Path:
        """Write the files of ``source`` (a revision, INDEX or WORKTREE) into ``dest``."""
        dest.mkdir(parents=True, exist_ok=True)
        if source == WORKTREE:
            for rel in self.list_files():
                _copy_into(self.root / rel, dest / rel)
            return dest
        entries = self.index_entries() if source == INDEX else self.tree_entries(source)
        for entry in entries:
            _write_entry(dest / entry.path, entry, self._blob)
        return dest

    # ---- writing (on request only) --------------------------------------------------

    def commit(self, paths: Sequence[str], message: str) -> str:
        """Commit exactly ``paths`` as they are in the working tree, running the user's hooks.

        Other staged changes stay staged and uncommitted. If the commit fails (a hook
        refused it), the index entries of ``paths`` are put back as they were and GitError
        carries git's output."""
        if not message.strip():
            raise GitError("A commit needs a message.")
        before = self._git("ls-files", "-s", "-z", "--", *paths, strip=False)
        try:
            self._git("add", "-A", "--", *paths)
            self._git("commit", "-q", "-m", message, "--", *paths)
        except GitError as exc:
            self._restore_index(paths, before)
            raise GitError(
                f"The commit failed, so nothing was committed: {exc.message}",
                "The changes stay applied in the working tree; `vibecode undo` reverts them.",
            ) from None
        return self.head() or ""

    def _restore_index(self, paths: Sequence[str], listing: str) -> None:
        known: dict[str, str] = {}
        for item in listing.split("\0"):
            if item:
                meta, _, path = item.partition("\t")
                mode, sha, _stage = meta.split()
                known[path] = f"{mode} {sha}\t{path}"
        lines = [known.get(p, f"0 {_ZERO_SHA}\t{p}") for p in paths]
        import git

        with tempfile.TemporaryFile() as stream:
            stream.write(("\n".join(lines) + "\n").encode("utf-8", errors="surrogateescape"))
            stream.seek(0)
            # Best effort: the working tree is what matters, and it is untouched.
            with suppress(git.GitCommandError):
                self._repo.git.execute(["git", "update-index", "--index-info"], istream=stream)


def _write_entry(target: Path, entry: TreeEntry, blob: Any) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if entry.mode == "160000":  # a submodule: its commit is not in this repository
        target.mkdir(exist_ok=True)
        return
    data = blob(entry.sha)
    if entry.mode == "120000":
        os.symlink(data.decode("utf-8", errors="surrogateescape"), target)
        return
    target.write_bytes(data)
    os.chmod(target, 0o755 if entry.mode == "100755" else 0o644)


def _copy_into(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
    elif source.is_file():
        shutil.copy2(source, target)
        os.chmod(target, stat.S_IMODE(source.stat().st_mode))


def export_tree(root: Path, source: str = "HEAD", dest: Path | None = None) -> Path:
    """Export ``source`` (a revision, :data:`INDEX` or :data:`WORKTREE`) of the repository at
    ``root`` into ``dest`` (a new temporary folder when None, which the caller removes)."""
    repo = open_repo(root)
    target = dest if dest is not None else Path(tempfile.mkdtemp(prefix="vibecode-export-"))
    try:
        return repo.export(source, target)
    except BaseException:
        if dest is None:
            shutil.rmtree(target, ignore_errors=True)
        raise


@contextmanager
def exported(root: Path, source: str = "HEAD") -> Iterator[Path]:
    """A temporary folder holding ``source`` of the repository at ``root``, removed afterwards."""
    target = export_tree(root, source)
    try:
        yield target
    finally:
        shutil.rmtree(target, ignore_errors=True)
