"""The ``counts`` bug-seeking strategy (clr.inputs_bugs_counts) on a real statement."""

from __future__ import annotations

from tests.clr.leetcode_real import real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_bugs_counts import count_bases, count_values, counts
from vibecode.problems.constraints import parse_constraints


def _evicts_left_edge(s: str, k: int) -> int:
    """The wrong window of held-out-3's pool: on overflow it evicts s[lo], not the least recent letter."""
    if k == 0:
        return 0
    last: dict[str, int] = {}
    lo = best = 0
    for i, ch in enumerate(s):
        last[ch] = i
        if len(last) > k:
            lo = last.pop(s[lo]) + 1
        best = max(best, i - lo + 1)
    return best


def _longest(s: str, k: int) -> int:
    return max((j - i for i in range(len(s)) for j in range(i, len(s) + 1) if len(set(s[i:j])) <= k), default=0)


def test_count_values_are_small_counts_and_the_distinct_and_length_neighbours() -> None:
    assert count_values("abacab") == [1, 2, 3, 4, 5, 6]  # 3 distinct letters, 6 long
    assert count_values([[1, 2], [1, 2], [3]]) == [1, 2, 3]  # lists compare by value
    assert count_bases([{"s": "ab", "k": 1}, {"s": "x" * 50, "k": 1}, {"s": "abcd", "k": 1}]) == [{"s": "abcd", "k": 1}]


def test_counts_meet_k_with_the_letters_drawn_and_stay_valid() -> None:
    p = real("longest_substring_with_at_most_k_distinct_characters")
    c = parse_constraints(p)
    base = {"s": "abacccd", "k": 40}
    made = counts(p, c, [base])
    assert {m["k"] for m in made} == {1, 2, 3, 4, 5, 6, 7} and all(m["s"] == base["s"] for m in made)
    assert all(validate_input(dict(m), p) == [] for m in made)
    # k below the letters drawn is where the wrong eviction shows; k = 40 answers the whole string either way
    assert _evicts_left_edge("abacccd", 40) == _longest("abacccd", 40)
    assert any(_evicts_left_edge("abacccd", int(str(m["k"]))) != _longest("abacccd", int(str(m["k"]))) for m in made)


def test_generated_inputs_hold_k_below_the_distinct_letters_of_long_strings() -> None:
    p = real("longest_substring_with_at_most_k_distinct_characters")
    got = generate_inputs(p)
    low = [x for x in got.inputs if isinstance(x["s"], str) and len(x["s"]) >= 10
           and 1 <= int(str(x["k"])) < len(set(str(x["s"])))]
    assert len(low) >= 6  # without the strategy, only k = 1 on one drawn string
