"""The remaining sampling time (vibecode.engine.plan): the tokens still in each open sequence's
budget (the candidates' and the batch's helper sequences'), timed from the run's measured decode
steps a second."""

from __future__ import annotations

import pytest

from vibecode.engine import plan as p

RATES = {1: 5.0, 8: 16.0}  # aggregate tokens/s: 0.2 s a step at K=1, 0.5 s at K=8


def test_tokens_left_counts_open_sequences_and_the_ones_not_heard_from() -> None:
    # K=4 x 1000: 0 finished, 1 at 300 tokens, 2 at 900, 3 not started
    assert p.tokens_left({0: 450, 1: 300, 2: 900}, {0}, 4, 1000) == [100, 700, 1000]
    assert p.tokens_left({0: 1200}, set(), 1, 1000) == [0]  # past its budget: nothing left, not negative
    assert p.tokens_left({0: 10, 5: 10}, set(), 2, 100) == [90, 90, 100]  # a sequence beyond K counts too
    assert p.tokens_left({0: 5, 1: 7}, {0, 1}, 2, 100) == []


def test_helpers_keep_the_rest_of_their_budget_after_as_many_steps_as_the_longest_candidate() -> None:
    # 3 helpers of 2048 tokens in a batch whose longest candidate has 500 tokens: 500 steps so far
    assert p.helper_tokens_left(3, 2048, {0: 500, 1: 120}) == [1548, 1548, 1548]
    assert p.helper_tokens_left(2, 256, {0: 300}) == [0, 0]  # past their budget: done, not negative
    assert p.helper_tokens_left(1, 256, {}) == [256]  # no step yet
    assert p.helper_tokens_left(0, 2048, {0: 5}) == []


def test_without_cached_figures_a_step_costs_what_it_cost_so_far() -> None:
    assert p.sampling_left_s([100, 300], None) is None  # not measurable yet
    assert p.sampling_left_s([100, 300], 0.0) is None
    assert p.sampling_left_s([], 10.0) == 0.0
    assert p.sampling_left_s([0, 0], 10.0) == 0.0
    # 10 steps a second: the longer sequence needs 300 steps, whoever else shares them
    assert p.sampling_left_s([100, 300], 10.0) == pytest.approx(30.0)
    assert p.sampling_left_s([300, 100], 20.0) == pytest.approx(15.0)  # order does not matter
    # a step with fewer open sequences is not taken to be cheaper: on a GPU or the paced replay
    # it is not, so the straggler's last 200 steps are timed like the first 100
    assert p.sampling_left_s([300], 10.0) == p.sampling_left_s([100, 300, 300], 10.0)


def test_cached_figures_make_the_steps_with_fewer_sequences_cheaper_but_not_free() -> None:
    # 2 open now, a step measured at 0.5 s (2 steps a second); the cache says a step at K=1
    # takes 0.2 / step_seconds(2) of that
    step2 = p.step_seconds(RATES, 2)
    assert step2 is not None
    left = p.sampling_left_s([100, 200], 2.0, RATES)
    assert left == pytest.approx(100 * 0.5 + 100 * 0.5 * 0.2 / step2)
    flat = p.sampling_left_s([100, 200], 2.0)
    assert flat is not None and left is not None
    assert left < flat == pytest.approx(200 * 0.5)  # without the cache: no cheaper steps


def test_the_time_left_falls_as_tokens_arrive_and_rises_when_the_rate_drops() -> None:
    early = p.sampling_left_s(p.tokens_left({0: 100, 1: 100}, set(), 2, 1000), 5.0)
    later = p.sampling_left_s(p.tokens_left({0: 600, 1: 500}, set(), 2, 1000), 5.0)
    slower = p.sampling_left_s(p.tokens_left({0: 600, 1: 500}, set(), 2, 1000), 2.5)
    assert early == pytest.approx(180.0) and later == pytest.approx(100.0) and slower == pytest.approx(200.0)


def test_the_time_left_says_it_is_the_sampling_time() -> None:
    assert p.left_text(42) == "up to 42 s of sampling left"
    assert p.left_text(600) == "up to 10 min of sampling left"
    assert not hasattr(p, "sample_budget")  # the budget is not read back from the stage's text


def test_the_time_left_never_passes_the_time_budget() -> None:
    assert p.within_budget(500.0, None, 100.0) == 500.0
    assert p.within_budget(500.0, 300.0, 100.0) == 200.0  # sampling stops when the budget runs out
    assert p.within_budget(50.0, 300.0, 100.0) == 50.0
    assert p.within_budget(50.0, 300.0, 400.0) == 0.0
    assert p.within_budget(None, 300.0, 0.0) is None
