from __future__ import annotations

import pytest

from vibecode.clr.compare import canonical, check_examples, outputs_equal
from vibecode.problems.statement import parse_problem
from vibecode.types import InputResult


@pytest.mark.parametrize(
    ("actual", "expected", "order", "equal"),
    [
        (3, 3, "exact", True),
        (3, 4, "exact", False),
        (True, 1, "exact", False),
        (1, True, "exact", False),
        (False, False, "exact", True),
        (None, None, "exact", True),
        (None, [], "exact", False),
        ("abc", "abc", "exact", True),
        ("abc", "abd", "exact", False),
        (2.000001, 2.0, "exact", True),
        (2.0001, 2.0, "exact", False),
        (2, 2.0, "exact", True),
        (1e12 + 1, 1e12, "exact", True),
        (float("nan"), float("nan"), "exact", True),
        ([0.1 + 0.2, 1], [0.3, 1], "exact", True),
        ([1, 0], [0, 1], "exact", False),
        ([1, 0], [0, 1], "any", True),
        ([1, 1, 0], [0, 1, 0], "any", False),
        ([[2, 1], [3]], [[3], [2, 1]], "any", True),
        ([[2, 1], [3]], [[3], [1, 2]], "any", False),
        ([[2, 1], [3]], [[3], [1, 2]], "any_nested", True),
        ([[1, 2, 3]] * 2, [[1, 2, 3], [3, 2, 1]], "any", False),
        ([0.1 + 0.2, 5.0], [5, 0.3], "any", True),
        ((1, 2), [1, 2], "exact", True),
        ({"a": [1]}, {"a": [1]}, "exact", True),
        ({"a": [1]}, {"b": [1]}, "exact", False),
        ([1, [2]], [1, 2], "exact", False),
    ],
)
def test_outputs_equal(actual: object, expected: object, order: str, equal: bool) -> None:
    assert outputs_equal(actual, expected, order) is equal  # type: ignore[arg-type]


def test_canonical_agrees_with_equality() -> None:
    assert canonical([1, 0], "any") == canonical([0, 1], "any")
    assert canonical([1, 0]) != canonical([0, 1])
    assert canonical(2.0) == canonical(2)
    assert canonical(0.30000000000000004) == canonical(0.3)
    assert canonical(True) != canonical(1)
    assert canonical([[2, 1], [3]], "any_nested") == canonical([[3], [1, 2]], "any_nested")


def test_check_examples() -> None:
    problem = parse_problem(
        "# T\n\nReturn them in any order.\n\nExample 1:\nInput: n = 1\nOutput: [1,2]\n\n"
        "Example 2:\nInput: n = 2\nOutput: [3]\n\nExample 3:\nInput: n = 3\nOutput: []\n"
    )
    results = [
        InputResult(0, "ok", [2, 1]),
        InputResult(1, "ok", [4]),
        InputResult(2, "timeout", error="no answer within 2 s"),
    ]
    got = check_examples(problem, results)
    assert [(g.passed, g.status) for g in got] == [(True, "ok"), (False, "ok"), (False, "timeout")]
    assert got[1].error == "wrong answer" and got[1].actual == [4] and got[1].expected == [3]
    assert "no answer" in got[2].error
    assert check_examples(problem, results[:1])[2].status == "not_run"
