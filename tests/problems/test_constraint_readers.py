"""Constraint lines of real statements that were skipped and are now read (issue 14: lines
understood), each on its rendered statement (tests/data/leetcode_constraints, dev part): the line
is understood, the package's hidden inputs satisfy the reading, and an input that breaks the line
is rejected."""

from __future__ import annotations

import json

from tests.problems.test_constraint_scope import DATA, real, understood
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem


def test_at_most_one_edge_between_two_nodes_of_an_undirected_graph() -> None:
    p, hidden = real("path_with_maximum_probability")
    understood(p, "There is at most one edge between every two nodes.")
    shown = hidden[0]
    assert validate_input(shown, p) == []
    edges = shown["edges"]
    assert isinstance(edges, list) and edges
    a, b = edges[0]
    twice = {**shown, "edges": [*edges, [b, a]], "succProb": [*shown["succProb"], 0.5]}  # type: ignore[list-item]
    assert any("at most one edge" in e for e in validate_input(twice, p))


def test_a_connected_graph_rejects_two_components() -> None:
    p, hidden = real("redundant_connection")
    understood(p, "The given graph is connected.")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert any("connected" in e for e in validate_input({"edges": [[1, 2], [3, 4], [4, 5], [3, 5]]}, p))


def test_a_design_class_named_solution_keeps_its_constructor() -> None:
    lp = from_json(json.loads((DATA / "shuffle_an_array.json").read_text(encoding="utf-8")))
    p = parse_problem(render_markdown(lp))  # class Solution: __init__(self, nums), reset(), shuffle()
    assert p.signature.design and [m.function for m in p.signature.methods] == ["__init__", "reset", "shuffle"]
    assert [prm.name for prm in p.signature.methods[0].params] == ["nums"]
    assert len(p.examples) == len(lp.examples) == 1
    understood(p, "1 <= nums.length <= 50", "-10^6 <= nums[i] <= 10^6")


def test_a_quoted_equals_sign_is_a_character_not_a_relation() -> None:
    p, hidden = real("solve_the_equation")
    c = parse_constraints(p)
    assert not any("'=='" in line for line, _ in c.skipped) and not any("'=='" in ch.line for ch in c.checks)
    assert all(validate_input(h, p) == [] for h in hidden)
    p, hidden = real("satisfiability_of_equality_equations")
    understood(p, "equations[i][1] is either '=' or '!'.", "equations[i][2] is '='.")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert validate_input({"equations": ["a==b", "b=!a"]}, p)


def test_a_range_up_to_the_number_of_unique_elements() -> None:
    p, hidden = real("top_k_frequent_elements")
    understood(p, "k is in the range [1, the number of unique elements in the array].")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert validate_input({"nums": [1, 1, 2], "k": 3}, p) and validate_input({"nums": [1, 1, 2], "k": 2}, p) == []


def test_either_or_between_two_arguments() -> None:
    p, hidden = real("powx_n")
    understood(p, "Either x is not zero or n > 0.")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert validate_input({"x": 0.0, "n": -2}, p) and validate_input({"x": 0.0, "n": 2}, p) == []


def test_a_column_named_distinct_by_its_plural() -> None:
    p, hidden = real("merge_two_2d_arrays_by_summing_values")  # nums1[i] = [idi, vali]: "Both arrays contain unique ids."
    understood(p, "Both arrays contain unique ids.")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert any("unique ids" in e for e in validate_input({"nums1": [[1, 2], [1, 3]], "nums2": [[2, 1]]}, p))


def test_an_answer_tolerance_is_read_when_the_comparison_honours_it() -> None:
    p, _ = real("design_underground_system", min_hidden=1)
    understood(p, "Answers within 10^-5 of the actual value will be accepted.")


def test_a_sorted_and_rotated_array_is_checked_as_one() -> None:
    p, hidden = real("find_minimum_in_rotated_sorted_array")
    understood(p, "nums is sorted and rotated between 1 and n times.")
    assert {"nums": [3, 4, 5, 1, 2]} in hidden
    assert validate_input({"nums": [-4, -7, -9]}, p)  # descending: no rotation of a sorted list
    for x in generate_inputs(p).inputs:  # the bug-seeking orders too
        nums = x["nums"]
        assert isinstance(nums, list)
        assert any(nums[i:] + nums[:i] == sorted(nums) for i in range(len(nums))), nums


def test_a_line_read_only_as_a_mark_the_examples_break_is_not_understood() -> None:
    # "unique" marks nums as distinct, which every example breaks (one element repeats n times):
    # the mark is dropped, and the line is listed, not counted as understood
    p, hidden = real("n_repeated_element_in_size_2n_array")
    line = "nums contains n + 1 unique elements and one of them is repeated exactly n times."
    c = parse_constraints(p)
    assert dict(c.skipped)[line] == "relation an example breaks" and "nums" not in c.unique
    assert all(validate_input(h, p) == [] for h in hidden)


def test_a_range_up_to_the_number_of_unique_words() -> None:
    p, hidden = real("top_k_frequent_words")
    understood(p, "k is in the range [1, The number of unique words[i]]")
    assert all(validate_input(h, p) == [] for h in hidden)
    assert validate_input({"words": ["a", "b", "a"], "k": 3}, p)
