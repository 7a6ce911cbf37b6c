"""`apply` writes only plain files inside the tree (issue 16, items 9 and 10).

- A temporary file name the repository plants as a symlink (``.a.py.vibecode-tmp``) is never
  followed: temp files are random names opened with O_CREAT | O_EXCL | O_NOFOLLOW.
- A path with a ``.git`` component at any depth (a nested repository's config, which can run
  code through ``core.fsmonitor``) and a path whose folder resolves outside the repository are
  refused, and nothing is written.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.repo.gitutil import GIT_ENV, make_repo, snapshot
from vibecode.errors import ApplyError
from vibecode.repo.workspace import apply_patch, undo
from vibecode.types import FileChange, Patch

ROOT = Path(__file__).resolve().parents[2]
A_OLD = "def f():\n    return 1\n"
A_NEW = "def f():\n    return 2\n"


def test_planted_temp_symlink_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    repo = make_repo(tmp_path / "repo", {"a.py": A_OLD.encode()})
    planted = repo / ".a.py.vibecode-tmp"
    planted.symlink_to(outside)
    report = apply_patch(repo, Patch((FileChange("a.py", A_OLD, A_NEW),)))
    assert report.files == ("a.py",)
    assert (repo / "a.py").read_text() == A_NEW
    assert outside.read_text() == "precious\n"
    assert planted.is_symlink() and planted.resolve() == outside.resolve()
    assert not (repo / "a.py").is_symlink()
    leftovers = [p.name for p in repo.iterdir() if p.name.endswith(".vibecode-tmp") and p != planted]
    assert leftovers == []
    undo(repo)
    assert (repo / "a.py").read_text() == A_OLD
    assert outside.read_text() == "precious\n"


@pytest.mark.parametrize("path", ["vendor/lib/.git/config", ".git/config", "x/.GIT/hooks/pre-commit"])
def test_paths_inside_any_git_folder_are_refused(tmp_path: Path, path: str) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": A_OLD.encode(), "vendor/lib/.git/config": b"[core]\n"})
    before = snapshot(repo)
    config = (repo / "vendor/lib/.git/config").read_bytes()
    with pytest.raises(ApplyError, match=r"\.git"):
        apply_patch(repo, Patch((FileChange("a.py", A_OLD, A_NEW), FileChange(path, None, "[core]\n\tfsmonitor = x\n"))))
    assert snapshot(repo) == before
    assert (repo / "vendor/lib/.git/config").read_bytes() == config


def test_cli_refuses_search_replace_on_nested_git_config(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": A_OLD.encode()})
    nested = repo / "vendor/lib/.git"
    nested.mkdir(parents=True)
    (nested / "config").write_text("[core]\n\tbare = false\n")
    answer = tmp_path / "evil.txt"
    answer.write_text(
        "vendor/lib/.git/config\n<<<<<<< SEARCH\n\tbare = false\n=======\n\tbare = false\n\tfsmonitor = touch /tmp/pwned\n>>>>>>> REPLACE\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "vibecode", "apply", str(answer)], cwd=repo,
        env={**GIT_ENV, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
    )
    assert out.returncode == 6, out.stderr
    assert "Traceback" not in out.stderr and ".git" in out.stderr
    assert (nested / "config").read_text() == "[core]\n\tbare = false\n"


def test_path_whose_folder_resolves_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    repo = make_repo(tmp_path / "repo", {"a.py": A_OLD.encode()})
    (repo / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ApplyError, match=r"symbolic link|outside the repository"):
        apply_patch(repo, Patch((FileChange("link/new.py", None, "x = 1\n"),)))
    assert list(outside.iterdir()) == []
