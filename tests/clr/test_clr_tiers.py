"""Input tiers (issue 14, item 2) on REAL statements in their rendered form: the edge tier holds
the minimum sizes and the 32-bit extremes, the random tier several sizes, the stress tier the
largest sizes; a timeout on a stress input is "too slow for the constraints" and blocks verified."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_tiers import generate_tiers
from vibecode.clr.score import block_too_slow
from vibecode.clr.stress import calibrated_limit, run_stress, stress_inputs, too_slow_reasons
from vibecode.config import Settings
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox
from vibecode.types import Decision, Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"


def real(slug: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))))


def test_every_input_carries_its_tier_and_keeps_the_constraints() -> None:
    p = real("contains_duplicate")
    got = generate_tiers(p, seed=0)
    assert got.counts() == {"edge": 6, "random": 10, "stress": 2}
    assert all(validate_input(a, p) == [] for a in got.inputs)
    assert [len(a["nums"]) for a in got.of("stress")] == [100_000, 100_000]  # 1 <= nums.length <= 10^5
    edge_sizes = {len(a["nums"]) for a in got.of("edge")}  # type: ignore[arg-type]
    assert 1 in edge_sizes  # the minimum size
    assert any(len(set(a["nums"])) == 1 and len(a["nums"]) > 1 for a in got.of("edge"))  # type: ignore[arg-type]  # all equal
    assert {-(10**9), 10**9} <= {v for a in got.of("edge") for v in a["nums"]}  # type: ignore[attr-defined]
    plain = generate_inputs(p)
    assert plain.tiers and set(plain.tiers) == {"edge", "random"} and len(plain.tiers) == len(plain.inputs)


def test_the_32_bit_bounds_reach_the_edge_tier_and_catch_a_minus_2_to_the_31_bug() -> None:
    p = real("reverse_integer")  # -2^31 <= x <= 2^31 - 1

    def correct(x: int) -> int:
        r = int(str(abs(x))[::-1]) * (-1 if x < 0 else 1)
        return r if -(2**31) <= r <= 2**31 - 1 else 0

    def buggy(x: int) -> int:  # clamps only the positive overflow
        r = int(str(abs(x))[::-1]) * (-1 if x < 0 else 1)
        return 0 if r > 2**31 - 1 else r

    got = generate_tiers(p, seed=0)
    xs = {a["x"] for a in got.of("edge")}
    assert {-(2**31), 2**31 - 1} <= xs
    assert all(buggy(e.inputs["x"]) == correct(e.inputs["x"]) for e in p.examples)  # type: ignore[arg-type]
    assert all(buggy(a["x"]) == correct(a["x"]) for a in got.of("random"))  # type: ignore[arg-type]
    assert any(buggy(a["x"]) != correct(a["x"]) for a in got.of("edge"))  # type: ignore[arg-type]


def test_a_sliding_window_off_by_one_that_random_inputs_miss_is_caught_by_the_edge_tier() -> None:
    p = real("longest_substring_without_repeating_characters")  # 0 <= s.length

    def window(s: str, best: int) -> int:
        start, last = 0, {}
        for j, ch in enumerate(s):
            if ch in last and last[ch] >= start:
                start = last[ch] + 1
            last[ch] = j
            best = max(best, j - start + 1)
        return best

    for seed in (0, 1, 2):
        got = generate_tiers(p, seed=seed, edge=6, random_count=12, stress=0)
        assert len(got.of("random")) == 12
        # the window that starts counting at 1 passes the examples and twelve random inputs ...
        assert all(window(a["s"], 1) == window(a["s"], 0) for a in got.of("random"))  # type: ignore[arg-type]
        assert all(window(e.inputs["s"], 1) == window(e.inputs["s"], 0) for e in p.examples)  # type: ignore[arg-type]
        # ... and the edge tier's empty string catches it
        assert any(window(a["s"], 1) != window(a["s"], 0) for a in got.of("edge"))  # type: ignore[arg-type]


def test_stress_inputs_take_the_largest_sizes_the_checks_allow() -> None:
    p = real("rotate_image")  # n x n, 1 <= n <= 20
    stress = stress_inputs(p)
    assert stress and all(len(a["matrix"]) == 20 and len(a["matrix"][0]) == 20 for a in stress)  # type: ignore[arg-type, index]
    pairs = real("find_the_town_judge")  # 1 <= n <= 1000, 0 <= trust.length <= 10^4, 1 <= ai, bi <= n
    got = stress_inputs(pairs)
    assert got and all(validate_input(a, pairs) == [] for a in got)
    assert all(5_000 < len(a["trust"]) <= 10_000 for a in got)  # type: ignore[arg-type]  # rows that break ai != bi are dropped


QUADRATIC = """
class Solution:
    def contains_duplicate(self, nums):
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] == nums[j]:
                    return True
        return False
"""
LINEAR = """
class Solution:
    def contains_duplicate(self, nums):
        return len(set(nums)) < len(nums)
"""


def test_a_quadratic_answer_is_too_slow_for_the_constraints_and_never_verified() -> None:
    p = real("contains_duplicate")  # 1 <= nums.length <= 10^5
    inputs = stress_inputs(p)
    runner = CandidateRunner(make_sandbox("local", Settings()))
    limit, reference = calibrated_limit(runner)
    got = run_stress(runner, p.signature, {0: LINEAR, 1: QUADRATIC}, inputs, time_limit_s=limit)
    assert reference is not None and limit >= 3.0
    assert got[0].ran == 2 and not got[0].too_slow and got[0].errors == 0
    assert got[1].too_slow and "too slow for the constraints" in got[1].reason
    assert too_slow_reasons(got) == {1: got[1].reason}
    # both give the same answers on the small tiers: only the stress tier tells them apart
    verified = Decision("verified", 1, 0.9, 0.9, (), {}, {}, 2, "The proposal passes all 3 examples.")
    blocked = block_too_slow(verified, too_slow_reasons(got))
    assert blocked.status == "plausible" and "too slow for the constraints" in blocked.reason
    fast = Decision("verified", 0, 0.9, 0.9, (), {}, {}, 2, "The proposal passes all 3 examples.")
    assert block_too_slow(fast, too_slow_reasons(got)) == fast
