"""Bug-seeking generated inputs (issue 14): for each strategy, a real LeetCode statement in its
rendered form and a hand-written wrong answer of the bug class that agrees with a correct answer
on the examples and on the inputs made without the strategies (``bugs=0``), and is told apart by
the bug-seeking ones. Both answers run in the real harness (a subprocess per run); every generated
input keeps the parsed constraints."""

from __future__ import annotations

import re

import pytest

from tests.clr.leetcode_real import caught_by_bug_inputs, real
from vibecode.clr.inputs import generate_inputs
from vibecode.clr.inputs_bugs import bug_candidates
from vibecode.clr.inputs_tiers import bug_bases
from vibecode.problems.constraints import parse_constraints

# 32-bit overflow at (-2^31, -1): the quotient is not clamped
DIVIDE_RIGHT = """
class Solution:
    def divide(self, dividend: int, divisor: int) -> int:
        neg = (dividend < 0) != (divisor < 0)
        q = abs(dividend) // abs(divisor)
        q = -q if neg else q
        return max(-2**31, min(2**31 - 1, q))
"""
DIVIDE_WRONG = """
class Solution:
    def divide(self, dividend: int, divisor: int) -> int:
        neg = (dividend < 0) != (divisor < 0)
        q = abs(dividend) // abs(divisor)
        return -q if neg else q
"""

# after a partial match the scan restarts at the mismatch, not one past the match's start
NEEDLE_RIGHT = """
class Solution:
    def str_str(self, haystack: str, needle: str) -> int:
        return haystack.find(needle)
"""
NEEDLE_WRONG = """
class Solution:
    def str_str(self, haystack: str, needle: str) -> int:
        i = j = 0
        while i < len(haystack):
            if haystack[i] == needle[j]:
                j += 1
                if j == len(needle):
                    return i - j + 1
            else:
                j = 1 if haystack[i] == needle[0] else 0
            i += 1
        return -1
"""

# a "0" operand: leading zeros stripped down to the empty string
MULTIPLY_RIGHT = """
class Solution:
    def multiply(self, num1: str, num2: str) -> str:
        return str(int(num1) * int(num2))
"""
MULTIPLY_WRONG = """
class Solution:
    def multiply(self, num1: str, num2: str) -> str:
        res = [0] * (len(num1) + len(num2))
        for i in range(len(num1) - 1, -1, -1):
            for j in range(len(num2) - 1, -1, -1):
                p = int(num1[i]) * int(num2[j]) + res[i + j + 1]
                res[i + j + 1] = p % 10
                res[i + j] += p // 10
        return "".join(map(str, res)).lstrip("0")
"""

# nums[lo] < nums[mid] where lo == mid needs <=
ROTATED_RIGHT = """
class Solution:
    def search(self, nums: list[int], target: int) -> int:
        return nums.index(target) if target in nums else -1
"""
ROTATED_WRONG = """
class Solution:
    def search(self, nums: list[int], target: int) -> int:
        lo, hi = 0, len(nums) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            if nums[mid] == target:
                return mid
            if nums[lo] < nums[mid]:
                if nums[lo] <= target < nums[mid]:
                    hi = mid - 1
                else:
                    lo = mid + 1
            else:
                if nums[mid] < target <= nums[hi]:
                    lo = mid + 1
                else:
                    hi = mid - 1
        return -1
"""

# -2^31 as the "missing" sentinel: [1, 2, -2^31] answers 2 (P6 report item 1)
THIRD_RIGHT = """
class Solution:
    def third_max(self, nums: list[int]) -> int:
        top = sorted(set(nums), reverse=True)
        return top[2] if len(top) >= 3 else top[0]
"""
THIRD_WRONG = """
class Solution:
    def third_max(self, nums: list[int]) -> int:
        a = b = c = -2**31
        for x in nums:
            if x in (a, b, c):
                continue
            if x > a:
                a, b, c = x, a, b
            elif x > b:
                b, c = x, b
            elif x > c:
                c = x
        return c if c != -2**31 else a
"""

