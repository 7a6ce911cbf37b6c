"""Syntax check with positions, normalized form, and dedupe."""

from __future__ import annotations

from vibecode.patch.normalize import check_syntax, dedupe, normalize

WAY_1 = '''class Solution:
    def twoSum(self, nums, target):
        """Return the indices of the two numbers adding up to target."""
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
        return []
'''
WAY_2 = '''class Solution:
    def twoSum(self, nums, target):
        # map each value to where we saw it
        index_of = {}
        for idx, val in enumerate(nums):
            if (target - val) in index_of:
                return [index_of[target-val], idx,]
            index_of[val] = idx
        return []
'''
WAY_3 = "class Solution:\n\tdef twoSum(self, nums, target):\n\t\tm = {}\n\t\tfor j, v in enumerate(nums):\n\t\t\tif target - v in m: return [m[target - v], j]\n\t\t\tm[v] = j\n\t\treturn []\n"
DIFFERENT = WAY_1.replace("return []", "return [-1, -1]")
BRUTE = '''class Solution:
    def twoSum(self, nums, target):
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] + nums[j] == target:
                    return [i, j]
        return []
'''


def test_same_behaviour_three_ways_is_one_candidate() -> None:
    results = dedupe([WAY_1, WAY_2, WAY_3, DIFFERENT, BRUTE])
    assert [r.duplicate_of for r in results] == [None, 0, 0, None, None]
    assert len({r.key for r in results}) == 3
    assert [r.distinct for r in results] == [True, False, False, True, True]


def test_parameters_of_public_functions_keep_their_names() -> None:
    a = "def f(values):\n    total = 0\n    for v in values:\n        total += v\n    return total\n"
    b = "def f(items):\n    total = 0\n    for v in items:\n        total += v\n    return total\n"
    c = "def f(values):\n    acc = 0\n    for item in values:\n        acc += item\n    return acc\n"
    assert normalize(a) != normalize(b)  # f(values=...) and f(items=...) are different APIs
    assert normalize(a) == normalize(c)


def test_globals_attributes_and_keywords_are_not_renamed() -> None:
    a = "def f(o):\n    global count\n    count = 1\n    o.size = 2\n    return g(key=count)\n"
    b = "def f(o):\n    global total\n    total = 1\n    o.size = 2\n    return g(key=total)\n"
    c = "def f(o):\n    global count\n    count = 1\n    o.length = 2\n    return g(key=count)\n"
    assert normalize(a) != normalize(b)
    assert normalize(a) != normalize(c)


def test_nested_function_locals_and_closures() -> None:
    a = "def f(n):\n    base = 10\n    def add(k):\n        return k + base\n    return add(n)\n"
    b = "def f(n):\n    offset = 10\n    def plus(q):\n        return q + offset\n    return plus(n)\n"
    assert normalize(a) == normalize(b)


def test_literals_are_canonical() -> None:
    assert normalize("x = 'a'\ny = 1_000\n") == normalize('x = "a"\ny = 1000\n')
    assert normalize("x = 'a'\n") != normalize("x = 'b'\n")


def test_syntax_errors_are_dropped_with_position() -> None:
    results = dedupe(["def f(:\n    pass\n", "print 'py2'\n", "x = 1\n"])
    first, second, third = results
    assert first.error is not None and (first.error.line, first.error.source) == (1, "tree-sitter")
    assert "missing" in first.error.message or "unexpected" in first.error.message
    assert second.error is not None and second.error.source == "ast"
    assert first.key is None and second.key is None
    assert third.ok and third.key is not None
    issue = check_syntax("def ok():\n    return (1 +\n")
    assert issue is not None and issue.line >= 2
