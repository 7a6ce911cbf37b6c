"""Lists of strings of one length stated in the description (``problems.constraint_same_length``;
issue 14, held-out 151-175 examined on 2026-12-07): the real delete_columns_to_make_sorted
statement in its rendered form, and the other wording LeetCode uses."""

from __future__ import annotations

from tests.clr.leetcode_real import real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraint_same_length import read_same_length
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraints import parse_constraints


def test_the_description_sentence_is_read_and_drawn() -> None:
    problem = real("delete_columns_to_make_sorted")
    c = parse_constraints(problem)
    assert c.same_length == {"strs"}
    assert [ch.kind for ch in c.checks] == ["same length"]
    assert validate_input({"strs": ["abc", "ab"]}, problem)  # rows of two lengths break it
    assert not validate_input({"strs": ["abc", "bca"]}, problem)
    drawn = generate_inputs(problem).inputs
    assert len(drawn) > 20
    assert all(isinstance(x["strs"], list) and len({len(s) for s in x["strs"]}) == 1 for x in drawn)
    assert tiers_vouched(problem, c) is None  # every line and sentence understood


def test_the_other_wording_and_what_is_not_a_list_of_strings() -> None:
    c = Constraints()
    read_same_length("You are given a list of strings of the same length words and a string target.",
                     {"words": "list", "target": "str"}, c)
    assert c.same_length == {"words"}
    none = Constraints()
    read_same_length("You are given two strings s and t of the same length and an integer maxCost.",
                     {"s": "str", "t": "str", "maxCost": "int"}, none)
    read_same_length("You are given an array of n strings strs, all of the same length.", {"strs": "str"}, none)
    assert none.same_length == set() and none.checks == []
