"""Examples moved a step or two (``clr.inputs_bugs_moves``; issue 14, held-out 126-150 examined on
2026-12-07): real LeetCode statements in their rendered form, a hand-written wrong answer of a bug
class that agrees with a correct answer on the examples and on the inputs made without the
bug-seeking strategies (``bugs=0``), and is told apart only by an example moved: random inputs of
these problems nearly always answer "no". Both answers run in the real harness; every generated
input keeps the parsed constraints."""

from __future__ import annotations

import random

from tests.clr.leetcode_real import caught_by_bug_inputs, real
from vibecode.clr import inputs_tiers
from vibecode.clr.inputs_bugs_moves import moves, walk, whole
from vibecode.clr.inputs_check import key
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraints import parse_constraints

# memoised search over whole rows: right
PYRAMID_RIGHT = """
from functools import lru_cache
from itertools import product
class Solution:
    def pyramid_transition(self, bottom: str, allowed: list[str]) -> bool:
        tops: dict[str, list[str]] = {}
        for a in allowed:
            tops.setdefault(a[:2], []).append(a[2])
        @lru_cache(maxsize=None)
        def up(row: str) -> bool:
            if len(row) == 1:
                return True
            options = [tops.get(row[i:i + 2], []) for i in range(len(row) - 1)]
            return any(up("".join(p)) for p in product(*options))
        return up(bottom)
"""
# the first allowed block for each pair, never another: right whenever each pair has one block
PYRAMID_GREEDY = """
class Solution:
    def pyramid_transition(self, bottom: str, allowed: list[str]) -> bool:
        first: dict[str, str] = {}
        for a in allowed:
            first.setdefault(a[:2], a[2])
        row = bottom
        while len(row) > 1:
            if any(row[i:i + 2] not in first for i in range(len(row) - 1)):
                return False
            row = "".join(first[row[i:i + 2]] for i in range(len(row) - 1))
        return True
"""

MAGIC_RIGHT = """
class Solution:
    def num_magic_squares_inside(self, grid: list[list[int]]) -> int:
        def magic(r: int, c: int) -> bool:
            w = [grid[r + i][c + j] for i in range(3) for j in range(3)]
            if sorted(w) != list(range(1, 10)):
                return False
            rows = [sum(w[3 * i:3 * i + 3]) for i in range(3)]
            cols = [sum(w[j::3]) for j in range(3)]
            return set(rows + cols + [w[0] + w[4] + w[8], w[2] + w[4] + w[6]]) == {15}
        return sum(magic(r, c) for r in range(len(grid) - 2) for c in range(len(grid[0]) - 2))
"""
# the windows that start in the last possible column are never looked at
MAGIC_LAST_COLUMN = MAGIC_RIGHT.replace("range(len(grid[0]) - 2)", "range(len(grid[0]) - 3)")
# nine distinct numbers with equal sums, not necessarily 1..9 (a square shifted by one passes)
MAGIC_SHIFTED = MAGIC_RIGHT.replace("if sorted(w) != list(range(1, 10)):",
                                    "if len(set(w)) != 9:").replace("== {15}", "== {sum(w) // 3}")


def test_a_greedy_that_never_backtracks_is_caught_by_a_reordered_allowed_list() -> None:
    problem = real("pyramid_transition")
    assert tiers_vouched(problem) is None  # the letters' set is read, so vibecode's inputs are vouched for
    caught = caught_by_bug_inputs(problem, PYRAMID_RIGHT, PYRAMID_GREEDY)
    assert caught, "no moved example told the greedy from the search"


def test_magic_squares_in_the_last_columns_and_shifted_by_one_are_made() -> None:
    problem = real("magic_squares_in_grid")
    assert caught_by_bug_inputs(problem, MAGIC_RIGHT, MAGIC_LAST_COLUMN)
    assert caught_by_bug_inputs(problem, MAGIC_RIGHT, MAGIC_SHIFTED)


def test_whole_moves_mirror_grids_step_values_and_reverse_same_length_arguments_together() -> None:
    grid: dict[str, object] = {"grid": [[4, 3, 8], [9, 5, 1]]}
    made = [m["grid"] for m in whole(grid, ["grid"])]
    assert [[9, 5, 1], [4, 3, 8]] in made  # rows reversed
    assert [[8, 3, 4], [1, 5, 9]] in made  # every row mirrored
    assert [[5, 4, 9], [10, 6, 2]] in made and [[3, 2, 7], [8, 4, 0]] in made  # every value +1, -1
    pair = whole({"start": "RXL", "result": "XRL"}, ["start", "result"])
    assert {"start": "LXR", "result": "LRX"} in pair  # both mirrored at once keep the letters' order


