"""Fixtures: a real git repository in a temporary folder, and a git identity for commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.repo.gitutil import GIT_ENV, make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {"a.py": b"def f():\n    return 1\n", "b.txt": b"hello\n"})


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits made by vibecode itself (through gitpython) need an identity too."""
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.setenv(key, GIT_ENV[key])
