"""Bounds on the answer (problems.constraint_answers) on real statements, and how the scorer uses
them: a generated input on which every candidate that passes the examples answers beyond the bound
is no evidence; one that a candidate answers within it stays."""

from __future__ import annotations

from tests.clr.leetcode_real import real
from vibecode.clr.score import beyond_bounds, decide
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraint_answers import INT32, read_answer_bound
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraints import parse_constraints
from vibecode.types import CandidateEvidence


def test_real_answer_bounds_are_read() -> None:
    coin = real("coin_change_ii")  # in the description, with **guaranteed** in bold
    assert parse_constraints(coin).answer_bounds == [INT32]
    assert tiers_vouched(coin) is None  # the bound is applied, so it is no promise left unread
    assert parse_constraints(real("paint_fence")).answer_bounds == [(0, 2**31 - 1)]
    three = parse_constraints(real("three_sum_smaller"))
    assert three.answer_bounds == [(float("-inf"), 10**9)] and not three.promise_lines
    lisp = parse_constraints(real("parse_lisp_expression"))  # intermediate results cannot be seen
    assert any("intermediate" in line for line in lisp.promise_lines) and INT32 not in lisp.answer_bounds


def test_bound_wordings() -> None:
    def bound(line: str) -> list[tuple[float, float]]:
        c = Constraints()
        read_answer_bound(line, c)
        return c.answer_bounds
    assert bound("The answer is guaranteed to be less than 2^31.") == [(float("-inf"), 2**31 - 1)]
    assert bound("The answer for the given input will fit in a 32-bit integer.") == [INT32]
    assert bound("answer[i] is guaranteed to fit in a 32-bit integer.") == [INT32]
    assert bound("Every number and running calculation will fit in a signed 32-bit integer.") == []
    assert bound("The answer is unique.") == []


def _ev(index: int, behaviour: tuple[str, ...], passed: int = 2) -> CandidateEvidence:
    return CandidateEvidence(index, passed, 2, behaviour, ())


def test_inputs_answered_only_beyond_the_bound_are_dropped() -> None:
    assert beyond_bounds(["ok:5000000000", "ok:4999999999", "error"], [INT32])
    assert not beyond_bounds(["ok:5000000000", "ok:7"], [INT32])  # one answers within: a real disagreement
    assert not beyond_bounds(["error", "timeout"], [INT32]) and not beyond_bounds(["ok:[1, 2]"], [INT32])
    assert beyond_bounds(["ok:[1, 9999999999]"], [INT32])  # every number of the answer
    big = ("ok:1", "ok:2", "ok:3", "ok:4", "ok:5", "ok:6")
    right = (*big, "ok:12345678901")
    wrong = (*big, "ok:-1")  # a sentinel where the true answer overflows
    plain = decide([_ev(0, right), _ev(1, right), _ev(2, wrong)], k=3)
    assert plain.status == "plausible" and plain.contested_input == 6  # the overflow input contests
    bounded = decide([_ev(0, right), _ev(1, right), _ev(2, wrong)], k=3, answer_bounds=[INT32])
    assert bounded.contested_input == 6  # one candidate answers within the bound: the input stays
    both_beyond = (*big, "ok:12345678902")
    dropped = decide([_ev(0, right), _ev(1, right), _ev(2, both_beyond)], k=3, answer_bounds=[INT32])
    assert dropped.status == "verified" and dropped.contested_input is None
