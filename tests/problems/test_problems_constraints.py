from __future__ import annotations

from vibecode.problems.constraints import holds, number, parse_constraints, resolve
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem


def make(sig: str, constraints: list[str], statement: str = "Do it.") -> Problem:
    lines = "\n".join(f"- {c}" for c in constraints)
    return parse_problem(
        f"# T\n\n{statement}\n\nConstraints:\n{lines}\n\n```python\nclass Solution:\n    def f(self, {sig}):\n```\n"
    )


def test_numbers() -> None:
    assert number("10^4") == 10_000
    assert number("2^31 - 1") == 2**31 - 1
    assert number("5 * 10^4") == 50_000
    assert number("-10^9") == -(10**9)
    assert number("10⁹") == 10**9
    assert number("1e5") == 1e5
    assert number("nums.length") is None
    assert number("2^(10^10)") is None


def test_lengths_values_and_blockers() -> None:
    c = parse_constraints(make("nums: List[int], target: int", [
        "2 <= nums.length <= 10^4", "-10^9 <= nums[i] <= 10^9", "-10⁹ ≤ target ≤ 10⁹", "Only one valid answer exists.",
    ]))
    assert holds(2, c.length["nums"], {}) and not holds(1, c.length["nums"], {})
    assert holds(10**9, c.value["target"], {}) and not holds(10**9 + 1, c.value["target"], {})
    assert holds(-(10**9), c.value["nums"], {})
    assert c.blockers and "Only one valid answer" in c.blockers[0]


def test_aliases_and_references() -> None:
    c = parse_constraints(make("nums: List[int], k: int", ["n == nums.length", "1 <= n <= 10^5", "0 <= k < n"]))
    assert holds(1, c.length["nums"], {}) and not holds(0, c.length["nums"], {})
    assert resolve(c.value["k"][1][1], {"nums": [5, 6, 7]}) == 2
    assert holds(2, c.value["k"], {"nums": [5, 6, 7]})
    assert not holds(3, c.value["k"], {"nums": [5, 6, 7]})
    assert c.blockers == []


def test_pairs_nodes_and_characters() -> None:
    c = parse_constraints(make("intervals: List[List[int]]", [
        "1 <= intervals.length <= 10^4", "intervals[i].length == 2", "0 <= start_i <= end_i <= 10^4",
    ]))
    assert c.pair_sorted == {"intervals"}
    assert holds(2, c.inner_length["intervals"], {}) and not holds(3, c.inner_length["intervals"], {})
    assert holds(10**4, c.value["intervals"], {}) and not holds(-1, c.value["intervals"], {})

    c = parse_constraints(make("head: Optional[ListNode]", [
        "The number of nodes in the list is the range [0, 5000].", "-5000 <= Node.val <= 5000",
    ]))
    assert holds(0, c.length["head"], {}) and holds(-5000, c.value["head"], {}) and not holds(5001, c.value["head"], {})

    c = parse_constraints(make("s: str", ["s consists of parentheses only '()[]{}'."]))
    assert set(c.chars["s"]) == set("()[]{}")
    c = parse_constraints(make("word: str", ["word consists of lowercase English letters."]))
    assert c.chars["word"] == "abcdefghijklmnopqrstuvwxyz"


def test_sorted_unique_bst_and_unknown_lines() -> None:
    c = parse_constraints(make("nums: List[int]", ["nums is sorted in ascending order", "All values are unique"]))
    assert c.sorted == {"nums"} and c.unique == {"nums"} and c.blockers == []
    c = parse_constraints(make("root: Optional[TreeNode]", []))
    assert c.bst == set()
    c = parse_constraints(make("root: Optional[TreeNode]", [], statement="Given the root of a binary search tree."))
    assert c.bst == {"root"}
    c = parse_constraints(make("nums: List[int]", ["nums forms a mountain"]))
    assert c.blockers and "not understood" in c.blockers[0]
