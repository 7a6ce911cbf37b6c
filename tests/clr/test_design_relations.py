"""Calls checked and generated against the lines that bound them by the constructor's arguments
(issue 14), on the REAL rendered statements of dev-part problems: ``update(7, 1)`` after
``NumArray([1, 2, 3])`` is invalid and the message names the line; every generated sequence keeps
``index < len(nums)``; the package's hidden sequences stay valid."""

from __future__ import annotations

from functools import cache

from vibecode.clr.design_inputs import generate_design_inputs, validate_design_input
from vibecode.problems.design import ARGUMENTS, OPERATIONS, sequence_error
from vibecode.problems.leetcode_data import LeetCodeProblem, load_all, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem


@cache
def _corpus() -> dict[str, LeetCodeProblem]:
    return {lp.slug: lp for lp in load_all()}


def dev(slug: str) -> tuple[Problem, list[dict[str, object]]]:
    """The rendered statement and its hidden cases laid out as operation sequences."""
    lp = _corpus()[slug]
    assert lp.design and not lp.held_out  # built and tested on the dev part only
    p = parse_problem(render_markdown(lp))
    seqs = [{OPERATIONS: c[0], ARGUMENTS: c[1]} for c in hidden_cases(lp) if len(c) >= 2]
    return p, [s for s in seqs if sequence_error(p.signature, s[OPERATIONS], s[ARGUMENTS]) is None]


def calls(seq: dict[str, object]) -> list[tuple[str, list[int]]]:
    ops, args = seq[OPERATIONS], seq[ARGUMENTS]
    assert isinstance(ops, list) and isinstance(args, list)
    return list(zip(ops, args, strict=True))


def test_an_index_beyond_the_constructors_list_is_invalid_and_named() -> None:
    p, hidden = dev("range_sum_query_mutable")
    ok = {OPERATIONS: ["NumArray", "update", "sumRange"], ARGUMENTS: [[[1, 2, 3]], [2, 1], [0, 2]]}
    assert validate_design_input(ok, p) == []
    bad = validate_design_input({OPERATIONS: ["NumArray", "update"], ARGUMENTS: [[[1, 2, 3]], [7, 1]]}, p)
    assert len(bad) == 1 and bad[0].startswith("operation 1 `update`: breaks '0 <= index < nums.length'")
    assert "[[1, 2, 3]]" in bad[0]
    past = validate_design_input({OPERATIONS: ["NumArray", "sumRange"], ARGUMENTS: [[[1, 2, 3]], [1, 3]]}, p)
    assert len(past) == 1 and "0 <= left <= right < nums.length" in past[0]
    backwards = validate_design_input({OPERATIONS: ["NumArray", "sumRange"], ARGUMENTS: [[[1, 2, 3]], [2, 1]]}, p)
    assert len(backwards) == 1 and "left" in backwards[0]
    assert len(hidden) >= 5 and all(validate_design_input(s, p) == [] for s in hidden)


def test_generated_sequences_keep_the_index_within_the_constructors_list() -> None:
    p, _ = dev("range_sum_query_mutable")
    made = generate_design_inputs(p, seed=2, max_inputs=12).inputs
    assert len(made) >= 10  # a call that breaks the bound is drawn again, the sequence is kept
    updates = 0
    for seq in made:
        (_, (nums,)), *rest = calls(seq)
        for op, a in rest:
            if op == "update":
                updates += 1
                assert 0 <= a[0] < len(nums)  # type: ignore[arg-type]
            else:
                assert 0 <= a[0] <= a[1] < len(nums)  # type: ignore[arg-type]
        assert validate_design_input(seq, p) == []
    assert updates >= 12


def test_scalars_of_the_constructor_bound_the_generated_calls() -> None:
    seats, hidden = dev("seat_reservation_manager")
    assert validate_design_input({OPERATIONS: ["SeatManager", "unreserve"], ARGUMENTS: [[3], [4]]}, seats)
    assert all(validate_design_input(s, seats) == [] for s in hidden)
    for seq in generate_design_inputs(seats, seed=1, max_inputs=6).inputs:
        (_, (n,)), *rest = calls(seq)
        assert all(1 <= a[0] <= n for op, a in rest if op == "unreserve")
    board, hidden = dev("design_tic_tac_toe")
    assert validate_design_input({OPERATIONS: ["TicTacToe", "move"], ARGUMENTS: [[3], [0, 3, 1]]}, board)
    assert all(validate_design_input(s, board) == [] for s in hidden)
    made = generate_design_inputs(board, seed=1, max_inputs=6).inputs
    assert len(made) >= 5
    for seq in made:
        (_, (n,)), *rest = calls(seq)
        assert all(0 <= a[0] < n and 0 <= a[1] < n for _, a in rest)


def test_words_outside_the_constructors_list_are_invalid() -> None:
    p, _ = dev("shortest_word_distance_ii")
    words = [["practice", "makes", "perfect", "coding", "makes"]]
    assert validate_design_input({OPERATIONS: ["WordDistance", "shortest"], ARGUMENTS: [words, ["coding", "makes"]]}, p) == []
    bad = validate_design_input({OPERATIONS: ["WordDistance", "shortest"], ARGUMENTS: [words, ["coding", "java"]]}, p)
    assert len(bad) == 1 and "word1 and word2 are in" in bad[0]
    for seq in generate_design_inputs(p, seed=3, max_inputs=4).inputs:
        (_, (ws,)), *rest = calls(seq)
        assert all(a[0] in ws and a[1] in ws for _, a in rest)  # type: ignore[operator]
