"""Example parsing over many differently formatted LeetCode-style statements."""

from __future__ import annotations

import pytest

from vibecode.errors import ProblemError
from vibecode.problems.statement import parse_problem

TWO_SUM_STARTER = """
```python
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
```
"""

CASES: list[tuple[str, str, str, list[tuple[dict[str, object], object]]]] = [
    (
        "plain text, Example N headers",
        """Two Sum
Given nums and target, return the indices of the two numbers adding up to target.

Example 1:
Input: nums = [2,7,11,15], target = 9
Output: [0,1]
Explanation: Because nums[0] + nums[1] == 9, we return [0, 1].

Example 2:
Input: nums = [3,2,4], target = 6
Output: [1,2]

Constraints:
2 <= nums.length <= 10^4
""" + TWO_SUM_STARTER,
        "Solution.twoSum",
        [({"nums": [2, 7, 11, 15], "target": 9}, [0, 1]), ({"nums": [3, 2, 4], "target": 6}, [1, 2])],
    ),
    (
        "markdown bold labels",
        """# 1. Two Sum

Return the two indices.

**Example 1:**

**Input:** nums = [3,3], target = 6
**Output:** [0,1]
""" + TWO_SUM_STARTER,
        "Solution.twoSum",
        [({"nums": [3, 3], "target": 6}, [0, 1])],
    ),
    (
        "bold label with the colon outside",
        """# Two Sum

**Example 1**

**Input**: nums = [1,5], target = 6
**Output**: [0,1]
""" + TWO_SUM_STARTER,
        "Solution.twoSum",
        [({"nums": [1, 5], "target": 6}, [0, 1])],
    ),
    (
        "examples inside code fences",
        """# Two Sum

### Example 1
```
Input: nums = [2,7,11,15], target = 9
Output: [0,1]
```
### Example 2
```text
Input: nums = [-1,-2,-3], target = -5
Output: [1,2]
```
""" + TWO_SUM_STARTER,
        "Solution.twoSum",
        [({"nums": [2, 7, 11, 15], "target": 9}, [0, 1]), ({"nums": [-1, -2, -3], "target": -5}, [1, 2])],
    ),
    (
        "no explanation, no example headers",
        """Valid Palindrome
Return true when s reads the same both ways.

Input: s = "racecar"
Output: true

Input: s = "ab"
Output: false

```python
class Solution:
    def isPalindrome(self, s: str) -> bool:
```
""",
        "Solution.isPalindrome",
        [({"s": "racecar"}, True), ({"s": "ab"}, False)],
    ),
    (
        "multi-line input without a comma between the arguments",
        """# Search

Example 1:
Input:
nums = [-1,0,3,5,9,12]
target = 9
Output: 4

```python
class Solution:
    def search(self, nums: List[int], target: int) -> int:
```
""",
        "Solution.search",
        [({"nums": [-1, 0, 3, 5, 9, 12], "target": 9}, 4)],
    ),
    (
        "a list spread over several lines",
        """# Matrix sum

Example 1:
Input: grid = [[1,2],
               [3,4]]
Output: 10

```python
class Solution:
    def total(self, grid: List[List[int]]) -> int:
```
""",
        "Solution.total",
        [({"grid": [[1, 2], [3, 4]]}, 10)],
    ),
    (
        "strings with commas and escaped quotes",
        """# Count words

Example 1:
Input: s = "a, b, \\"c\\"", sep = ","
Output: 3

```python
class Solution:
    def count(self, s: str, sep: str) -> int:
```
""",
        "Solution.count",
        [({"s": 'a, b, "c"', "sep": ","}, 3)],
    ),
    (
        "negative numbers and floats",
        """# Average

Example 1:
Input: nums = [-1.5,2,-3.25], k = -2
Output: -0.91667

```python
class Solution:
    def average(self, nums: List[float], k: int) -> float:
```
""",
        "Solution.average",
        [({"nums": [-1.5, 2, -3.25], "k": -2}, -0.91667)],
    ),
    (
        "nested lists output",
        """# Merge Intervals

Example 1:
Input: intervals = [[1,3],[2,6],[8,10]]
Output: [[1,6],[8,10]]

```python
class Solution:
    def merge(self, intervals: List[List[int]]) -> List[List[int]]:
```
""",
        "Solution.merge",
        [({"intervals": [[1, 3], [2, 6], [8, 10]]}, [[1, 6], [8, 10]])],
    ),
    (
        "linked list arguments and return",
        """# Merge Two Sorted Lists

Example 1:
Input: list1 = [1,2,4], list2 = [1,3,4]
Output: [1,1,2,3,4,4]

Example 2:
Input: list1 = [], list2 = []
Output: []

```python
# class ListNode:
#     def __init__(self, val=0, next=None):
class Solution:
    def mergeTwoLists(self, list1: Optional[ListNode], list2: Optional[ListNode]) -> Optional[ListNode]:
```
""",
        "Solution.mergeTwoLists",
        [({"list1": [1, 2, 4], "list2": [1, 3, 4]}, [1, 1, 2, 3, 4, 4]), ({"list1": [], "list2": []}, [])],
    ),
    (
        "tree with nulls",
        """# Maximum Depth of Binary Tree

Example 1:
Input: root = [3,9,20,null,null,15,7]
Output: 3

Example 2:
Input: root = [1,null,2]
Output: 2

```python
class Solution:
    def maxDepth(self, root: Optional[TreeNode]) -> int:
```
""",
        "Solution.maxDepth",
        [({"root": [3, 9, 20, None, None, 15, 7]}, 3), ({"root": [1, None, 2]}, 2)],
    ),
    (
        "design-less single function starter",
        """# Add

Example 1:
Input: a = 1, b = 2
Output: 3

```python
def add(a: int, b: int) -> int:
```
""",
        "add",
        [({"a": 1, "b": 2}, 3)],
    ),
    (
        "unnamed inputs mapped by position",
        """# Pow

Example 1:
Input: 2.00000, 10
Output: 1024.00000

```python
class Solution:
    def myPow(self, x: float, n: int) -> float:
```
""",
        "Solution.myPow",
        [({"x": 2.0, "n": 10}, 1024.0)],
    ),
    (
        "scraped HTML with <pre> and <strong>",
        """<p>Given an integer <code>n</code>, return <code>true</code> if it is a power of two.</p>
<p><strong class="example">Example 1:</strong></p>
<pre><strong>Input:</strong> n = 16
<strong>Output:</strong> true
</pre>
<p><strong>Constraints:</strong></p>
<ul><li><code>-2<sup>31</sup> &lt;= n &lt;= 2<sup>31</sup> - 1</code></li></ul>

```python
class Solution:
    def isPowerOfTwo(self, n: int) -> bool:
```
""",
        "Solution.isPowerOfTwo",
        [({"n": 16}, True)],
    ),
    (
        "backticks around values",
        """# Length

Example 1:
- Input: `s = "hello"`
- Output: `5`

```python
class Solution:
    def length(self, s: str) -> int:
```
""",
        "Solution.length",
        [({"s": "hello"}, 5)],
    ),
    (
        "lowercase labels and a single unnumbered example",
        """# Square

Example:
input: x = 4
output: 16

```python
class Solution:
    def square(self, x: int) -> int:
```
""",
        "Solution.square",
        [({"x": 4}, 16)],
    ),
    (
        "list of strings and null output",
        """# First Duplicate Word

Example 1:
Input: words = ["a","b","a"]
Output: "a"

Example 2:
Input: words = ["x"]
Output: null

```python
class Solution:
    def firstDuplicate(self, words: List[str]) -> Optional[str]:
```
""",
        "Solution.firstDuplicate",
        [({"words": ["a", "b", "a"]}, "a"), ({"words": ["x"]}, None)],
    ),
    (
        "starter without class, indented class block without fences",
        """Climbing Stairs

Example 1:
Input: n = 2
Output: 2

Example 2:
Input: n = 3
Output: 3

class Solution:
    def climbStairs(self, n: int) -> int:
        pass
""",
        "Solution.climbStairs",
        [({"n": 2}, 2), ({"n": 3}, 3)],
    ),
    (
        "no starter: signature inferred from the examples",
        """# Contains Duplicate

Return true if any value appears twice.

Example 1:
Input: nums = [1,2,3,1]
Output: true

Example 2:
Input: nums = [1,2,3,4]
Output: false
""",
        "Solution.containsDuplicate",
        [({"nums": [1, 2, 3, 1]}, True), ({"nums": [1, 2, 3, 4]}, False)],
    ),
    (
        "explanation spanning lines and output with trailing prose",
        """# Climb

Example 1:
Input: n = 3
Output: 3 (three ways)
Explanation: There are three ways:
1 + 1 + 1, 1 + 2 and 2 + 1.

```python
class Solution:
    def climbStairs(self, n: int) -> int:
```
""",
        "Solution.climbStairs",
        [({"n": 3}, 3)],
    ),
    (
        "bool and 2D char grid",
        """# Word Search

Example 1:
Input: board = [["A","B"],["C","D"]], word = "AB", strict = false
Output: true

```python
class Solution:
    def exist(self, board: List[List[str]], word: str, strict: bool) -> bool:
```
""",
        "Solution.exist",
        [({"board": [["A", "B"], ["C", "D"]], "word": "AB", "strict": False}, True)],
    ),
]


