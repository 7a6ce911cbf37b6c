"""Inputs where few values repeat (issue 14, the held-out pools examined on 2026-12-07): a real
LeetCode statement in its rendered form, a hand-written wrong answer of a bug class that agrees
with a correct answer on the examples and on the inputs made without the bug-seeking strategies
(``bugs=0``), and is told apart by the strategy named. Both answers run in the real harness; every
generated input keeps the parsed constraints."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clr.leetcode_real import caught_by_bug_inputs, outputs, real
from tests.solve.pools import dev_pool, solve_pool
from vibecode.clr import inputs_tiers
from vibecode.clr.inputs import generate_inputs
from vibecode.clr.inputs_bugs import bug_candidates
from vibecode.clr.inputs_bugs_palette import PALETTE_STRATEGIES
from vibecode.clr.inputs_tiers import bug_bases
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraints import parse_constraints

# grouping by the set of letters puts "ab" and "aab" together
ANAGRAMS_RIGHT = """
class Solution:
    def group_anagrams(self, strs: list[str]) -> list[list[str]]:
        out: dict[tuple[str, ...], list[str]] = {}
        for s in strs:
            out.setdefault(tuple(sorted(s)), []).append(s)
        return list(out.values())
"""
ANAGRAMS_WRONG = """
class Solution:
    def group_anagrams(self, strs: list[str]) -> list[list[str]]:
        out: dict[str, list[str]] = {}
        for s in strs:
            out.setdefault("".join(sorted(set(s))), []).append(s)
        return list(out.values())
"""

# rows and columns checked, the 3 x 3 boxes forgotten: a full random board breaks a row anyway
SUDOKU_RIGHT = """
class Solution:
    def is_valid_sudoku(self, board: list[list[str]]) -> bool:
        seen = set()
        for r, row in enumerate(board):
            for c, d in enumerate(row):
                if d != ".":
                    for k in (("row", r, d), ("col", c, d), ("box", r // 3, c // 3, d)):
                        if k in seen:
                            return False
                        seen.add(k)
        return True
"""
SUDOKU_WRONG = """
class Solution:
    def is_valid_sudoku(self, board: list[list[str]]) -> bool:
        for line in [*board, *map(list, zip(*board))]:
            digits = [d for d in line if d != "."]
            if len(digits) != len(set(digits)):
                return False
        return True
"""

# the search for distinct values: equal ends and middle hide which half is sorted
ROTATED_RIGHT = """
class Solution:
    def search(self, nums: list[int], target: int) -> bool:
        return target in nums
"""
ROTATED_WRONG = """
class Solution:
    def search(self, nums: list[int], target: int) -> bool:
        lo, hi = 0, len(nums) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            if nums[mid] == target:
                return True
            if nums[lo] <= nums[mid]:
                if nums[lo] <= target < nums[mid]:
                    hi = mid - 1
                else:
                    lo = mid + 1
            elif nums[mid] < target <= nums[hi]:
                lo = mid + 1
            else:
                hi = mid - 1
        return False
"""

CASES = [
    ("group_anagrams", ("palette",), ANAGRAMS_RIGHT, ANAGRAMS_WRONG),
    ("valid_sudoku", ("sparse", "near"), SUDOKU_RIGHT, SUDOKU_WRONG),
]


@pytest.mark.parametrize(("slug", "strategies", "right", "wrong"), CASES, ids=[c[0] for c in CASES])
def test_a_bug_uniform_draws_miss_is_caught_where_few_values_repeat(slug: str, strategies: tuple[str, ...],
                                                                     right: str, wrong: str) -> None:
    problem = real(slug)
    caught = caught_by_bug_inputs(problem, right, wrong)
    assert caught, f"no generated input separates the wrong answer for {slug}"
    c = parse_constraints(problem)
    bases = bug_bases([dict(x) for x in generate_inputs(problem, bugs=0).inputs])
    proposed = [x for name in strategies for x in PALETTE_STRATEGIES[name](problem, c, bases)]
    assert any(x in proposed for x in caught)


def test_a_rotated_list_with_one_value_nearly_everywhere_tells_the_distinct_value_search_apart() -> None:
    problem = real("search_in_rotated_sorted_array_ii")
    assert tiers_vouched(problem) is None  # "nums is guaranteed to be rotated at some pivot" is generated
    new = [dict(x) for x in generate_inputs(problem).inputs]
    for x in new:  # every input is a rotated sorted list
        nums = x["nums"]
        assert isinstance(nums, list)
        drops = sum(nums[i] > nums[i + 1] for i in range(len(nums) - 1))
        assert drops == 0 or (drops == 1 and nums[-1] <= nums[0])
    a, b = outputs(problem, ROTATED_RIGHT, new), outputs(problem, ROTATED_WRONG, new)
    caught = [x for x, ra, rb in zip(new, a, b, strict=True) if ra != rb]
    assert caught
    bases = bug_bases([dict(x) for x in generate_inputs(problem, bugs=0).inputs])
    assert any(x in bug_candidates(problem, parse_constraints(problem), bases)["rotations"] for x in caught)


def test_a_digit_span_names_those_digits_only() -> None:
    assert parse_constraints(real("valid_sudoku")).chars["board"] == ".123456789"  # "a digit 1-9 or '.'"
    chars = parse_constraints(real("decoded_string_at_index")).chars["s"]  # "... and digits 2 through 9"
    assert "0" not in chars and "1" not in chars and "2" in chars and "9" in chars
    assert all(d != "0" for x in generate_inputs(real("valid_sudoku")).inputs for row in x["board"] for d in row)  # type: ignore[attr-defined]


def test_no_collapsed_values_where_the_reader_cannot_check_the_promises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # evaluate_division: "there is no contradiction" is a promise vibecode cannot check; variables
    # collapsed onto two letters state a ratio twice with two values, the two correct answers split
    # on such an input and the contested pick went wrong in both orders (dev, 2026-12-07)
    problem = real("evaluate_division")
    assert tiers_vouched(problem) is not None
    c = parse_constraints(problem)
    bases = bug_bases([dict(x) for x in generate_inputs(problem, bugs=0).inputs])
    proposed = [x for make in PALETTE_STRATEGIES.values() for x in make(problem, c, bases)]
    assert not [x for x in generate_inputs(problem).inputs if x in proposed]
    with monkeypatch.context() as patch:  # the same problem as if its promises were generated
        patch.setattr(inputs_tiers, "tiers_vouched", lambda *_: None)
        assert [x for x in generate_inputs(problem).inputs if x in proposed]
    lines = dev_pool("LeetCode/evaluate_division@agree")
    result = solve_pool(tmp_path, problem, lines)
    assert result.best is not None
    assert [x for x in lines if x["kind"] == "candidate"][result.best.index]["correct"] is True
