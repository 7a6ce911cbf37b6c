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
    # issue 14: a promise no longer switches generation off; it is named in the notes
    assert c.promises and "Only one valid answer" in c.promises[0] and c.skipped == []
    assert any("Only one valid answer" in n for n in c.notes)


def test_aliases_and_references() -> None:
    c = parse_constraints(make("nums: List[int], k: int", ["n == nums.length", "1 <= n <= 10^5", "0 <= k < n"]))
    assert holds(1, c.length["nums"], {}) and not holds(0, c.length["nums"], {})
    assert resolve(c.value["k"][1][1], {"nums": [5, 6, 7]}) == 2
    assert holds(2, c.value["k"], {"nums": [5, 6, 7]})
    assert not holds(3, c.value["k"], {"nums": [5, 6, 7]})
    assert c.skipped == [] and c.promises == []


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
    assert c.sorted == {"nums"} and c.unique == {"nums"} and c.skipped == []
    c = parse_constraints(make("root: Optional[TreeNode]", []))
    assert c.bst == set()
    c = parse_constraints(make("root: Optional[TreeNode]", [], statement="Given the root of a binary search tree."))
    assert c.bst == {"root"}
    # issue 14: a line not understood is skipped and named, never a blocker
    c = parse_constraints(make("nums: List[int]", ["nums forms a mountain", "1 <= nums.length <= 5"]))
    assert c.skipped == [("nums forms a mountain", "structural property")]
    assert holds(5, c.length["nums"], {}) and not holds(6, c.length["nums"], {})
    assert any("nums forms a mountain" in n for n in c.notes)


def test_issue14_lines_that_switched_generation_off() -> None:
    c = parse_constraints(make("matrix: List[List[int]]", ["m == matrix.length", "n == matrix[i].length", "1 <= m, n <= 200"]))
    assert c.skipped == []
    assert holds(200, c.length["matrix"], {}) and not holds(201, c.length["matrix"], {})
    assert holds(200, c.inner_length["matrix"], {}) and not holds(201, c.inner_length["matrix"], {})
    c = parse_constraints(make("nums1: List[int], m: int, nums2: List[int], n: int", [
        "nums1.length == m + n", "nums2.length == n", "0 <= m, n <= 200"]))
    assert ("nums2.length == n", "relation") not in c.skipped
    assert holds(3, c.value["n"], {"nums2": [1, 2, 3]}) and not holds(2, c.value["n"], {"nums2": [1, 2, 3]})
    c = parse_constraints(make("head: Optional[ListNode], n: int", [
        "The number of nodes in the list is sz.", "1 <= sz <= 30", "1 <= n <= sz"]))
    assert c.skipped == []
    assert holds(30, c.length["head"], {}) and not holds(31, c.length["head"], {})
    assert not holds(4, c.value["n"], {"head": [1, 2, 3]})
    c = parse_constraints(make("s: str", ["s contains only lowercase English letters."]))
    assert c.chars["s"] == "abcdefghijklmnopqrstuvwxyz"
    c = parse_constraints(make("grid: List[List[str]]", ["grid[i][j] is '0' or '1'."]))
    assert c.chars["grid"] == "01" and c.skipped == []
    c = parse_constraints(make("grid: List[List[int]]", ["grid[i][j] is either 0 or 1."]))
    assert c.choices["grid"] == [0, 1]
    c = parse_constraints(make("nums: List[int]", ["It is guaranteed that the answer fits in 32 bits."]))
    assert c.promises and c.skipped == []


def test_sorted_and_distinct_only_for_the_argument_they_are_said_of() -> None:
    c = parse_constraints(make("nums: List[int], target: int", ["1 <= nums.length <= 10"],
                               statement="Return the number of distinct sorted pairs."))
    assert c.sorted == set() and c.unique == set()
    c = parse_constraints(make("nums: List[int], k: int", [],
                               statement="Given an integer array nums sorted in non-decreasing order, do it."))
    assert c.sorted == {"nums"}


def test_a_size_name_with_an_offset() -> None:
    c = parse_constraints(make("nums: List[int]", ["1 <= n <= 10^5", "nums.length == n + 1"]))
    assert c.skipped == []
    assert holds(2, c.length["nums"], {}) and not holds(1, c.length["nums"], {})
    assert holds(10**5 + 1, c.length["nums"], {}) and not holds(10**5 + 2, c.length["nums"], {})


def test_a_list_of_item_names_is_not_an_ordered_pair() -> None:
    # "0 <= ai, bi < n" bounds both ends of each edge; it does not say ai <= bi
    c = parse_constraints(make("n: int, edges: List[List[int]]", ["0 <= ai, bi < n", "ai != bi"]))
    assert "edges" not in c.pair_sorted
    c = parse_constraints(make("intervals: List[List[int]]", ["0 <= starti <= endi <= 10^4"]))
    assert c.pair_sorted == {"intervals"}
