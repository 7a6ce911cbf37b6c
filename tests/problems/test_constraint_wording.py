"""Constraint lines in other wordings and design arguments rising across calls (issue 14: lines
understood). Real lines on their rendered statements (tests/data/leetcode_constraints, dev part);
other wordings of lines the readers know, on a real dev problem whose lines are replaced."""

from __future__ import annotations

import dataclasses
import itertools
import json

from tests.problems.test_constraint_design import real as real_design
from tests.problems.test_constraint_design import well_formed
from tests.problems.test_constraint_scope import DATA, real, understood
from vibecode.clr.design_inputs import generate_design_inputs, validate_design_input
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_names import tuple_columns
from vibecode.problems.constraint_order import rising
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraint_wording import read_wording, reworded
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.design import ARGUMENTS, OPERATIONS
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem


def _problem(slug: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))))


def _with_lines(p: Problem, *lines: str) -> Problem:
    return dataclasses.replace(p, constraints=lines)


def test_a_note_that_refers_to_another_problem_states_nothing() -> None:
    p = _problem("min_distance_in_bst")
    understood(p, "Note: This question is the same as 530: https://leetcode.com/problems/minimum-absolute-difference-in-bst/")
    assert parse_constraints(p).checks == [] or all("Note" not in ch.line for ch in parse_constraints(p).checks)


def test_other_wordings_of_distinct_sorted_and_non_empty() -> None:
    p = _problem("search_insert_position")  # nums: list[int] (distinct, sorted in the examples), target: int
    for line in ("There are no duplicates in nums.", "nums has no duplicates.", "nums does not contain any duplicates.",
                 "No two elements of nums are equal."):
        q = _with_lines(p, line)
        understood(q, line)
        assert "nums" in parse_constraints(q).unique
        assert validate_input({"nums": [1, 2, 3], "target": 2}, q) == [] and validate_input({"nums": [1, 1, 3], "target": 2}, q)
    lines = ("nums is strictly increasing.", "nums is non-empty.", "target is positive.", "nums[i] is a non-negative integer.",
             "target is at most 10.")
    q = _with_lines(p, *lines)
    understood(q, *lines)
    c = parse_constraints(q)
    assert "nums" in c.sorted
    assert validate_input({"nums": [1, 2, 3], "target": 2}, q, c) == []
    assert validate_input({"nums": [3, 2, 1], "target": 2}, q, c)  # not increasing
    assert validate_input({"nums": [], "target": 1}, q, c)  # empty
    assert validate_input({"nums": [1, 2, 3], "target": 0}, q, c)  # not positive
    assert validate_input({"nums": [1, 2, 3], "target": 11}, q, c)  # more than 10
    assert validate_input({"nums": [-1, 2, 3], "target": 1}, q, c)  # a negative item


def test_wordings_on_several_names_and_sets_in_braces() -> None:
    params = {"a": "int", "b": "int", "word1": "str", "word2": "str", "grid": "list", "nums": "list"}
    assert reworded("a and b are non-negative integers.", params) == "0 <= a, b"
    assert reworded("a is at most nums.length.", params) == "a <= nums.length"
    assert reworded("a is between 1 and b.", params) == "1 <= a <= b"
    assert reworded("a is in the range [1, the length of nums].", params) == "a is in the range [1, nums.length]"
    assert reworded("word1 and word2 are non-empty.", params) == "1 <= word1.length, word2.length"
    assert reworded("word1 and word2 have the same length.", params) == "word1.length == word2.length"
    assert reworded("word1 and word2 are different.", params) == "word1 != word2"
    assert reworded("grid[i][j] is in {0, 1, 2}.", params) == "grid[i][j] is one of 0, 1, or 2"
    assert reworded("All the values of nums are between 0 and 9.", params) == "0 <= nums[i] <= 9"
    assert reworded("s is composed of lowercase English letters.", {"s": "str"}) == "s consists of lowercase English letters."
    assert reworded("There are no duplicate roads.", {"roads": "list"}) == "There are no duplicate roads."  # the graph reader's
    assert reworded("a and b are non-negative integers.", {"a": "int"}) == "a and b are non-negative integers."  # b unknown


