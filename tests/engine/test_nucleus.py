"""Top-p without the sort (vibecode.engine.nucleus): the same kept set as llama.cpp's own top-p,
and a sampler that draws only from it, reproducibly per seed."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.llama_lib import lib
from vibecode.engine.nucleus import NucleusSampler, ParallelDraws, nucleus, wants_nucleus
from vibecode.types import ChatMessage, SamplingParams


def native_top_p(logits: np.ndarray, top_p: float) -> set[int]:
    """The tokens llama.cpp's own top-p sampler keeps for these logits."""
    ll = lib()
    data = (ll.llama_token_data * len(logits))()
    for i, value in enumerate(logits):
        data[i].id, data[i].logit, data[i].p = i, float(value), 0.0
    array = ll.llama_token_data_array(data, len(logits), -1, False)
    sampler = ll.llama_sampler_init_top_p(top_p, 1)
    try:
        ll.llama_sampler_apply(sampler, ctypes.byref(array))
        return {array.data[i].id for i in range(array.size)}
    finally:
        ll.llama_sampler_free(sampler)


@pytest.mark.parametrize("scale", [0.05, 1.0, 4.0, 25.0])  # flat to sharply peaked
def test_the_kept_set_is_llama_cpps(scale: float) -> None:
    rng = np.random.default_rng(int(scale * 100))
    for _ in range(12):
        n = int(rng.integers(2, 6000))
        logits = (rng.standard_normal(n) * scale).astype(np.float32)
        top_p = float(rng.uniform(0.05, 0.999))
        assert set(nucleus(logits, top_p).tolist()) == native_top_p(logits, top_p)


def test_edge_cases_of_the_kept_set() -> None:
    peaked = np.array([10.0, 0.0, 0.0, -1.0])
    assert nucleus(peaked, 0.5).tolist() == [0]  # one token already holds the mass
    assert sorted(nucleus(peaked, 1.0).tolist()) == [0, 1, 2, 3]
    banned = np.array([1.0, -np.inf, 0.5, -np.inf])
    assert sorted(nucleus(banned, 0.999).tolist()) == [0, 2]  # no mass, never kept
    flat = np.zeros(10)
    assert len(nucleus(flat, 0.35)) == 4  # 4 x 0.1 is the first sum that reaches 0.35


def test_the_sampler_draws_from_the_set_with_the_tempered_weights() -> None:
    logits = np.log(np.array([0.5, 0.3, 0.15, 0.05]))
    params = SamplingParams(temperature=1.0, top_p=0.9, top_k=0)
    sampler = NucleusSampler(params, seed=7)
    counts = np.bincount([sampler.sample(logits) for _ in range(4000)], minlength=4)
    assert counts[3] == 0  # outside the nucleus (0.5 + 0.3 + 0.15 reaches 0.9)
    shares = counts[:3] / counts.sum()
    assert np.allclose(shares, np.array([0.5, 0.3, 0.15]) / 0.95, atol=0.03)
    cold = NucleusSampler(SamplingParams(temperature=0.05, top_p=0.9, top_k=0), seed=7)
    assert {cold.sample(logits) for _ in range(200)} == {0}


def test_min_p_banned_tokens_and_seeds() -> None:
    logits = np.log(np.array([0.4, 0.35, 0.2, 0.05]))
    min_p = NucleusSampler(SamplingParams(temperature=1.0, top_p=0.99, top_k=0, min_p=0.6), seed=1)
    assert {min_p.sample(logits) for _ in range(300)} == {0, 1}  # 0.2 < 0.6 * 0.4
    banned = NucleusSampler(SamplingParams(temperature=1.0, top_p=0.99, top_k=0), seed=1, banned=[0])
    assert 0 not in {banned.sample(logits) for _ in range(300)}
    draws = [[NucleusSampler(SamplingParams(temperature=1.0, top_k=0), seed=s).sample(logits)
              for _ in range(1)] for s in (3, 3)]
    assert draws[0] == draws[1]


def test_which_requests_take_it() -> None:
    assert wants_nucleus(SamplingParams(temperature=1.0, top_p=0.95, top_k=0))
    assert not wants_nucleus(SamplingParams(temperature=1.0, top_p=0.95, top_k=40))  # native top-k first
    assert not wants_nucleus(SamplingParams(temperature=0.0, top_p=0.95, top_k=0))  # greedy
    assert not wants_nucleus(SamplingParams(temperature=1.0, top_p=1.0, top_k=0))


def test_the_engine_samples_through_it_reproducibly(tiny_engine: LlamaCppEngine) -> None:
    params = SamplingParams(temperature=1.0, top_p=0.95, top_k=0, max_tokens=24, seed=99, ignore_eos=True)
    assert wants_nucleus(params)
    story = [ChatMessage("user", "Tell me about rivers.")]
    first = tiny_engine.sample(story, params, n=3)
    again = tiny_engine.sample(story, params, n=3)
    assert [c.text for c in first] == [c.text for c in again]
    assert len({c.text for c in first}) > 1  # each sequence has its own seed
    assert [c.completion_tokens for c in first] == [24, 24, 24]  # ignore_eos: no early stop


@pytest.mark.parametrize("temperature", [1.0, 0.6])
def test_the_binned_draw_has_the_gathered_draws_probabilities(temperature: float) -> None:
    # Logits spread over many bins, so the draw lands both above and inside the crossing bin.
    rng = np.random.default_rng(5)
    logits = (rng.standard_normal(40) * 3.0).astype(np.float32)
    top_p = 0.9
    kept = nucleus(logits, top_p)
    weights = np.exp((logits[kept] - logits.max()) / temperature)
    expected = np.zeros(len(logits))
    expected[kept] = weights / weights.sum()
    sampler = NucleusSampler(SamplingParams(temperature=temperature, top_p=top_p, top_k=0), seed=11)
    draws = 40000
    counts = np.bincount([sampler.sample(logits) for _ in range(draws)], minlength=len(logits))
    assert set(np.flatnonzero(counts).tolist()) <= set(kept.tolist())  # never outside the nucleus
    assert np.abs(counts / draws - expected).max() < 0.01


def test_parallel_draws_match_serial_draws_per_seed() -> None:
    rng = np.random.default_rng(2)
    rows = [(rng.standard_normal(3000) * 2.0).astype(np.float32) for _ in range(6)]
    params = SamplingParams(temperature=1.0, top_p=0.95, top_k=0)
    serial = [NucleusSampler(params, seed=i) for i in range(6)]
    parallel = [NucleusSampler(params, seed=i) for i in range(6)]
    pool = ParallelDraws(2)
    try:
        for _ in range(5):
            assert pool.draw(list(zip(parallel, rows, strict=True))) == [
                s.sample(r) for s, r in zip(serial, rows, strict=True)
            ]
    finally:
        pool.close()
