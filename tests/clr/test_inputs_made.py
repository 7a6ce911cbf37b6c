"""Arguments a constraint line makes from another one ("sequences[i] is a subsequence of nums",
"popped is a permutation of pushed", "nums is a permutation of all the integers in the range
[1, n]") are made so when inputs are drawn (vibecode.clr.inputs_made), on the real statements:
before, the filter dropped nearly every blind draw (sequence_reconstruction kept 1 input of 176,
validate_stack_sequences 0 or 1), so wrong programs met only the examples."""

from __future__ import annotations

import random

import pytest

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.inputs_check import validate_input
from vibecode.clr.inputs_made import make_derived
from vibecode.clr.inputs_tiers import generate_tiers
from vibecode.problems.constraints import parse_constraints


def is_subsequence(part: list[object] | str, whole: list[object] | str) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


@pytest.mark.parametrize(("slug", "made"), [
    ("sequence_reconstruction", {("nums", "range", "1"), ("sequences", "subsequences", "nums")}),
    ("validate_stack_sequences", {("popped", "permutation", "pushed")}),
    ("maximum_number_of_removable_characters", {("p", "subsequence", "s")}),
])
def test_the_lines_that_make_one_argument_from_another_are_read_as_rules(slug: str, made: set[tuple[str, ...]]) -> None:
    c = parse_constraints(real(slug))
    assert {ch.made for ch in c.checks if ch.made} == made
    assert c.skipped == []


@pytest.mark.parametrize("slug", ["sequence_reconstruction", "validate_stack_sequences",
                                  "maximum_number_of_removable_characters"])
def test_drawn_inputs_keep_the_rule_and_pass_every_line(slug: str) -> None:
    problem = real(slug)
    inputs = generate_tiers(problem, seed=0).inputs
    assert len(inputs) >= 12
    for args in inputs:
        assert validate_input(dict(args), problem) == []
        if slug == "sequence_reconstruction":
            assert sorted(args["nums"]) == list(range(1, len(args["nums"]) + 1))  # type: ignore[arg-type]
            assert all(is_subsequence(r, args["nums"]) for r in args["sequences"])  # type: ignore[arg-type, attr-defined]
        elif slug == "validate_stack_sequences":
            assert sorted(args["popped"]) == sorted(args["pushed"])  # type: ignore[type-var]
        else:
            assert is_subsequence(args["p"], args["s"])  # type: ignore[arg-type]
    assert len({str(args) for args in inputs}) == len(inputs)


def test_a_rule_makes_its_argument_from_the_drawn_source_in_order() -> None:
    c = parse_constraints(real("sequence_reconstruction"))
    args: dict[str, object] = {"nums": [7, 7, 9], "sequences": [[5], [6, 6, 6, 6], [5]]}
    make_derived(args, c, random.Random(1))
    assert sorted(args["nums"]) == [1, 2, 3]  # type: ignore[type-var]
    rows = args["sequences"]
    assert isinstance(rows, list) and all(is_subsequence(r, args["nums"]) for r in rows)  # type: ignore[arg-type]
    assert [3] in [[len(r)] for r in rows] and len(rows) == len({str(r) for r in rows})  # capped, unique


RIGHT = """
class Solution:
    def sequence_reconstruction(self, nums: list[int], sequences: list[list[int]]) -> bool:
        pairs, seen = set(), set()
        for seq in sequences:
            seen.update(seq)
            pairs.update(zip(seq, seq[1:]))
        return len(seen) == len(nums) and all((a, b) in pairs for a, b in zip(nums, nums[1:]))
"""
# a blind dev pool's wrong piece: counts matching pairs, so one repeated in two sequences counts
# twice (it agreed with the right answers on the examples and on the one input drawn before)
COUNTED = """
class Solution:
    def sequence_reconstruction(self, nums: list[int], sequences: list[list[int]]) -> bool:
        pos = {v: i for i, v in enumerate(nums)}
        matched, seen = 0, set()
        for seq in sequences:
            seen.update(seq)
            matched += sum(pos[b] == pos[a] + 1 for a, b in zip(seq, seq[1:]))
        return len(seen) == len(nums) and matched == len(nums) - 1
"""


def test_the_drawn_inputs_separate_a_wrong_program_that_the_examples_do_not() -> None:
    problem = real("sequence_reconstruction")
    examples = [dict(e.inputs) for e in problem.examples]
    assert outputs(problem, RIGHT, examples) == outputs(problem, COUNTED, examples)
    inputs = [dict(x) for x in generate_tiers(problem, seed=0).inputs]
    assert outputs(problem, RIGHT, inputs) != outputs(problem, COUNTED, inputs)
