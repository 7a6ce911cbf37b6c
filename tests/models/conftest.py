"""Fixtures for the model registry and download tests.

``hf_cache`` points every Hugging Face location (HF_HOME, HF_HUB_CACHE, XDG_CACHE_HOME) into the
test's tmp dir, so the user's cache is never read or written; ``hub`` adds a fake hub server on
127.0.0.1 and points HF_ENDPOINT at it. vibecode reads these variables on every call, so setting
them for the test is enough even when huggingface_hub was imported earlier in the session.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.models.fakehub import FakeHub
from vibecode.models import hf_cache_dir


@pytest.fixture
def hf_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "hf-home"
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_HUB_CACHE", str(home / "hub"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("VIBECODE_CONFIG", str(tmp_path / "no-config.toml"))
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HUGGINGFACE_HUB_CACHE", "HF_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    cache = hf_cache_dir()
    assert cache == home / "hub" and tmp_path in cache.parents, "the HF cache must be a tmp dir"
    return cache


@pytest.fixture
def hub(hf_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    fake = FakeHub().start()
    monkeypatch.setenv("HF_ENDPOINT", fake.endpoint)
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def unused_port() -> int:
    """A local port nothing listens on (bound, read, released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