@pytest.mark.parametrize(("name", "text", "entry", "examples"), CASES, ids=[c[0] for c in CASES])
def test_parses_examples(name: str, text: str, entry: str, examples: list[tuple[dict[str, object], object]]) -> None:
    problem = parse_problem(text)
    assert problem.signature.entry_point == entry
    got = [(ex.inputs, ex.output) for ex in problem.examples]
    assert got == examples
    for ex, (_, expected) in zip(problem.examples, examples, strict=True):
        assert type(ex.output) is type(expected)


def test_there_are_at_least_twenty_cases() -> None:
    assert len(CASES) >= 20


def test_two_sum_details() -> None:
    problem = parse_problem(CASES[0][1])
    assert problem.style == "leetcode"
    assert problem.title == "Two Sum"
    assert problem.constraints == ("2 <= nums.length <= 10^4",)
    assert problem.examples[0].explanation.startswith("Because nums[0]")
    assert problem.signature.params[0].type == "List[int]"
    assert problem.signature.returns == "List[int]"
    assert "class Solution" in problem.starter
    assert "Input:" not in problem.statement and "Given nums" in problem.statement


def test_inferred_signature_and_starter() -> None:
    problem = parse_problem(CASES[19][1])
    sig = problem.signature
    assert sig.inferred and sig.params[0].type == "List[int]" and sig.returns == "bool"
    assert "def containsDuplicate(self, nums: List[int]) -> bool:" in problem.starter
    assert any("inferred" in w for w in problem.warnings)


