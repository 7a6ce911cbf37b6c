"""Fixtures for the fix tests: a git identity and one local sandbox."""

from __future__ import annotations

import pytest

from tests.repo.gitutil import GIT_ENV
from vibecode.config import Settings
from vibecode.sandbox import Sandbox, make_sandbox


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.setenv(key, GIT_ENV[key])


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    return make_sandbox("local", Settings())

