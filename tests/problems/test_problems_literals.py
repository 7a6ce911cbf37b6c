import pytest

from vibecode.problems.literals import (
    LiteralError,
    parse_arguments,
    parse_call,
    parse_value,
    read_call,
    scan_value,
    split_top_level,
    to_leetcode,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[2,7,11,15]", [2, 7, 11, 15]),
        ("true", True),
        ("false", False),
        ("null", None),
        ('"a,b"', "a,b"),
        (r'"say \"hi\""', 'say "hi"'),
        ("-3", -3),
        ("2.50000", 2.5),
        ("[[1,2],[3,null]]", [[1, 2], [3, None]]),
        ('["a","b"]', ["a", "b"]),
        ("`[1, 2]`", [1, 2]),
        ("**5**", 5),
        ("“abc”", "abc"),
        ("1e-5", 1e-5),
    ],
)
def test_parse_value(text: str, value: object) -> None:
    assert parse_value(text) == value
    assert type(parse_value(text)) is type(value)


@pytest.mark.parametrize("text", ["", "nums", "[1, 2", "foo(1)", '"unterminated'])
def test_parse_value_rejects(text: str) -> None:
    with pytest.raises(LiteralError):
        parse_value(text)


def test_scan_value_reads_the_longest_literal() -> None:
    assert scan_value("[1, [2, 3]] and more") == ([1, [2, 3]], 11)
    assert scan_value('  "x, y" rest') == ("x, y", 8)
    assert scan_value("6. Next") == (6, 1)
    assert scan_value("-1.5)") == (-1.5, 4)
    assert scan_value("true.") == (True, 4)
    assert scan_value("trueish") is None
    assert scan_value("abc") is None


def test_split_top_level_respects_brackets_and_strings() -> None:
    assert split_top_level('a = [1,2], s = "x,y", b = 3') == ["a = [1,2]", ' s = "x,y"', " b = 3"]


def test_parse_arguments_named_and_positional() -> None:
    assert parse_arguments('nums = [1,2], s = "a, b = c", k = -1') == [
        ("nums", [1, 2]), ("s", "a, b = c"), ("k", -1)
    ]
    assert parse_arguments("[1,2], 9") == [(None, [1, 2]), (None, 9)]
    assert parse_arguments("") == []
    with pytest.raises(LiteralError):
        parse_arguments("nums = [1,2], 9 = x")
    with pytest.raises(LiteralError):
        parse_arguments("nums = [1,2")


def test_calls() -> None:
    assert parse_call("twoSum([2,7], 9)") == ("twoSum", [[2, 7], 9], {})
    assert parse_call("Solution().twoSum(nums=[1], target=null)") == ("twoSum", [], {"nums": [1], "target": None})
    assert parse_call("f(x)") is None
    assert parse_call("f(1) + 2") is None
    got = read_call("f([1, 2]) == 3", 0)
    assert got is not None and got[3] == 9


def test_to_leetcode_round_trips() -> None:
    value = [1, None, True, "a\"b", [2.5]]
    assert to_leetcode(value) == '[1,null,true,"a\\"b",[2.5]]'
    assert parse_value(to_leetcode(value)) == value