def test_inferred_linked_list_types() -> None:
    problem = parse_problem("""# Reverse Linked List

Reverse the linked list and return the head of the reversed list.

Example 1:
Input: head = [1,2,3]
Output: [3,2,1]
""")
    assert problem.signature.params[0].type == "Optional[ListNode]"
    assert problem.signature.returns == "Optional[ListNode]"


def test_scraped_html_constraints_keep_superscripts() -> None:
    problem = parse_problem(CASES[14][1])
    assert problem.constraints == ("-2^31 <= n <= 2^31 - 1",)


@pytest.mark.parametrize(
    ("statement", "order"),
    [
        ("You can return the answer in any order.", "any"),
        ("The order of the returned pairs does not matter.", "any"),
        ("Return the result sorted.", "exact"),
        ("Notice that the order of the output and the order of the triplets does not matter.", "any_nested"),
    ],
)
def test_output_order(statement: str, order: str) -> None:
    problem = parse_problem(f"# P\n\n{statement}\n\nExample 1:\nInput: nums = [1]\nOutput: [1]\n")
    assert problem.output_order == order


def test_order_words_in_an_explanation_do_not_count() -> None:
    problem = parse_problem(
        "# P\n\nReturn them sorted.\n\nExample 1:\nInput: nums = [2,1]\nOutput: [1,2]\n"
        "Explanation: any order would be wrong here.\n"
    )
    assert problem.output_order == "exact"


def test_problem_without_examples_still_parses() -> None:
    problem = parse_problem("# Sum\n\nAdd two numbers.\n\n```python\nclass Solution:\n    def add(self, a: int, b: int) -> int:\n```\n")
    assert problem.examples == ()
    assert problem.signature.arg_names == ("a", "b")


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("", "empty"),
        ("# Title\n\nJust words, no code and no examples.\n", "no starter code"),
        ("# T\n\nExample 1:\nInput: x = 1\n\nConstraints:\n- 1 <= x\n", "Example 1 has an Input but no Output"),
        ("# T\n\nExample 1:\nOutput: 3\n", "Example 1 has an Output but no Input"),
        ("# T\n\nExample 1:\nInput: x = [1,2\nOutput: 3\n", "Example 1: the Input"),
        ("# T\n\nExample 1:\nInput: x = 1\nOutput: 5, nums = [1,2,_]\n", "not a single value"),
        (
            "# T\n\nExample 1:\nInput: y = 1\nOutput: 1\n```python\nclass Solution:\n    def f(self, x: int) -> int:\n```\n",
            "names an input `y`",
        ),
        (
            "# T\n\nExample 1:\nInput: 1, 2\nOutput: 1\n```python\nclass Solution:\n    def f(self, x: int) -> int:\n```\n",
            "gives 2 input value(s)",
        ),
        (
            '# T\n\nExample 1:\nInput: x = "a"\nOutput: 1\n```python\nclass Solution:\n    def f(self, x: int) -> int:\n```\n',
            "x should be an integer",
        ),
        (
            "# LRU\n\n```python\nclass LRUCache:\n    def __init__(self, capacity: int):\n    def get(self, key: int) -> int:\n    def put(self, key: int, value: int) -> None:\n```\n",
            "design class",
        ),
    ],
)
def test_errors_name_the_missing_part(text: str, part: str) -> None:
    with pytest.raises(ProblemError) as info:
        parse_problem(text)
    assert part in str(info.value)
