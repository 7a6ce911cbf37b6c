"""Issue 14, the dev pools 76-105: bug-seeking inputs at the boundaries of properties the statement
names, on real rendered statements, each run in the real harness against a right and a wrong answer.

- ``power_of_three``: "return true if it is a power of three"; uniform 32-bit draws never hit a
  power, so a floating-point logarithm (``math.log(243, 3)`` is ``4.999...``) agreed with every
  right answer and was picked as ``verified``.
"""

from __future__ import annotations

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_bugs_named import named_bases, named_values
from vibecode.clr.inputs_bugs_vocab import shapes
from vibecode.clr.inputs_values import check_members
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraint_wording import read_wording
from vibecode.problems.constraints import parse_constraints

POWER_RIGHT = """
class Solution:
    def is_power_of_three(self, n: int) -> bool:
        if n < 1:
            return False
        while n % 3 == 0:
            n //= 3
        return n == 1
"""

POWER_LOG = """
import math


class Solution:
    def is_power_of_three(self, n: int) -> bool:
        return n > 0 and math.log(n, 3).is_integer()
"""


def test_every_power_of_three_in_the_32_bit_range_is_generated_and_the_float_log_separates() -> None:
    problem = real("power_of_three")
    assert named_bases(problem) == [3]
    inputs = [dict(x) for x in generate_inputs(problem).inputs]
    assert all({"n": 3**i} in inputs for i in range(20))  # 3^19 is the largest 32-bit power
    assert {"n": 4} in inputs and {"n": 2} in inputs  # neighbours of 3 (and of 1)
    right, log = outputs(problem, POWER_RIGHT, inputs), outputs(problem, POWER_LOG, inputs)
    differ = [x for x, a, b in zip(inputs, right, log, strict=True) if a != b]
    assert {"n": 243} in differ, differ


def test_named_values_stay_in_the_range_members_first_then_neighbours_and_negatives() -> None:
    problem = real("power_of_three")
    assert named_values(problem, -10, 10) == [1, 3, 9, 2, 0, 4, 10, 8, -1, -3, -9]
    assert named_values(problem, 1, 1) == [1]
    assert named_values(real("word_pattern"), 0, 100) == []  # no property named: nothing


PATTERN_RIGHT = """
class Solution:
    def word_pattern(self, pattern: str, s: str) -> bool:
        words = s.split()
        if len(words) != len(pattern):
            return False
        return len(set(pattern)) == len(set(words)) == len(set(zip(pattern, words)))
"""

PATTERN_ONE_WAY = """
class Solution:
    def word_pattern(self, pattern: str, s: str) -> bool:
        words = s.split()
        if len(words) != len(pattern):
            return False
        seen: dict[str, str] = {}
        for ch, w in zip(pattern, words):
            if seen.setdefault(ch, w) != w:
                return False
        return True
"""


def test_a_small_vocabulary_makes_words_repeat_so_a_one_way_mapping_separates() -> None:
    # word_pattern: random words over 26 letters never repeat, so a check of pattern -> word
    # alone (never word -> pattern) agreed with every right answer on the generated inputs
    problem = real("word_pattern")
    assert shapes(2) == [(0, 0), (0, 1)] and len(shapes(3)) == 5
    inputs = [dict(x) for x in generate_inputs(problem).inputs]
    assert {"pattern": "ab", "s": "a a"} in inputs and {"pattern": "aa", "s": "a b"} in inputs
    right, one_way = outputs(problem, PATTERN_RIGHT, inputs), outputs(problem, PATTERN_ONE_WAY, inputs)
    differ = [x for x, a, b in zip(inputs, right, one_way, strict=True) if a != b]
    assert {"pattern": "ab", "s": "a a"} in differ, differ
    assert all(validate_input(x, problem) == [] for x in inputs)  # spaces, letters, lengths kept


UGLY_RIGHT = """
class Solution:
    def nth_super_ugly_number(self, n: int, primes: list[int]) -> int:
        ugly, at = [1], [0] * len(primes)
        while len(ugly) < n:
            nxt = min(ugly[at[j]] * p for j, p in enumerate(primes))
            ugly.append(nxt)
            for j, p in enumerate(primes):
                if ugly[at[j]] * p == nxt:
                    at[j] += 1
        return ugly[-1]
"""

UGLY_FIRST_ONLY = """
class Solution:
    def nth_super_ugly_number(self, n: int, primes: list[int]) -> int:
        ugly, at = [1], [0] * len(primes)
        while len(ugly) < n:
            j = min(range(len(primes)), key=lambda k: ugly[at[k]] * primes[k])
            ugly.append(ugly[at[j]] * primes[j])
            at[j] += 1
        return ugly[-1]
"""


def test_items_a_check_says_are_prime_are_drawn_prime_so_lists_of_several_primes_are_generated() -> None:
    # super_ugly_number: "primes[i] is guaranteed to be a prime number"; blind draws in [2, 1000]
    # were almost all dropped (11 inputs, every list but one a single prime), so a pointer walk
    # that keeps duplicates (6 = 2 * 3 = 3 * 2) never met two primes
    problem = real("super_ugly_number")
    got = generate_inputs(problem)
    inputs = [dict(x) for x in got.inputs]
    assert not any("did not satisfy" in note for note in got.notes), got.notes
    several = [x for x in inputs if len(x["primes"]) >= 2]  # type: ignore[arg-type]
    assert len(several) >= 8 and all(validate_input(x, problem) == [] for x in inputs)
    small = [x for x in inputs if x["n"] <= 2000]  # type: ignore[operator]
    right, first = outputs(problem, UGLY_RIGHT, small), outputs(problem, UGLY_FIRST_ONLY, small)
    assert right != first


def test_the_values_a_power_or_prime_check_allows_are_listed_for_drawing() -> None:
    params = {"n": "int", "nums": "list"}
    c = Constraints()
    for line in ("n is a power of 2.", "nums[i] is a power of three."):
        assert read_wording(line, params, c), line
    assert check_members(c, "n", -5, 100) == [1, 2, 4, 8, 16, 32, 64]
    assert check_members(c, "nums", 2, 100) == [3, 9, 27, 81]
    assert check_members(c, "k", 0, 100) == []  # no check names k
    assert check_members(parse_constraints(real("super_ugly_number")), "primes", 2, 30) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