def test_palindrome_power_and_no_spaces_are_checks() -> None:
    params = {"s": "str", "words": "list", "n": "int", "nums": "list"}
    c = Constraints()
    for line in ("s is a palindrome.", "n is a power of 2.", "nums[i] is a power of three.", "words[i] contains no spaces."):
        assert read_wording(line, params, c), line
    palindrome, power2, power3, spaces = (ch.test for ch in c.checks)
    assert palindrome({"s": "abba"}) is True and palindrome({"s": "ab"}) is False
    assert power2({"n": 1}) is True and power2({"n": 64}) is True and power2({"n": 12}) is False and power2({"n": 0}) is False
    assert power3({"nums": [1, 3, 27]}) is True and power3({"nums": [3, 6]}) is False
    assert spaces({"words": ["ab", "cd"]}) is True and spaces({"words": ["a b"]}) is False
    assert not read_wording("s is a palindrome.", {"t": "str"}, c)  # names no argument
    assert not read_wording("n is a power of 1.", params, c)
    p = _problem("search_insert_position")  # a real problem's reading: an example that breaks the check drops it
    q = _with_lines(p, "target is a power of 2.", "nums[i] is a power of 2.")
    assert ("target is a power of 2.", "relation an example breaks") in parse_constraints(q).skipped  # target = 5
    assert ("nums[i] is a power of 2.", "relation an example breaks") in parse_constraints(q).skipped  # 3, 5, 6


def test_a_timestamp_rising_over_all_the_calls() -> None:
    p, hidden = real_design("design_hit_counter")
    line = "All the calls are being made to the system in chronological order (i.e., timestamp is monotonically increasing)."
    understood(p, line)
    r = rising(line, p.signature)
    assert r is not None and r.param == "timestamp" and set(r.methods) == {"hit", "get_hits"} and not r.strict
    seqs = well_formed(p, hidden)
    assert seqs and all(validate_design_input(s, p) == [] for s in seqs)
    back = {OPERATIONS: ["HitCounter", "hit", "get_hits", "hit"], ARGUMENTS: [[], [5], [5], [4]]}
    assert any("monotonically" in e for e in validate_design_input(back, p))
    made = generate_design_inputs(p, seed=3).inputs
    assert made
    for s in made:
        assert validate_design_input(s, p) == []
        ops, args = s[OPERATIONS], s[ARGUMENTS]
        assert isinstance(ops, list) and isinstance(args, list)
        stamps = [a[0] for a in args[1:]]
        assert stamps == sorted(stamps)


def test_strictly_rising_values_of_one_method_only() -> None:
    p, hidden = real_design("time_based_key_value_store")
    line = "All the timestamps timestamp of set are strictly increasing."
    understood(p, line)
    r = rising(line, p.signature)
    assert r is not None and r.methods == ("set",) and r.strict
    # the set calls rise strictly; a get may ask about any earlier time
    ok = {OPERATIONS: ["TimeMap", "set", "get", "set", "get"], ARGUMENTS: [[], ["a", "x", 2], ["a", 9], ["a", "y", 3], ["a", 1]]}
    assert validate_design_input(ok, p) == []
    same = {OPERATIONS: ["TimeMap", "set", "set"], ARGUMENTS: [[], ["a", "x", 2], ["b", "y", 2]]}
    assert any("strictly increasing" in e for e in validate_design_input(same, p))
    for s in generate_design_inputs(p, seed=5).inputs:
        ops, args = s[OPERATIONS], s[ARGUMENTS]
        assert isinstance(ops, list) and isinstance(args, list)
        sets = [a[2] for o, a in zip(ops, args, strict=True) if o == "set"]
        assert all(x < y for x, y in itertools.pairwise(sets))
    p, hidden = real_design("number_of_recent_calls")
    understood(p, "Each test case will call ping with strictly increasing values of t.")
    assert all(validate_design_input(s, p) == [] for s in well_formed(p, hidden))


