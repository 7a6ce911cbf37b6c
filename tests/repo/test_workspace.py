"""Applying to the working tree: refusals that keep the user's work, journal, undo, commit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.repo.gitutil import git, make_repo, snapshot
from vibecode.errors import ApplyError
from vibecode.repo.workspace import WorktreeConflict, apply_patch, journal_for, undo
from vibecode.types import FileChange, Patch

FIX = Patch((FileChange("a.py", "def f():\n    return 1\n", "def f():\n    return 2\n"),))


def test_refuses_to_clobber_unstaged_changes(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 1  # my local edit\n")
    before = snapshot(repo)
    with pytest.raises(WorktreeConflict) as info:
        apply_patch(repo, FIX)
    assert "a.py has unstaged changes that the patch does not expect" in info.value.message
    assert snapshot(repo) == before
    assert journal_for(repo).entries() == []


def test_conflict_in_one_file_writes_nothing_at_all(repo: Path) -> None:
    (repo / "b.txt").write_text("edited\n")
    patch = Patch((FIX.changes[0], FileChange("b.txt", "hello\n", "bye\n"), FileChange("c.txt", None, "new\n")))
    before = snapshot(repo)
    with pytest.raises(WorktreeConflict, match=r"b\.txt"):
        apply_patch(repo, patch)
    assert snapshot(repo) == before


def test_refuses_stale_patch_and_existing_file(repo: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "noop")
    (repo / "a.py").write_text("def f():\n    return 9\n")
    git(repo, "commit", "-q", "-am", "moved on")
    with pytest.raises(WorktreeConflict, match="not the version the patch was made from"):
        apply_patch(repo, FIX)
    with pytest.raises(WorktreeConflict, match="already exists"):
        apply_patch(repo, Patch((FileChange("b.txt", None, "x\n"),)))
    with pytest.raises(WorktreeConflict, match="no longer exists"):
        apply_patch(repo, Patch((FileChange("gone.txt", "x\n", "y\n"),)))


def test_refuses_paths_outside_or_through_links(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(ApplyError, match="not a plain path"):
        apply_patch(repo, Patch((FileChange("../evil.txt", None, "x"),)))
    with pytest.raises(ApplyError, match=r"inside a \.git folder"):
        apply_patch(repo, Patch((FileChange(".git/config", None, "x"),)))
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, repo / "linkdir")
    with pytest.raises(ApplyError, match="symbolic link"):
        apply_patch(repo, Patch((FileChange("linkdir/x.txt", None, "x"),)))
    assert list(outside.iterdir()) == []


def test_dry_run_writes_nothing(repo: Path) -> None:
    before = snapshot(repo)
    report = apply_patch(repo, FIX, dry_run=True)
    assert report.dry_run and report.files == ("a.py",)
    assert snapshot(repo) == before
    assert journal_for(repo).entries() == []


def test_apply_records_journal_in_git_dir_and_undo_restores(repo: Path) -> None:
    os.chmod(repo / "a.py", 0o755)
    before = snapshot(repo)
    report = apply_patch(repo, Patch((*FIX.changes, FileChange("b.txt", "hello\n", None), FileChange("pkg/new.py", None, "x = 1"))))
    assert report.journal_id == "000001"
    entry_file = repo / ".git" / "vibecode" / "journal" / "000001" / "entry.json"
    entry = json.loads(entry_file.read_text())
    assert entry["status"] == "applied"
    by_path = {f["path"]: f for f in entry["files"]}
    assert by_path["a.py"]["before"]["mode"] == 0o755
    assert by_path["pkg/new.py"]["before"]["exists"] is False
    assert (repo / ".git" / "vibecode" / "journal" / "000001" / "before" / "0").read_bytes() == b"def f():\n    return 1\n"
    assert (repo / "a.py").stat().st_mode & 0o777 == 0o755
    assert not (repo / "b.txt").exists()
    assert (repo / "pkg" / "new.py").read_text() == "x = 1"
    result = undo(repo)
    assert result.entries == ("000001",)
    assert snapshot(repo) == before
    assert not (repo / "pkg").exists()
    with pytest.raises(ApplyError, match="nothing to undo"):
        undo(repo)


def test_undo_refuses_when_file_changed_after_apply(repo: Path) -> None:
    apply_patch(repo, FIX)
    (repo / "a.py").write_text("def f():\n    return 2  # tweaked by hand\n")
    with pytest.raises(WorktreeConflict, match=r"a\.py changed after apply"):
        undo(repo)
    assert (repo / "a.py").read_text() == "def f():\n    return 2  # tweaked by hand\n"
    undo(repo, force=True)
    assert (repo / "a.py").read_text() == "def f():\n    return 1\n"


def test_several_applies_then_undo_all(repo: Path) -> None:
    before = snapshot(repo)
    apply_patch(repo, FIX)
    apply_patch(repo, Patch((FileChange("a.py", "def f():\n    return 2\n", "def f():\n    return 3\n"),)))
    apply_patch(repo, Patch((FileChange("b.txt", "hello\n", "hello\r\nworld"),)))
    result = undo(repo, all_entries=True)
    assert result.entries == ("000003", "000002", "000001")
    assert snapshot(repo) == before
    assert [e.status for e in journal_for(repo).entries()] == ["undone"] * 3


def test_journal_outside_git_lives_in_dot_vibecode(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_bytes(b"\xff\xfeold\r\n")
    apply_patch(root, Patch((FileChange("a.py", "\udcff\udcfeold\r\n", "new\n"),)))
    assert (root / ".vibecode" / "journal" / "000001" / "entry.json").is_file()
    assert (root / "a.py").read_bytes() == b"new\n"
    undo(root)
    assert (root / "a.py").read_bytes() == b"\xff\xfeold\r\n"


def test_apply_with_commit_runs_hooks(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\ntouch \"$(git rev-parse --git-dir)/hook-ran\"\n")
    os.chmod(hook, 0o755)
    report = apply_patch(repo, FIX, commit_message="vibecode: fix f")
    assert (repo / ".git" / "hook-ran").exists()
    assert report.commit == git(repo, "rev-parse", "HEAD").strip()
    assert git(repo, "log", "-1", "--format=%s").strip() == "vibecode: fix f"
    assert git(repo, "status", "--porcelain") == ""
    result = undo(repo)
    assert "stays in the history" in result.notes[0]
    assert (repo / "a.py").read_text() == "def f():\n    return 1\n"


def test_unstaged_changes_in_other_files_are_fine(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a.py": b"def f():\n    return 1\n", "mine.txt": b"x\n"})
    (root / "mine.txt").write_text("my work in progress\n")
    apply_patch(root, FIX)
    assert (root / "mine.txt").read_text() == "my work in progress\n"
    undo(root)
    assert (root / "mine.txt").read_text() == "my work in progress\n"
