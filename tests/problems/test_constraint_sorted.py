""""sorted" is read as ascending only: a list sorted in non-increasing (descending, decreasing,
reverse) order is not made or checked ascending; the line is left unread (skipped) instead."""

from __future__ import annotations

import pytest

from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import load_all, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem


def _problem(phrase: str) -> Problem:
    return parse_problem(
        "# 1. First Item\n\nGiven an integer array `nums` " + phrase + ", return its first item.\n\n"
        "**Example 1:**\n\n```\nInput: nums = [5]\nOutput: 5\n```\n\n**Constraints:**\n\n"
        "- 1 <= nums.length <= 100\n- -100 <= nums[i] <= 100\n- `nums` is " + phrase + ".\n\n"
        "```python\nclass Solution:\n    def first_item(self, nums: list[int]) -> int:\n        ...\n```\n"
    )


@pytest.mark.parametrize("phrase", ["sorted in non-increasing order", "sorted in **non-increasing** order",
                                    "sorted in descending order", "sorted in strictly decreasing order",
                                    "sorted in reverse order"])
def test_a_descending_order_is_not_read_as_ascending(phrase: str) -> None:
    problem = _problem(phrase)
    c = parse_constraints(problem)
    assert c.sorted == set()
    assert [s for s, _ in c.skipped] == [f"nums is {phrase.replace('**', '')}."]
    assert validate_input({"nums": [3, 2, 1]}, problem, c) == []
    assert any(len(x["nums"]) > 2 and x["nums"] != sorted(x["nums"]) for x in generate_inputs(problem).inputs)  # type: ignore[arg-type]


@pytest.mark.parametrize("phrase", ["sorted in non-decreasing order", "sorted in increasing order",
                                    "sorted in ascending order", "sorted"])
def test_an_ascending_order_is_still_read(phrase: str) -> None:
    problem = _problem(phrase)
    c = parse_constraints(problem)
    assert c.sorted == {"nums"} and c.skipped == []
    assert validate_input({"nums": [3, 2, 1]}, problem, c)


def test_a_real_non_decreasing_statement_stays_sorted() -> None:
    [lp] = [p for p in load_all() if p.slug == "two_sum_ii_input_array_is_sorted"]
    c = parse_constraints(parse_problem(render_markdown(lp)))
    assert "numbers" in c.sorted
