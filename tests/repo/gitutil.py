"""Helpers for tests on real git repositories in temporary folders."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=root, env=GIT_ENV, capture_output=True, text=True)
    assert result.returncode == 0, f"git {' '.join(args)} failed: {result.stderr}"
    return result.stdout


def make_repo(root: Path, files: dict[str, bytes], commit: bool = True) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    if commit and files:
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "initial")
    return root


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file outside .git/.vibecode with its bytes and permission bits."""
    out: dict[str, tuple[bytes, int]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/")[0] in (".git", ".vibecode") or not path.is_file():
            continue
        out[rel] = (path.read_bytes(), path.stat().st_mode & 0o777)
    return out
