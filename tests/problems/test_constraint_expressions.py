"""Arithmetic expression strings (the three calculator statements, in their rendered form): the
validity line is a check whose rule makes expressions, and every hidden input satisfies it."""

from __future__ import annotations

import random

import pytest

from tests.clr.leetcode_real import real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraint_expressions import make_expression, parses
from vibecode.problems.constraints import parse_constraints


@pytest.mark.parametrize(("slug", "lines"), [
    ("basic_calculator_ii", ["s represents a valid expression.",
                             "All the integers in the expression are non-negative integers in the range [0, 2^31 - 1]."]),
    ("basic_calculator", ["s represents a valid expression.", "There will be no two consecutive operators in the input."]),
    ("basic_calculator_iii", ["s is a valid expression."]),
])
def test_the_calculators_lines_are_read_and_their_hidden_inputs_pass(slug: str, lines: list[str]) -> None:
    p = real(slug)
    c = parse_constraints(p)
    plain = {line.replace("`", "").replace("**", ""): line for line in p.constraints}
    skipped = {line for line, _ in c.skipped}
    for line in lines:
        assert line in plain and plain[line] not in skipped, line
    assert any(ch.kind == "expression" and ch.made for ch in c.checks)


def test_generated_expressions_are_valid_and_varied() -> None:
    p = real("basic_calculator_ii")
    got = [str(x["s"]) for x in generate_inputs(p).inputs]
    assert len(got) >= 20 and all(parses(s, "+-*/", False) for s in got)
    assert all(validate_input({"s": s}, p) == [] for s in got)
    assert any("-" in s and "/" in s for s in got)  # where truncating and floor division part ways
    assert not any(set(s) <= set("+-*/ ") for s in got)  # no operator soup


def test_the_grammar() -> None:
    ops = "+-*/"
    assert parses(" 3+5 / 2 ", ops, False) and parses("42", ops, False)
    assert not parses("3+", ops, False) and not parses("+3", ops, False) and not parses("  ", ops, False)
    assert not parses("4/0", ops, False) and parses("4/10", ops, False)
    assert not parses("(1+2)", ops, False)  # no parentheses listed
    assert parses("-(2 + 3)", "+-()", True) and not parses("-(2 + 3)", "+-()", False)
    assert parses("1-(-7)", "+-*/()", False)  # a group may open with a minus (basic_calculator_iii's data)
    assert not parses("1 - -2", "+-()", True)  # no two consecutive operators
    rng = random.Random(3)
    for _ in range(200):
        assert parses(make_expression("+-()", True, True, rng), "+-()", True)
        assert parses(make_expression("+-*/()", False, False, rng), "+-*/()", False)


def test_an_expression_always_valid_is_no_promise_where_expressions_are_made() -> None:
    p = real("basic_calculator_iii")
    assert "You may assume that the given expression is always valid." in p.statement
    assert tiers_vouched(p) is None
    two = real("basic_calculator_ii")  # its 32-bit answer is a bound now (problems.constraint_answers)
    assert tiers_vouched(two) is None and parse_constraints(two).answer_bounds == [(-(2**31), 2**31 - 1)]
