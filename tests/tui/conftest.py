"""Fixtures for the TUI tests: a project folder, a replay pool, a private data dir, fixed time."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.solve.pools import coin_change_pool, write_pool
from tests.tui.helpers import EXAMPLES


@pytest.fixture(autouse=True)
def private_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Recent runs go to a tmp dir; no user config; a fixed time zone for the dates on screen."""
    data = tmp_path / "data"
    monkeypatch.setenv("VIBECODE_DATA_DIR", str(data))
    monkeypatch.setenv("VIBECODE_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    return data


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder with the coin change problem in it (named the same in every test)."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(EXAMPLES / "coin_change.md", root / "coin_change.md")
    return root


@pytest.fixture
def pool(tmp_path: Path) -> Path:
    """The mixed coin change pool: 9 candidates (4 correct, greedy, wrong, crash, loop, syntax)."""
    folder = tmp_path / "replay"
    folder.mkdir()
    return write_pool(folder / "pool.jsonl", coin_change_pool())


# The fake Hugging Face hub of the models tests, for pulling a model from the settings screen.
from tests.models.conftest import hf_cache, hub  # noqa: E402, F401
