"""The test session keeps the engine's measured speed out of the user's real cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from platformdirs import user_cache_dir

from vibecode.engine import plan
from vibecode.engine.llama import LlamaCppEngine

UNUSED_K = 9973  # no real run uses this many sequences: its figure can only come from here


def test_a_run_records_its_speed_in_the_sessions_cache_not_the_real_one(
    isolated_vibecode_cache: Path, tiny_engine: LlamaCppEngine
) -> None:
    real = Path(user_cache_dir("vibecode")) / "throughput.json"
    session = isolated_vibecode_cache / "throughput.json"
    # Checked before anything is recorded, so that a broken fixture never writes the real cache.
    assert plan.cache_path() == session != real
    # What the engine does at the end of every run, with a figure no other process writes.
    tiny_engine.stats.generated_tokens, tiny_engine.stats.decode_s = 500, 5.0
    tiny_engine._record_rate(UNUSED_K)
    key = plan.model_key(tiny_engine.info().model, tiny_engine.info().backend)
    assert plan.load_rates(key, session)[UNUSED_K] == 100.0
    assert UNUSED_K not in plan.load_rates(key, real)


def test_cli_runs_started_by_the_tests_inherit_the_sessions_cache(
    isolated_vibecode_cache: Path,
) -> None:
    code = "from vibecode.engine import plan; print(plan.cache_path())"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ},
        check=True, timeout=120,
    )
    assert Path(out.stdout.strip()) == isolated_vibecode_cache / "throughput.json"