def test_a_rising_line_the_hidden_data_breaks_is_listed_as_data() -> None:
    p, hidden = real_design("logger_rate_limiter")
    line = "Every timestamp will be passed in non-decreasing order (chronological order)."
    understood(p, line)
    bad = [e for s in well_formed(p, hidden) for e in validate_design_input(s, p)]
    breaks = json.loads((DATA / "data_breaks.json").read_text(encoding="utf-8"))["cases"]
    listed = [c["breaks"] for c in breaks if c["slug"] == "logger_rate_limiter"]
    assert bad and listed and all(any(b in e for b in listed) for e in bad)
    assert rising("1 <= timestamp <= 10^9", p.signature) is None


def test_a_design_line_names_a_parameter_by_a_word_of_its_name() -> None:
    p, hidden = real_design("my_calendar_ii")  # book(start_time, end_time)
    understood(p, "0 <= start < end <= 10^9")
    seqs = well_formed(p, hidden)
    assert seqs and all(validate_design_input(s, p) == [] for s in seqs)
    assert validate_design_input({OPERATIONS: ["MyCalendarTwo", "book"], ARGUMENTS: [[], [10, 20]]}, p) == []
    assert validate_design_input({OPERATIONS: ["MyCalendarTwo", "book"], ARGUMENTS: [[], [20, 10]]}, p)  # start < end
    assert validate_design_input({OPERATIONS: ["MyCalendarTwo", "book"], ARGUMENTS: [[], [-1, 10]]}, p)  # 0 <= start
    p, _ = real_design("lru_cache")  # get(key), put(key, value): "key" is a whole name, nothing to shorten
    assert all(validate_design_input(s, p) == [] for s in well_formed(p, _))


def test_columns_named_by_a_tuple_of_new_names() -> None:
    p, hidden = real("bricks_falling_when_hit")  # the statement says hits[i] = (rowi, coli)
    understood(p, "0 <= x_i <= m - 1", "0 <= y_i <= n - 1", "All (x_i, y_i) are unique.")
    assert all(validate_input(h, p) == [] for h in hidden)
    grid = [[1, 0, 0], [1, 1, 0]]
    assert validate_input({"grid": grid, "hits": [[1, 2], [0, 0]]}, p) == []
    assert validate_input({"grid": grid, "hits": [[2, 0]]}, p)  # x_i <= m - 1
    assert validate_input({"grid": grid, "hits": [[0, 3]]}, p)  # y_i <= n - 1
    assert validate_input({"grid": grid, "hits": [[1, 1], [1, 1]]}, p)  # the pairs unique
    assert tuple_columns(["edges[i].length == 2", "0 <= a_i, b_i < n"], {"edges": "list"}, {}) == {
        "a_i": ("edges", 0), "b_i": ("edges", 1)}  # a bare list of new names, never bound elsewhere
    assert tuple_columns(["edges[i].length == 3", "0 <= a_i, b_i < n"], {"edges": "list"}, {}) == {}  # 2 names, rows of 3
    assert tuple_columns(["a[i].length == 2", "b[i].length == 2", "All (x_i, y_i) are unique."],
                         {"a": "list", "b": "list"}, {}) == {}  # two lists of pairs: whose?


def test_columns_named_by_a_bare_list_of_new_names() -> None:
    # the statement never says edges[i] = [ai, bi]; the data breaks three of its lines (data_breaks.json)
    breaks = ("breaks 'ai != bi'", "edges has length 0", "n has value 0")
    p, hidden = real("number_of_connected_components_in_an_undirected_graph", data_breaks=breaks)
    understood(p, "0 <= ai, bi < n", "ai != bi")
    assert [h for h in hidden if any("ai != bi" in b for b in validate_input(h, p))] == [
        {"n": 5, "edges": [[0, 1], [2, 3], [4, 4]]}]  # the one self-loop
    assert validate_input({"n": 3, "edges": [[0, 1], [1, 2]]}, p) == []
    assert validate_input({"n": 3, "edges": [[0, 3]]}, p)  # bi < n
    assert validate_input({"n": 3, "edges": [[1, 1]]}, p)  # ai != bi
