"""Every problem shipped in examples/ parses with the parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibecode.problems.math import parse_math
from vibecode.problems.statement import parse_problem

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXPECTED = {
    "two_sum.md": ("Solution.twoSum", 3),
    "valid_parentheses.md": ("Solution.isValid", 4),
    "merge_intervals.md": ("Solution.merge", 2),
    "longest_substring.md": ("Solution.lengthOfLongestSubstring", 4),
    "coin_change.md": ("Solution.coinChange", 3),
    "reverse_linked_list.md": ("Solution.reverseList", 3),
    "running_balance.py": ("goes_negative", 3),
}


def test_every_example_file_is_known() -> None:
    assert {p.name for p in EXAMPLES.iterdir()} == set(EXPECTED) | {"math_fraction.md"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_parses(name: str) -> None:
    problem = parse_problem((EXAMPLES / name).read_text(encoding="utf-8"))
    entry, n = EXPECTED[name]
    assert problem.signature.entry_point == entry
    assert len(problem.examples) == n
    assert problem.warnings == ()
    assert problem.style == ("humaneval" if name.endswith(".py") else "leetcode")


def test_linked_list_and_order_flags() -> None:
    rev = parse_problem((EXAMPLES / "reverse_linked_list.md").read_text(encoding="utf-8"))
    assert rev.signature.params[0].type == "Optional[ListNode]"
    assert rev.examples[2].inputs == {"head": []}
    two = parse_problem((EXAMPLES / "two_sum.md").read_text(encoding="utf-8"))
    assert two.output_order == "any"


def test_math_example() -> None:
    problem = parse_math((EXAMPLES / "math_fraction.md").read_text(encoding="utf-8"))
    assert problem.title == "Shared pizza"
    assert "\\boxed{}" in problem.question and problem.reference is None
