"""How long this model's completions ran (vibecode.engine.lengths): the record the engine keeps
after each request, and the likely sampling time it gives beside the upper bound (issue 18)."""

from __future__ import annotations

from pathlib import Path

from vibecode.engine import lengths as ln
from vibecode.engine import plan

KEY = plan.model_key("vibethinker-3b", "CPU")


def test_the_record_keeps_fractions_of_a_budget_per_model_and_backend(tmp_path: Path) -> None:
    cache = tmp_path / "lengths.json"
    assert ln.load(KEY, cache) == []
    assert ln.record(KEY, [(250, 1000), (1000, 1000), (0, 1000), (5, 0)], cache)  # empty ones skipped
    assert ln.load(KEY, cache) == [0.25, 1.0]
    assert ln.load(plan.model_key("vibethinker-3b", "CUDA"), cache) == []  # per backend
    assert not ln.record(KEY, [(0, 100)], cache)  # nothing to add
    ln.record(KEY, [(1, 100)] * (ln.KEEP + 10), cache)
    assert len(ln.load(KEY, cache)) == ln.KEEP  # the last KEEP only
    cache.write_text("not json", encoding="utf-8")
    assert ln.load(KEY, cache) == []  # a cache, never an error
    assert ln.record(KEY, [(10, 100)], cache) and ln.load(KEY, cache) == [0.1]


def test_a_sequence_is_likely_to_run_as_long_as_the_completions_that_ran_past_it() -> None:
    seen = [0.2, 0.3, 0.4, 0.9, 1.0]  # of a 1000-token budget: 200, 300, 400, 900, 1000 tokens
    # not started: median of all five (400); at 350: median of 400, 900, 1000 (900) less 350
    assert ln.likely_tokens_left({0: 350}, set(), 2, 1000, seen) == [400, 550]
    # at 950 only one recorded completion ran longer: too few to say, so its whole budget
    assert ln.likely_tokens_left({0: 950, 1: 100}, set(), 2, 1000, seen) == [50, 300]
    assert ln.likely_tokens_left({0: 950}, set(), 1, 1000, seen) is None  # nothing below the bound
    assert ln.likely_tokens_left({0: 10}, {0}, 1, 1000, seen) is None  # nothing open
    assert ln.likely_tokens_left({}, set(), 1, 1000, seen[:2]) is None  # too few seen


def test_the_likely_time_runs_the_likely_tokens_through_the_same_arithmetic_as_the_bound() -> None:
    seen = [0.1] * 5  # every completion stopped at a tenth of its budget
    likely = ln.likely_left_s({0: 0}, set(), 1, 1000, [], 10.0, None, seen)
    bound = plan.sampling_left_s(plan.tokens_left({0: 0}, set(), 1, 1000), 10.0)
    assert (likely, bound) == (10.0, 100.0)
    # the helpers send no progress: they keep their whole rest, so they hold the likely time up
    assert ln.likely_left_s({0: 0}, set(), 1, 1000, [500], 10.0, None, seen) == 50.0
    assert ln.likely_left_s({0: 0}, set(), 1, 1000, [], None, None, seen) is None  # no rate yet


def test_the_progress_says_about_beside_the_bound_only_where_it_reads_shorter() -> None:
    assert plan.left_text(600, 120) == "about 2 min (up to 10 min) of sampling left"
    assert plan.left_text(600, None) == "up to 10 min of sampling left"
    assert plan.left_text(600, 600) == "up to 10 min of sampling left"
    assert plan.left_text(600, 590) == "up to 10 min of sampling left"  # reads the same: once
