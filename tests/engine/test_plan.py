"""Planning from measured speed (vibecode.engine.plan): the cache refreshed by use, the estimate,
and the proposal when K x max_tokens cannot fit the time budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vibecode.engine import plan as p
from vibecode.types import EngineInfo, SamplingParams

RATES = {1: 5.0, 8: 16.0}  # aggregate tokens/s: 0.2 s a step at K=1, 0.5 s at K=8


def test_the_cache_is_refreshed_by_use_and_survives_garbage(tmp_path: Path) -> None:
    cache = tmp_path / "c" / "throughput.json"
    key = p.model_key("vibethinker-3b", "CPU")
    assert p.load_rates(key, cache) == {}
    assert p.record(key, 8, 1600, 100.0, cache)  # 16 tok/s
    assert p.load_rates(key, cache) == {8: 16.0}
    assert p.record(key, 8, 800, 100.0, cache)  # 8 tok/s, averaged in
    assert p.load_rates(key, cache) == {8: 12.0}
    assert not p.record(key, 8, 10, 0.5, cache)  # too short to say anything
    assert p.load_rates(p.model_key("vibethinker-3b", "CUDA"), cache) == {}  # per backend
    cache.write_text("not json", encoding="utf-8")
    assert p.load_rates(key, cache) == {}
    assert p.record(key, 1, 500, 100.0, cache)  # a broken cache is rewritten, not an error
    assert json.loads(cache.read_text(encoding="utf-8")) == {key: {"1": 5.0}}


def test_step_time_interpolates_and_extrapolates_conservatively() -> None:
    assert p.step_seconds({}, 8) is None
    assert p.step_seconds(RATES, 1) == pytest.approx(0.2)
    assert p.step_seconds(RATES, 8) == pytest.approx(0.5)
    assert p.step_seconds(RATES, 4) == pytest.approx(0.2 + 0.3 * 3 / 7)
    assert p.step_seconds(RATES, 16) == pytest.approx(1.0)  # no faster aggregate than measured
    assert p.step_seconds({8: 16.0}, 2) == pytest.approx(0.5)  # no faster step than measured
    guess = p.estimate(RATES, 8, 4096)
    assert guess is not None and guess.wall_s == pytest.approx(2048.0)
    assert guess.tokens_per_s == pytest.approx(16.0) and guess.measured_k == (1, 8)


def test_a_request_that_fits_is_left_alone() -> None:
    assert p.plan(RATES, 8, 4096, 3072, None).reason is None
    fits = p.plan(RATES, 8, 4096, 3072, 3000.0)
    assert (fits.k, fits.max_tokens, fits.max_think_tokens, fits.fits, fits.reason) == (8, 4096, 3072, True, None)
    unknown = p.plan({}, 8, 4096, 3072, 10.0)  # never measured: nothing to cut on
    assert unknown.estimate is None and unknown.k == 8 and "no estimate" in unknown.describe()


def test_over_budget_first_lowers_k_and_says_so() -> None:
    chosen = p.plan(RATES, 8, 4096, 3072, 1800.0)  # 2,048 s at K=8
    assert chosen.fits and chosen.k == 6 and chosen.max_tokens == 4096  # K=7 needs 1,872 s
    assert chosen.estimate is not None and chosen.estimate.wall_s <= 1800.0
    assert chosen.reason is not None and "K is 6" in chosen.reason and "8 x 4096" in chosen.reason


def test_then_the_thinking_budget_and_never_silently() -> None:
    chosen = p.plan(RATES, 8, 4096, 3072, 600.0)  # K=4 steps cost 0.33 s: 1,814 tokens fit
    assert chosen.k == p.MIN_K and chosen.fits
    assert chosen.max_think_tokens is not None and p.MIN_THINK <= chosen.max_think_tokens < 3072
    assert chosen.max_tokens == 1024 + chosen.max_think_tokens  # the answer's room is kept
    assert chosen.estimate is not None and chosen.estimate.wall_s <= 600.0
    assert chosen.reason is not None and "thinking budget" in chosen.reason
    hopeless = p.plan(RATES, 8, 4096, 3072, 30.0)
    assert not hopeless.fits and hopeless.max_think_tokens == p.MIN_THINK
    assert hopeless.reason is not None and "even K=4" in hopeless.reason
    no_think = p.plan(RATES, 8, 4096, None, 600.0)
    assert not no_think.fits and no_think.max_tokens == 4096 and no_think.k == 4


def test_plan_request_reads_the_engines_rates(tmp_path: Path) -> None:
    cache = tmp_path / "throughput.json"
    info = EngineInfo(engine="llama", model="vibethinker-3b", backend="CPU", gpu_layers=0, n_ctx=32768)
    p.record(p.model_key("vibethinker-3b", "CPU"), 8, 1600, 100.0, cache)
    params = SamplingParams(max_tokens=4096, max_think_tokens=3072)
    chosen = p.plan_request(info, 8, params, 300.0, cache)
    assert chosen.k == 4 and chosen.reason is not None
    assert "tokens/s" in chosen.describe() and chosen.reason in chosen.describe()


def test_planned_request_changes_only_what_the_plan_names(tmp_path: Path) -> None:
    cache = tmp_path / "throughput.json"
    info = EngineInfo(engine="llama", model="m", backend="CPU", gpu_layers=0, n_ctx=32768)
    params = SamplingParams(max_tokens=4096, max_think_tokens=3072, temperature=1.0)
    assert p.planned_request(info, 8, params, 60.0, cache) == (8, params, "")  # nothing measured
    p.record(p.model_key("m", "CPU"), 8, 1600, 100.0, cache)
    k, fitted, line = p.planned_request(info, 8, params, None, cache)
    assert (k, fitted) == (8, params) and line.startswith("about 34 min for 8 x 4096 tokens")
    k, fitted, line = p.planned_request(info, 8, params, 1000.0, cache)  # 2,000 tokens at K=4
    assert k == 4 and fitted.max_think_tokens == 2000 - 1024
    assert fitted.temperature == 1.0 and "thinking budget" in line


def test_helpers_in_the_batch_make_the_first_steps_dearer_and_are_named() -> None:
    helpers = p.Helpers(lambda k, max_tokens: [200, 100], batched=True)
    guess = p.estimate(RATES, 8, 1000, helpers)
    alone = p.estimate(RATES, 8, 1000)
    assert guess is not None and alone is not None
    # 100 steps of 10 sequences, 100 of 9, then 800 of the 8 candidates alone
    ten, nine = p.step_seconds(RATES, 10), p.step_seconds(RATES, 9)
    assert ten is not None and nine is not None
    expected = 100 * ten + 100 * nine + 800 * 0.5
    assert guess.wall_s == pytest.approx(expected) and guess.wall_s > alone.wall_s
    assert (guess.helpers, guess.helper_tokens) == (2, 300)
    assert guess.tokens_per_s == pytest.approx(8300 / guess.wall_s)
    line = p.plan(RATES, 8, 1000, None, None, helpers).describe()
    assert "and 2 helpers (300 tokens)" in line


def test_helpers_apart_come_on_top_one_sequence_at_a_time() -> None:
    apart = p.estimate(RATES, 8, 1000, p.Helpers(lambda k, max_tokens: [200, 100], batched=False))
    assert apart is not None and apart.wall_s == pytest.approx(1000 * 0.5 + 300 * 0.2)
    none = p.estimate(RATES, 8, 1000, p.Helpers(lambda k, max_tokens: [], batched=False))
    assert none is not None and none.wall_s == pytest.approx(500.0) and none.helpers == 0


def test_a_budget_the_candidates_fit_but_not_with_their_helpers_lowers_k() -> None:
    helpers = p.Helpers(lambda k, max_tokens: [k * max_tokens // 16] * 3)  # 3/16 more tokens
    assert p.plan(RATES, 8, 4096, 3072, 2100.0).reason is None  # 2,048 s: the candidates fit
    chosen = p.plan(RATES, 8, 4096, 3072, 2100.0, helpers)
    assert chosen.k < 8 and chosen.fits and chosen.reason is not None and "K is" in chosen.reason
    assert chosen.estimate is not None and chosen.estimate.wall_s <= 2100.0 and chosen.estimate.helpers == 3
    tight = p.plan(RATES, 8, 4096, 3072, 600.0, helpers)  # the thinking budget leaves room for them
    assert tight.k == p.MIN_K and tight.estimate is not None
    assert tight.fits == (tight.estimate.wall_s <= 600.0) and tight.estimate.wall_s <= 600.0
