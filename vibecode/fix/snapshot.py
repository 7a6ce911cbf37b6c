"""The tree a fix or a precommit works on: an export, never the user's files.

- ``worktree``: tracked and untracked (not ignored) files of the working tree, as they are now.
- ``index``: exactly what is staged, what ``git commit`` would record (read from the object
  database: the working tree is neither read nor written).
- outside a git repository, the folder itself (the sandbox copies it for every run).

Exports go to a temporary folder that is removed afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from vibecode.errors import GitError
from vibecode.repo.git import INDEX, WORKTREE, GitRepo, exported, find_repo


@dataclass(frozen=True)
class Snapshot:
    root: Path  # the repository (or folder) the user works in
    source: Path  # the exported tree
    base: dict[str, object]  # for proposals: {"kind": ..., "commit": ...}
    label: str  # "worktree" | "index" | "folder"
    repo: GitRepo | None


@contextmanager
def snapshot(root: Path, which: Literal["worktree", "index"] = "worktree") -> Iterator[Snapshot]:
    root = Path(root).resolve()
    if not root.is_dir():
        raise GitError(f"{root} is not a folder.")
    repo = find_repo(root)
    if repo is None:
        if which == "index":
            raise GitError(f"{root} is not inside a git repository, so there is no staged index to check.",
                           "Run it in a git working tree.")
        yield Snapshot(root, root, {"kind": "folder", "commit": None}, "folder", None)
        return
    with exported(repo.root, INDEX if which == "index" else WORKTREE) as source:
        yield Snapshot(repo.root, source, {"kind": which, "commit": repo.head()}, which, repo)


def staged_paths(repo: GitRepo) -> list[str]:
    """Paths whose staged content differs from HEAD (all staged paths before the first commit)."""
    staged = {e.path: (e.mode, e.sha) for e in repo.index_entries()}
    committed = {e.path: (e.mode, e.sha) for e in repo.tree_entries("HEAD")} if repo.head() else {}
    changed = {p for p, v in staged.items() if committed.get(p) != v}
    changed |= set(committed) - set(staged)
    return sorted(changed)
