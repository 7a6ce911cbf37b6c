"""Nested lists of integers (``list[Any]`` whose examples nest integers) are generated, and
"There are no empty lists." is read, on the real nested_list_weight_sum_ii statement."""

from __future__ import annotations

from tests.clr.leetcode_real import real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_check import leaves, nested_ints
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraints import parse_constraints


def _depth(v: object) -> int:
    return 1 + max((_depth(x) for x in v if isinstance(x, list)), default=0) if isinstance(v, list) else 0


def _empty_inside(v: object) -> bool:
    return isinstance(v, list) and (not v or any(_empty_inside(x) for x in v))


def test_nested_lists_of_integers_are_generated_valid_and_vouched_for() -> None:
    p = real("nested_list_weight_sum_ii")
    assert nested_ints(p, "nestedList")
    c = parse_constraints(p)
    assert "There are no empty lists." not in [line for line, _ in c.skipped]
    assert tiers_vouched(p) is None
    got = generate_inputs(p)
    values = [x["nestedList"] for x in got.inputs]
    assert len(values) >= 10 and not any("cannot generate" in n for n in got.notes)
    assert all(validate_input(dict(x), p) == [] for x in got.inputs)
    assert sum(_depth(v) >= 3 for v in values) >= 3  # deeper than the examples' two levels
    assert not any(_empty_inside(v) for v in values)
    assert all(isinstance(x, int) and -100 <= x <= 100 for v in values for x in leaves(v))


def test_no_empty_lists_is_a_check() -> None:
    p = real("nested_list_weight_sum_ii")
    assert validate_input({"nestedList": [[1, 1], 2, [1, 1]]}, p) == []
    assert validate_input({"nestedList": [1, [2, []]]}, p)  # an empty list inside
    assert validate_input({"nestedList": [[]]}, p)
