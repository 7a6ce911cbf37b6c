"""The KV cache type setting: f16 or q8_0, from the config or VIBECODE_KV_CACHE_TYPE, refused
where it is given when it is anything else."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibecode.config import Settings, load_settings
from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.llama_lib import kv_type, lib
from vibecode.errors import ConfigError
from vibecode.models import ResolvedModel
from vibecode.types import ChatMessage, SamplingParams


def test_the_setting_comes_from_the_environment_and_is_checked(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    assert load_settings(missing, {}).kv_cache_type == "f16"
    assert load_settings(missing, {"VIBECODE_KV_CACHE_TYPE": "q8_0"}).kv_cache_type == "q8_0"
    with pytest.raises(ConfigError, match="VIBECODE_KV_CACHE_TYPE"):
        load_settings(missing, {"VIBECODE_KV_CACHE_TYPE": "q4_0"})
    ll = lib()
    assert kv_type(ll, "q8_0") == ll.GGML_TYPE_Q8_0 and kv_type(ll, "f16") == ll.GGML_TYPE_F16
    with pytest.raises(ConfigError):
        kv_type(ll, "bf16")


def test_a_q8_0_cache_samples_like_f16_at_temperature_0(tiny_model: ResolvedModel) -> None:
    prompt = [ChatMessage("user", "Name three colours.")]
    params = SamplingParams(temperature=0.0, max_tokens=12, ignore_eos=True)
    texts = {}
    for kv in ("f16", "q8_0"):
        engine = LlamaCppEngine(tiny_model, Settings(n_ctx=1024, n_threads=2, kv_cache_type=kv))
        try:
            assert engine.info().extra["kv_cache_type"] == kv
            texts[kv] = engine.sample(prompt, params, n=2)
        finally:
            engine.close()
    assert all(c.completion_tokens == 12 for c in texts["q8_0"])
    # Quantizing the cache perturbs the logits a little; the first greedy tokens still agree.
    assert texts["q8_0"][0].text[:8] == texts["f16"][0].text[:8]


def test_the_engine_refreshes_its_speed_in_the_cache(
    tiny_engine: LlamaCppEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vibecode.engine import plan

    monkeypatch.setenv("VIBECODE_CACHE", str(tmp_path))
    tiny_engine.stats.generated_tokens, tiny_engine.stats.decode_s = 400, 4.0
    tiny_engine._record_rate(4)
    key = plan.model_key(tiny_engine.info().model, tiny_engine.info().backend)
    assert plan.load_rates(key, tmp_path / "throughput.json") == {4: 100.0}


def test_the_engine_records_how_long_its_candidates_ran(
    tiny_engine: LlamaCppEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vibecode.engine import lengths, plan
    from vibecode.engine.base import Request

    monkeypatch.setenv("VIBECODE_CACHE", str(tmp_path))
    prompt = [ChatMessage("user", "Name three colours.")]
    candidates = Request(prompt, SamplingParams(temperature=0.0, max_tokens=8, ignore_eos=True), 2)
    helper = Request(prompt, SamplingParams(temperature=0.0, max_tokens=5, ignore_eos=True), 1, "oracle")
    list(tiny_engine.stream_batch([candidates, helper]))
    key = plan.model_key(tiny_engine.info().model, tiny_engine.info().backend)
    assert lengths.load(key, tmp_path / "lengths.json") == [1.0, 1.0]  # the candidates only, 8 of 8
