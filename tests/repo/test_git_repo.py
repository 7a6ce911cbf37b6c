"""git.py on real repositories: status, exports that touch nothing, commits that run hooks."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from tests.repo.gitutil import git, make_repo
from vibecode.errors import GitError
from vibecode.repo.git import (
    INDEX,
    WORKTREE,
    export_tree,
    exported,
    find_repo,
    open_repo,
    vibecode_dir,
)


def _index_fingerprint(root: Path) -> tuple[str, int]:
    index = root / ".git" / "index"
    return hashlib.sha256(index.read_bytes()).hexdigest(), index.stat().st_mtime_ns


def test_find_repo_and_vibecode_dir(repo: Path, tmp_path: Path) -> None:
    found = find_repo(repo / "a.py")
    assert found is not None and found.root == repo.resolve()
    assert vibecode_dir(repo) == repo.resolve() / ".git" / "vibecode"
    plain = tmp_path / "plain"
    plain.mkdir()
    assert find_repo(plain) is None
    assert vibecode_dir(plain) == plain / ".vibecode"
    with pytest.raises(GitError, match="not inside a git repository"):
        open_repo(plain)


def test_status_reports_staged_unstaged_untracked(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 2\n")
    git(repo, "add", "a.py")
    (repo / "a.py").write_text("def f():\n    return 3\n")
    (repo / "b.txt").write_text("changed\n")
    (repo / "new.txt").write_text("new\n")
    status = open_repo(repo).status()
    assert status.branch == "main"
    assert status.head is not None and len(status.head) == 40
    assert status.staged == ["a.py"]
    assert sorted(status.unstaged) == ["a.py", "b.txt"]
    assert status.untracked == ["new.txt"]
    assert not status.clean


def test_partially_staged_file_exports_as_the_index_has_it(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 2\n")  # staged version
    git(repo, "add", "a.py")
    (repo / "a.py").write_text("def f():\n    return 3  # unstaged\n")
    (repo / "untracked.txt").write_text("u\n")
    before_index = _index_fingerprint(repo)
    before_tree = (repo / "a.py").read_bytes()
    with exported(repo, INDEX) as staged, exported(repo, "HEAD") as head, exported(repo, WORKTREE) as work:
        assert (staged / "a.py").read_text() == "def f():\n    return 2\n"
        assert (head / "a.py").read_text() == "def f():\n    return 1\n"
        assert (work / "a.py").read_text() == "def f():\n    return 3  # unstaged\n"
        assert not (staged / "untracked.txt").exists()
        assert (work / "untracked.txt").exists()
        assert staged.resolve() != repo.resolve()
    assert not staged.exists() and not head.exists() and not work.exists()
    assert (repo / "a.py").read_bytes() == before_tree
    assert _index_fingerprint(repo) == before_index
    assert git(repo, "status", "--porcelain") == "MM a.py\n?? untracked.txt\n"


def test_export_of_any_commit_keeps_modes_links_and_bytes(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"run.sh": b"#!/bin/sh\necho hi\n", "data.bin": b"\x00\xff\r\n"})
    os.chmod(root / "run.sh", 0o755)
    os.symlink("data.bin", root / "link")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "second")
    first = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    (root / "data.bin").write_bytes(b"changed")
    git(root, "commit", "-q", "-am", "third")
    old = export_tree(root, first)
    try:
        assert sorted(p.name for p in old.iterdir()) == ["data.bin", "run.sh"]
        assert (old / "data.bin").read_bytes() == b"\x00\xff\r\n"
    finally:
        import shutil

        shutil.rmtree(old)
    with exported(root, "HEAD~1") as second:
        assert os.readlink(second / "link") == "data.bin"
        assert (second / "run.sh").stat().st_mode & 0o777 == 0o755
        assert (second / "data.bin").read_bytes() == b"\x00\xff\r\n"
    with pytest.raises(GitError, match="does not name a commit"):
        export_tree(root, "no-such-branch")


def test_export_refuses_conflicted_index(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"f.txt": b"base\n"})
    git(root, "checkout", "-q", "-b", "other")
    (root / "f.txt").write_text("other\n")
    git(root, "commit", "-q", "-am", "other")
    git(root, "checkout", "-q", "main")
    (root / "f.txt").write_text("main\n")
    git(root, "commit", "-q", "-am", "main")
    import subprocess

    subprocess.run(["git", "merge", "-q", "other"], cwd=root, capture_output=True)
    with pytest.raises(GitError, match="unresolved merge conflicts"):
        export_tree(root, INDEX)


def test_commit_runs_hooks_and_commits_only_given_paths(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/hook-ran\"\n")
    os.chmod(hook, 0o755)
    (repo / "b.txt").write_text("other staged change\n")
    git(repo, "add", "b.txt")
    (repo / "a.py").write_text("def f():\n    return 5\n")
    sha = open_repo(repo).commit(["a.py"], "fix f")
    assert (repo / ".git" / "hook-ran").read_text() == "ran\n"
    assert git(repo, "rev-parse", "HEAD").strip() == sha
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["a.py"]
    assert git(repo, "diff", "--cached", "--name-only").split() == ["b.txt"]


def test_failing_hook_aborts_commit_and_restores_index(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'tests failed' >&2\nexit 1\n")
    os.chmod(hook, 0o755)
    head = git(repo, "rev-parse", "HEAD")
    (repo / "a.py").write_text("def f():\n    return 5\n")
    (repo / "new.py").write_text("x = 1\n")
    with pytest.raises(GitError, match="commit failed"):
        open_repo(repo).commit(["a.py", "new.py"], "fix f")
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "diff", "--cached", "--name-only") == ""
    assert (repo / "a.py").read_text() == "def f():\n    return 5\n"
