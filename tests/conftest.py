"""Fixtures shared across the suite: the real tiny model through real llama.cpp."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from vibecode.config import Settings
from vibecode.engine.llama import LlamaCppEngine
from vibecode.models import ResolvedModel, resolve_model

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def isolated_vibecode_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``VIBECODE_CACHE`` at a folder of this test session, for every test and CLI child.

    The engine records its tokens/s into ``$VIBECODE_CACHE/throughput.json`` after each long
    enough run (engine/plan.py); without this the suite would write the machine's real cache and
    later plans (the ETA, the K that fits) would read test figures. Only that file moves: the
    tiny model is found through the package and the HF cache (HF_HOME / XDG_CACHE_HOME, left
    alone), and the llama examples build under VIBECODE_CACHE is used by scripts/bench_*.py only.
    """
    cache = tmp_path_factory.mktemp("vibecode-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VIBECODE_CACHE", str(cache))
        yield cache


@pytest.fixture(scope="session")
def tiny_model() -> ResolvedModel:
    try:
        return resolve_model("tiny")
    except Exception as exc:  # a missing install is a failure with a clear reason, not a skip
        pytest.fail(f"The embedded tiny model is not installed ({exc}); run scripts/setup.")


@pytest.fixture(scope="session")
def tiny_engine(tiny_model: ResolvedModel) -> Iterator[LlamaCppEngine]:
    engine = LlamaCppEngine(tiny_model, Settings(n_ctx=16384))
    yield engine
    engine.close()


def run_cli(
    *args: str,
    env: dict[str, str] | None = None,
    input: str | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m vibecode ARGS`` in a subprocess, as a user would."""
    full_env = {**os.environ, "VIBECODE_CONFIG": os.devnull, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "vibecode", *args],
        capture_output=True,
        text=True,
        env=full_env,
        input=input,
        cwd=cwd or REPO,
        timeout=timeout,
        check=False,
    )