CASES = [
    ("divide_two_integers", "extremes", DIVIDE_RIGHT, DIVIDE_WRONG),
    ("find_the_index_of_the_first_occurrence_in_a_string", "strings", NEEDLE_RIGHT, NEEDLE_WRONG),
    ("multiply_strings", "strings", MULTIPLY_RIGHT, MULTIPLY_WRONG),
    ("search_in_rotated_sorted_array", "rotations", ROTATED_RIGHT, ROTATED_WRONG),
    ("third_maximum_number", "bounds", THIRD_RIGHT, THIRD_WRONG),
]


@pytest.mark.parametrize(("slug", "strategy", "right", "wrong"), CASES, ids=[c[0] for c in CASES])
def test_a_bug_the_old_inputs_miss_is_caught_by_the_strategy(slug: str, strategy: str, right: str, wrong: str) -> None:
    problem = real(slug)
    caught = caught_by_bug_inputs(problem, right, wrong)
    assert caught, f"no bug-seeking input separates the wrong answer for {slug}"
    # a separating input comes from the named strategy
    proposed = bug_candidates(problem, parse_constraints(problem), bug_bases([dict(x) for x in generate_inputs(problem, bugs=0).inputs]))
    assert any(x in proposed[strategy] for x in caught)


def test_the_32_bit_pair_and_every_rotation_are_generated() -> None:
    divide = generate_inputs(real("divide_two_integers")).inputs
    assert {"dividend": -(2**31), "divisor": -1} in divide
    assert all(x["divisor"] != 0 for x in divide)  # "divisor != 0" holds
    rotated = real("search_in_rotated_sorted_array")
    for x in generate_inputs(rotated).inputs:  # every input is a rotated sorted list
        nums = x["nums"]
        assert isinstance(nums, list)
        drops = sum(nums[i] > nums[i + 1] for i in range(len(nums) - 1))
        assert drops <= 1 and (drops == 0 or nums[-1] < nums[0])
    short = [x for x in generate_inputs(rotated).inputs if len(x["nums"]) == 3]  # type: ignore[arg-type]
    assert {x["nums"].index(min(x["nums"])) for x in short} == {0, 1, 2}  # type: ignore[union-attr]  # every pivot
    assert all(x["target"] in x["nums"] for x in short)  # type: ignore[operator]


def test_numeric_strings_keep_no_leading_zeros_and_overlaps_reach_the_needle() -> None:
    mult = generate_inputs(real("multiply_strings")).inputs
    assert {"num1": "0", "num2": "0"} in mult
    assert not any(re.match(r"0\d", str(v)) for x in mult for v in x.values())  # "no leading zero, except 0"
    needle = generate_inputs(real("find_the_index_of_the_first_occurrence_in_a_string")).inputs
    assert any(str(x["needle"]) in str(x["haystack"]) and str(x["haystack"]).find(str(x["needle"])) > 0 for x in needle)


def test_grid_rows_are_as_long_and_one_row_or_one_column_grids_appear() -> None:
    grid = real("unique_paths_ii")  # "n == obstacleGrid[i].length"
    made = generate_inputs(grid).inputs
    assert all(len({len(r) for r in x["obstacleGrid"]}) == 1 for x in made)  # type: ignore[union-attr]
    shapes = {(len(x["obstacleGrid"]), len(x["obstacleGrid"][0])) for x in made}  # type: ignore[arg-type, index]
    assert (1, 4) in shapes and (4, 1) in shapes


def test_a_parameter_is_rendered_under_the_name_its_examples_use() -> None:
    problem = real("unique_paths_ii")  # the package names it grid, its examples obstacleGrid
    assert [p.name for p in problem.signature.params] == ["obstacleGrid"]
    assert problem.examples and all("obstacleGrid" in e.inputs for e in problem.examples)
    assert "obstacleGrid" in parse_constraints(problem).length  # "m == obstacleGrid.length" now applies