def test_walks_keep_grid_rows_one_length_and_are_seeded() -> None:
    args: dict[str, object] = {"grid": [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "k": 2}
    for seed in range(200):
        made = walk(args, ["grid", "k"], 3, random.Random(seed))
        assert made is not None
        rows = made["grid"]
        assert isinstance(rows, list) and len({len(r) for r in rows}) == 1
        assert made == walk(args, ["grid", "k"], 3, random.Random(seed))
    assert args == {"grid": [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "k": 2}  # the example itself is left alone


def test_moved_examples_are_never_the_examples_and_design_classes_get_none() -> None:
    problem = real("magic_squares_in_grid")
    examples = {key(e.inputs) for e in problem.examples}
    made = moves(problem)
    assert made and not examples & {key(m) for m in made}
    assert len({key(m) for m in made}) == len(made)
    assert moves(real("min_stack")) == []


def test_moved_examples_join_only_where_vibecodes_inputs_are_vouched_for() -> None:
    vouched = real("magic_squares_in_grid")
    out: dict[str, tuple[dict[str, object], str]] = {}
    inputs_tiers._moves(vouched, parse_constraints(vouched), out)
    assert len(out) == inputs_tiers.MOVED and {t for _, t in out.values()} == {"edge"}
    assert {k for k in out} <= {key(m) for m in moves(vouched)}
    unvouched = real("two_sum")  # "exactly one solution": a moved example may have none, or two
    assert tiers_vouched(unvouched) is not None and moves(unvouched)
    out = {}
    inputs_tiers._moves(unvouched, parse_constraints(unvouched), out)
    assert out == {}


def test_a_set_of_letters_is_read_as_those_letters_only() -> None:
    c = parse_constraints(real("k_similarity"))
    assert c.chars == {"s1": "abcdef", "s2": "abcdef"}  # not every lowercase letter
    c = parse_constraints(real("pyramid_transition"))
    assert c.chars["bottom"] == "ABCDEF" and c.chars["allowed"] == "ABCDEF" and not c.skipped


def test_walks_never_change_the_length_of_a_grid_cell() -> None:
    # lonely_pixel_ii (dev): a walk repeated a character inside a cell, [["W", "WW", "B"], ...];
    # "picture[i][j] is 'W' or 'B'" reads as the characters W and B, so the validator kept it,
    # one correct answer crashed on it and the oracle's verdict rejected every cluster
    args: dict[str, object] = {"picture": [["W", "W", "B"], ["W", "W", "B"], ["W", "W", "B"]], "target": 1}
    made = [m for seed in range(300) if (m := walk(args, ["picture", "target"], 3, random.Random(seed))) is not None]
    assert len(made) > 250  # a walk whose every draw did not apply gives none
    for m in made + moves(real("lonely_pixel_ii")):
        rows = m["picture"]
        assert isinstance(rows, list) and all(isinstance(r, list) and all(len(x) == 1 for x in r) for r in rows)


def test_a_single_column_grid_of_characters_keeps_one_character_cells_and_no_op_moves_do_not_count() -> None:
    def cells(m: dict[str, object], name: str) -> list[object]:
        rows = m[name]
        assert isinstance(rows, list)
        return [x for r in rows for x in (r if isinstance(r, list) else [r])]
    grid: dict[str, object] = {"picture": [["W"], ["B"], ["W"]]}
    made = [m for seed in range(300) if (m := walk(grid, ["picture"], 2, random.Random(seed))) is not None]
    assert made and all(len(str(x)) == 1 for m in made for x in cells(m, "picture"))
    words: dict[str, object] = {"words": ["ab", "cd"]}  # one length: a grid of letters, not free text
    made = [m for seed in range(200) if (m := walk(words, ["words"], 2, random.Random(seed))) is not None]
    assert made and all(len(str(w)) == 2 for m in made for w in cells(m, "words"))
    same: dict[str, object] = {"names": ["x", "x", "x"]}  # every move but a drop leaves it as it is
    made = [m for seed in range(100) if (m := walk(same, ["names"], 1, random.Random(seed))) is not None]
    assert made and all(m["names"] in (["x", "x"], ["x", "x", "x", "x"]) for m in made)
