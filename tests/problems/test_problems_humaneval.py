from __future__ import annotations

import pytest

from vibecode.errors import ProblemError
from vibecode.problems.humaneval import looks_like_humaneval
from vibecode.problems.statement import parse_problem

PROMPT = '''from typing import List


def helper(x: int) -> int:
    return x


def below_threshold(values: List[int], limit: int) -> bool:
    """Return True if every number in values is below limit.
    >>> below_threshold([1, 2, 4, 10], 100)
    True
    >>> below_threshold([1, 20, 4, 10], 5)
    False
    >>> below_threshold(values=[], limit=0)
    True
    >>> [below_threshold([x], 3) for x in range(2)]
    [True, True]
    """
'''


def test_humaneval_prompt() -> None:
    problem = parse_problem(PROMPT)
    assert problem.style == "humaneval"
    sig = problem.signature
    assert sig.entry_point == "below_threshold" and sig.class_name is None
    assert [(p.name, p.type) for p in sig.params] == [("values", "List[int]"), ("limit", "int")]
    assert sig.returns == "bool"
    assert [(e.inputs, e.output) for e in problem.examples] == [
        ({"values": [1, 2, 4, 10], "limit": 100}, True),
        ({"values": [1, 20, 4, 10], "limit": 5}, False),
        ({"values": [], "limit": 0}, True),
    ]
    assert len(problem.warnings) == 1 and "skipped" in problem.warnings[0]
    assert problem.starter.rstrip().endswith('"""')
    assert "def helper" in problem.starter
    assert problem.statement.startswith("Return True if every number")


def test_other_example_notations() -> None:
    text = '''def digits_sum(s: str) -> int:
    """Sum the digits in s.

    Examples:
        digits_sum("") => 0
        digits_sum("a1b2") ➞ 3
        digits_sum("99") == 18
        digits_sum("7") should return 7
    """
'''
    problem = parse_problem(text)
    assert [(e.inputs["s"], e.output) for e in problem.examples] == [("", 0), ("a1b2", 3), ("99", 18), ("7", 7)]


def test_multiline_expected_value_and_tuples() -> None:
    text = '''def span(xs):
    """
    >>> span([3, 1,
    ...       2])
    (1,
     3)
    """
'''
    problem = parse_problem(text)
    assert problem.signature.params[0].type is None
    assert problem.examples[0].inputs == {"xs": [3, 1, 2]}
    assert problem.examples[0].output == (1, 3)


def test_markdown_wrapped_prompt() -> None:
    text = "Complete this function:\n\n```python\ndef inc(x: int) -> int:\n    \"\"\"\n    >>> inc(1)\n    2\n    \"\"\"\n```\n"
    assert looks_like_humaneval(text)
    problem = parse_problem(text)
    assert problem.signature.function == "inc"
    assert problem.examples[0].output == 2


def test_leetcode_text_is_not_humaneval() -> None:
    text = "# T\n\nExample 1:\nInput: x = 1\nOutput: 1\n```python\ndef f(x: int) -> int:\n    \"\"\"doc\"\"\"\n```\n"
    assert not looks_like_humaneval(text)
    assert parse_problem(text).style == "leetcode"


def test_humaneval_without_examples_and_broken_code() -> None:
    problem = parse_problem('def f(a: int) -> int:\n    """Return a."""\n')
    assert problem.examples == ()
    with pytest.raises(ProblemError):
        parse_problem("def f(:\n")


def test_docstring_after_an_import_and_labelled_examples() -> None:
    text = '''def pluck(arr, k=1):
    import math
    """Return the smallest even value and its index.

    Example 1:
        Input: [4,2,3]
        Output: [2, 1]
    Example 2:
        Input: arr = [], k = 2
        Output: []
    Example 3:
        Input: arr : [1]
        Output: []
    """
'''
    problem = parse_problem(text)
    assert problem.style == "humaneval"
    assert problem.signature.arg_names == ("arr", "k")
    assert [(e.inputs, e.output) for e in problem.examples] == [({"arr": [], "k": 2}, [])]
    assert len(problem.warnings) == 2
    assert problem.starter.rstrip().endswith('"""')


def test_arrow_with_double_equals() -> None:
    problem = parse_problem('def f(n: int) -> int:\n    """Double.\n    f(2) ==> 4\n    """\n')
    assert problem.examples[0].output == 4


def test_example_whose_value_is_a_calculation() -> None:
    """HumanEval/67 and /151 write the expected value as a calculation ending in '= value'."""
    p = parse_problem(
        'def mangoes(s: str, n: int) -> int:\n    """Mangoes left.\n'
        '    mangoes("5 apples and 6 oranges", 19) ->19 - 5 - 6 = 8\n'
        '    mangoes("0 apples and 1 oranges", 3) == 3 - 0 - 1\n'
        '    mangoes("1 apples and 1 oranges", 5) == 3\n    """\n'
    )
    assert [(e.inputs["n"], e.output) for e in p.examples] == [(19, 8), (5, 3)]
    assert any("expression" in w for w in p.warnings)
