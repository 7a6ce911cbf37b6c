from __future__ import annotations

from pathlib import Path

from vibecode.clr.inputs import (
    edge_case_prompt,
    generate_inputs,
    parse_model_inputs,
    validate_input,
)
from vibecode.problems.literals import parse_value
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str) -> Problem:
    return parse_problem((EXAMPLES / name).read_text(encoding="utf-8"))


def make(sig: str, constraints: list[str], examples: str = "", statement: str = "Do it.") -> Problem:
    lines = "\n".join(f"- {c}" for c in constraints)
    return parse_problem(
        f"# T\n\n{statement}\n\n{examples}\n\nConstraints:\n{lines}\n\n"
        f"```python\nclass Solution:\n    def f(self, {sig}):\n```\n"
    )


def test_generated_inputs_are_valid_varied_and_small() -> None:
    for name in ["coin_change.md", "valid_parentheses.md", "merge_intervals.md", "longest_substring.md", "reverse_linked_list.md"]:
        problem = load(name)
        got = generate_inputs(problem)
        assert len(got.inputs) >= 5, (name, got.notes)
        assert got.source == "type"
        for args in got.inputs:
            assert validate_input(args, problem) == [], (name, args)
            assert len(repr(args)) < 4000
        assert generate_inputs(problem).inputs == got.inputs  # deterministic for a seed


def test_cases_cover_edges() -> None:
    rev = generate_inputs(load("reverse_linked_list.md")).inputs
    heads = [a["head"] for a in rev]
    assert [] in heads  # empty is allowed by the constraints
    assert any(len(h) == 1 for h in heads)
    assert any(len(h) > 1 and len(set(h)) == 1 for h in heads)  # duplicates
    assert any(min(h, default=0) == -5000 for h in heads)  # negatives at the bound
    assert any(max(h, default=0) == 5000 for h in heads)

    parens = generate_inputs(load("valid_parentheses.md")).inputs
    assert all(a["s"] and set(a["s"]) <= set("()[]{}") for a in parens)

    intervals = generate_inputs(load("merge_intervals.md")).inputs
    assert all(len(p) == 2 and p[0] <= p[1] for a in intervals for p in a["intervals"])


def test_a_promise_is_named_but_does_not_switch_generation_off() -> None:
    # issue 14: "Only one valid answer exists" used to turn generation off for the whole problem
    got = generate_inputs(load("two_sum.md"))
    assert got.inputs and any("promise" in n and "one valid answer" in n.lower() for n in got.notes)


def test_unknown_bounds_stay_within_the_examples() -> None:
    problem = make("nums: List[int], k: int", [], examples="Example 1:\nInput: nums = [3,5,1], k = 2\nOutput: 1")
    got = generate_inputs(problem)
    assert got.inputs
    for args in got.inputs:
        assert all(1 <= v <= 5 for v in args["nums"]) and len(args["nums"]) >= 1
        assert 2 <= args["k"] <= 2


def test_references_between_arguments() -> None:
    problem = make("nums: List[int], k: int", ["1 <= nums.length <= 50", "0 <= nums[i] <= 9", "1 <= k <= nums.length"])
    for args in generate_inputs(problem).inputs:
        assert 1 <= args["k"] <= len(args["nums"])  # type: ignore[arg-type]


def test_trees_and_bsts() -> None:
    problem = make("root: Optional[TreeNode]", ["The number of nodes in the tree is in the range [1, 30].", "-100 <= Node.val <= 100"],
                   statement="Given the root of a binary search tree, return its height.")
    trees = generate_inputs(problem).inputs
    assert trees
    for args in trees:
        values = args["root"]
        assert isinstance(values, list) and values[0] is not None and values[-1] is not None
        assert _is_bst(values)


