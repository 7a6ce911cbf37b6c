"""The tree a fix or a precommit works on: an export, never the user's files.

- ``worktree``: tracked and untracked (not ignored) files of the working tree, as they are now.
- ``index``: exactly what is staged, what ``git commit`` would record (read from the object
  database: the working tree is neither read nor written).
- outside a git repository, the folder itself (the sandbox copies it for every run).

Exports go to a temporary folder that is removed afterwards. Files that git ignores but the
project needs to import are carried into the export from the working tree: a generated version
module (hatch-vcs, setuptools-scm: ``_version.py``) and compiled extensions built in place
(``*.so``, ``*.pyd``), outside virtual environments and build folders.
"""

from __future__ import annotations

import os
import shutil
import subprocess
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
        carry_generated(repo.root, source)
        yield Snapshot(repo.root, source, {"kind": which, "commit": repo.head()}, which, repo)


def staged_paths(repo: GitRepo) -> list[str]:
    """Paths whose staged content differs from HEAD (all staged paths before the first commit)."""
    staged = {e.path: (e.mode, e.sha) for e in repo.index_entries()}
    committed = {e.path: (e.mode, e.sha) for e in repo.tree_entries("HEAD")} if repo.head() else {}
    changed = {p for p, v in staged.items() if committed.get(p) != v}
    changed |= set(committed) - set(staged)
    return sorted(changed)


GENERATED_NAMES = frozenset({"_version.py", "version.py", "__version__.py", "_version.pyi"})
GENERATED_SUFFIXES = (".so", ".pyd")
_SKIP_PARTS = frozenset({"build", "dist", ".tox", ".nox", "node_modules", ".git", "__pycache__", ".eggs"})
MAX_CARRIED = 200


def carry_generated(root: Path, source: Path) -> list[str]:
    """Copy git-ignored generated files the project imports (module docstring) from ``root``
    into the export ``source``; returns their paths."""
    try:
        done = subprocess.run(["git", "ls-files", "--others", "--ignored", "--exclude-standard", "-z"], cwd=root,
                              capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    carried: list[str] = []
    for raw in done.stdout.split(b"\0") if done.returncode == 0 else []:
        rel = raw.decode("utf-8", "surrogateescape")
        parts = rel.split("/")
        name = parts[-1]
        if not rel or not (name in GENERATED_NAMES or name.endswith(GENERATED_SUFFIXES) or ".cpython-" in name):
            continue
        if any(p in _SKIP_PARTS or p.endswith(".egg-info") for p in parts[:-1]) or _in_venv(root, parts):
            continue
        src, dst = root / rel, source / rel
        if not src.is_file() or src.is_symlink() or dst.exists() or not dst.parent.is_dir():
            continue
        shutil.copy2(src, dst)
        carried.append(rel)
        if len(carried) >= MAX_CARRIED:
            break
    return carried


def _in_venv(root: Path, parts: list[str]) -> bool:
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if os.path.exists(folder / "pyvenv.cfg"):
            return True
    return False
