"""Design-class lines that bound a method's arguments by the constructor's (issue 14), read on the
REAL rendered statements of dev-part problems: with the constructor's parameters as context they
are understood; a line on state the constructor does not hold stays skipped."""

from __future__ import annotations

from functools import cache

from vibecode.problems.constraint_design import context_problem, relation_lines, relation_understood
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import LeetCodeProblem, load_all, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem, Signature


@cache
def _corpus() -> dict[str, LeetCodeProblem]:
    return {lp.slug: lp for lp in load_all()}


def dev(slug: str) -> Problem:
    lp = _corpus()[slug]
    assert lp.design and not lp.held_out  # built and tested on the dev part only
    return parse_problem(render_markdown(lp))


def method(p: Problem, name: str) -> Signature:
    return next(m for m in p.signature.methods if m.function == name)


def skipped_lines(p: Problem) -> list[str]:
    return [line for line, _ in parse_constraints(p).skipped]


def test_index_and_range_against_the_constructors_list_are_understood() -> None:
    p = dev("range_sum_query_mutable")
    assert "0 <= index < nums.length" in p.constraints and "0 <= left <= right < nums.length" in p.constraints
    assert skipped_lines(p) == []
    assert relation_lines(p, method(p, "update")) == ["0 <= index < nums.length"]
    ctx = context_problem(p, method(p, "update"))
    assert ctx is not None and ctx.signature.arg_names == ("index", "val", "nums")
    reading = parse_constraints(ctx)
    assert reading.value["index"] == [(("num", 0, 0), None), (None, ("len", "nums", -1))]
    right = parse_constraints(context_problem(p, method(p, "sum_range")))  # type: ignore[arg-type]
    assert right.value["right"] == [(None, ("len", "nums", -1))] and right.value["left"][1] == (None, ("val", "right", 0))


def test_scalars_of_the_constructor_and_an_alias_bound_the_calls() -> None:
    seats = dev("seat_reservation_manager")
    assert "1 <= seatNumber <= n" in seats.constraints and skipped_lines(seats) == []
    board = dev("design_tic_tac_toe")
    assert "0 <= row, col < n" in board.constraints and "0 <= row, col < n" not in skipped_lines(board)
    tree = dev("operations_on_tree")  # n is the constructor's parent.length
    assert "0 <= num <= n - 1" in tree.constraints and skipped_lines(tree) == []
    assert relation_understood(tree, method(tree, "lock"), "0 <= num <= n - 1", parse_constraints)


def test_membership_in_the_constructors_list_is_understood() -> None:
    p = dev("shortest_word_distance_ii")
    assert "word1 and word2 are in wordsDict." in p.constraints and skipped_lines(p) == []


def test_rising_timestamps_are_read_and_lines_on_string_order_stay_skipped() -> None:
    store = dev("time_based_key_value_store")  # rising across calls: problems/constraint_order.py reads it
    assert "All the timestamps timestamp of set are strictly increasing." not in skipped_lines(store)
    excel = dev("design_excel_sum_formula")  # the checks compare numbers, not letters
    assert "1 <= row <= height" not in skipped_lines(excel)
    assert dict(parse_constraints(excel).skipped)["'A' <= column <= width"] == "relation across methods"
    assert not relation_understood(excel, method(excel, "get"), "'A' <= column <= width", parse_constraints)