def _is_bst(values: list) -> bool:
    nodes = [[v, None, None] if v is not None else None for v in values]
    queue, i = [nodes[0]], 1
    while queue and i < len(nodes):
        node = queue.pop(0)
        for side in (1, 2):
            if i < len(nodes):
                if nodes[i] is not None:
                    node[side] = nodes[i]
                    queue.append(nodes[i])
                i += 1

    def ok(node: list | None, lo: float, hi: float) -> bool:
        return node is None or (lo < node[0] < hi and ok(node[1], lo, node[0]) and ok(node[2], node[0], hi))

    return ok(nodes[0], float("-inf"), float("inf"))


def test_unsupported_types() -> None:
    problem = make("grid: Dict[str, int]", [])
    got = generate_inputs(problem)
    assert got.inputs == () and "Dict" in got.notes[0]


def test_parse_model_inputs_formats_and_validation() -> None:
    problem = make("nums: List[int], target: int", ["2 <= nums.length <= 10", "-10 <= nums[i] <= 10", "-20 <= target <= 20"])
    text = '''Here are some edge cases:
```json
{"nums": [1, 2], "target": 3}
{"nums": [1], "target": 3}
f([5, 5], 10)
f(nums=[0, 0], target=0)
nums = [-10, 10], target = 0
{"nums": [100, 2], "target": 3}
{"nums": [1, 2, 3], "target": null}
{"nums": [1, 2], "k": 3}
1. {"nums": [7, 7], "target": 14}  # duplicates
- Input: nums = [9, -9], target = 0
{"nums": [1, 2], "target": 3}
this line is prose
```'''
    got = parse_model_inputs(text, problem)
    assert got.source == "model"
    assert list(got.inputs) == [
        {"nums": [1, 2], "target": 3},
        {"nums": [5, 5], "target": 10},
        {"nums": [0, 0], "target": 0},
        {"nums": [-10, 10], "target": 0},
        {"nums": [7, 7], "target": 14},
        {"nums": [9, -9], "target": 0},
    ]
    notes = " | ".join(got.notes)
    assert "length 1" in notes and "value 100" in notes and "should be an integer" in notes and "`k`" in notes
    assert len(parse_model_inputs(text, problem, max_inputs=2).inputs) == 2


def test_edge_case_prompt_shows_the_format() -> None:
    problem = load("coin_change.md")
    prompt = edge_case_prompt(problem)
    assert "Coin Change" in prompt and "1 <= coins.length <= 12" in prompt
    assert "def coinChange" in prompt and "JSON object" in prompt
    sample = [line for line in prompt.splitlines() if line.startswith("{")]
    assert sample and parse_value(sample[0]) == {"coins": [1, 2, 5], "amount": 11}
    assert parse_model_inputs(sample[0], problem).inputs == ({"coins": [1, 2, 5], "amount": 11},)


def test_model_inputs_with_mixed_key_types() -> None:
    problem = parse_problem('def check(d: dict) -> bool:\n    """Keys.\n    >>> check({"a": 1})\n    True\n    """\n')
    got = parse_model_inputs('check({"a": 1, 8: 2})\ncheck({"a": 1, 8: 2})\n', problem)
    assert got.inputs == ({"d": {"a": 1, 8: 2}},)


def test_extremes_reach_the_32_bit_bounds_the_constraints_allow() -> None:
    # issue 14, cause 2: values were capped near ±10^4, so a bug at -2^31 was never run
    from vibecode.problems.statement import parse_problem

    problem = parse_problem(
        "# Max\n\nReturn the largest value.\n\n**Example 1:**\n\n**Input:** nums = [1,2]\n**Output:** 2\n\n"
        "**Constraints:**\n\n- 1 <= nums.length <= 10^5\n- -2^31 <= nums[i] <= 2^31 - 1\n\n"
        "```python\nclass Solution:\n    def maxValue(self, nums: List[int]) -> int:\n```\n"
    )
    got = generate_inputs(problem).inputs
    values = [v for a in got for v in a["nums"]]  # type: ignore[attr-defined]
    assert -(2**31) in values and 2**31 - 1 in values
    assert max(len(a["nums"]) for a in got) > 10  # type: ignore[arg-type]  # not only small sizes
    assert all(validate_input(a, problem) == [] for a in got)
